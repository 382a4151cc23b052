"""End to end: `bench report` and `bench compare` on the synthetic fixture runs."""

import shutil

import pandas as pd
import pytest
from typer.testing import CliRunner

from benchmark.cli import app
from benchmark.report.api import compare, write_report
from benchmark.report.errors import ReportError

BOOT = 200


def test_report_files_and_tables(report):
    out = report.parent
    assert report.name == "report.md"
    for name in ("report.html", "tables/paradigms.csv", "tables/variants.csv", "tables/mixed.csv",
                 "tables/interaction.csv", "tables/surprisal.csv",
                 "figures/tiny_gpt.lp.interaction.png", "figures/tiny_gpt.lp.interaction.pdf",
                 "figures/unigram.unigram.interaction.png"):
        assert (out / name).exists(), name
    text = report.read_text()
    for heading in ("### Factorial accuracy, LP", "### Minimal pairs, PenLP", "### By variant level, LP",
                    "### Mixed-effects model, LP", "unigram DD > 0 %", "## Unigram baseline"):
        assert heading in text
    assert "/tmp" not in text and str(out) not in text
    stats = pd.read_csv(out / "tables/paradigms.csv")
    assert set(stats["run"]) == {"tiny_gpt.lp", "unigram.unigram"}
    assert set(stats["measure"]) == {"LP", "PenLP"}
    base = stats[(stats["run"] == "unigram.unigram") & (stats["measure"] == "LP")]
    assert (base["factorial_acc"] == 0).all()
    mixed = pd.read_csv(out / "tables/mixed.csv")
    assert len(mixed) == 5 and (mixed.set_index("paradigm").loc["whether_island", "interaction"] < 0)
    surp = pd.read_csv(out / "tables/surprisal.csv")
    assert surp["item_id"].nunique() == 2  # one lowest- and one highest-DD item, nothing else
    assert len(list(out.glob("figures/*.item.*.png"))) == 2
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 2 + 2  # two interaction grids, two items
    assert "<table>" in html


def test_report_is_deterministic(suite, report, tmp_path):
    again = write_report([suite / "tiny_gpt.lp"], out_dir=tmp_path / "again", n_extreme=1, n_resamples=BOOT)
    for rel in ("report.md", "tables/paradigms.csv", "tables/mixed.csv", "tables/interaction.csv",
                "tables/surprisal.csv", "figures/tiny_gpt.lp.interaction.png"):
        assert (again.parent / rel).read_bytes() == (report.parent / rel).read_bytes(), rel


def test_masked_runs_are_labelled_with_their_scorer(suite, tmp_path):
    path = write_report([suite / "tiny_bert.pll-word-l2r"], out_dir=tmp_path / "r",
                        items=["complex_np_island-00002"], n_resamples=50)
    text = path.read_text()
    assert "### Factorial accuracy, PLL-word-l2r (LP)" in text
    assert "### Minimal pairs, PLL-word-l2r (PenLP)" in text
    assert len(list((tmp_path / "r" / "figures").glob("*.item.*.png"))) == 1


def test_compare_tables_and_chart(suite, tmp_path):
    path = compare([suite / "tiny_gpt.lp", suite / "tiny_bert.pll-word-l2r", suite / "unigram.unigram"],
                   tmp_path / "cmp", n_resamples=BOOT)
    text = path.read_text()
    header = next(line for line in text.splitlines() if line.startswith("| island"))
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "island", "tiny_gpt (LP)", "tiny_bert (PLL-word-l2r)", "unigram"]
    assert "tiny_gpt (PenLP)" in text and "tiny_bert (PLL-word-l2r, PenLP)" in text
    chart = pd.read_csv(tmp_path / "cmp/tables/compare_chart.csv")
    tidy = pd.read_csv(tmp_path / "cmp/tables/compare.csv")
    lp = tidy[tidy["measure"] == "LP"].set_index(["run", "paradigm"])["factorial_acc"]
    for row in chart.itertuples():
        assert row.factorial_acc == pytest.approx(lp[row.run, row.paradigm])
        assert row.lo <= row.factorial_acc <= row.hi
    assert set(chart["paradigm"]) >= {"whether_island", "average"}
    assert (tmp_path / "cmp/figures/compare.png").exists() and (tmp_path / "cmp/compare.html").exists()


def test_cli_errors_are_one_line_with_exit_code_2(suite, tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["report", str(tmp_path / "missing")])
    assert result.exit_code == 2
    assert "not a folder" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1

    broken = tmp_path / "broken.lp"
    shutil.copytree(suite / "tiny_gpt.lp", broken)
    (broken / "items.csv").unlink()
    result = runner.invoke(app, ["report", str(broken)])
    assert result.exit_code == 2 and "missing items.csv" in result.output
    assert not (broken / "report").exists()

    result = runner.invoke(app, ["compare", str(suite)])
    assert result.exit_code == 2 and "not a run folder" in result.output


def test_failed_report_leaves_no_half_written_folder(suite, tmp_path):
    out = tmp_path / "out"
    with pytest.raises(ReportError):
        write_report([suite / "tiny_gpt.lp"], out_dir=out, items=["no-such-item"], n_resamples=20)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_default_output_folders(suite):
    path = write_report([suite / "tiny_gpt.lp", suite / "tiny_bert.pll-word-l2r"], n_extreme=0, n_resamples=20)
    assert path == suite / "report" / "report.md"
    text = path.read_text()
    assert "## tiny_gpt: LP" in text and "## tiny_bert: PLL-word-l2r" in text
    shutil.rmtree(suite / "report")
