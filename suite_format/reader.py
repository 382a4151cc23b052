"""The one reader of suite files, for the generator and the benchmark alike.

A suite is a folder of `<paradigm>.jsonl` files (one item per line) with a `manifest.json`,
or a single JSONL file. Every problem is a `SuiteFormatError` naming the file and line and
saying what is wrong, so neither half needs its own checks of the format."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from .designs import DEFAULT_DESIGN, DESIGNS
from .records import DEFAULT_LANGUAGE, FORMAT_VERSION, Item, Region, Sentence, Suite


class SuiteFormatError(ValueError):
    """A suite file that does not follow docs/suite-format.md; the message names file and line."""


class _LineError(Exception):
    pass


def _spans(raw: Any, text: str, what: str) -> list[tuple[int, int]]:
    if not isinstance(raw, list):
        raise _LineError(f"{what} must be a list")
    out = []
    for k, span in enumerate(raw):
        if isinstance(span, dict):
            span = [span.get("start"), span.get("end")]
        if not (isinstance(span, list) and len(span) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in span)):
            raise _LineError(f"{what}[{k}] is not a [start, end] pair of integers")
        a, b = span
        if not 0 <= a <= b <= len(text):
            raise _LineError(f"{what}[{k}] = [{a}, {b}] lies outside the text (length {len(text)})")
        out.append((a, b))
    return out


def _sentence(raw: Any, cond: str, grammatical: bool) -> Sentence:
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
        raise _LineError(f"condition '{cond}' has no text")
    text = raw["text"]
    if not text.strip():
        raise _LineError(f"condition '{cond}' has an empty text")
    regions_raw = raw.get("regions", [])
    if not isinstance(regions_raw, list):
        raise _LineError(f"condition '{cond}': regions must be a list")
    spans = _spans(regions_raw, text, f"condition '{cond}': regions")
    regions = []
    for r, (a, b) in zip(regions_raw, spans):
        name = r.get("name") if isinstance(r, dict) else None
        if not isinstance(name, str):
            raise _LineError(f"condition '{cond}': a region has no name")
        regions.append(Region(name, a, b))
    if "words" not in raw:
        raise _LineError(f"condition '{cond}' has no word spans ('words')")
    words = _spans(raw["words"], text, f"condition '{cond}': words")
    if any(a == b for a, b in words):
        raise _LineError(f"condition '{cond}': a word span is empty")
    if any(b1 > a2 for (_, b1), (a2, _) in zip(words, words[1:])):
        raise _LineError(f"condition '{cond}': word spans overlap or are out of order")
    flag = raw.get("grammatical", grammatical)
    if not isinstance(flag, bool):
        raise _LineError(f"condition '{cond}': 'grammatical' must be true or false")
    return Sentence(text, flag, tuple(regions), tuple(words))


def _mapping(data: dict, key: str) -> dict:
    value = data.get(key) or {}
    if not isinstance(value, dict):
        raise _LineError(f"'{key}' must be an object")
    return value


def parse_item(data: Any) -> Item:
    """One item from its JSON object; raises SuiteFormatError (no file or line: callers add them)."""
    try:
        return _parse(data)
    except _LineError as exc:
        raise SuiteFormatError(str(exc)) from None


def _parse(data: Any) -> Item:
    if not isinstance(data, dict):
        raise _LineError("an item must be a JSON object")
    for key in ("item_id", "paradigm", "conditions"):
        if key not in data:
            raise _LineError(f"missing key '{key}'")
    design_name = data.get("design", DEFAULT_DESIGN)
    if design_name not in DESIGNS:
        raise _LineError(f"unknown design {design_name!r} (this version reads: {', '.join(DESIGNS)}); "
                         "a newer version of the tool may have written it")
    design = DESIGNS[design_name]
    conds = data["conditions"]
    if not isinstance(conds, dict):
        raise _LineError("'conditions' must be an object")
    missing = [c for c in design.conditions if c not in conds]
    if missing:
        raise _LineError(f"item '{data['item_id']}' lacks condition(s) {', '.join(missing)} "
                         f"of its design '{design.name}'")
    extra = [c for c in conds if c not in design.conditions]
    if extra:
        raise _LineError(f"item '{data['item_id']}': condition(s) {', '.join(extra)} are not in its design "
                         f"'{design.name}' ({', '.join(design.conditions)})")
    residual = data.get("residual") or ()
    if not isinstance(residual, (list, tuple)):
        raise _LineError("'residual' must be a list")
    matched_set = data.get("matched_set")
    language = data.get("language", DEFAULT_LANGUAGE)
    if not (isinstance(language, str) and re.fullmatch(r"[a-z]{2,3}", language)):
        raise _LineError(f"'language' must be a language code such as 'it' or 'en', found {language!r}")
    return Item(
        item_id=str(data["item_id"]),
        paradigm=str(data["paradigm"]),
        dependency=str(data.get("dependency", "wh")),
        variant={str(k): str(v) for k, v in _mapping(data, "variant").items()},
        lexical={str(k): str(v) for k, v in _mapping(data, "lexical").items()},
        additive=bool(data.get("additive", False)),
        conditions={c: _sentence(conds[c], c, design.grammatical[c]) for c in design.conditions},
        matched_set=None if matched_set is None else str(matched_set),
        residual=tuple(str(w) for w in residual),
        design=design.name,
        source=dict(_mapping(data, "source")),
        language=language,
    )


def read_items(path: Path) -> Iterator[Item]:
    """Items of one JSONL file, in file order."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise SuiteFormatError(f"{path}: not UTF-8 text ({exc.reason}); suite files are UTF-8 JSON lines") from None
    except OSError as exc:
        raise SuiteFormatError(f"{path}: cannot be read ({exc.strerror})") from None
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            reason = f"{exc.msg}, column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else "nested too deep"
            raise SuiteFormatError(f"{path}:{line_no}: not valid JSON ({reason}); "
                                   "a suite file holds one JSON object per line") from None
        try:
            yield _parse(data)
        except _LineError as exc:
            raise SuiteFormatError(f"{path}:{line_no}: {exc}") from None


def read_manifest(path: Path) -> dict[str, Any]:
    """A suite's manifest.json (empty when absent); refuses a format newer than this reader."""
    if not path.exists():
        return {}
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise SuiteFormatError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except UnicodeDecodeError as exc:
        raise SuiteFormatError(f"{path}: not UTF-8 text ({exc.reason})") from None
    if not isinstance(manifest, dict):
        raise SuiteFormatError(f"{path}: expected a JSON object, found {type(manifest).__name__}")
    version = manifest.get("format_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SuiteFormatError(f"{path}: format_version must be a positive integer, found {version!r}")
    if version > FORMAT_VERSION:
        raise SuiteFormatError(f"{path}: suite format version {version}, but this version of the tool reads "
                               f"versions 1 to {FORMAT_VERSION}; upgrade the tool (pip install -U isole)")
    return manifest


def read_suite(path: Path | str) -> Suite:
    """The suite at `path`: a folder of <paradigm>.jsonl files (and manifest.json) or one JSONL file."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            raise SuiteFormatError(f"{path}: no <paradigm>.jsonl files in this suite folder "
                                   "(build one with `gen build`)")
        name = path.resolve().name
        manifest = read_manifest(path / "manifest.json")
    elif path.is_file():
        files = [path]
        name = f"{path.resolve().parent.name}-{path.stem}"
        manifest = {}
    else:
        raise SuiteFormatError(f"{path}: no such suite folder or file (expected <paradigm>.jsonl files and "
                               "manifest.json; build one with `gen build`)")
    by_paradigm: dict[str, list[Item]] = {}
    seen: dict[str, Path] = {}
    for f in files:
        count = 0
        for item in read_items(f):
            count += 1
            if item.item_id in seen:
                raise SuiteFormatError(f"{f}: item_id '{item.item_id}' occurs twice (also in {seen[item.item_id]})")
            seen[item.item_id] = f
            by_paradigm.setdefault(item.paradigm, []).append(item)
        if not count:
            raise SuiteFormatError(f"{f}: no items")
    return Suite(name, path, {p: tuple(by_paradigm[p]) for p in sorted(by_paradigm)}, manifest)
