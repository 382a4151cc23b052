"""Interaction plots on the human-comparable scale of METRICS.md.

All sentence scores of one model (one measure, every paradigm, filler-gap sentences included)
are binned into a 7-point scale (equal-width bins over their range) and the bins z-scored.

The island figure has one row per dependency (wh-question, then relative clause) and one
column per island, weak islands first (`load.layout_key`), so the wh and rc paradigms of an
island sit one above the other; a cell with no paradigm is left out. Each panel shows the mean
z-score per condition with standard-error bars: x = short/long (object/subject gap for subject
islands), solid line non-island, dashed line island.

The filler-gap figure has two panels per filler-gap paradigm: the whole sentence on the same
z scale, and the words right after the gap (the design's critical region) as their summed
surprisal in bits; x = no gap / gap, solid line `that`, dashed line `wh`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from suite_format import FILLER_GAP, ParadigmInfo, island_rank

from ..licensing import REGION_MEASURE
from .figures import save, style
from .load import CONDITIONS, DEPENDENCY_NAMES, Run, axis_labels, layout_key, table_label

if TYPE_CHECKING:
    from matplotlib.figure import Figure

POINTS = 7
Z_LABEL = "z-score (7-point bins)"
SURPRISAL_LABEL = "surprisal (bits)"
WHOLE, AFTER_GAP = "whole sentence", "after the gap"
SOLID = dict(ls="-", marker="o", color="#1f5fa8")
DASHED = dict(ls="--", marker="s", color="#c0392b")
STRUCTURE_STYLES = {"non-island": SOLID, "island": DASHED}
FILLER_STYLES = {"that": SOLID, "wh": DASHED}
GAP_TICKS = {"nogap": "no gap", "gap": "gap"}


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


def z_scored(run: Run, measure: str) -> pd.DataFrame:
    """The run's sentences with `measure` as `z`: every paradigm binned together, so the island
    and filler-gap figures share one scale."""
    data = run.sentences.dropna(subset=[measure])[["item_id", "paradigm", "condition", measure]].copy()
    data["z"] = seven_point_z(data[measure].to_numpy())
    return data


def _mean_se(values: np.ndarray) -> dict:
    n = len(values)
    se = values.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
    return {"mean": float(values.mean()) if n else float("nan"), "se": float(se), "n": n}


def _described(info: ParadigmInfo) -> dict:
    return {"label": info.label, "dependency": info.dependency, "strength": info.strength or ""}


def interaction_data(run: Run, measure: str) -> pd.DataFrame:
    """Per island paradigm (in figure order) and condition: mean z-score, standard error and n."""
    data = z_scored(run, measure)
    islands = [p for p in data["paradigm"].unique() if run.info_of(p).design == "island"]
    rows = []
    for paradigm in run.in_layout_order(islands):
        sub = data[data["paradigm"] == paradigm]
        short, long = axis_labels(paradigm)
        for cond in CONDITIONS:
            stats = _mean_se(sub.loc[sub["condition"] == cond, "z"].to_numpy())
            rows.append({
                "run": run.name, "measure": measure, "paradigm": paradigm, **_described(run.info_of(paradigm)),
                "condition": cond, "structure": "island" if cond.endswith("_island") else "non-island",
                "length": long if cond.startswith("long") else short,
                "mean_z": stats["mean"], "se": stats["se"], "n": stats["n"],
            })
    return pd.DataFrame(rows)


def _infos(data: pd.DataFrame, design: str) -> list[ParadigmInfo]:
    """The paradigms of a figure's data, rebuilt from its label / dependency / strength columns."""
    first = data.drop_duplicates("paradigm")
    return [ParadigmInfo(r.paradigm, r.label, r.dependency, design, r.strength or None)
            for r in first.itertuples()]


def island_grid(infos: list[ParadigmInfo]) -> tuple[list[str], list[str], dict[tuple[int, int], ParadigmInfo]]:
    """Rows (dependencies, wh first), columns (islands, weak first) and the paradigm of each
    filled cell, keyed (row, column)."""
    rows = list(dict.fromkeys(i.dependency for i in sorted(infos, key=layout_key)))
    columns = list(dict.fromkeys(i.label for i in sorted(infos, key=island_rank)))
    return rows, columns, {(rows.index(i.dependency), columns.index(i.label)): i for i in infos}


def interaction_figure(plt, data: pd.DataFrame, title: str) -> Figure:
    """The island figure (layout in the module docstring); `plt` comes from `figures.style`."""
    rows, columns, cells = island_grid(_infos(data, "island"))
    fig, axes = plt.subplots(len(rows), len(columns), figsize=(0.8 + 2.4 * len(columns), 1.0 + 2.4 * len(rows)),
                             sharey=True, squeeze=False, layout="constrained")
    for (r, c), info in cells.items():
        _island_panel(axes[r, c], data[data["paradigm"] == info.name], info)
    for r, dependency in enumerate(rows):
        name = DEPENDENCY_NAMES.get(dependency, dependency)
        _label_row(axes[r], [c for rr, c in cells if rr == r], f"{name}\n{Z_LABEL}")
    _hide_empty(axes, cells)
    _legend(fig, axes[next(iter(cells))])
    fig.suptitle(title)
    return fig


def plot_interactions(data: pd.DataFrame, title: str, stem: Path) -> list[Path]:
    """Draw the island figure and write it as PNG and PDF; returns the paths."""
    with style() as plt:
        return save(interaction_figure(plt, data, title), stem)


def _island_panel(ax, sub: pd.DataFrame, info: ParadigmInfo) -> None:
    sub = sub.set_index("condition")
    for structure, style_kw in STRUCTURE_STYLES.items():
        conds = [c for c in CONDITIONS if sub.loc[c, "structure"] == structure]
        ax.errorbar([0, 1], sub.loc[conds, "mean_z"], yerr=sub.loc[conds, "se"], capsize=3,
                    label=structure, **style_kw)
    ax.set_xticks([0, 1], list(axis_labels(info.name)))
    ax.set_xlim(-0.35, 1.35)
    ax.set_title(info.marked_label)
    ax.grid(axis="y", alpha=0.3)


def _label_row(row, filled: list[int], label: str) -> None:
    """Name the row on its first drawn panel, whose y ticks a shared axis would otherwise hide
    when the row's first column is empty."""
    ax = row[min(filled)]
    ax.set_ylabel(label)
    ax.tick_params(labelleft=True)


def _hide_empty(axes, cells) -> None:
    for (r, c), ax in np.ndenumerate(axes):
        if (r, c) not in cells:
            ax.set_visible(False)


def _legend(fig, ax) -> None:
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), frameon=False)


def filler_gap_data(run: Run, measure: str) -> pd.DataFrame:
    """Per filler-gap paradigm, panel and condition: the mean with its standard error and n.
    Whole sentence: `measure` on the shared z scale; after the gap: minus the critical region's
    summed log-probability (licensing.csv, `LP@spillover`) in bits."""
    z = z_scored(run, measure)
    region = run.licensing[run.licensing["measure"] == REGION_MEASURE]
    rows = []
    for paradigm in run.in_layout_order(run.licensing["paradigm"].unique()):
        for cond in FILLER_GAP.conditions:
            for panel, (scale, values) in _filler_gap_values(z, region, paradigm, cond).items():
                if len(values):
                    rows.append({"run": run.name, "measure": measure if panel == WHOLE else REGION_MEASURE,
                                 "paradigm": paradigm, **_described(run.info_of(paradigm)), "panel": panel,
                                 "scale": scale, "condition": cond, **FILLER_GAP.levels(cond), **_mean_se(values)})
    return pd.DataFrame(rows)


def _filler_gap_values(z: pd.DataFrame, region: pd.DataFrame, paradigm: str,
                       cond: str) -> dict[str, tuple[str, np.ndarray]]:
    """Panel -> (its scale, one value per item) for one condition of one paradigm."""
    whole = z.loc[(z["paradigm"] == paradigm) & (z["condition"] == cond), "z"].to_numpy()
    logprob = region.loc[region["paradigm"] == paradigm, FILLER_GAP.abbrev[cond]].to_numpy(dtype=float)
    return {WHOLE: (Z_LABEL, whole), AFTER_GAP: (SURPRISAL_LABEL, -logprob / math.log(2))}


def filler_gap_figure(plt, data: pd.DataFrame, title: str) -> Figure:
    """One row per filler-gap paradigm, a panel for the whole sentence and one after the gap."""
    infos = sorted(_infos(data, FILLER_GAP.name), key=layout_key)
    panels = [p for p in (WHOLE, AFTER_GAP) if p in set(data["panel"])]
    fig, axes = plt.subplots(len(infos), len(panels), figsize=(0.8 + 2.9 * len(panels), 1.0 + 2.5 * len(infos)),
                             squeeze=False, layout="constrained")
    cells = {}
    for r, info in enumerate(infos):
        for c, panel in enumerate(panels):
            sub = data[(data["paradigm"] == info.name) & (data["panel"] == panel)]
            if len(sub):
                _filler_gap_panel(axes[r, c], sub, panel)
                cells[r, c] = info
        first = axes[r, min(c for rr, c in cells if rr == r)]  # the row's name above the panel's scale
        first.set_ylabel(f"{table_label(info)}\n{first.get_ylabel()}")
    _hide_empty(axes, cells)
    _legend(fig, axes[next(iter(cells))])
    fig.suptitle(title)
    return fig


def plot_filler_gap(data: pd.DataFrame, title: str, stem: Path) -> list[Path]:
    """Draw the filler-gap figure and write it as PNG and PDF; returns the paths."""
    with style() as plt:
        return save(filler_gap_figure(plt, data, title), stem)


def _filler_gap_panel(ax, sub: pd.DataFrame, panel: str) -> None:
    gaps = list(GAP_TICKS)
    for filler, style_kw in FILLER_STYLES.items():
        line = sub[sub["filler"] == filler].set_index("gap").loc[gaps]
        ax.errorbar([0, 1], line["mean"], yerr=line["se"], capsize=3, label=filler, **style_kw)
    ax.set_xticks([0, 1], [GAP_TICKS[g] for g in gaps])
    ax.set_xlim(-0.35, 1.35)
    ax.set_title(panel)
    ax.set_ylabel(sub["scale"].iloc[0])
    ax.grid(axis="y", alpha=0.3)
