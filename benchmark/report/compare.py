"""`bench compare`: several models side by side, in the layout of published comparison tables
(paradigms as rows, models as columns), and a grouped bar chart with bootstrap CIs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .amelioration import amelioration_frame, run_ameliorations
from .crosslang import CSV as CROSSLANG_CSV
from .crosslang import crosslang_blocks, crosslang_frame
from .pairs import CSV as PAIRS_CSV
from .pairs import pairs_frame
from .document import Block, Figure, Heading, Table, Text
from .html import render_html
from .load import TABLE_MEASURES, Run, order_paradigms, paradigm_label
from .markdown import render_markdown
from .output import write_csv
from .summary import AVERAGE, GroupStats, paradigm_stats, stats_frame
from .licensing import est, licensing_frame
from .tables import DASH, pct, with_ci

MAIN_MEASURE = "LP"


def column_label(run: Run, measure: str = MAIN_MEASURE) -> str:
    """'gemma3_270m (LP)', 'gemma3_270m (PenLP)', 'bert_xxl (PLL-word-l2r)',
    'bert_xxl (PLL-word-l2r, PenLP)', 'unigram', 'unigram (PenLP)'."""
    if run.info.scorer == "lp":
        tag = measure
    elif run.is_baseline:
        tag = "" if measure == "LP" else measure
    else:
        tag = run.scorer_label if measure == "LP" else f"{run.scorer_label}, {measure}"
    return f"{run.info.model} ({tag})" if tag else run.info.model


def unique_labels(runs: list[Run], measure: str) -> list[str]:
    labels = [column_label(r, measure) for r in runs]
    for i, run in enumerate(runs):
        if labels.count(labels[i]) > 1:
            labels[i] = f"{labels[i]} [{run.info.suite_name or run.path.parent.name}]"
    return labels


def build_comparison(runs: list[Run], out: Path, seed: int, n_resamples: int) -> Path:
    _distinct_names(runs)
    if all(r.items.empty for r in runs):  # a filler-gap or minimal-pair suite only: no island tables
        suites = sorted({r.info.suite_name or r.path.parent.name for r in runs})
        blocks = [Heading(f"Model comparison: {', '.join(suites)}", 1),
                  *_licensing_blocks(runs, seed, n_resamples, out / "tables"),
                  *_pairs_blocks(runs, seed, n_resamples, out),
                  *_crosslang_blocks(runs, out, seed, n_resamples)]
        (out / "compare.md").write_text(render_markdown(blocks), encoding="utf-8")
        (out / "compare.html").write_text(render_html(blocks, out, "Model comparison"), encoding="utf-8")
        return out / "compare.md"
    stats = {(r.name, m): paradigm_stats(r, m, n_resamples, seed)
             for r in runs for m in TABLE_MEASURES if m in set(r.items["measure"])}
    paradigms = order_paradigms({p for r in runs for p in r.paradigms}) + [AVERAGE]
    main_labels = unique_labels(runs, MAIN_MEASURE)

    factorial = _grid(stats, paradigms, [(r, MAIN_MEASURE, lab) for r, lab in zip(runs, main_labels)],
                      "factorial_acc")
    labels = {m: unique_labels(runs, m) for m in TABLE_MEASURES}
    pair_columns = [(r, m, labels[m][k]) for k, r in enumerate(runs) for m in TABLE_MEASURES]
    pairs = _grid(stats, paradigms, pair_columns, "mp_mean")
    chart = _chart_data(runs, stats, paradigms, main_labels)

    tables = out / "tables"
    write_csv(_tidy(stats, runs), tables / "compare.csv")
    write_csv(chart, tables / "compare_chart.csv")
    _plot(chart, out / "figures" / "compare")

    suites = sorted({r.info.suite_name or r.path.parent.name for r in runs})
    blocks: list[Block] = [Heading(f"Model comparison: {', '.join(suites)}", 1)]
    blocks += _licensing_blocks(runs, seed, n_resamples, tables)
    blocks += [
        Text("Factorial accuracy (% of items with DD > 0) per island; columns are labelled by the "
             "measure each model was scored with (LP for causal models, PLL / PLL-word-l2r for masked "
             f"ones). 95% bootstrap intervals ({n_resamples} resamples, seed {seed}) are in "
             "`tables/compare.csv` and in the chart."),
        Heading("Factorial accuracy, DD > 0 (%)"),
        factorial,
        Heading("Minimal pairs, mean of SN > LI, LN > LI, SI > LI (%)"),
        pairs,
        Heading("Chart"),
        Figure("figures/compare.png", "Factorial accuracy per island with 95% bootstrap intervals",
               "figures/compare.pdf"),
    ]
    blocks += _amelioration_blocks(runs, seed, n_resamples, tables)
    blocks += _pairs_blocks(runs, seed, n_resamples, out)
    blocks += _crosslang_blocks(runs, out, seed, n_resamples)
    (out / "compare.md").write_text(render_markdown(blocks), encoding="utf-8")
    (out / "compare.html").write_text(render_html(blocks, out, "Model comparison"), encoding="utf-8")
    return out / "compare.md"


def _distinct_names(runs: list[Run]) -> None:
    """Runs of one model on two suites (an Italian and an English one) share a folder name:
    tell them apart by their suite."""
    names = [r.name for r in runs]
    for run in runs:
        if names.count(run.name) > 1:
            run.name = f"{run.info.suite_name or run.path.parent.name}/{run.name}"


def _pairs_blocks(runs: list[Run], seed: int, n_resamples: int, out: Path) -> list[Block]:
    """Imported minimal pairs (BLiMP): pair accuracy (LP) per paradigm, one column per model."""
    frames = [pairs_frame(r, n_resamples, seed) for r in runs if not r.pairs.empty]
    if not frames:
        return []
    frame = pd.concat(frames, ignore_index=True)
    write_csv(frame, out / PAIRS_CSV)
    runs_with = [r for r in runs if not r.pairs.empty]
    labels = dict(zip((r.name for r in runs), unique_labels(runs, MAIN_MEASURE)))
    main = frame[frame["measure"] == MAIN_MEASURE]
    rows = []
    for paradigm in sorted(main["paradigm"].unique()):
        cells = [paradigm]
        for run in runs_with:
            hit = main[(main["run"] == run.name) & (main["paradigm"] == paradigm)]
            cells.append(with_ci(est(hit.iloc[0], "accuracy")) if len(hit) else DASH)
        rows.append(tuple(cells))
    return [Heading("Minimal pairs (imported), good > bad (%)"),
            Table(("paradigm", *(labels[r.name] for r in runs_with)), tuple(rows), PAIRS_CSV)]


def _crosslang_blocks(runs: list[Run], out: Path, seed: int, n_resamples: int) -> list[Block]:
    """One model on suites of two languages: the difference, island by island."""
    frame = crosslang_frame(runs, n_resamples, seed)
    if frame.empty:
        return []
    write_csv(frame, out / CROSSLANG_CSV)
    return crosslang_blocks(frame, runs, out, n_resamples, seed)


def _licensing_blocks(runs: list[Run], seed: int, n_resamples: int, tables: Path) -> list[Block]:
    """Filler-gap licensing per model, above the island tables: the baseline they rest on."""
    frames = [licensing_frame(r, n_resamples, seed) for r in runs if not r.licensing.empty]
    if not frames:
        return []
    frame = pd.concat(frames, ignore_index=True)
    write_csv(frame, tables / "compare_licensing.csv")
    labels = dict(zip((r.name for r in runs), unique_labels(runs, MAIN_MEASURE)))
    rows = tuple((labels[r["run"]], paradigm_label(r["paradigm"]),
                  "whole sentence" if r["measure"] == "LP" else "after the gap", str(int(r["n"])),
                  with_ci(est(r, "licensing_acc")), with_ci(est(r, "mean_licensing"), 2))
                 for _, r in frame.iterrows())
    return [Heading("Filler-gap licensing"),
            Text("Licensing = [S(wh_gap) − S(that_gap)] − [S(wh_nogap) − S(that_nogap)]; positive = the model "
                 "expects a gap after a wh-filler. Island results mean little for a model that fails here."),
            Table(("model", "paradigm", "scored on", "n", "licensing > 0 % [95% CI]", "mean [95% CI]"), rows,
                  "tables/compare_licensing.csv")]


def _amelioration_blocks(runs: list[Run], seed: int, n_resamples: int, tables: Path) -> list[Block]:
    """Islands x contrasts as rows, one column per model (LP); only when a run crosses
    item-matched factors. `tables/amelioration.csv` holds every measure."""
    found = {r.name: run_ameliorations(r, n_resamples, seed) for r in runs}
    if not any(found.values()):
        return []
    frames = []
    for run in (r for r in runs if found[r.name]):
        frame = amelioration_frame(found[run.name])
        frame.insert(1, "column", [column_label(run, m) for m in frame["measure"]])
        frames.append(frame)
    write_csv(pd.concat(frames, ignore_index=True), tables / "amelioration.csv")
    main = [{(a.info.name, a.contrast): a for a in found[r.name] if a.measure == MAIN_MEASURE} for r in runs]
    rows = {}
    for table in main:
        for key, a in table.items():
            rows.setdefault(key, a)  # label and order from the first run that has the row
    order = sorted(rows, key=lambda key: rows[key].order())
    labels = unique_labels(runs, MAIN_MEASURE)
    return [Heading("Amelioration: what rescues an island"),
            Text("Each cell of the item-matched factors minus the reference cell (every factor at its first "
                 "level alphabetically: filler=bare, gap=gap), paired over the matched sets that hold both, "
                 f"with 95% paired bootstrap intervals over sets ({MAIN_MEASURE}; every measure and the values "
                 "at each cell are in `tables/amelioration.csv`). A negative Δ mean DD means the change "
                 "shrinks the island effect (amelioration). Islands from weak to strong."),
            Heading("Δ mean DD, level − reference [95% CI]", 3),
            _amelioration_grid(order, rows, main, labels, "diff_DD", 2),
            Heading("Δ DD > 0, level − reference (points) [95% CI]", 3),
            _amelioration_grid(order, rows, main, labels, "diff_acc", 1)]


def _amelioration_grid(order, rows: dict, main: list[dict], labels: list[str], stat: str, digits: int) -> Table:
    body = tuple((rows[key].island, rows[key].contrast,
                  *(with_ci(getattr(table[key], stat), digits) if key in table else DASH for table in main))
                 for key in order)
    return Table(("island", "contrast", *labels), body, "tables/amelioration.csv")


def _lookup(stats, run: Run, measure: str) -> dict[str, GroupStats]:
    return {g.paradigm: g for g in stats.get((run.name, measure), [])}


def _grid(stats, paradigms, columns, stat: str) -> Table:
    """Paradigms as rows; one column per (run, measure, label)."""
    body = []
    for paradigm in paradigms:
        row = ["**average**" if paradigm == AVERAGE else paradigm_label(paradigm)]
        for run, measure, _ in columns:
            g = _lookup(stats, run, measure).get(paradigm)
            row.append(pct(g.stat(stat)) if g else DASH)
        body.append(tuple(row))
    return Table(("island", *(label for _, _, label in columns)), tuple(body), "tables/compare.csv")


def _chart_data(runs, stats, paradigms, labels) -> pd.DataFrame:
    rows = []
    for run, label in zip(runs, labels):
        table = _lookup(stats, run, MAIN_MEASURE)
        for paradigm in paradigms:
            g = table.get(paradigm)
            if g is not None:
                est = g.factorial_acc
                rows.append({"model": label, "run": run.name, "paradigm": paradigm,
                             "factorial_acc": est.value, "lo": est.lo, "hi": est.hi})
    return pd.DataFrame(rows, columns=["model", "run", "paradigm", "factorial_acc", "lo", "hi"])


def _tidy(stats, runs: list[Run]) -> pd.DataFrame:
    frames = []
    for run in runs:
        for measure in TABLE_MEASURES:
            rows = stats.get((run.name, measure))
            if rows:
                frame = stats_frame(rows)
                frame.insert(1, "column", column_label(run, measure))
                frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _plot(chart: pd.DataFrame, stem: Path) -> list[Path]:
    from .figures import save, style

    paradigms = list(dict.fromkeys(chart["paradigm"]))
    models = list(dict.fromkeys(chart["model"]))
    width = 0.8 / max(len(models), 1)
    with style() as plt:
        fig, ax = plt.subplots(figsize=(min(12.0, max(6.0, 1.3 * len(paradigms) * max(1, len(models) / 2))), 3.8))
        cmap = plt.get_cmap("tab10")
        for k, model in enumerate(models):
            sub = chart[chart["model"] == model].set_index("paradigm").reindex(paradigms)
            x = np.arange(len(paradigms)) + (k - (len(models) - 1) / 2) * width
            err = np.vstack([sub["factorial_acc"] - sub["lo"], sub["hi"] - sub["factorial_acc"]])
            ax.bar(x, sub["factorial_acc"], width * 0.95, yerr=err, capsize=2, label=model, color=cmap(k % 10))
        ax.set_xticks(np.arange(len(paradigms)),
                      ["average" if p == AVERAGE else paradigm_label(p) for p in paradigms])
        ax.set_ylim(0, 105)
        ax.axhline(50, color="#888888", lw=0.8, ls=":")
        ax.set_ylabel("DD > 0, % of items")
        ax.legend(frameon=False, fontsize=8, ncols=min(len(models), 4), loc="upper center",
                  bbox_to_anchor=(0.5, -0.12))
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        return save(fig, stem)
