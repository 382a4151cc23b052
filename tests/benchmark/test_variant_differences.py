"""The report's paired level differences on a `--vary zipf_band` suite: rare − frequent per
matched set, the point estimate recomputed here from items.csv."""

from __future__ import annotations

import csv

import pytest
from typer.testing import CliRunner

from benchmark.cli import app


@pytest.fixture(scope="module")
def varied_suite(tmp_path_factory):
    from generator.build import BuildRequest, build_suite, write_suite
    from generator.paths import GRAMMAR_DIR, LEXICON_DIR
    results, manifest = build_suite(BuildRequest("whether", 12, 0, "zipf_band", dependency="wh"),
                                    LEXICON_DIR, GRAMMAR_DIR)
    out = tmp_path_factory.mktemp("vary") / "zb"
    write_suite(out, results, manifest)
    return out


def test_rare_minus_frequent_is_paired_over_matched_sets(tiny_models, varied_suite, tmp_path):
    out = tmp_path / "results"
    result = CliRunner().invoke(app, ["run", "--model", str(tiny_models["gpt2"]), "--suite", str(varied_suite),
                                      "--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    run = out / "zb" / "gpt2.lp"
    with open(run / "items.csv", newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["measure"] == "LP"]
    dd = {(r["matched_set"], r["variant.zipf_band"]): float(r["DD"]) for r in rows}
    sets = sorted({s for s, _ in dd})
    assert len(sets) == 12
    expected_dd = sum(dd[(s, "rare")] - dd[(s, "frequent")] for s in sets) / len(sets)
    expected_acc = sum(100.0 * ((dd[(s, "rare")] > 1e-9) - (dd[(s, "frequent")] > 1e-9)) for s in sets) / len(sets)

    from benchmark.report.api import write_report
    write_report([run], out_dir=tmp_path / "report", n_resamples=100)
    with open(tmp_path / "report" / "tables" / "differences.csv", newline="", encoding="utf-8") as handle:
        diffs = list(csv.DictReader(handle))
    row = next(d for d in diffs if d["measure"] == "LP" and d["factor"] == "zipf_band")
    assert row["contrast"] == "rare - frequent" and int(row["n_sets"]) == 12
    assert float(row["diff_mean_DD"]) == pytest.approx(expected_dd, abs=1e-3)  # the CSV keeps 4 decimals
    assert float(row["diff_factorial_acc"]) == pytest.approx(expected_acc, abs=1e-3)
    assert float(row["diff_mean_DD_lo"]) <= float(row["diff_mean_DD"]) <= float(row["diff_mean_DD_hi"])
    text = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "Differences between variant levels" in text and "rare − frequent" in text


def test_licensing_differences_for_a_varied_filler_gap_suite(tiny_models, tmp_path):
    from generator.build import BuildRequest, build_suite, write_suite
    from generator.paths import GRAMMAR_DIR, LEXICON_DIR
    results, manifest = build_suite(BuildRequest("filler_gap", 8, 0, "zipf_band"), LEXICON_DIR, GRAMMAR_DIR)
    suite = tmp_path / "fgz"
    write_suite(suite, results, manifest)
    out = tmp_path / "results"
    result = CliRunner().invoke(app, ["run", "--model", str(tiny_models["gpt2"]), "--suite", str(suite),
                                      "--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    run = out / "fgz" / "gpt2.lp"
    with open(run / "licensing.csv", newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["measure"] == "LP"]
    lic = {(r["matched_set"], r["variant.zipf_band"]): float(r["licensing"]) for r in rows}
    sets = sorted({s for s, _ in lic})
    expected = sum(lic[(s, "rare")] - lic[(s, "frequent")] for s in sets) / len(sets)

    from benchmark.report.api import write_report
    write_report([run], out_dir=tmp_path / "report", n_resamples=50)
    with open(tmp_path / "report" / "tables" / "differences.csv", newline="", encoding="utf-8") as handle:
        diffs = list(csv.DictReader(handle))
    row = next(d for d in diffs if d["effect"] == "licensing" and d["factor"] == "zipf_band")
    assert int(row["n_sets"]) == 8 and float(row["diff_mean_DD"]) == pytest.approx(expected, abs=1e-3)
