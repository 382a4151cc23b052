"""A report as a list of blocks, rendered to Markdown (markdown.py) and HTML (html.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Text:
    """A paragraph; `code` spans in backticks are the only markup."""

    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    csv: str = ""  # the CSV file (relative to the report) holding this table's numbers


@dataclass(frozen=True)
class Figure:
    png: str  # relative to the report folder
    caption: str
    pdf: str = ""


Block = Heading | Text | Bullets | Table | Figure
