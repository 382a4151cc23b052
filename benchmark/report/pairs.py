"""Imported minimal pairs (BLiMP's files) in a report: per paradigm and measure, the pair
accuracy (good > bad, %) and the mean difference, with percentile bootstrap intervals over
pairs; the unigram baseline's accuracy alongside."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .bootstrap import Estimate, bootstrap_means, rng_for
from .document import Block, Heading, Table, Text
from .load import Run
from .tables import with_ci

CSV = "tables/pairs.csv"


def pairs_frame(run: Run, n_resamples: int, seed: int) -> pd.DataFrame:
    records = []
    for (measure, paradigm), sub in run.pairs.groupby(["measure", "paradigm"], sort=True):
        values = np.column_stack([sub["good_gt_bad"].to_numpy(dtype=float) * 100.0,
                                  sub["difference"].to_numpy(dtype=float)])
        acc, diff = bootstrap_means(values, n_resamples, rng_for(seed, run.name, "pairs", measure, paradigm)).estimates()
        records.append({"run": run.name, "measure": measure, "paradigm": paradigm, "n": len(sub),
                        "accuracy": acc.value, "accuracy_lo": acc.lo, "accuracy_hi": acc.hi,
                        "mean_difference": diff.value, "mean_difference_lo": diff.lo,
                        "mean_difference_hi": diff.hi})
    return pd.DataFrame.from_records(records)


def pairs_blocks(frame: pd.DataFrame, baseline: pd.DataFrame | None) -> list[Block]:
    if frame.empty:
        return []
    rows = []
    for r in frame.sort_values(["measure", "paradigm"]).to_dict("records"):
        cells = [r["paradigm"], r["measure"], str(int(r["n"])),
                 with_ci(Estimate(r["accuracy"], r["accuracy_lo"], r["accuracy_hi"])),
                 with_ci(Estimate(r["mean_difference"], r["mean_difference_lo"], r["mean_difference_hi"]), 2)]
        if baseline is not None and not baseline.empty:
            b = baseline[(baseline["paradigm"] == r["paradigm"]) & (baseline["measure"] == r["measure"])]
            cells.append(f"{b.iloc[0]['accuracy']:.1f}" if len(b) else "–")
        rows.append(tuple(cells))
    columns = ["paradigm", "measure", "pairs", "good > bad (%)", "mean good − bad"]
    if baseline is not None and not baseline.empty:
        columns.append("unigram (%)")
    return [Heading("Minimal pairs", 3),
            Text("Imported minimal pairs (BLiMP's files): the share of pairs whose grammatical sentence "
                 "scores strictly higher, as BLiMP reports it, and the mean score difference."),
            Table(tuple(columns), tuple(rows), CSV)]
