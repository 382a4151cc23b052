"""Typed records of a suite (docs/suite-format.md) and their JSON form.

An item is a 2x2 set of four sentences laid out by its design; each sentence carries its
named regions and its orthographic word spans (character offsets into its text)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from .designs import DEFAULT_DESIGN, Design, design_named

DEFAULT_LANGUAGE = "it"  # the language of a suite written before items said theirs

FORMAT_VERSION = 3  # 3: every item and the manifest say the suite's language
REGION_NAMES = (
    "filler", "matrix", "island_head", "complementizer", "subject", "verb", "object",
    "gap", "spillover", "end",
)


class Region(NamedTuple):
    """A named character span [start, end) of a sentence (a tuple: cheap to make by thousands)."""

    name: str
    start: int
    end: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "start": self.start, "end": self.end}


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
    design: str = DEFAULT_DESIGN
    source: dict[str, Any] = field(default_factory=dict)  # metadata an imported item carried
    language: str = DEFAULT_LANGUAGE                      # it, en: version 2 files were all Italian

    @property
    def layout(self) -> Design:
        return design_named(self.design)

    @property
    def set_id(self) -> str:
        """The matched set this item belongs to (itself when nothing was varied)."""
        return self.matched_set or self.item_id

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "item_id": self.item_id,
            "paradigm": self.paradigm,
            "dependency": self.dependency,
            "language": self.language,
            "design": self.design,
            "variant": dict(self.variant),
            "lexical": dict(self.lexical),
            "additive": self.additive,
            "residual": list(self.residual),
        }
        if self.matched_set is not None:
            data["matched_set"] = self.matched_set
        if self.source:
            data["source"] = dict(self.source)
        data["conditions"] = {c: self.conditions[c].to_json() for c in self.layout.conditions}
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Item":
        from .reader import parse_item  # the one strict parser
        return parse_item(data)


def dumps_item(item: Item) -> str:
    """Compact JSON, UTF-8 text as is, keys in the order of docs/suite-format.md."""
    return orjson.dumps(item.to_json()).decode("utf-8")


def dumps_items(items) -> str:
    """A paradigm file's text: one item a line."""
    return "".join(dumps_item(i) + "\n" for i in items)


@dataclass(frozen=True)
class Suite:
    name: str
    path: Path
    paradigms: dict[str, tuple[Item, ...]]  # paradigm -> items, in file order; paradigms sorted
    manifest: dict[str, Any]

    @cached_property
    def language(self) -> str:
        """The suite's language: the manifest's, else its items' (suites before format 3: Italian)."""
        said = self.manifest.get("language")
        if isinstance(said, str) and said:
            return said
        return next((item.language for item in self.items), DEFAULT_LANGUAGE)

    @cached_property
    def items(self) -> tuple[Item, ...]:
        return tuple(item for items in self.paradigms.values() for item in items)

    def sentences(self) -> list[tuple[Item, str, Sentence]]:
        return [(i, c, i.conditions[c]) for i in self.items for c in i.layout.conditions]

    def subset(self, name: str, keep: set[str]) -> "Suite":
        """The same suite restricted to the item ids in `keep` (paradigms left empty are dropped)."""
        kept = {p: tuple(i for i in items if i.item_id in keep) for p, items in self.paradigms.items()}
        return Suite(name, self.path, {p: items for p, items in kept.items() if items}, self.manifest)
