"""What the templates see: a lexicon entry whose attributes are its features and forms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .lexicon import Entry


class TemplateError(ValueError):
    """A template that fails to render or produces malformed region marks."""


@dataclass(frozen=True)
class Filler:
    """A lexicon entry as the templates see it: attributes are its features."""

    entry: Entry

    @property
    def lemma(self) -> str:
        return self.entry.lemma

    @property
    def gender(self) -> str:
        g = self.entry.feature("gender")
        return "f" if g == "f" else "m"

    @property
    def number(self) -> str:
        return self.entry.feature("number") or "sg"

    @property
    def person(self) -> str:
        return self.entry.feature("person") or "3"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "entry":
            raise AttributeError(name)
        if name in self.entry.features:
            return self.entry.feature(name)
        if name in self.entry.forms:
            return self.entry.forms[name][0]
        raise AttributeError(f"{self.entry.table} entry {self.entry.lemma!r} has no feature {name!r}")

    def __str__(self) -> str:
        return self.entry.lemma
