"""Seeded mutations of text, CSV, YAML and JSON inputs. Each returns the new file content as
bytes, so encodings, byte-order marks and truncation can be mutated too."""

from __future__ import annotations

import csv
import io
import json
import random

import yaml

ODD_VALUES = ("", " ", "x", "-1", "0", "1e999", "nan", "3,5", "é", "a;b", "a|b", '"', "'", "\t",
              "{{", "}}", "[", "]", "&", "|", "!=", "=", "null", "true", "日本", "x" * 500, "\x00", "\u202e")


def text_mutation(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """A mutation that ignores the format: lines, bytes, encodings, line ends."""
    lines = data.split(b"\n")
    choice = rng.randrange(16)
    if choice == 0:
        return "empty file", b""
    if choice == 1:
        return "truncated", data[:rng.randrange(max(len(data), 1))]
    if choice == 2:
        return "BOM", b"\xef\xbb\xbf" + data
    if choice == 3:
        return "CRLF", data.replace(b"\n", b"\r\n")
    if choice == 4:
        return "latin-1", data.decode("utf-8", "replace").encode("latin-1", "replace")
    if choice == 5:
        return "utf-16", data.decode("utf-8", "replace").encode("utf-16")
    if choice == 6 and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
        return "line deleted", b"\n".join(lines)
    if choice == 7:
        k = rng.randrange(len(lines))
        lines.insert(k, lines[k])
        return "line duplicated", b"\n".join(lines)
    if choice == 8:
        k = rng.randrange(len(lines))
        lines.insert(k, b"x" * rng.choice((10_000, 1_000_000)))
        return "huge line", b"\n".join(lines)
    if choice == 9:
        k = rng.randrange(len(data) + 1)
        return "NUL byte", data[:k] + b"\x00" + data[k:]
    if choice == 10:
        k = rng.randrange(len(data) + 1)
        return "random bytes", data[:k] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20))) + data[k:]
    if choice == 11 and len(lines) > 2:
        a, b = rng.sample(range(len(lines)), 2)
        lines[a], lines[b] = lines[b], lines[a]
        return "lines swapped", b"\n".join(lines)
    if choice == 12:
        return "only header", b"\n".join(lines[:1]) + b"\n"
    if choice == 13:
        k = rng.randrange(len(data) + 1)
        return "stray quote", data[:k] + b'"' + data[k:]
    if choice == 14:
        return "CR only", data.replace(b"\n", b"\r")
    return "trailing garbage", data + b"\n" + rng.choice((b"\xff\xfe", b"}", b"---", b",,,,", b"\t\t"))


def csv_mutation(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """A mutation of one CSV file: cells, quoting, headers."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    if len(rows) < 2:
        return text_mutation(rng, data)
    choice = rng.randrange(9)
    r = rng.randrange(1, len(rows))
    c = rng.randrange(len(rows[r])) if rows[r] else 0
    what = "cell"
    if choice <= 3 and rows[r]:
        rows[r][c] = rng.choice(ODD_VALUES)
        what = f"cell {c} of row {r + 1} set"
    elif choice == 4 and rows[r]:
        rows[r][c] = rows[rng.randrange(1, len(rows))][rng.randrange(len(rows[r]))]
        what = "cell copied from another row"
    elif choice == 5:
        rows[0].append(rng.choice(rows[0]))
        what = "duplicate header column"
    elif choice == 6:
        rows[r] = rows[r][:-1] if rng.random() < 0.5 else rows[r] + ["extra"]
        what = "row length changed"
    elif choice == 7:
        h = rng.randrange(len(rows[0]))
        rows[0][h] = rng.choice(("", "Lemma", " lemma ", "unknown", rows[0][h].upper()))
        what = "header renamed"
    else:
        rows.insert(r, list(rows[r]))
        what = "row duplicated"
    out = io.StringIO()
    quoting = rng.choice((csv.QUOTE_MINIMAL, csv.QUOTE_MINIMAL, csv.QUOTE_ALL))
    csv.writer(out, lineterminator="\n", quoting=quoting).writerows(rows)
    return what, out.getvalue().encode("utf-8")


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for p in path:
        node = node[p]
    return node


JINJA_BREAKS = ("{{ esubj | npx }}", "{{ esubj | np(", "{{ nosuch }}", "{{ esubj.nofeature }}", "{% if %}",
                "{% for x in y %}", "[nosuch: x]", "[subject: ", "]", "{{ 1/0 }}", "{{ esubj | verb('pres_ind', 'zz') }}",
                "{{ esubj | verb('nosuchtense', '3sg') }}", "{{ esubj | prep }}", "{{ range(10**9) | list }}",
                "{{ object | which('du') }}", "{{ esubj | np | np }}", "{% raw %}", "{#", "outside", "{{ x(1) }}")
FORMULA_BREAKS = ("roles=", "=x", "classes!=", "zipf>=abc", "(roles=bridge)", "roles=bridge &", "| roles=x",
                  "{nosuch.gender}", "{esubj.nofeature}=m", "a=b=c", "zipf>=1e999", "classes=human&", "&&", "")


def yaml_mutation(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """A structural mutation of a paradigm file: keys, types, formulas, templates, variants."""
    try:
        doc = yaml.safe_load(data.decode("utf-8"))
    except yaml.YAMLError:
        return text_mutation(rng, data)
    paths = [p for p in _paths(doc) if p]
    if not paths:
        return text_mutation(rng, data)
    choice = rng.randrange(8)
    strings = [p for p in paths if isinstance(_get(doc, p), str)]
    if choice <= 1 and strings:   # a Jinja2 expression or a region mark broken inside a template
        p = rng.choice(strings)
        text = _get(doc, p)
        k = rng.randrange(len(text) + 1)
        _get(doc, p[:-1])[p[-1]] = text[:k] + rng.choice(JINJA_BREAKS) + text[k:]
        what = f"template {'.'.join(map(str, p))}"
    elif choice == 2 and strings:   # a filler / filter renamed
        p = rng.choice(strings)
        text = _get(doc, p)
        for old, new in (("| np", "| npx"), ("| verb", "| verbs"), ("perfect(", "perfectt("), ("[subject:", "[subj:"),
                         ("roles=", "role="), ("=", "!="), ("{{", "{"), ("}}", "}")):
            if old in text:
                text = text.replace(old, new, 1)
                break
        _get(doc, p[:-1])[p[-1]] = text
        what = f"renamed in {'.'.join(map(str, p))}"
    elif choice == 3 and strings:
        p = rng.choice(strings)
        _get(doc, p[:-1])[p[-1]] = rng.choice(FORMULA_BREAKS)
        what = f"formula {'.'.join(map(str, p))}"
    elif choice == 4:   # delete a key
        p = rng.choice(paths)
        parent = _get(doc, p[:-1])
        del parent[p[-1]]
        what = f"deleted {'.'.join(map(str, p))}"
    elif choice == 5:   # change a value's type
        p = rng.choice(paths)
        _get(doc, p[:-1])[p[-1]] = rng.choice((None, 0, -3, 1.5, True, [], {}, [1, 2], {"x": 1}, "", "sample"))
        what = f"type of {'.'.join(map(str, p))}"
    elif choice == 6:   # an unknown key
        p = rng.choice([q for q in paths if isinstance(_get(doc, q), dict)] or [()])
        _get(doc, p)[rng.choice(("extra", "tabel", "levels", "default", "where", "slots", "extends"))] = \
            rng.choice(("x", None, {"a": 1}, ["whether_island"], "whether_island"))
        what = f"key added under {'.'.join(map(str, p)) or 'top'}"
    else:
        return text_mutation(rng, data)
    return what, yaml.safe_dump(doc, allow_unicode=True, sort_keys=False).encode("utf-8")


def json_value_mutation(rng: random.Random, obj):
    """A mutated copy of a JSON value (one change somewhere inside)."""
    obj = json.loads(json.dumps(obj))
    paths = [p for p in _paths(obj) if p]
    if not paths:
        return rng.choice((None, 1, "x", [], {}))
    p = rng.choice(paths)
    parent = _get(obj, p[:-1])
    choice = rng.randrange(4)
    if choice == 0:
        del parent[p[-1]]
    elif choice == 1:
        parent[p[-1]] = rng.choice((None, 0, -1, 10**20, 1.5, "", "x", [], {}, [1], {"a": 1}, True, "é" * 1000))
    elif choice == 2 and isinstance(parent, dict):
        parent[rng.choice(("extra", "item_id", "text", "conditions", "words"))] = rng.choice((None, 1, "x", []))
    elif isinstance(_get(obj, p), str):
        parent[p[-1]] = _get(obj, p)[: rng.randrange(len(_get(obj, p)) + 1)]
    else:
        parent[p[-1]] = [parent[p[-1]]]
    return obj
