"""Sentence measures and region sums, computed from stored per-token log-probabilities."""

from __future__ import annotations

import math
from dataclasses import dataclass

from benchmark.records import TokenScores

MEASURES = ("LP", "MeanLP", "PenLP", "SLOR")
PENLP_ALPHA = 0.8


@dataclass(frozen=True)
class SentenceMeasures:
    n_tokens: int
    LP: float
    MeanLP: float
    PenLP: float
    SLOR: float

    def get(self, measure: str) -> float:
        return getattr(self, measure)


def sentence_measures(logprobs: tuple[float, ...] | list[float], unigram_lp: float,
                      alpha: float = PENLP_ALPHA) -> SentenceMeasures:
    """LP = sum; MeanLP = LP/n; PenLP = LP / ((5+n)/6)**alpha (Lau et al. 2020);
    SLOR = (LP - LP_unigram) / n, with n the number of scored tokens."""
    n = len(logprobs)
    lp = math.fsum(logprobs)
    if n == 0:
        return SentenceMeasures(0, lp, 0.0, lp, 0.0)
    return SentenceMeasures(n, lp, lp / n, lp / ((5 + n) / 6) ** alpha, (lp - unigram_lp) / n)


@dataclass(frozen=True)
class RegionScore:
    index: int
    name: str
    start: int
    end: int
    n_tokens: int
    LP: float


def region_scores(regions, scores: TokenScores) -> list[RegionScore]:
    """Sum of token log-probabilities per region. A token belongs to the region holding its
    first character; a zero-width or uncovered token goes to the last region starting at or
    before it. Empty regions (a gap) get 0 tokens and LP 0."""
    buckets: list[list[float]] = [[] for _ in regions]
    for start, lp in zip(scores.starts, scores.logprobs):
        k = next((i for i, r in enumerate(regions) if r.start <= start < r.end), None)
        if k is None:
            before = [i for i, r in enumerate(regions) if r.start <= start and r.end > r.start]
            k = before[-1] if before else 0
        if buckets:
            buckets[k].append(lp)
    return [RegionScore(i, r.name, r.start, r.end, len(b), math.fsum(b))
            for i, (r, b) in enumerate(zip(regions, buckets))]
