"""Feature formulas: the compact selectional-restriction language of the lexicon.

    formula := "*" | conj ("|" conj)*        an OR of ANDs, as in BLiMP's vocabulary
    conj    := atom ("&" atom)*
    atom    := feature "=" value | feature "!=" value | feature (">=" | "<=" | ">" | "<") number

For a multi-valued feature (`classes = food;drink`) `classes=food` means membership."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

FeatureValue = frozenset[str] | float


class FormulaError(ValueError):
    """A formula that does not parse; the message says what is wrong."""


_ATOM = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(!=|>=|<=|=|>|<)\s*([^\s&|=<>!]+)\s*$")
_NUMERIC_OPS = {">=", "<=", ">", "<"}


@dataclass(frozen=True)
class Atom:
    feature: str
    op: str
    value: str

    def holds(self, features: Mapping[str, FeatureValue]) -> bool:
        have = features.get(self.feature)
        if self.op in _NUMERIC_OPS:
            if not isinstance(have, float):
                return False
            limit = float(self.value)
            return {">=": have >= limit, "<=": have <= limit, ">": have > limit, "<": have < limit}[self.op]
        present = have is not None and not isinstance(have, float) and self.value in have
        return present if self.op == "=" else not present

    def __str__(self) -> str:
        return f"{self.feature}{self.op}{self.value}"


@dataclass(frozen=True)
class Formula:
    """An OR of ANDs of atoms; the empty OR (from `*`) matches everything."""

    clauses: tuple[tuple[Atom, ...], ...]

    def matches(self, features: Mapping[str, FeatureValue]) -> bool:
        if not self.clauses:
            return True
        for clause in self.clauses:
            for atom in clause:
                if atom.op == "=":  # the common case, inlined
                    have = features.get(atom.feature)
                    if have is None or isinstance(have, float) or atom.value not in have:
                        break
                elif not atom.holds(features):
                    break
            else:
                return True
        return False

    def atoms(self) -> list[Atom]:
        return [a for clause in self.clauses for a in clause]

    def __and__(self, other: "Formula") -> "Formula":
        if not self.clauses:
            return other
        if not other.clauses:
            return self
        return Formula(tuple(a + b for a in self.clauses for b in other.clauses))

    def __str__(self) -> str:
        if not self.clauses:
            return "*"
        return " | ".join(" & ".join(str(a) for a in clause) for clause in self.clauses)


ANYTHING = Formula(())


def parse_formula(text: str) -> Formula:
    text = (text or "").strip()
    if text in ("", "*"):
        return ANYTHING
    if "(" in text or ")" in text:
        raise FormulaError(f"parentheses are not allowed in {text!r}: write an OR (|) of ANDs (&)")
    clauses = []
    for part in text.split("|"):
        atoms = []
        for raw in part.split("&"):
            match = _ATOM.match(raw)
            if not match:
                raise FormulaError(f"{raw.strip()!r} in {text!r} is not feature=value, feature!=value or zipf>=N")
            feature, op, value = match.groups()
            if op in _NUMERIC_OPS:
                try:
                    float(value)
                except ValueError:
                    raise FormulaError(f"{raw.strip()!r} in {text!r} compares with a non-number") from None
            atoms.append(Atom(feature, op, value))
        clauses.append(tuple(atoms))
    return Formula(tuple(clauses))
