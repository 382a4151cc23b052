"""Percentile bootstrap over items, vectorised with numpy.

Each group (a paradigm, or a variant level) resamples its items with its own generator,
seeded from the report seed and the group's name, so a group's interval does not depend on
which other groups are in the report.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

DEFAULT_RESAMPLES = 1000


@dataclass(frozen=True)
class Estimate:
    value: float
    lo: float
    hi: float


@dataclass(frozen=True)
class Bootstrap:
    """Point estimates (k,) and bootstrap replicates (B, k) of k column means."""

    point: np.ndarray
    replicates: np.ndarray

    def estimates(self) -> list[Estimate]:
        return [_interval(self.point[j], self.replicates[:, j]) for j in range(self.point.size)]


def rng_for(seed: int, *keys: str) -> np.random.Generator:
    return np.random.default_rng([seed, *(zlib.crc32(k.encode("utf-8")) for k in keys)])


def bootstrap_means(values: np.ndarray, n_resamples: int, rng: np.random.Generator) -> Bootstrap:
    """Means of the columns of `values` (items x k) over `n_resamples` resamples of the items."""
    values = np.asarray(values, dtype=float)
    n = values.shape[0]
    if n == 0:
        nan = np.full(values.shape[1], np.nan)
        return Bootstrap(nan, np.full((max(n_resamples, 1), values.shape[1]), np.nan))
    idx = rng.integers(0, n, size=(n_resamples, n))
    reps = np.stack([values[:, j][idx].mean(axis=1) for j in range(values.shape[1])], axis=1)
    return Bootstrap(values.mean(axis=0), reps)


def average(boots: list[Bootstrap]) -> Bootstrap:
    """The unweighted mean of several groups' estimates, with replicates averaged alike
    (a stratified bootstrap of the average over paradigms)."""
    return Bootstrap(np.mean([b.point for b in boots], axis=0),
                     np.mean([b.replicates for b in boots], axis=0))


def _interval(point: float, reps: np.ndarray) -> Estimate:
    if np.isnan(point) or reps.size == 0:
        return Estimate(float(point), float("nan"), float("nan"))
    lo, hi = np.quantile(reps, [0.025, 0.975])
    return Estimate(float(point), float(lo), float(hi))
