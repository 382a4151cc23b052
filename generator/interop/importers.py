"""Import hand-written suites into the suite format (docs/suite-format.md).

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
list, so region-based measures and exports treat it as one whole-sentence region.

A JSONL item's keys other than the four conditions (BLiMP-style `field`, `UID`, `pairID`,
the thesis's `island_subcategory`, ...) are kept as written in the item's `source`; those
naming the island type or the item number also choose its paradigm and id. An adjunct island
whose label does not say which is classified by its connective (`se`: conditional, `quando`,
`mentre`, `dopo che`, `prima che`: temporal, neither: plain `adjunct_island`)."""

from __future__ import annotations

import csv
import dataclasses
import re
from collections import Counter
from pathlib import Path

from generator import __version__
from generator.interop import import_blimp, import_csv, import_jsonl
from generator.languages import DEFAULT_LANGUAGE, LANGUAGES
from generator.interop.common import InteropError, dump_json, sha256_file
from generator.interop.import_labels import (PLAIN_ADJUNCT, Group, ItemIds, Normalisations, condition_key,
                                             item_id_for, paradigm_for,
                                             paradigm_name)
from generator.suite import CONDITIONS, FORMAT_VERSION, Item, Sentence, dumps_items
from generator.words import condition_residual, word_spans

FORMATS = ("jsonl", "csv")
__all__ = ["FORMATS", "condition_key", "detect_format", "import_file", "summary_lines"]


def _item(group: Group, paradigm: str) -> Item:
    base = item_id_for(paradigm, group.number)
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
        source=dict(group.source),
    )


def detect_format(path: Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    if suffix in (".csv", ".tsv"):
        return "csv"
    with open(path, "rb") as handle:
        head = handle.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    return "jsonl" if head[:1] in (b"{", b"[") else "csv"


def import_file(path: Path, fmt: str | None = None, paradigm: str | None = None,
                language: str | None = None) -> dict[str, str]:
    """The files of the imported suite: {<paradigm>.jsonl: ..., manifest.json: ...}. The
    language is `language`, or the one whose word frequencies the sentences fit best."""
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
    if language is not None and language not in LANGUAGES:
        raise InteropError(f"--language {language!r}: choose one of {', '.join(LANGUAGES)}")
    if fmt == "jsonl":
        records = list(import_jsonl.json_records(path, text))
        if import_blimp.is_blimp(records):
            return _import_blimp(path, records, norm, paradigm, language)
    try:
        groups = import_jsonl.read(path, text, norm) if fmt == "jsonl" else import_csv.read(path, text, norm, paradigm)
    except csv.Error as exc:   # a field over the csv module's size limit, a NUL byte
        raise InteropError(f"{path}: not a readable CSV file ({exc})") from None
    by_paradigm: dict[str, list[Item]] = {}
    labels: dict[str, set[str]] = {}
    assigned: dict[str, Counter[str]] = {}  # paradigm -> how its items were assigned -> count
    ids = ItemIds()
    if paradigm:
        _one_dependency(groups, paradigm)
    for group in groups:
        name, how = _paradigm_of(group, paradigm, path)
        item = _item(group, name)
        item = dataclasses.replace(item, item_id=ids.claim(item.item_id, _texts(item), group.where, "item",
                                                            group.number, name))
        by_paradigm.setdefault(name, []).append(item)
        labels.setdefault(name, set()).add(group.label or path.stem)
        assigned.setdefault(name, Counter())[how] += 1
    language = language or import_blimp.guess_language(
        (t for items in by_paradigm.values() for i in items for t in _texts(i).values()), LANGUAGES)
    by_paradigm = {name: [dataclasses.replace(i, language=language) for i in items] for name, items in by_paradigm.items()}
    return _suite_files(_manifest(path, fmt, paradigm, norm, by_paradigm, labels, assigned, ids.repeated), by_paradigm)


def _import_blimp(path: Path, records: list, norm: Normalisations, paradigm: str | None,
                  language: str | None) -> dict[str, str]:
    texts = (r.get(k) for _, r in records for k in (import_blimp.GOOD, import_blimp.BAD))
    language = language or import_blimp.guess_language((t for t in texts if isinstance(t, str)), LANGUAGES)
    ids = ItemIds()
    by_paradigm = import_blimp.read(path, records, norm, paradigm, language, ids)
    labels = {name: {str(i.source.get("linguistics_term") or path.stem) for i in items}
              for name, items in by_paradigm.items()}
    assigned = {name: Counter({"--paradigm" if paradigm else "UID": len(items)}) for name, items in by_paradigm.items()}
    manifest = _manifest(path, "blimp", paradigm, norm, by_paradigm, labels, assigned, ids.repeated)
    manifest["imported"]["source"] = "keys other than sentence_good and sentence_bad are kept, as written, in each item's `source`"
    return _suite_files(manifest, by_paradigm)


def _suite_files(manifest: dict, by_paradigm: dict[str, list[Item]]) -> dict[str, str]:
    files = {f"{name}.jsonl": dumps_items(items) for name, items in sorted(by_paradigm.items())}
    files["manifest.json"] = dump_json(manifest, indent=2)
    return files


def _texts(item: Item) -> dict[str, str]:
    return {c: s.text for c, s in item.conditions.items()}


def _paradigm_of(group: Group, forced: str | None, path: Path) -> tuple[str, str]:
    """The item's paradigm and how it was chosen, for the import summary."""
    if forced:
        return forced, "--paradigm"
    label = group.label or path.stem
    base, connective = paradigm_for(label, group.texts, group.where)
    if connective is not None:
        how = f"connective '{connective}'"
    elif base == PLAIN_ADJUNCT:
        how = "no se or temporal connective"
    else:
        how = f"label '{group.label}'" if group.label else f"file name '{path.stem}'"
    return paradigm_name(base, group.dependency), how


def _one_dependency(groups: list[Group], forced: str) -> None:
    """A forced paradigm holds one dependency: the manifest states one per paradigm."""
    if not groups:   # a file with a header and no rows: nothing to mix
        return
    first = groups[0]
    other = next((g for g in groups if g.dependency != first.dependency), None)
    if other is not None:
        raise InteropError(f"{other.where}: --paradigm {forced} would mix {first.dependency} items "
                           f"(e.g. {first.where}) with {other.dependency} items; import them from separate "
                           "files, or leave out --paradigm so rc items get their own _rc paradigm")


def _manifest(path: Path, fmt: str, paradigm: str | None, norm: Normalisations,
              by_paradigm: dict[str, list[Item]], labels: dict[str, set[str]],
              assigned: dict[str, Counter[str]], repeated: dict[str, list[str]]) -> dict:
    sha = sha256_file(path)
    command = f"gen import {path.name} --format {'jsonl' if fmt == 'blimp' else fmt}" + \
        (f" --paradigm {paradigm}" if paradigm else "")
    language = next((i.language for items in by_paradigm.values() for i in items), DEFAULT_LANGUAGE)
    return {
        "format_version": FORMAT_VERSION,
        "generator_version": __version__,
        "language": language,
        "seed": None,
        "command": command,
        "files": {path.name: sha},
        "imported": {
            "source_file": path.name,
            "sha256": sha,
            "format": fmt,
            "n_items": sum(len(items) for items in by_paradigm.values()),
            "assigned": {name: {"n_items": len(by_paradigm[name]), "by": dict(sorted(assigned[name].items()))}
                         for name in sorted(by_paradigm)},
            "normalised": {
                "curly_apostrophes_to_straight": norm.curly_apostrophes,
                "leading_violation_marks_removed": norm.violation_marks,
                "whitespace_collapsed": norm.whitespace,
            },
            "source": "keys other than the four conditions are kept, as written, in each item's `source`",
            "regions": "not inferred: every sentence has an empty region list",
            "words": "orthographic split (generator.words.word_spans)",
            "additive": "computed from the word multisets (generator.words.condition_residual)",
            "repeated_ids": {name: ids for name, ids in sorted(repeated.items())},
        },
        "paradigms": {name: _paradigm_stats(items, labels[name]) for name, items in sorted(by_paradigm.items())},
    }


def _paradigm_stats(items: list[Item], labels: set[str]) -> dict:
    """The manifest entry of one paradigm, in the shape manifest.schema.json asks for."""
    first = items[0]  # one paradigm: one design, one dependency (see _one_dependency)
    n = len(items)
    return {
        "n_items": n,
        "design": first.design,
        "dependency": first.dependency,
        "language": first.language,
        "conditions": {c: {"mean_words": round(sum(len(i.conditions[c].words) for i in items) / n, 3),
                           "mean_chars": round(sum(len(i.conditions[c].text) for i in items) / n, 3)}
                       for c in first.layout.conditions},
        "additive_share": round(sum(i.additive for i in items) / n, 4),
        "source_labels": sorted(labels),
    }


def summary_lines(manifest: dict) -> list[str]:
    """What `gen import` prints after the first line: items per paradigm and how they got there."""
    lines = []
    for name, entry in manifest["imported"]["assigned"].items():
        how = ", ".join(f"{reason}: {count}" for reason, count in entry["by"].items())
        n = entry["n_items"]
        lines.append(f"  {name}: {n} item{'s' if n != 1 else ''} ({how})")
    for name, ids in manifest["imported"].get("repeated_ids", {}).items():
        shown = ", ".join(dict.fromkeys(ids))
        lines.append(f"  {name}: {len(ids)} item{'s' if len(ids) != 1 else ''} reuse a published id of another "
                     f"item ({shown}); each keeps it in `source` and gets its own id (…-r2)")
    return lines
