"""The filler-gap (wh-licensing) design's measures per item and their per-paradigm summary.

Per item and measure, with scores as natural-log probabilities (higher = more acceptable):
wh effect with no gap = S(wh_nogap) - S(that_nogap) (a filler makes a filled object less
likely: negative expected), wh effect with a gap = S(wh_gap) - S(that_gap) (a filler makes a
gap likelier: positive expected), and the licensing interaction = the second minus the first
(positive expected; Wilcox et al. 2018). It is computed on the whole sentence (the sentence
measures) and on the design's critical region, the words right after the gap
(`LP@spillover`: the summed log-probability of that region)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from suite_format import FILLER_GAP

from benchmark.factorial import DD_TOLERANCE

TN, WN, TG, WG = FILLER_GAP.conditions  # that_nogap, wh_nogap, that_gap, wh_gap
REGION_MEASURE = f"LP@{FILLER_GAP.critical_region}"


@dataclass(frozen=True)
class LicensingScores:
    item_id: str
    paradigm: str
    matched_set: str
    variant: dict[str, str]
    measure: str
    scores: dict[str, float]  # condition -> score

    @property
    def wh_nogap(self) -> float:
        return self.scores[WN] - self.scores[TN]

    @property
    def wh_gap(self) -> float:
        return self.scores[WG] - self.scores[TG]

    @property
    def licensing(self) -> float:
        return FILLER_GAP.contrast(self.scores)

    @property
    def pairs(self) -> tuple[bool, bool]:
        """A gap needs a filler (that_nogap > that_gap); a filler needs a gap (wh_gap > wh_nogap)."""
        return self.scores[TN] > self.scores[TG], self.scores[WG] > self.scores[WN]

    def row(self, factors: list[str]) -> list:
        s = self.scores
        return [self.item_id, self.paradigm, self.matched_set, *(self.variant.get(f, "") for f in factors),
                self.measure, s[TN], s[WN], s[TG], s[WG], self.wh_nogap, self.wh_gap, self.licensing, *self.pairs]


def header(factors: list[str]) -> list[str]:
    return ["item_id", "paradigm", "matched_set", *(f"variant.{f}" for f in factors), "measure",
            "TN", "WN", "TG", "WG", "wh_effect_nogap", "wh_effect_gap", "licensing", "TN_gt_TG", "WG_gt_WN"]


def summarize(rows: list[LicensingScores]) -> dict:
    n = len(rows)
    pairs = [r.pairs for r in rows]
    return {
        "n": n,
        "licensing_acc": sum(r.licensing > DD_TOLERANCE for r in rows) / n,
        "mean_licensing": math.fsum(r.licensing for r in rows) / n,
        "mean_wh_effect_nogap": math.fsum(r.wh_nogap for r in rows) / n,
        "mean_wh_effect_gap": math.fsum(r.wh_gap for r in rows) / n,
        "mp_TN_TG": sum(p[0] for p in pairs) / n,
        "mp_WG_WN": sum(p[1] for p in pairs) / n,
    }


def summarize_by(rows: list[LicensingScores]) -> dict[str, dict[str, dict]]:
    """{measure: {paradigm: summary}}, keys sorted."""
    groups: dict[tuple[str, str], list[LicensingScores]] = {}
    for r in rows:
        groups.setdefault((r.measure, r.paradigm), []).append(r)
    out: dict[str, dict[str, dict]] = {}
    for measure, paradigm in sorted(groups):
        out.setdefault(measure, {})[paradigm] = summarize(groups[(measure, paradigm)])
    return out
