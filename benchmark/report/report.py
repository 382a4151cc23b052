"""Assemble the report of one or more runs: statistics, tables, figures, report.md and
report.html, written into a folder (the caller makes that folder appear atomically)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import interaction, mixed, surprisal
from .amelioration import Amelioration, amelioration_blocks, amelioration_frame, run_ameliorations
from .licensing import licensing_blocks, licensing_frame
from .pairs import CSV as PAIRS_CSV
from .pairs import pairs_blocks, pairs_frame
from .document import Block, Bullets, Figure, Heading, Table, Text
from .html import render_html
from .load import TABLE_MEASURES, Run
from .markdown import render_markdown
from .output import safe_name, write_csv
from .summary import (GroupStats, LevelDifference, differences_frame, paradigm_stats, stats_frame,
                      variant_differences, variant_stats)
from .tables import (difference_table, factorial_table, label_columns, minimal_pair_table, mixed_table,
                     variant_table)

MAIN_MEASURE = "LP"  # sentence score for mixed models, interaction plots and item titles


@dataclass(frozen=True)
class ReportOptions:
    items: tuple[str, ...] = ()
    n_extreme: int = 2
    n_resamples: int = 1000
    seed: int = 0


@dataclass
class _Collected:
    stats: list[GroupStats]
    variants: list[GroupStats]
    mixed: list[mixed.MixedResult]
    interaction: list[pd.DataFrame]
    surprisal: list[pd.DataFrame]
    licensing: list[pd.DataFrame]
    pairs: list[pd.DataFrame]
    differences: list[LevelDifference]
    amelioration: list[Amelioration] = field(default_factory=list)
    filler_gap: list[pd.DataFrame] = field(default_factory=list)


def build_report(runs: list[Run], baseline: Run | None, out: Path, opts: ReportOptions) -> Path:
    got = _Collected([], [], [], [], [], [], [], [])
    base_stats = _baseline_stats(baseline, opts, got)
    base_licensing = None
    base_pairs = pairs_frame(baseline, opts.n_resamples, opts.seed) if baseline is not None else None
    if baseline is not None and not baseline.licensing.empty:
        base_licensing = licensing_frame(baseline, opts.n_resamples, opts.seed)
        got.licensing.append(base_licensing)
    blocks: list[Block] = _header(runs, baseline, opts)
    for run in runs:
        blocks += _run_section(run, base_stats, base_licensing, out, opts, got)
        if not run.pairs.empty:
            frame = pairs_frame(run, opts.n_resamples, opts.seed)
            got.pairs.append(frame)
            blocks += pairs_blocks(frame, base_pairs)
    if baseline is not None:
        blocks += _baseline_section(baseline, out, got)
    _write_tables(got, out, {r.name: r for r in [*runs, baseline] if r is not None})
    blocks += [Heading("Files"), Bullets((
        "`tables/paradigms.csv`: every factorial and minimal-pair statistic with its CI",
        "`tables/licensing.csv`: the filler-gap licensing statistics with their CIs",
        "`tables/pairs.csv`: imported minimal pairs (BLiMP): pair accuracy and mean difference with their CIs",
        "`tables/variants.csv`: the same per variant level",
        "`tables/differences.csv`: level − reference level, paired over matched sets (varied builds)",
        "`tables/amelioration.csv`: each filler / gap cell − the reference cell per island (crossed builds)",
        "`tables/mixed.csv`: mixed-effects interaction terms and the fit's warnings",
        "`tables/interaction.csv`: the data behind the interaction plots",
        "`tables/filler_gap.csv`: the data behind the filler-gap plots",
        "`tables/surprisal.csv`: the data behind the token-surprisal plots",
        "`figures/`: every figure as PNG and PDF",
    ))]
    title = f"Island report: {runs[0].info.suite_name or runs[0].path.parent.name}"
    (out / "report.md").write_text(render_markdown(blocks), encoding="utf-8")
    (out / "report.html").write_text(render_html(blocks, out, title), encoding="utf-8")
    return out / "report.md"


def _header(runs: list[Run], baseline: Run | None, opts: ReportOptions) -> list[Block]:
    suite = runs[0].info.suite_name or runs[0].path.parent.name
    listed = runs + ([baseline] if baseline is not None else [])
    rows = tuple(
        (r.name, r.info.model_id, r.info.kind, r.scorer_label, str(r.info.n_items or r.items["item_id"].nunique()),
         r.info.dtype, r.info.device, _fmt(r.info.seconds, 1), _fmt(r.info.sentences_per_s, 1))
        for r in listed)
    base_note = (f"Syntax-blind baseline: `{baseline.name}` (unigram frequencies)." if baseline is not None
                 else "No unigram baseline run was found next to the run folder(s); "
                      "score one with `bench run` to see how much of the suite is solvable without syntax.")
    return [
        Heading(f"Island report: {suite}", 1),
        Table(("run", "model", "kind", "scorer", "items", "dtype", "device", "seconds", "sentences/s"), rows),
        Text(base_note),
        Text("Per item, DD = S(LN) + S(SI) − S(SN) − S(LI) (natural-log scores, higher = more "
             "acceptable); factorial accuracy is the share of items with DD > 0. Minimal pairs: the "
             "grammatical sentence scores strictly higher than the long-island one. Intervals are 95% "
             f"percentile bootstrap intervals over items ({opts.n_resamples} resamples, seed {opts.seed}); "
             "the average row is the unweighted mean over paradigms, its interval from the same "
             "resamples (stratified by paradigm)."),
    ]


def _baseline_stats(baseline: Run | None, opts: ReportOptions, got: _Collected) -> dict[str, dict[str, GroupStats]]:
    if baseline is None:
        return {}
    out = {}
    for measure in TABLE_MEASURES:
        rows = paradigm_stats(baseline, measure, opts.n_resamples, opts.seed)
        got.stats += rows
        out[measure] = {r.paradigm: r for r in rows}
    return out


def _run_section(run: Run, base_stats: dict, base_licensing: pd.DataFrame | None, out: Path,
                 opts: ReportOptions, got: _Collected) -> list[Block]:
    blocks: list[Block] = [Heading(f"{run.info.model}: {run.scorer_label}")]
    if not run.licensing.empty:  # the baseline the island results rest on comes first
        frame = licensing_frame(run, opts.n_resamples, opts.seed)
        got.licensing.append(frame)
        blocks += licensing_blocks(frame, base_licensing, run.info_of)
        blocks += _filler_gap_blocks(run, out, got)
        differences = variant_differences(run, MAIN_MEASURE, opts.n_resamples, opts.seed,
                                          run.licensing, "licensing")
        if differences:
            got.differences += differences
            blocks += [Text("Differences between variant levels, paired over matched sets:"),
                       difference_table(differences, "tables/differences.csv", run.info_of)]
    if run.items.empty:
        return blocks
    for measure in TABLE_MEASURES:
        if measure not in set(run.items["measure"]):
            blocks.append(Text(f"No {measure} rows in items.csv."))
            continue
        label = run.measure_label(measure)
        rows = paradigm_stats(run, measure, opts.n_resamples, opts.seed)
        got.stats += rows
        blocks += [Heading(f"Factorial accuracy, {label}", 3),
                   factorial_table(rows, base_stats.get(measure, {}), "tables/paradigms.csv", run.info_of),
                   Heading(f"Minimal pairs, {label}", 3),
                   minimal_pair_table(rows, "tables/paradigms.csv", run.info_of)]
        variants = variant_stats(run, measure, opts.n_resamples, opts.seed)
        if variants:
            got.variants += variants
            blocks += [Heading(f"By variant level, {label}", 3),
                       variant_table(variants, "tables/variants.csv", run.info_of)]
        differences = variant_differences(run, measure, opts.n_resamples, opts.seed)
        if differences:
            got.differences += differences
            blocks += [Heading(f"Differences between variant levels, {label}", 3),
                       Text("Each level minus the reference level on the same matched sets (built with "
                            "`gen build --vary FACTOR`), with a paired bootstrap over sets."),
                       difference_table(differences, "tables/differences.csv", run.info_of)]
    amelioration = run_ameliorations(run, opts.n_resamples, opts.seed)
    got.amelioration += amelioration
    blocks += amelioration_blocks(run, amelioration)
    blocks += _mixed_blocks(run, got)
    blocks += _interaction_blocks(run, out, got)
    blocks += _surprisal_blocks(run, out, opts, got)
    return blocks


def _mixed_blocks(run: Run, got: _Collected) -> list[Block]:
    results = [mixed.fit_interaction(run, p, MAIN_MEASURE) for p in run.paradigms]
    got.mixed += results
    label = run.measure_label(MAIN_MEASURE)
    blocks: list[Block] = [
        Heading(f"Mixed-effects model, {label}", 3),
        Text("`score ~ length × structure + (1 | item)` per paradigm (statsmodels MixedLM, REML); "
             "length = 1 for long / subject-gap conditions, structure = 1 for island conditions, so the "
             "interaction is −DD on average: negative = super-additive island penalty."),
        mixed_table(results, {MAIN_MEASURE: label}, "tables/mixed.csv", run.info_of),
    ]
    notes = [f"{r.paradigm}: {w}" for r in results for w in r.warnings]
    notes += [f"{r.paradigm}: fit failed ({r.error})" for r in results if r.error]
    notes += [f"{r.paradigm}: the optimiser did not converge" for r in results if not r.converged and not r.error]
    if notes:
        blocks += [Text("Warnings raised while fitting:"), Bullets(tuple(notes))]
    return blocks


def _figure_title(run: Run) -> str:
    label = run.measure_label(MAIN_MEASURE)
    return label if label.startswith(run.info.model) else f"{run.info.model}, {label}"


def _interaction_blocks(run: Run, out: Path, got: _Collected) -> list[Block]:
    data = interaction.interaction_data(run, MAIN_MEASURE)
    if data.empty:
        return []
    got.interaction.append(data)
    stem = out / "figures" / f"{safe_name(run.name)}.interaction"
    interaction.plot_interactions(data, f"{_figure_title(run)}: 7-point bins, z-scored", stem)
    return [Heading("Interaction plots", 3),
            Figure(f"figures/{stem.name}.png", f"{_figure_title(run)}: mean z-score per condition, "
                   "standard-error bars; solid non-island, dashed island. One row per dependency "
                   "(wh-question, relative clause), one column per island, weak islands first.",
                   f"figures/{stem.name}.pdf")]


def _filler_gap_blocks(run: Run, out: Path, got: _Collected) -> list[Block]:
    """The filler x gap figure, under the licensing table it illustrates."""
    data = interaction.filler_gap_data(run, MAIN_MEASURE)
    if data.empty:
        return []
    got.filler_gap.append(data)
    stem = out / "figures" / f"{safe_name(run.name)}.filler_gap"
    interaction.plot_filler_gap(data, f"{_figure_title(run)}: filler × gap", stem)
    caption = (f"{_figure_title(run)}: mean per condition, standard-error bars; solid `that`, dashed `wh`. "
               f"Whole sentence: {run.measure_label(MAIN_MEASURE)} on the 7-point z scale of the interaction "
               "plots (higher = likelier). After the gap: the surprisal summed over the words right after the "
               f"gap (`{interaction.REGION_MEASURE}`, bits; higher = less expected).")
    return [Figure(f"figures/{stem.name}.png", caption, f"figures/{stem.name}.pdf")]


def _surprisal_blocks(run: Run, out: Path, opts: ReportOptions, got: _Collected) -> list[Block]:
    chosen = surprisal.choose_items(run, MAIN_MEASURE, opts.items, opts.n_extreme)
    if not chosen:
        return []
    data = surprisal.surprisal_data(run, chosen)
    data.insert(0, "run", run.name)
    got.surprisal.append(data)
    how = "items asked for" if opts.items else f"the {opts.n_extreme} items with the lowest and the highest DD"
    blocks: list[Block] = [Heading("Token surprisal", 3),
                           Text(f"Surprisal in bits per token for {how}; regions shaded. Effects in the "
                                f"title are {run.measure_label(MAIN_MEASURE)} differences in nats.")]
    for item_id in chosen:
        fx = surprisal.effects(run, MAIN_MEASURE, item_id)
        stem = out / "figures" / f"{safe_name(run.name)}.item.{safe_name(item_id)}"
        surprisal.plot_item(data, fx, run.info.model, run.measure_label(MAIN_MEASURE), stem)
        blocks.append(Figure(f"figures/{stem.name}.png", f"{item_id}: DD {fx.DD:+.2f}", f"figures/{stem.name}.pdf"))
    return blocks


def _baseline_section(baseline: Run, out: Path, got: _Collected) -> list[Block]:
    if baseline.items.empty:
        return []
    rows = [r for r in got.stats if r.run == baseline.name and r.measure == MAIN_MEASURE]
    blocks: list[Block] = [Heading("Unigram baseline"),
                           Text("Word-frequency scores that ignore syntax; on additive items their DD is "
                                "exactly 0, so any accuracy above 0 here comes from non-additive items."),
                           factorial_table(rows, {}, "tables/paradigms.csv", baseline.info_of)]
    return blocks + _interaction_blocks(baseline, out, got)


def _write_tables(got: _Collected, out: Path, runs: dict[str, Run]) -> None:
    """Every CSV; rows naming a paradigm also give its label, dependency and strength."""
    tables = out / "tables"
    write_csv(label_columns(stats_frame(got.stats), runs), tables / "paradigms.csv")
    if got.licensing:
        write_csv(label_columns(pd.concat(got.licensing, ignore_index=True), runs), tables / "licensing.csv")
    if got.pairs:
        write_csv(pd.concat(got.pairs, ignore_index=True), out / PAIRS_CSV)
    write_csv(label_columns(stats_frame(got.variants), runs), tables / "variants.csv")
    if got.differences:
        write_csv(label_columns(differences_frame(got.differences), runs), tables / "differences.csv")
    if got.amelioration:
        write_csv(amelioration_frame(got.amelioration), tables / "amelioration.csv")
    write_csv(label_columns(mixed.mixed_frame(got.mixed), runs), tables / "mixed.csv")
    if got.interaction:
        write_csv(pd.concat(got.interaction, ignore_index=True), tables / "interaction.csv")
    if got.filler_gap:
        write_csv(pd.concat(got.filler_gap, ignore_index=True), tables / "filler_gap.csv")
    surp = pd.concat(got.surprisal, ignore_index=True) if got.surprisal else pd.DataFrame(
        columns=["run", "item_id", "condition", "token_index", "token", "bits", "region"])
    write_csv(surp, tables / "surprisal.csv")


def _fmt(value: float | None, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


__all__ = ["ReportOptions", "build_report", "Table"]
