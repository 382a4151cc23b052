"""Factorial and minimal-pair statistics per paradigm and per variant level, with
bootstrap confidence intervals (definitions in METRICS.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..factorial import DD_TOLERANCE  # DD within rounding of 0 is not > 0 (one definition for all)
from .bootstrap import Bootstrap, Estimate, average, bootstrap_means, rng_for
from .load import Run

AVERAGE = "average"
STAT_NAMES = ("factorial_acc", "mean_DD", "mp_SN_LI", "mp_LN_LI", "mp_SI_LI", "mp_mean")


@dataclass(frozen=True)
class GroupStats:
    run: str
    measure: str
    paradigm: str  # or "average"
    factor: str  # "" for whole paradigms, else the variant factor
    level: str
    n: int
    factorial_acc: Estimate  # percent
    mean_DD: Estimate
    mp_SN_LI: Estimate  # percent
    mp_LN_LI: Estimate
    mp_SI_LI: Estimate
    mp_mean: Estimate  # percent, mean of the three pairs

    def stat(self, name: str) -> Estimate:
        return getattr(self, name)


def item_matrix(items: pd.DataFrame) -> np.ndarray:
    """Per item: DD > 0, DD, the three minimal-pair outcomes and their mean (items x 6);
    shares are in percent so their means are percentages."""
    dd = items["DD"].to_numpy(dtype=float)
    pairs = items[["SN_gt_LI", "LN_gt_LI", "SI_gt_LI"]].to_numpy(dtype=float) * 100.0
    return np.column_stack([(dd > DD_TOLERANCE) * 100.0, dd, pairs, pairs.mean(axis=1)])


def paradigm_stats(run: Run, measure: str, n_resamples: int, seed: int) -> list[GroupStats]:
    """One row per paradigm plus the unweighted average over paradigms."""
    items = run.measure_items(measure)
    rows, boots = [], []
    for paradigm in run.paradigms:
        sub = items[items["paradigm"] == paradigm]
        boot = bootstrap_means(item_matrix(sub), n_resamples, rng_for(seed, run.name, measure, paradigm))
        boots.append(boot)
        rows.append(_row(run.name, measure, paradigm, "", "", len(sub), boot))
    if len(boots) > 1:
        rows.append(_row(run.name, measure, AVERAGE, "", "", len(items), average(boots)))
    return rows


def _varied(run: Run, measure: str, table: pd.DataFrame | None = None):
    """(paradigm, its rows, variant column, sorted levels) for every factor with two or more
    levels; `table` defaults to the run's island items (the licensing table works alike)."""
    items = run.measure_items(measure) if table is None else table[table["measure"] == measure]
    columns = run.variant_columns if table is None else sorted(c for c in table.columns if c.startswith("variant."))
    for paradigm in sorted(items["paradigm"].unique()) if table is not None else run.paradigms:
        sub = items[items["paradigm"] == paradigm]
        for column in columns:
            levels = sorted(sub[column].dropna().astype(str).unique())
            if len(levels) >= 2:
                yield paradigm, sub, column, levels


def variant_stats(run: Run, measure: str, n_resamples: int, seed: int) -> list[GroupStats]:
    """One row per paradigm x variant factor x level, for factors with two or more levels."""
    rows = []
    for paradigm, sub, column, levels in _varied(run, measure):
        factor = column.removeprefix("variant.")
        for level in levels:
            group = sub[sub[column].astype(str) == level]
            rng = rng_for(seed, run.name, measure, paradigm, factor, level)
            boot = bootstrap_means(item_matrix(group), n_resamples, rng)
            rows.append(_row(run.name, measure, paradigm, factor, level, len(group), boot))
    return rows


def stats_frame(rows: list[GroupStats]) -> pd.DataFrame:
    """Tidy table: one row per group, value / lo / hi columns for every statistic."""
    records = []
    for r in rows:
        rec = {"run": r.run, "measure": r.measure, "paradigm": r.paradigm, "factor": r.factor,
               "level": r.level, "n": r.n}
        for name in STAT_NAMES:
            est = r.stat(name)
            rec[name], rec[f"{name}_lo"], rec[f"{name}_hi"] = est.value, est.lo, est.hi
        records.append(rec)
    return pd.DataFrame.from_records(records)


def _row(run: str, measure: str, paradigm: str, factor: str, level: str, n: int, boot: Bootstrap) -> GroupStats:
    return GroupStats(run, measure, paradigm, factor, level, n, *boot.estimates())


@dataclass(frozen=True)
class LevelDifference:
    """A variant level minus the reference level, paired over matched sets (the sets that hold
    both levels): the difference in DD > 0 (percentage points) and in mean DD."""

    run: str
    measure: str
    paradigm: str
    factor: str
    level: str
    reference: str
    n_sets: int
    factorial_acc: Estimate   # difference in the share with effect > 0, points
    mean_DD: Estimate         # difference in the mean effect
    effect: str = "DD"        # DD, or licensing for the filler-gap design


def variant_differences(run: Run, measure: str, n_resamples: int, seed: int,
                        table: pd.DataFrame | None = None, effect: str = "DD") -> list[LevelDifference]:
    """For every varied factor with item-matched sets: each level minus the first level in
    alphabetical order (rare − frequent, noun − name, pronoun − name), with a paired
    percentile bootstrap over matched sets. `table` / `effect`: the licensing table and its
    `licensing` column instead of the island items and DD."""
    out = []
    for paradigm, sub, column, levels in _varied(run, measure, table):
        by_level = {lv: sub[sub[column].astype(str) == lv].set_index("matched_set")[effect] for lv in levels}
        reference = levels[0]
        for level in levels[1:]:
            both = by_level[reference].index.intersection(by_level[level].index)
            if len(both) == 0 or by_level[level].index.has_duplicates or by_level[reference].index.has_duplicates:
                continue  # not varied item-matched (levels drawn per item): no pairs
            both = both.sort_values()
            ref = by_level[reference].loc[both].to_numpy(dtype=float)
            lev = by_level[level].loc[both].to_numpy(dtype=float)
            values = np.column_stack([((lev > DD_TOLERANCE) * 100.0) - ((ref > DD_TOLERANCE) * 100.0), lev - ref])
            rng = rng_for(seed, run.name, measure, paradigm, column, level, "paired")
            acc, dd = bootstrap_means(values, n_resamples, rng).estimates()
            out.append(LevelDifference(run.name, measure, paradigm, column.removeprefix("variant."), level,
                                       reference, len(both), acc, dd, effect))
    return out


def differences_frame(rows: list[LevelDifference]) -> pd.DataFrame:
    records = []
    for r in rows:
        rec = {"run": r.run, "measure": r.measure, "paradigm": r.paradigm, "effect": r.effect, "factor": r.factor,
               "contrast": f"{r.level} - {r.reference}", "n_sets": r.n_sets}
        for name in ("factorial_acc", "mean_DD"):
            est = getattr(r, name)
            rec[f"diff_{name}"], rec[f"diff_{name}_lo"], rec[f"diff_{name}_hi"] = est.value, est.lo, est.hi
        records.append(rec)
    return pd.DataFrame.from_records(records)
