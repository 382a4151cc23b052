"""Across languages: one model's runs on suites of two languages (`gen build --language all`),
compared paradigm by paradigm (the Italian whether island with the English one).

For each model, island and dependency: DD > 0 (% of items) and mean DD in each language, and
the difference between the first language and the second (Italian − English) with a 95%
percentile bootstrap interval, the items resampled within each language independently;
the filler-gap licensing likewise. One interaction plot per island shows both languages:
the mean log-probability of each condition relative to the short non-island one.
Every item of a paradigm counts: compare runs of default suites (a `--vary` suite mixes its
levels here; the amelioration table is where levels are compared).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd

from ..factorial import DD_TOLERANCE
from .bootstrap import Bootstrap, Estimate, bootstrap_means, rng_for
from .document import Block, Figure, Heading, Table, Text
from .load import Run, layout_key, table_label
from .tables import with_ci

MEASURE = "LP"
CSV = "tables/crosslang.csv"
LANGUAGE_ORDER = ("it", "en")  # the difference is the first minus the second
LANGUAGE_NAMES = {"it": "Italian", "en": "English"}
CONDITIONS = ("SN", "LN", "SI", "LI")


def _language_rank(code: str) -> tuple:
    return (LANGUAGE_ORDER.index(code) if code in LANGUAGE_ORDER else len(LANGUAGE_ORDER), code)


def language_pairs(runs: list[Run]) -> list[tuple[Run, Run]]:
    """Runs of one model and scorer on suites of two languages, first language first."""
    by_model: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        if not run.is_baseline:
            by_model.setdefault((run.info.model, run.info.scorer), []).append(run)
    pairs = []
    for group in by_model.values():
        ordered = sorted(group, key=lambda r: _language_rank(r.info.language))
        for a, b in itertools.combinations(ordered, 2):
            if a.info.language != b.info.language:
                pairs.append((a, b))
    return pairs


def _values(run: Run, paradigm: str) -> tuple[str, np.ndarray]:
    """'DD' or 'licensing', and the items' values of it, for one paradigm."""
    items = run.measure_items(MEASURE)
    sub = items[items["paradigm"] == paradigm]
    if len(sub):
        return "DD", sub["DD"].to_numpy(dtype=float)
    lic = run.licensing[(run.licensing["measure"] == MEASURE) & (run.licensing["paradigm"] == paradigm)]
    return "licensing", lic["licensing"].to_numpy(dtype=float)


def crosslang_frame(runs: list[Run], n_resamples: int, seed: int) -> pd.DataFrame:
    records = []
    for a, b in language_pairs(runs):
        shared = sorted(set(_paradigms(a)) & set(_paradigms(b)), key=lambda p: layout_key(a.info_of(p)))
        for paradigm in shared:
            kind, va = _values(a, paradigm)
            _, vb = _values(b, paradigm)
            boots = [bootstrap_means(np.column_stack([(v > DD_TOLERANCE) * 100.0, v]), n_resamples,
                                     rng_for(seed, "crosslang", r.info.model, r.info.language, paradigm))
                     for r, v in ((a, va), (b, vb))]
            # a − b: independent resamples of each language, so the replicates subtract
            diff = Bootstrap(boots[0].point - boots[1].point, boots[0].replicates - boots[1].replicates).estimates()
            info = a.info_of(paradigm)
            rec = {"model": a.info.model, "scorer": a.info.scorer, "paradigm": paradigm, "label": info.label,
                   "dependency": info.dependency, "statistic": kind, "lang_a": a.info.language,
                   "lang_b": b.info.language, "n_a": len(va), "n_b": len(vb)}
            for name, (ea, eb), ed in zip(("positive", "mean"),
                                          zip(boots[0].estimates(), boots[1].estimates()), diff):
                for tag, est in (("a", ea), ("b", eb), ("diff", ed)):
                    rec[f"{name}_{tag}"], rec[f"{name}_{tag}_lo"], rec[f"{name}_{tag}_hi"] = est.value, est.lo, est.hi
            records.append(rec)
    return pd.DataFrame.from_records(records)


def _paradigms(run: Run) -> list[str]:
    return [*run.measure_items(MEASURE)["paradigm"].unique(),
            *run.licensing[run.licensing["measure"] == MEASURE]["paradigm"].unique()]


def _est(row: dict, name: str) -> Estimate:
    return Estimate(row[name], row[f"{name}_lo"], row[f"{name}_hi"])


def crosslang_blocks(frame: pd.DataFrame, runs: list[Run], out: Path, n_resamples: int, seed: int) -> list[Block]:
    if frame.empty:
        return []
    blocks: list[Block] = [
        Heading("Across languages"),
        Text("The same model on the suites of two languages, paradigm by paradigm: DD > 0 (% of items; "
             "for the filler-gap baseline, licensing > 0) and the mean DD (mean licensing) in each "
             f"language, and their difference, first language minus second, with 95% percentile bootstrap "
             f"intervals ({n_resamples} resamples, seed {seed}; items resampled within each language). "
             f"Measure: {MEASURE}. Numbers in `{CSV}`."),
    ]
    for (model, lang_a, lang_b), sub in frame.groupby(["model", "lang_a", "lang_b"], sort=False):
        a, b = LANGUAGE_NAMES.get(lang_a, lang_a), LANGUAGE_NAMES.get(lang_b, lang_b)
        rows = []
        for r in sub.to_dict("records"):
            rows.append((f"{r['label']}, {r['dependency']}" if r["statistic"] == "DD" else f"{r['label']} (licensing)",
                         f"{int(r['n_a'])} / {int(r['n_b'])}",
                         with_ci(_est(r, "positive_a")), with_ci(_est(r, "positive_b")), with_ci(_est(r, "positive_diff")),
                         with_ci(_est(r, "mean_a"), 2), with_ci(_est(r, "mean_b"), 2), with_ci(_est(r, "mean_diff"), 2)))
        blocks += [Heading(f"{model}: {a} and {b}", 3),
                   Table(("island, dependency", "items", f"> 0 {a} (%)", f"> 0 {b} (%)", f"{a} − {b} (points)",
                          f"mean {a}", f"mean {b}", f"{a} − {b}"), tuple(rows), CSV)]
    blocks += _interaction_figures(runs, out)
    return blocks


def _condition_means(run: Run, paradigm: str) -> np.ndarray:
    """Mean LP of LN, SI, LI minus SN, per item, then averaged: the four points of the plot."""
    items = run.measure_items(MEASURE)
    sub = items[items["paradigm"] == paradigm]
    values = sub[list(CONDITIONS)].to_numpy(dtype=float)
    return (values - values[:, :1]).mean(axis=0)


def _interaction_figures(runs: list[Run], out: Path) -> list[Block]:
    """One figure per island (label), a panel per model and dependency, both languages."""
    from .figures import save, style

    pairs = language_pairs(runs)
    islands: dict[str, list[str]] = {}
    for a, b in pairs:
        for paradigm in sorted(set(a.measure_items(MEASURE)["paradigm"]) & set(b.measure_items(MEASURE)["paradigm"]),
                               key=lambda p: layout_key(a.info_of(p))):
            islands.setdefault(a.info_of(paradigm).label, [])
            if paradigm not in islands[a.info_of(paradigm).label]:
                islands[a.info_of(paradigm).label].append(paradigm)
    blocks: list[Block] = []
    for label, paradigms in islands.items():
        panels = [(a, b, p) for a, b in pairs for p in paradigms]
        with style() as plt:
            fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels), 3.0), squeeze=False, sharey=True)
            for ax, (a, b, paradigm) in zip(axes[0], panels):
                for run, color in ((a, "#1f77b4"), (b, "#d62728")):
                    sn, ln, si, li = _condition_means(run, paradigm)
                    name = LANGUAGE_NAMES.get(run.info.language, run.info.language)
                    ax.plot([0, 1], [sn, ln], color=color, marker="o", label=f"{name}, non-island")
                    ax.plot([0, 1], [si, li], color=color, marker="s", ls="--", label=f"{name}, island")
                ax.set_xticks([0, 1], ["short", "long"])
                ax.set_title(f"{a.info.model}: {table_label(a.info_of(paradigm))}")
                ax.grid(alpha=0.3)
            axes[0][0].set_ylabel("mean LP − LP of short non-island")
            axes[0][-1].legend(frameon=False, fontsize=7)
            fig.tight_layout()
            slug = label.replace(" ", "_").replace("(", "").replace(")", "")
            save(fig, out / "figures" / f"crosslang_{slug}")
        blocks.append(Figure(f"figures/crosslang_{slug}.png",
                             f"{label}: both languages, each condition's mean LP relative to the short non-island one "
                             "(parallel lines: no island effect)", f"figures/crosslang_{slug}.pdf"))
    return blocks
