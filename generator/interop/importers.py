"""Import hand-written suites into SUITE_FORMAT.md.

Two input formats (docs/interop.md):
- `jsonl`: one item per line with the four condition keys at top level (any casing,
  spaces or hyphens: `Short_NonIsland`, `long island`; `sentence_bad` is read as
  long_island), or the whole file / a line wrapped as {"sentences": [...]};
- `csv`: long format, one sentence per row: island type; clause type; condition 1;
  condition 2; item number; sentence (`;`, `,` or tab separated, with or without header).

Texts are normalised: curly apostrophes become ', a leading `*` (the violation mark) is
dropped, runs of whitespace become one space. Words are split orthographically
(generator.words), `additive` and the residual are computed, long_island is the one
ungrammatical condition. Regions are not inferred: every sentence has an empty region
list, so region-based measures and exports treat it as one whole-sentence region."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from generator import __version__
from generator.interop.common import InteropError, dump_json, sha256_file
from generator.suite import CONDITIONS, Item, Sentence, dumps_item
from generator.words import condition_residual, word_spans, words

FORMATS = ("jsonl", "csv")
PARADIGMS = ("whether_island", "complex_np_island", "subject_island",
             "adjunct_island_conditional", "adjunct_island_temporal")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'"})
_META_KEYS = {"islandtype", "island", "type", "paradigm", "phenomenon", "item", "itemid",
              "itemnumber", "id", "number", "n", "clausetype", "dependency", "notes", "note",
              "comment", "comments", "source"}
_TEMPORAL = {"dopo", "prima", "quando", "mentre", "appena", "finché"}


@dataclass
class Normalisations:
    curly_apostrophes: int = 0
    violation_marks: int = 0
    whitespace: int = 0

    def text(self, raw: str) -> str:
        out = raw.translate(_APOSTROPHES)
        self.curly_apostrophes += sum(raw.count(c) for c in "’‘ʼ`")
        out = out.strip()
        if out.startswith("*"):
            out = out.lstrip("*").strip()
            self.violation_marks += 1
        collapsed = " ".join(out.split())
        self.whitespace += collapsed != out
        return collapsed


@dataclass
class _Group:
    where: str  # "file:line" of its first sentence, for messages
    label: str  # island type as written
    dependency: str
    number: str
    variant: dict[str, str]
    texts: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


# ---- shared mapping of labels ------------------------------------------------------------

def _compact(value: Any) -> str:
    return re.sub(r"[^a-z]", "", str(value).lower())


def condition_key(key: str) -> str | None:
    """The condition a key or value names, e.g. 'Short NonIsland' -> short_nonisland."""
    compact = _compact(key)
    if compact == "sentencebad":
        return "long_island"
    match = re.fullmatch(r"(short|long)(nonisland|island)|(nonisland|island)(short|long)", compact)
    if not match:
        return None
    length = match.group(1) or match.group(4)
    structure = match.group(2) or match.group(3)
    return f"{length}_{structure}"


def _looks_like_condition(key: str) -> bool:
    compact = _compact(key)
    return compact not in _META_KEYS and any(w in compact for w in ("short", "long", "island", "sentence"))


def paradigm_for(label: str, texts: dict[str, str], where: str) -> str:
    """Our paradigm name for an island type written in the literature's materials."""
    tokens = set(re.split(r"[^a-z]+", label.lower())) - {""}
    compact_label = "_".join(t for t in re.split(r"[^a-z]+", label.lower()) if t)
    if compact_label in PARADIGMS:
        return compact_label
    if tokens & {"whether", "se"}:
        return "whether_island"
    if tokens & {"complex", "cnp", "np"}:
        return "complex_np_island"
    if tokens & {"subject", "subj", "soggetto"}:
        return "subject_island"
    if tokens & {"adjunct", "aggiunto"}:
        if tokens & {"temporal", "temporale", "time", "when", "after", "before"}:
            return "adjunct_island_temporal"
        if tokens & {"conditional", "condizionale", "if"}:
            return "adjunct_island_conditional"
        island_words = {w.lower() for w in words(texts.get("long_island", "")) + words(texts.get("short_island", ""))}
        if island_words & _TEMPORAL:
            return "adjunct_island_temporal"
        if "se" in island_words:
            return "adjunct_island_conditional"
        raise InteropError(f"{where}: adjunct island {label!r}: cannot tell conditional (se) from temporal "
                           "(dopo che, prima che, quando, mentre); pass --paradigm")
    if tokens & {"wh", "whisland"}:
        return "whether_island"
    raise InteropError(f"{where}: unknown island type {label!r} (expected whether/wh, complex NP, subject, "
                       "adjunct); pass --paradigm")


def _dependency(label: str) -> str:
    tokens = set(re.split(r"[^a-z]+", str(label).lower()))
    return "rc" if tokens & {"rc", "relative", "relativa", "relativo"} else "wh"


def _paradigm_name(base: str, dependency: str) -> str:
    return base if dependency == "wh" else f"{base}_{dependency}"


# ---- JSONL ---------------------------------------------------------------------------------

def _json_records(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    """(line, record) for a JSONL file, a JSON list, or {"sentences": [...]} (file or line)."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, list):
        yield from _array_elements(text, text.index("[") + 1)
        return
    if isinstance(whole, dict):
        if isinstance(whole.get("sentences"), list):
            yield from _array_elements(text, re.search(r'"sentences"\s*:\s*\[', text).end())
        else:
            yield 1, whole
        return
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InteropError(f"{path}:{line_no}: not valid JSON ({exc.msg})") from exc
        if isinstance(record, dict) and isinstance(record.get("sentences"), list):
            for inner in record["sentences"]:
                yield line_no, inner
        else:
            yield line_no, record


def _array_elements(text: str, pos: int) -> Iterator[tuple[int, Any]]:
    decoder = json.JSONDecoder()
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return
        record, end = decoder.raw_decode(text, pos)
        yield text.count("\n", 0, pos) + 1, record
        pos = end


def _read_jsonl(path: Path, text: str, norm: Normalisations) -> list[_Group]:
    groups = []
    for index, (line_no, record) in enumerate(_json_records(path, text), start=1):
        where = f"{path}:{line_no}"
        if not isinstance(record, dict):
            raise InteropError(f"{where}: expected an object with the four condition keys")
        texts: dict[str, str] = {}
        label = dependency = number = None
        for key, value in record.items():
            compact = _compact(key)
            condition = condition_key(key)
            if condition is not None:
                if condition in texts:
                    raise InteropError(f"{where}: condition {condition} given twice")
                if isinstance(value, dict):
                    value = value.get("text", value.get("sentence"))
                if not isinstance(value, str) or not value.strip():
                    raise InteropError(f"{where}: condition key {key!r} has no sentence text")
                texts[condition] = norm.text(value)
            elif compact in {"islandtype", "island", "type", "paradigm", "phenomenon"}:
                label = str(value)
            elif compact in {"clausetype", "dependency"}:
                dependency = _dependency(value)
            elif compact in {"item", "itemid", "itemnumber", "id", "number", "n"}:
                number = str(value)
            elif _looks_like_condition(key):
                raise InteropError(f"{where}: unknown condition key {key!r} "
                                   f"(expected {', '.join(CONDITIONS)})")
        missing = [c for c in CONDITIONS if c not in texts]
        if missing:
            raise InteropError(f"{where}: missing condition {', '.join(missing)}")
        group = _Group(where, label or "", dependency or _dependency(label or ""), number or str(index), {})
        group.texts = texts
        groups.append(group)
    if not groups:
        raise InteropError(f"{path}: no items in this file")
    return groups


# ---- CSV long format ------------------------------------------------------------------------

_COLUMNS = {
    "island": {"islandtype", "island", "type", "phenomenon", "paradigm"},
    "clause": {"clausetype", "clause", "dependency"},
    "cond1": {"condition", "conditiona", "cond", "conda", "c"},
    "cond2": {"conditionb", "condb"},
    "item": {"itemnumber", "item", "itemno", "itemid", "itemn", "number", "n"},
    "sentence": {"sentence", "text", "stimulus", "frase", "sentences"},
}
_POSITIONAL = {6: ("island", "clause", "cond1", "cond2", "item", "sentence"),
               5: ("island", "cond1", "cond2", "item", "sentence")}
_LENGTH = {"short": "short", "matrix": "short", "corto": "short", "corta": "short", "breve": "short",
           "long": "long", "embedded": "long", "lungo": "long", "lunga": "long"}
_STRUCTURE = {"nonisland": "nonisland", "noisland": "nonisland", "control": "nonisland",
              "nonisola": "nonisland", "island": "island", "isola": "island"}


def _header_key(cell: str) -> str | None:
    compact = re.sub(r"[^a-z0-9]", "", cell.lower())
    if compact in {"condition1", "cond1", "c1"}:
        return "cond1"
    if compact in {"condition2", "cond2", "c2"}:
        return "cond2"
    letters = _compact(cell)
    for column, names in _COLUMNS.items():
        if letters in names:
            return column
    return None


def _sniff_delimiter(path: Path, text: str) -> str:
    sample = [line for line in text.splitlines() if line.strip()][:20]
    for delimiter in (";", "\t", ","):
        counts = {len(row) for row in csv.reader(sample, delimiter=delimiter)}
        if len(counts) == 1 and counts.pop() >= 5:
            return delimiter
    raise InteropError(f"{path}:1: cannot tell the separator: expected ';', tab or ',' separated columns "
                       "(island type; clause type; condition 1; condition 2; item number; sentence)")


def _factors(values: list[tuple[str, str]], where: str) -> tuple[str, str, str | None]:
    """(length, structure, clause type) from the clause/condition cells of one row."""
    length = structure = clause = None
    for column, value in values:
        compact = _compact(value)
        found: list[tuple[str, str]] = []
        both = condition_key(value)
        if both:
            found = [("length", both.split("_")[0]), ("structure", both.split("_")[1])]
        elif compact in _LENGTH:
            found = [("length", _LENGTH[compact])]
        elif compact in _STRUCTURE:
            found = [("structure", _STRUCTURE[compact])]
        elif column == "clause":
            clause = value.strip()
            continue
        elif not compact:
            continue
        else:
            raise InteropError(f"{where}: cannot map condition value {value!r} "
                               "(expected short/long and non-island/island)")
        for factor, level in found:
            current = length if factor == "length" else structure
            if current is not None and current != level:
                raise InteropError(f"{where}: conflicting {factor} values in one row ({current} and {level})")
            if factor == "length":
                length = level
            else:
                structure = level
    if length is None or structure is None:
        missing = "short/long" if length is None else "non-island/island"
        raise InteropError(f"{where}: no {missing} value in the condition columns")
    return length, structure, clause


def _read_csv(path: Path, text: str, norm: Normalisations, paradigm: str | None) -> list[_Group]:
    delimiter = _sniff_delimiter(path, text)
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    first = next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), None)
    if first is None:
        raise InteropError(f"{path}: empty file")
    header = [_header_key(c) for c in rows[first]]
    if "sentence" in header or "item" in header:
        columns = {name: header.index(name) for name in _COLUMNS if name in header}
        body = first + 1
    elif len(rows[first]) in _POSITIONAL:
        columns = {name: i for i, name in enumerate(_POSITIONAL[len(rows[first])])}
        body = first
    else:
        raise InteropError(f"{path}:{first + 1}: no header and {len(rows[first])} columns; expected "
                           "island type; clause type; condition 1; condition 2; item number; sentence")
    required = ["cond1", "item", "sentence"] + ([] if paradigm else ["island"])
    missing = [c for c in required if c not in columns]
    if missing:
        raise InteropError(f"{path}:{first + 1}: missing column(s) {', '.join(missing)} in the header")
    groups: dict[tuple, _Group] = {}
    for line_no, row in enumerate(rows[body:], start=body + 1):
        if not any(c.strip() for c in row):
            continue
        where = f"{path}:{line_no}"
        if len(row) <= max(columns.values()):
            raise InteropError(f"{where}: {len(row)} columns, expected {max(columns.values()) + 1}")
        cell = {name: row[i].strip() for name, i in columns.items()}
        length, structure, clause = _factors(
            [(c, cell[c]) for c in ("clause", "cond1", "cond2") if c in cell], where)
        label = cell.get("island", "")
        dependency = _dependency(clause or label)
        variant = {"clause_type": clause} if clause and _compact(clause) not in {"wh", "rc"} else {}
        number = cell["item"]
        if not number:
            raise InteropError(f"{where}: empty item number")
        key = (_compact(label), dependency, tuple(variant.items()), number)
        group = groups.setdefault(key, _Group(where, label, dependency, number, variant))
        condition = f"{length}_{structure}"
        if condition in group.texts:
            raise InteropError(f"{where}: item {number} has {condition} twice "
                               f"(also line {group.lines[condition]})")
        if not cell["sentence"]:
            raise InteropError(f"{where}: empty sentence")
        group.texts[condition] = norm.text(cell["sentence"])
        group.lines[condition] = line_no
    for group in groups.values():
        missing = [c for c in CONDITIONS if c not in group.texts]
        if missing:
            raise InteropError(f"{group.where}: item {group.number} ({group.label}) lacks {', '.join(missing)}")
    return list(groups.values())


# ---- items and output -----------------------------------------------------------------------

def _item(group: _Group, paradigm: str) -> Item:
    number = group.number
    base = f"{paradigm}-{int(number):05d}" if number.isdigit() else f"{paradigm}-{re.sub(r'[^A-Za-z0-9]+', '_', number)}"
    suffix = "".join(f"-{re.sub(r'[^A-Za-z0-9]+', '_', v)}" for v in group.variant.values())
    residual = condition_residual(group.texts)
    return Item(
        item_id=base + suffix,
        paradigm=paradigm,
        dependency=group.dependency,
        variant=dict(group.variant),
        lexical={},
        additive=not residual,
        conditions={c: Sentence(group.texts[c], c != "long_island", (), tuple(word_spans(group.texts[c])))
                    for c in CONDITIONS},
        matched_set=base if suffix else None,
        residual=tuple(residual),
    )


def detect_format(path: Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    if suffix in (".csv", ".tsv"):
        return "csv"
    head = Path(path).read_text(encoding="utf-8-sig")[:1].lstrip()
    return "jsonl" if head[:1] in ("{", "[") else "csv"


def import_file(path: Path, fmt: str | None = None, paradigm: str | None = None) -> dict[str, str]:
    """The files of the imported suite: {<paradigm>.jsonl: ..., manifest.json: ...}."""
    path = Path(path)
    if not path.is_file():
        raise InteropError(f"{path}: file not found")
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise InteropError(f"--format {fmt}: unknown import format (expected {' or '.join(FORMATS)})")
    if paradigm is not None and not re.fullmatch(r"[a-z0-9_]+", paradigm):
        raise InteropError(f"--paradigm {paradigm!r}: use lower-case letters, digits and _")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InteropError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    norm = Normalisations()
    groups = _read_jsonl(path, text, norm) if fmt == "jsonl" else _read_csv(path, text, norm, paradigm)
    by_paradigm: dict[str, list[Item]] = {}
    labels: dict[str, set[str]] = {}
    seen: dict[str, str] = {}
    for group in groups:
        if paradigm:
            name = paradigm
        else:
            label = group.label or path.stem
            name = _paradigm_name(paradigm_for(label, group.texts, group.where), group.dependency)
        item = _item(group, name)
        if item.item_id in seen:
            raise InteropError(f"{group.where}: item {group.number} of {name} appears twice "
                               f"(first at {seen[item.item_id]})")
        seen[item.item_id] = group.where
        by_paradigm.setdefault(name, []).append(item)
        labels.setdefault(name, set()).add(group.label or path.stem)
    files = {f"{name}.jsonl": "".join(dumps_item(i) + "\n" for i in items)
             for name, items in sorted(by_paradigm.items())}
    files["manifest.json"] = dump_json(_manifest(path, fmt, paradigm, norm, by_paradigm, labels), indent=2)
    return files


def _manifest(path: Path, fmt: str, paradigm: str | None, norm: Normalisations,
              by_paradigm: dict[str, list[Item]], labels: dict[str, set[str]]) -> dict:
    sha = sha256_file(path)
    command = f"gen import {path.name} --format {fmt}" + (f" --paradigm {paradigm}" if paradigm else "")
    return {
        "generator_version": __version__,
        "seed": None,
        "command": command,
        "files": {path.name: sha},
        "imported": {
            "source_file": path.name,
            "sha256": sha,
            "format": fmt,
            "normalised": {
                "curly_apostrophes_to_straight": norm.curly_apostrophes,
                "leading_violation_marks_removed": norm.violation_marks,
                "whitespace_collapsed": norm.whitespace,
            },
            "regions": "not inferred: every sentence has an empty region list",
            "words": "orthographic split (generator.words.word_spans)",
            "additive": "computed from the word multisets (generator.words.condition_residual)",
        },
        "paradigms": {
            name: {
                "items": len(items),
                "additive_share": round(sum(i.additive for i in items) / len(items), 4),
                "source_labels": sorted(labels[name]),
                "mean_words": {c: round(sum(len(i.conditions[c].words) for i in items) / len(items), 3)
                               for c in CONDITIONS},
            }
            for name, items in sorted(by_paradigm.items())
        },
    }
