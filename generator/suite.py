"""Typed records of a suite (SUITE_FORMAT.md) and their JSON round-trip.

An item is a 2x2 set of four sentences; each sentence carries its named regions and its
orthographic word spans (character offsets into its text)."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple

import orjson

CONDITIONS = ("short_nonisland", "long_nonisland", "short_island", "long_island")
REGION_NAMES = (
    "filler", "matrix", "island_head", "complementizer", "subject", "verb", "object",
    "gap", "spillover", "end",
)


class SuiteFormatError(ValueError):
    """A suite file that does not follow SUITE_FORMAT.md; the message names file and line."""


class Region(NamedTuple):
    """A named character span [start, end) of a sentence (a tuple: cheap to make by thousands)."""

    name: str
    start: int
    end: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "start": self.start, "end": self.end}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Region":
        return cls(str(data["name"]), int(data["start"]), int(data["end"]))


@dataclass(frozen=True)
class Sentence:
    text: str
    grammatical: bool
    regions: tuple[Region, ...]
    words: tuple[tuple[int, int], ...]

    @cached_property
    def word_strings(self) -> list[str]:
        return [self.text[a:b] for a, b in self.words]

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "grammatical": self.grammatical,
            "regions": [r.to_json() for r in self.regions],
            "words": [[a, b] for a, b in self.words],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Sentence":
        return cls(
            text=str(data["text"]),
            grammatical=bool(data["grammatical"]),
            regions=tuple(Region.from_json(r) for r in data.get("regions", [])),
            words=tuple((int(a), int(b)) for a, b in data.get("words", [])),
        )


@dataclass(frozen=True)
class Item:
    item_id: str
    paradigm: str
    dependency: str
    variant: dict[str, str]
    lexical: dict[str, str]
    additive: bool
    conditions: dict[str, Sentence]
    matched_set: str | None = None
    residual: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "item_id": self.item_id,
            "paradigm": self.paradigm,
            "dependency": self.dependency,
            "variant": dict(self.variant),
            "lexical": dict(self.lexical),
            "additive": self.additive,
            "residual": list(self.residual),
        }
        if self.matched_set is not None:
            data["matched_set"] = self.matched_set
        data["conditions"] = {c: self.conditions[c].to_json() for c in CONDITIONS}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Item":
        return cls(
            item_id=str(data["item_id"]),
            paradigm=str(data["paradigm"]),
            dependency=str(data.get("dependency", "wh")),
            variant={str(k): str(v) for k, v in data.get("variant", {}).items()},
            lexical={str(k): str(v) for k, v in data.get("lexical", {}).items()},
            additive=bool(data.get("additive", False)),
            conditions={c: Sentence.from_json(data["conditions"][c]) for c in CONDITIONS},
            matched_set=data.get("matched_set"),
            residual=tuple(data.get("residual", ())),
        )


def dumps_item(item: Item) -> str:
    """Compact JSON, UTF-8 text as is, keys in the order of SUITE_FORMAT.md."""
    return orjson.dumps(item.to_json()).decode("utf-8")


def read_items(path: Path) -> Iterator[Item]:
    """Items of one JSONL file; a malformed line raises SuiteFormatError naming file and line."""
    line_no = 0
    try:
        with open(path, encoding="utf-8") as handle:
            for line_no, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    yield Item.from_json(json.loads(line))
                except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError,
                        RecursionError) as exc:
                    raise SuiteFormatError(f"{path}:{line_no}: not a valid suite item ({exc!r})"[:400]) from None
    except UnicodeDecodeError as exc:
        raise SuiteFormatError(f"{path}:{line_no + 1}: not UTF-8 text ({exc.reason}); "
                               "suite files are UTF-8 JSON lines") from None


def paradigm_files(suite_dir: Path) -> list[Path]:
    return sorted(p for p in Path(suite_dir).glob("*.jsonl"))


@dataclass(frozen=True)
class Suite:
    name: str
    paradigms: dict[str, list[Item]]  # paradigm file stem -> items, in file order
    manifest: dict[str, Any]

    @property
    def items(self) -> list[Item]:
        return [item for items in self.paradigms.values() for item in items]


def read_suite(suite_dir: Path) -> Suite:
    """A suite folder: every <paradigm>.jsonl and the manifest; SuiteFormatError otherwise."""
    suite_dir = Path(suite_dir)
    if not suite_dir.is_dir():
        raise SuiteFormatError(f"{suite_dir}: no such suite folder (expected <paradigm>.jsonl files and "
                               f"manifest.json; build one with `gen build`)")
    files = paradigm_files(suite_dir)
    if not files:
        raise SuiteFormatError(f"{suite_dir}: no <paradigm>.jsonl files in this folder")
    paradigms: dict[str, list[Item]] = {}
    for path in files:
        items = list(read_items(path))
        if not items:
            raise SuiteFormatError(f"{path}: no items")
        paradigms[path.stem] = items
    manifest: dict[str, Any] = {}
    manifest_path = suite_dir / "manifest.json"
    if manifest_path.exists():
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise SuiteFormatError(f"{manifest_path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
        except UnicodeDecodeError as exc:
            raise SuiteFormatError(f"{manifest_path}: not UTF-8 text ({exc.reason})") from None
        if not isinstance(manifest, dict):
            raise SuiteFormatError(f"{manifest_path}: expected a JSON object, found {type(manifest).__name__}")
    return Suite(suite_dir.resolve().name, paradigms, manifest)


def atomic_write_text(path: Path, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: never a half-written file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_items(path: Path, items: Iterable[Item]) -> None:
    atomic_write_text(path, "".join(dumps_item(i) + "\n" for i in items))
