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
import re
from pathlib import Path

from generator import __version__
from generator.interop import import_csv, import_jsonl
from generator.interop.common import InteropError, dump_json, sha256_file
from generator.interop.import_labels import Group, Normalisations, condition_key, paradigm_for, paradigm_name
from generator.suite import CONDITIONS, Item, Sentence, dumps_item
from generator.words import condition_residual, word_spans

FORMATS = ("jsonl", "csv")
__all__ = ["FORMATS", "condition_key", "detect_format", "import_file"]


def _item(group: Group, paradigm: str) -> Item:
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
    with open(path, "rb") as handle:
        head = handle.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    return "jsonl" if head[:1] in (b"{", b"[") else "csv"


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
    try:
        groups = import_jsonl.read(path, text, norm) if fmt == "jsonl" else import_csv.read(path, text, norm, paradigm)
    except csv.Error as exc:   # a field over the csv module's size limit, a NUL byte
        raise InteropError(f"{path}: not a readable CSV file ({exc})") from None
    by_paradigm: dict[str, list[Item]] = {}
    labels: dict[str, set[str]] = {}
    seen: dict[str, str] = {}
    for group in groups:
        if paradigm:
            name = paradigm
        else:
            label = group.label or path.stem
            name = paradigm_name(paradigm_for(label, group.texts, group.where), group.dependency)
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
