"""The report's layout from the paradigms' descriptions: the island figure (a row per
dependency, a column per island, no empty panel), the filler-gap figure, and table rows named
'whether (weak), wh' in the figure's order. Built from a synthetic run that holds wh and rc
islands (subject only as rc, adjunct only as wh) and the filler_gap design."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchmark.report import interaction
from benchmark.report.api import write_report
from benchmark.report.figures import style
from benchmark.report.load import load_run
from benchmark.report.summary import paradigm_stats, stats_frame
from benchmark.report.synthetic import SyntheticSpec, write_synthetic_suite
from benchmark.report.tables import factorial_table

BOOT = 50
PARADIGMS = ("whether_island", "whether_island_rc", "complex_np_island", "complex_np_island_rc",
             "subject_island_rc", "adjunct_island_temporal", "filler_gap")
WH_ROWS = ["whether (weak), wh", "complex NP, wh", "adjunct (temporal), wh"]
RC_ROWS = ["whether (weak), rc", "subject (weak), rc", "complex NP, rc"]


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("layout") / "mixed"
    run_dir, _ = write_synthetic_suite(root, SyntheticSpec(items_per_paradigm=12, paradigms=PARADIGMS))
    return run_dir


@pytest.fixture(scope="module")
def drawn(mixed_run, tmp_path_factory) -> tuple[Path, dict]:
    """The report of the mixed run and every figure it drew, by file stem, kept before saving."""
    figures = {}
    real_save = interaction.save

    def keep(fig, stem, pdf=True):
        figures[stem.name] = fig
        return real_save(fig, stem, pdf)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(interaction, "save", keep)
        report = write_report([mixed_run], out_dir=tmp_path_factory.mktemp("r") / "report", n_extreme=0,
                              n_resamples=BOOT)
    return report, figures


def _visible(fig) -> list:
    return [ax for ax in fig.axes if ax.get_visible()]


def _cell(ax) -> tuple[int, int]:
    spec = ax.get_subplotspec()
    return spec.rowspan.start, spec.colspan.start


def _plots_data(ax) -> bool:
    """At least two lines with finite points: something was drawn, not an empty frame."""
    lines = [line for line in ax.get_lines() if np.isfinite(np.asarray(line.get_ydata(), dtype=float)).any()]
    return ax.has_data() and len(lines) >= 2


def test_island_figure_has_a_row_per_dependency_and_no_empty_panel(drawn):
    report, figures = drawn
    fig = figures["tiny_gpt.lp.interaction"]
    shown = _visible(fig)
    assert all(_plots_data(ax) for ax in shown)
    titles = {_cell(ax): ax.get_title() for ax in shown}
    # columns weak islands first; subject has no wh paradigm, adjunct no rc one: those cells are hidden
    assert titles == {(0, 0): "whether (weak)", (0, 2): "complex NP", (0, 3): "adjunct (temporal)",
                      (1, 0): "whether (weak)", (1, 1): "subject (weak)", (1, 2): "complex NP"}
    assert len(fig.axes) - len(shown) == 2
    assert not any("_" in t or "island" in t or "filler" in t for t in titles.values())
    row_names = {_cell(ax)[0]: ax.get_ylabel() for ax in shown if ax.get_ylabel()}
    assert row_names[0].startswith("wh-question") and row_names[1].startswith("relative clause")
    subject = next(ax for ax in shown if ax.get_title() == "subject (weak)")
    assert [t.get_text() for t in subject.get_xticklabels()] == ["object gap", "subject gap"]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["non-island", "island"]
    out = report.parent
    assert all((out / f"figures/tiny_gpt.lp.interaction.{ext}").exists() for ext in ("png", "pdf"))
    data = pd.read_csv(out / "tables/interaction.csv", keep_default_na=False)
    assert "filler_gap" not in set(data["paradigm"])
    rc = data[data["paradigm"] == "whether_island_rc"].iloc[0]
    assert (rc["label"], rc["dependency"], rc["strength"]) == ("whether", "rc", "weak")


def test_filler_gap_figure_has_the_whole_sentence_and_after_the_gap(drawn, mixed_run):
    report, figures = drawn
    fig = figures["tiny_gpt.lp.filler_gap"]
    shown = _visible(fig)
    assert [ax.get_title() for ax in shown] == ["whole sentence", "after the gap"]
    assert all(_plots_data(ax) for ax in shown)
    for ax in shown:
        assert [t.get_text() for t in ax.get_xticklabels()] == ["no gap", "gap"]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["that", "wh"]
    assert "unigram.unigram.filler_gap" not in figures  # the baseline gets a column of the table only
    text = report.read_text()
    assert text.index("Filler-gap licensing") < text.index("tiny_gpt.lp.filler_gap.png") < text.index("Factorial")
    # after the gap: the critical region's summed surprisal in bits, from licensing.csv
    data = pd.read_csv(report.parent / "tables/filler_gap.csv").set_index(["panel", "condition"])
    licensing = load_run(mixed_run).licensing
    region = licensing[licensing["measure"] == "LP@spillover"]
    for cond, column in (("that_nogap", "TN"), ("wh_gap", "WG")):
        assert data.loc[("after the gap", cond), "mean"] == pytest.approx(-region[column].mean() / math.log(2))
    after = data.loc["after the gap", "mean"]
    assert after["that_gap"] > after["that_nogap"] and after["wh_gap"] < after["that_gap"]  # planted


def _first_column(text: str, heading: str) -> list[str]:
    """The first cell of every body row of the table under `heading` in report.md."""
    lines = text[text.index(heading):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| "))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(line.strip("|").split("|")[0].strip())
    return rows


def test_tables_name_islands_with_weak_mark_and_dependency_in_figure_order(drawn, mixed_run):
    report, _ = drawn
    text = report.read_text()
    for heading in ("### Factorial accuracy, LP", "### Minimal pairs, PenLP", "### Mixed-effects model, LP"):
        rows = _first_column(text, heading)
        assert rows[:6] == WH_ROWS + RC_ROWS, heading
    assert _first_column(text, "### By variant level, LP") == ["whether (weak), wh"] * 2
    assert set(_first_column(text, "### Filler-gap licensing")) == {"filler-gap, wh"}
    # the CSV keeps the paradigm names and the numbers, and gains the description
    stats = pd.read_csv(report.parent / "tables/paradigms.csv", keep_default_na=False)
    assert list(stats.columns[:6]) == ["run", "measure", "paradigm", "label", "dependency", "strength"]
    row = stats[(stats["run"] == "tiny_gpt.lp") & (stats["paradigm"] == "subject_island_rc")].iloc[0]
    assert (row["label"], row["dependency"], row["strength"]) == ("subject", "rc", "weak")
    assert (stats.loc[stats["paradigm"] == "average", ["label", "dependency", "strength"]] == "").all().all()
    run = load_run(mixed_run)
    expected = stats_frame(paradigm_stats(run, "LP", BOOT, 0))
    got = stats[(stats["run"] == run.name) & (stats["measure"] == "LP")]
    assert list(got["paradigm"]) == list(expected["paradigm"])
    for column in ("factorial_acc", "mean_DD", "mp_mean_lo"):
        assert np.allclose(got[column], expected[column], rtol=1e-5)
    licensing = pd.read_csv(report.parent / "tables/licensing.csv")
    assert set(licensing["label"]) == {"filler-gap"} and set(licensing["paradigm"]) == {"filler_gap"}


def test_runs_without_descriptions_are_labelled_from_their_names(tmp_path):
    spec = SyntheticSpec(items_per_paradigm=6, paradigms=("complex_np_island", "whether_island_rc", "whether_island"),
                         described=False)
    run = load_run(write_synthetic_suite(tmp_path, spec)[0])
    assert run.described == {} and run.info_of("whether_island").strength is None
    table = factorial_table(paradigm_stats(run, "LP", 20, 0), {}, "tables/paradigms.csv", run.info_of)
    assert [r[0] for r in table.rows] == ["whether, wh", "complex NP, wh", "whether, rc", "**average**"]
    with style() as plt:
        fig = interaction.interaction_figure(plt, interaction.interaction_data(run, "LP"), "old run")
        titles = {_cell(ax): ax.get_title() for ax in _visible(fig)}
        plt.close(fig)
    assert titles == {(0, 0): "whether", (0, 1): "complex NP", (1, 0): "whether"}


def test_the_printed_run_table_marks_weak_islands(capsys):
    """`bench run`'s terminal table names each paradigm's island as the report does."""
    from benchmark.commands import print_table

    stats = {"n": 3, "factorial_acc": 0.5, "mean_DD": 1.0, "mp_SN_LI": 1.0, "mp_LN_LI": 1.0, "mp_SI_LI": 0.0}
    summary = {"run": "m.lp", "measures": {"LP": {"whether_island_rc": stats, "complex_np_island": stats}}}
    described = {"whether_island_rc": {"label": "whether", "dependency": "rc", "design": "island", "strength": "weak"}}
    print_table(summary, summary, described=described)
    out = capsys.readouterr().out
    assert "whether (weak), rc" in out and "complex NP, wh" in out and "complex NP (weak)" not in out
