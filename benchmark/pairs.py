"""The minimal-pair design (imported BLiMP files): per item and measure, the good sentence's
score minus the bad one's, and whether the good one scores higher; per paradigm, the pair
accuracy (BLiMP's figure) and the mean difference."""

from __future__ import annotations

import math
from dataclasses import dataclass

from suite_format import MINIMAL_PAIR

GOOD, BAD = MINIMAL_PAIR.conditions
HEADER = ["item_id", "paradigm", "measure", "good", "bad", "difference", "good_gt_bad"]


@dataclass(frozen=True)
class PairScores:
    item_id: str
    paradigm: str
    measure: str
    good: float
    bad: float

    @property
    def difference(self) -> float:
        return self.good - self.bad

    @property
    def correct(self) -> bool:
        return self.good > self.bad

    def row(self) -> list:
        return [self.item_id, self.paradigm, self.measure, self.good, self.bad, self.difference, self.correct]


def summarize_by(scores: list[PairScores]) -> dict[str, dict[str, dict]]:
    """measure -> paradigm -> {n, accuracy (a fraction), mean_difference}."""
    groups: dict[str, dict[str, list[PairScores]]] = {}
    for s in scores:
        groups.setdefault(s.measure, {}).setdefault(s.paradigm, []).append(s)
    return {measure: {paradigm: {"n": len(rows),
                                 "accuracy": sum(r.correct for r in rows) / len(rows),
                                 "mean_difference": math.fsum(r.difference for r in rows) / len(rows)}
                      for paradigm, rows in sorted(by_p.items())}
            for measure, by_p in groups.items()}
