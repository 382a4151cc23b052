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


# Proper names: the same table in every language (gender, and a name family so that an item
# never has two forms of one name, Giovanni / Gianni, Daniel / Danielle).
NAMES_TABLE = (
    Column("lemma", kind="form"),
    Column("gender", values=closed("m", "f")),
    Column("family"),
    Column("zipf", kind="number"),
    Column("note", required=False, kind="text"),
)
