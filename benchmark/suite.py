"""Reads a suite in the SUITE_FORMAT.md format (the benchmark never imports the generator).

A suite is a directory of `<paradigm>.jsonl` files (one item per line) or a single JSONL
file. Every problem is reported as a `BenchError` naming the file and line."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.errors import BenchError

CONDITIONS = ("short_nonisland", "long_nonisland", "short_island", "long_island")
SHORT = {"short_nonisland": "SN", "long_nonisland": "LN", "short_island": "SI", "long_island": "LI"}

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SUITE = REPO_ROOT / "generated" / "italian_wh_islands"


@dataclass(frozen=True)
class Region:
    name: str
    start: int
    end: int


@dataclass(frozen=True)
class Sentence:
    text: str
    grammatical: bool
    regions: tuple[Region, ...]
    words: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Item:
    item_id: str
    paradigm: str
    variant: dict[str, str]
    additive: bool
    conditions: dict[str, Sentence]
    matched_set: str
    residual: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Suite:
    name: str
    path: Path
    items: tuple[Item, ...]

    @property
    def paradigms(self) -> list[str]:
        return sorted({i.paradigm for i in self.items})

    def sentences(self) -> list[tuple[Item, str, Sentence]]:
        return [(i, c, i.conditions[c]) for i in self.items for c in CONDITIONS]


class _LineError(Exception):
    pass


def _spans(raw: Any, text: str, what: str) -> list[tuple[int, int]]:
    if not isinstance(raw, list):
        raise _LineError(f"{what} must be a list")
    out = []
    for k, span in enumerate(raw):
        if isinstance(span, dict):
            span = [span.get("start"), span.get("end")]
        if not (isinstance(span, list) and len(span) == 2 and all(isinstance(x, int) for x in span)):
            raise _LineError(f"{what}[{k}] is not a [start, end] pair of integers")
        a, b = span
        if not 0 <= a <= b <= len(text):
            raise _LineError(f"{what}[{k}] = [{a}, {b}] lies outside the text (length {len(text)})")
        out.append((a, b))
    return out


def _sentence(raw: Any, cond: str) -> Sentence:
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
    return Sentence(text, bool(raw.get("grammatical", True)), tuple(regions), tuple(words))


def parse_item(data: Any) -> Item:
    """One item from its JSON object; raises `_LineError` with a reason."""
    if not isinstance(data, dict):
        raise _LineError("an item must be a JSON object")
    for key in ("item_id", "paradigm", "conditions"):
        if key not in data:
            raise _LineError(f"missing key '{key}'")
    conds = data["conditions"]
    if not isinstance(conds, dict):
        raise _LineError("'conditions' must be an object")
    missing = [c for c in CONDITIONS if c not in conds]
    if missing:
        raise _LineError(f"item '{data['item_id']}' lacks condition(s) {', '.join(missing)}")
    variant = data.get("variant") or {}
    if not isinstance(variant, dict):
        raise _LineError("'variant' must be an object")
    item_id = str(data["item_id"])
    return Item(
        item_id=item_id,
        paradigm=str(data["paradigm"]),
        variant={str(k): str(v) for k, v in variant.items()},
        additive=bool(data.get("additive", False)),
        conditions={c: _sentence(conds[c], c) for c in CONDITIONS},
        matched_set=str(data.get("matched_set") or item_id),
        residual=tuple(str(w) for w in data.get("residual") or ()),
    )


def read_file(path: Path) -> list[Item]:
    items = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise BenchError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise BenchError(f"{path}: cannot be read ({exc.strerror})") from None
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BenchError(
                f"{path}:{line_no}: not valid JSON ({exc.msg}, column {exc.colno}); "
                "a suite file holds one JSON object per line") from None
        try:
            items.append(parse_item(data))
        except _LineError as exc:
            raise BenchError(f"{path}:{line_no}: {exc}") from None
    return items


def read_suite(path: Path | str | None = None) -> Suite:
    """The suite at `path` (a directory of JSONL files or one JSONL file); None = the default."""
    if path is None:
        if not DEFAULT_SUITE.is_dir():
            raise BenchError(
                f"the default suite {DEFAULT_SUITE.relative_to(REPO_ROOT)}/ does not exist yet: "
                "create it with `gen build --phenomenon all`, or pass --suite DIR|FILE")
        path = DEFAULT_SUITE
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            raise BenchError(f"{path}: no <paradigm>.jsonl files in this suite directory")
        name = path.resolve().name
    elif path.is_file():
        files = [path]
        name = f"{path.resolve().parent.name}-{path.stem}"
    else:
        raise BenchError(f"{path}: no such suite directory or file")
    items: list[Item] = []
    seen: dict[str, Path] = {}
    for f in files:
        for item in read_file(f):
            if item.item_id in seen:
                raise BenchError(f"{f}: item_id '{item.item_id}' occurs twice (also in {seen[item.item_id]})")
            seen[item.item_id] = f
            items.append(item)
    if not items:
        raise BenchError(f"{path}: the suite holds no items")
    items.sort(key=lambda i: (i.paradigm, i.item_id))
    return Suite(name=name, path=path, items=tuple(items))
