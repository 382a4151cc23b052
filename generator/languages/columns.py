"""The column types of a lexicon table, shared by every language's lexicon schema."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    name: str
    required: bool = True
    values: frozenset[str] | None = None  # closed list, for feature columns
    multi: bool = False                   # `;`-separated values
    kind: str = "feature"                 # feature | form | paradigm | formula | number | text


def closed(*values: str) -> frozenset[str]:
    return frozenset(values)


YES_NO = closed("yes", "no")
