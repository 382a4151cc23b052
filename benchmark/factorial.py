"""Factorial (2x2) and minimal-pair measures per item, and their per-paradigm summary."""

from __future__ import annotations

import math
from dataclasses import dataclass


# DD counts as positive above this: sums of the same log-probabilities in another order
# differ by rounding (about 1e-15), and a bag-of-words scorer must not be credited for it.
DD_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Effects:
    length: float      # S(SN) - S(LN)
    structure: float   # S(SN) - S(SI)
    total: float       # S(SN) - S(LI)
    DD: float          # total - length - structure = S(LN) + S(SI) - S(SN) - S(LI)


def dd_from_effects(length: float, structure: float, total: float) -> float:
    return total - length - structure


def effects(sn: float, ln: float, si: float, li: float) -> Effects:
    length, structure, total = sn - ln, sn - si, sn - li
    return Effects(length, structure, total, dd_from_effects(length, structure, total))


@dataclass(frozen=True)
class ItemScores:
    item_id: str
    paradigm: str
    matched_set: str
    variant: dict[str, str]
    measure: str
    SN: float
    LN: float
    SI: float
    LI: float

    @property
    def effects(self) -> Effects:
        return effects(self.SN, self.LN, self.SI, self.LI)

    @property
    def pairs(self) -> tuple[bool, bool, bool]:
        """Minimal pairs, grammatical strictly above the violation: SN>LI, LN>LI, SI>LI."""
        return self.SN > self.LI, self.LN > self.LI, self.SI > self.LI


@dataclass(frozen=True)
class Summary:
    n: int
    factorial_acc: float
    mean_DD: float
    mp_SN_LI: float
    mp_LN_LI: float
    mp_SI_LI: float
    mp_mean: float

    def to_json(self) -> dict:
        return {"n": self.n, "factorial_acc": self.factorial_acc, "mean_DD": self.mean_DD,
                "mp_SN_LI": self.mp_SN_LI, "mp_LN_LI": self.mp_LN_LI, "mp_SI_LI": self.mp_SI_LI,
                "mp_mean": self.mp_mean}


def summarize(rows: list[ItemScores]) -> Summary:
    n = len(rows)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan)
    pairs = [r.pairs for r in rows]
    mp = [sum(p[k] for p in pairs) / n for k in range(3)]
    return Summary(n, sum(r.effects.DD > DD_TOLERANCE for r in rows) / n, math.fsum(r.effects.DD for r in rows) / n,
                   mp[0], mp[1], mp[2], math.fsum(mp) / 3)


def summarize_by(rows: list[ItemScores]) -> dict[str, dict[str, Summary]]:
    """{measure: {paradigm: Summary}}, keys sorted."""
    groups: dict[tuple[str, str], list[ItemScores]] = {}
    for r in rows:
        groups.setdefault((r.measure, r.paradigm), []).append(r)
    out: dict[str, dict[str, Summary]] = {}
    for (measure, paradigm) in sorted(groups):
        out.setdefault(measure, {})[paradigm] = summarize(groups[(measure, paradigm)])
    return out
