"""Interaction plots: one panel per paradigm, the human-comparable scale of METRICS.md.

All sentence scores of one model (one measure, every paradigm) are binned into a 7-point scale
(equal-width bins over their range) and the bins z-scored; each panel shows the mean z-score
per condition with standard-error bars: x = short/long (object/subject gap for subject
islands), solid line non-island, dashed line island.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .load import CONDITIONS, Run, axis_labels, order_paradigms, paradigm_label

POINTS = 7


def seven_point_z(scores: np.ndarray) -> np.ndarray:
    """Equal-width 7-point bins (1..7) over the range of `scores`, then z-scored."""
    scores = np.asarray(scores, dtype=float)
    lo, hi = np.nanmin(scores), np.nanmax(scores)
    if hi > lo:
        bins = np.floor((scores - lo) / (hi - lo) * POINTS).clip(0, POINTS - 1) + 1
    else:
        bins = np.full_like(scores, (POINTS + 1) / 2)
    sd = bins.std()
    return (bins - bins.mean()) / sd if sd > 0 else np.zeros_like(bins)


def interaction_data(run: Run, measure: str) -> pd.DataFrame:
    """Per paradigm and condition: mean z-score, its standard error and n."""
    data = run.sentences.dropna(subset=[measure])[["item_id", "paradigm", "condition", measure]].copy()
    data["z"] = seven_point_z(data[measure].to_numpy())
    rows = []
    for paradigm in order_paradigms(data["paradigm"].unique()):
        sub = data[data["paradigm"] == paradigm]
        short, long = axis_labels(paradigm)
        for cond in CONDITIONS:
            z = sub.loc[sub["condition"] == cond, "z"].to_numpy()
            se = z.std(ddof=1) / np.sqrt(len(z)) if len(z) > 1 else float("nan")
            rows.append({
                "run": run.name, "measure": measure, "paradigm": paradigm, "condition": cond,
                "structure": "island" if cond.endswith("_island") else "non-island",
                "length": long if cond.startswith("long") else short,
                "mean_z": float(z.mean()) if len(z) else float("nan"), "se": float(se), "n": len(z),
            })
    return pd.DataFrame(rows)


def plot_interactions(data: pd.DataFrame, title: str, stem: Path) -> list[Path]:
    """A grid of panels (2 x 2 for four paradigms), shared y-axis; returns PNG and PDF paths."""
    from .figures import save, style

    paradigms = list(dict.fromkeys(data["paradigm"]))
    ncols = 2 if len(paradigms) <= 4 else 3
    nrows = max(1, -(-len(paradigms) // ncols))
    with style() as plt:
        fig, axes = plt.subplots(nrows, ncols, figsize=(3.1 * ncols, 2.7 * nrows), sharey=True,
                                 squeeze=False)
        for ax, paradigm in zip(axes.flat, paradigms):
            sub = data[data["paradigm"] == paradigm].set_index("condition")
            for structure, style_kw in (("non-island", dict(ls="-", marker="o", color="#1f5fa8")),
                                        ("island", dict(ls="--", marker="s", color="#c0392b"))):
                conds = [c for c in CONDITIONS if sub.loc[c, "structure"] == structure]
                ax.errorbar([0, 1], sub.loc[conds, "mean_z"], yerr=sub.loc[conds, "se"], capsize=3,
                            label=structure, **style_kw)
            ax.set_xticks([0, 1], list(axis_labels(paradigm)))
            ax.set_xlim(-0.35, 1.35)
            ax.set_title(paradigm_label(paradigm))
            ax.grid(axis="y", alpha=0.3)
        for row in axes:
            row[0].set_ylabel("z-score (7-point bins)")
        spare = axes.flat[len(paradigms):]
        for ax in spare:
            ax.set_visible(False)
        if len(spare):  # the legend goes into the first empty cell of the grid
            handles, labels = axes.flat[0].get_legend_handles_labels()
            spare[0].set_visible(True)
            spare[0].axis("off")
            spare[0].legend(handles, labels, loc="center", frameon=False)
        else:
            axes.flat[0].legend(loc="best", frameon=False)
        fig.suptitle(title)
        fig.subplots_adjust(left=0.1, right=0.98, bottom=0.1, top=0.86, wspace=0.12, hspace=0.45)
        return save(fig, stem)
