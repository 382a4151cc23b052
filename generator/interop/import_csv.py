"""Import reader for the long-format CSV: island type; clause type; condition 1; condition 2;
item number; sentence (`;`, tab or `,` separated, with or without a header)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from generator.interop.common import InteropError
from generator.interop.import_labels import Group, Normalisations, compact, condition_key, dependency_from
from generator.suite import CONDITIONS

_COLUMNS = {
    "island": {"islandtype", "island", "type", "phenomenon", "paradigm"},
    "clause": {"clausetype", "clause", "dependency"},
    "cond1": {"condition", "conditiona", "cond", "conda", "c"},
    "cond2": {"conditionb", "condb"},
    "item": {"itemnumber", "item", "itemno", "itemid", "itemn", "number", "n"},
    "sentence": {"sentence", "text", "stimulus", "frase", "sentences"},
}
_POSITIONAL = {6: ("island", "clause", "cond1", "cond2", "item", "sentence"),
               5: ("island", "cond1", "cond2", "item", "sentence")}
_LENGTH = {"short": "short", "matrix": "short", "corto": "short", "corta": "short", "breve": "short",
           "long": "long", "embedded": "long", "lungo": "long", "lunga": "long"}
_STRUCTURE = {"nonisland": "nonisland", "noisland": "nonisland", "control": "nonisland",
              "nonisola": "nonisland", "island": "island", "isola": "island"}


def _header_key(cell: str) -> str | None:
    alnum = re.sub(r"[^a-z0-9]", "", cell.lower())
    if alnum in {"condition1", "cond1", "c1"}:
        return "cond1"
    if alnum in {"condition2", "cond2", "c2"}:
        return "cond2"
    letters = compact(cell)
    for column, names in _COLUMNS.items():
        if letters in names:
            return column
    return None


def _sniff_delimiter(path: Path, text: str) -> str:
    sample = [line for line in text.splitlines() if line.strip()][:20]
    for delimiter in (";", "\t", ","):
        counts = {len(row) for row in csv.reader(sample, delimiter=delimiter)}
        if len(counts) == 1 and counts.pop() >= 5:
            return delimiter
    raise InteropError(f"{path}:1: cannot tell the separator: expected ';', tab or ',' separated columns "
                       "(island type; clause type; condition 1; condition 2; item number; sentence)")


def _factors(values: list[tuple[str, str]], where: str) -> tuple[str, str, str | None]:
    """(length, structure, clause type) from the clause/condition cells of one row."""
    length = structure = clause = None
    for column, value in values:
        letters = compact(value)
        found: list[tuple[str, str]] = []
        both = condition_key(value)
        if both:
            found = [("length", both.split("_")[0]), ("structure", both.split("_")[1])]
        elif letters in _LENGTH:
            found = [("length", _LENGTH[letters])]
        elif letters in _STRUCTURE:
            found = [("structure", _STRUCTURE[letters])]
        elif column == "clause":
            clause = value.strip()
            continue
        elif not letters:
            continue
        else:
            raise InteropError(f"{where}: cannot map condition value {value!r} "
                               "(expected short/long and non-island/island)")
        for factor, level in found:
            current = length if factor == "length" else structure
            if current is not None and current != level:
                raise InteropError(f"{where}: conflicting {factor} values in one row ({current} and {level})")
            if factor == "length":
                length = level
            else:
                structure = level
    if length is None or structure is None:
        missing = "short/long" if length is None else "non-island/island"
        raise InteropError(f"{where}: no {missing} value in the condition columns")
    return length, structure, clause


def read(path: Path, text: str, norm: Normalisations, paradigm: str | None) -> list[Group]:
    delimiter = _sniff_delimiter(path, text)
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    first = next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), None)
    if first is None:
        raise InteropError(f"{path}: empty file")
    header = [_header_key(c) for c in rows[first]]
    if "sentence" in header or "item" in header:
        columns = {name: header.index(name) for name in _COLUMNS if name in header}
        body = first + 1
    elif len(rows[first]) in _POSITIONAL:
        columns = {name: i for i, name in enumerate(_POSITIONAL[len(rows[first])])}
        body = first
    else:
        raise InteropError(f"{path}:{first + 1}: no header and {len(rows[first])} columns; expected "
                           "island type; clause type; condition 1; condition 2; item number; sentence")
    required = ["cond1", "item", "sentence"] + ([] if paradigm else ["island"])
    missing = [c for c in required if c not in columns]
    if missing:
        raise InteropError(f"{path}:{first + 1}: missing column(s) {', '.join(missing)} in the header")
    groups: dict[tuple, Group] = {}
    for line_no, row in enumerate(rows[body:], start=body + 1):
        if not any(c.strip() for c in row):
            continue
        where = f"{path}:{line_no}"
        if len(row) <= max(columns.values()):
            raise InteropError(f"{where}: {len(row)} columns, expected {max(columns.values()) + 1}")
        cell = {name: row[i].strip() for name, i in columns.items()}
        length, structure, clause = _factors(
            [(c, cell[c]) for c in ("clause", "cond1", "cond2") if c in cell], where)
        label = cell.get("island", "")
        dependency = dependency_from(clause, label, path.stem)
        variant = {"clause_type": clause} if clause and compact(clause) not in {"wh", "rc"} else {}
        number = cell["item"]
        if not number:
            raise InteropError(f"{where}: empty item number")
        key = (compact(label), dependency, tuple(variant.items()), number)
        group = groups.setdefault(key, Group(where, label, dependency, number, variant))
        condition = f"{length}_{structure}"
        if condition in group.texts:
            raise InteropError(f"{where}: item {number} has {condition} twice "
                               f"(also line {group.lines[condition]})")
        if not cell["sentence"]:
            raise InteropError(f"{where}: empty sentence")
        group.texts[condition] = norm.text(cell["sentence"])
        group.lines[condition] = line_no
    for group in groups.values():
        missing = [c for c in CONDITIONS if c not in group.texts]
        if missing:
            raise InteropError(f"{group.where}: item {group.number} ({group.label}) lacks {', '.join(missing)}")
    return list(groups.values())
