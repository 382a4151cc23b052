"""The filler-gap licensing section of a report: per paradigm and measure, the share of items
with a positive licensing interaction, its mean, the two wh effects and the two minimal
pairs, with percentile bootstrap intervals over items (benchmark/licensing.py defines them)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..factorial import DD_TOLERANCE
from ..licensing import REGION_MEASURE
from .bootstrap import Estimate, bootstrap_means, rng_for
from .document import Block, Heading, Table, Text
from .load import Run, layout_key, order_paradigms, table_label
from .tables import InfoOf, with_ci

MEASURES = ("LP", REGION_MEASURE)
STATS = ("licensing_acc", "mean_licensing", "wh_effect_gap", "wh_effect_nogap", "mp_TN_TG", "mp_WG_WN")


def licensing_frame(run: Run, n_resamples: int, seed: int) -> pd.DataFrame:
    """One row per measure x paradigm: every statistic with its 95% interval (value/lo/hi)."""
    records = []
    table = run.licensing
    for measure in MEASURES:
        sub_m = table[table["measure"] == measure]
        for paradigm in order_paradigms(sub_m["paradigm"].unique()):
            sub = sub_m[sub_m["paradigm"] == paradigm]
            lic = sub["licensing"].to_numpy(dtype=float)
            values = np.column_stack([(lic > DD_TOLERANCE) * 100.0, lic,
                                      sub["wh_effect_gap"].to_numpy(dtype=float),
                                      sub["wh_effect_nogap"].to_numpy(dtype=float),
                                      sub["TN_gt_TG"].to_numpy(dtype=float) * 100.0,
                                      sub["WG_gt_WN"].to_numpy(dtype=float) * 100.0])
            boot = bootstrap_means(values, n_resamples, rng_for(seed, run.name, "licensing", measure, paradigm))
            rec = {"run": run.name, "measure": measure, "paradigm": paradigm, "n": len(sub)}
            for name, est in zip(STATS, boot.estimates()):
                rec[name], rec[f"{name}_lo"], rec[f"{name}_hi"] = est.value, est.lo, est.hi
            records.append(rec)
    return pd.DataFrame.from_records(records)


def est(row, name: str) -> Estimate:
    """A statistic of one row of `licensing_frame` with its interval."""
    return Estimate(row[name], row[f"{name}_lo"], row[f"{name}_hi"])


def licensing_blocks(frame: pd.DataFrame, baseline: pd.DataFrame | None, info: InfoOf) -> list[Block]:
    """The licensing table, paradigms named and ordered like the report's figures."""
    if frame.empty:
        return []
    rows = []
    for r in sorted(frame.to_dict("records"), key=lambda row: layout_key(info(row["paradigm"]))):
        cells = [table_label(info(r["paradigm"])), "whole sentence" if r["measure"] == "LP" else "after the gap",
                 str(int(r["n"])), with_ci(est(r, "licensing_acc")), with_ci(est(r, "mean_licensing"), 2),
                 with_ci(est(r, "wh_effect_gap"), 2), with_ci(est(r, "wh_effect_nogap"), 2),
                 with_ci(est(r, "mp_TN_TG")), with_ci(est(r, "mp_WG_WN"))]
        if baseline is not None:
            b = baseline[(baseline["paradigm"] == r["paradigm"]) & (baseline["measure"] == r["measure"])]
            cells.append(f"{b.iloc[0]['licensing_acc']:.1f}" if len(b) else "–")
        rows.append(tuple(cells))
    columns = ["paradigm", "scored on", "n", "licensing > 0 % [95% CI]", "mean licensing [95% CI]",
               "wh effect, gap", "wh effect, no gap", "that_nogap > that_gap %", "wh_gap > wh_nogap %"]
    if baseline is not None:
        columns.append("unigram licensing > 0 %")
    return [Heading("Filler-gap licensing (the baseline island results rest on)", 3),
            Text("Licensing = [S(wh_gap) − S(that_gap)] − [S(wh_nogap) − S(that_nogap)] in natural-log "
                 "probability; positive means a wh-filler makes a gap likelier and a filled object less "
                 "likely (Wilcox et al. 2018). `after the gap` sums the log-probabilities of the region "
                 "right after the gap, where the literature reads the effect."),
            Table(tuple(columns), tuple(rows), "tables/licensing.csv")]
