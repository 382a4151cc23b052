"""The filler-gap design end to end: a generated suite mixing designs is scored, licensing.csv
holds the interaction recomputed here from sentences.csv and regions.csv, the summary and the
report carry it, and the report puts it above the island tables."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmark.cli import app

N = 6


@pytest.fixture(scope="module")
def mixed_suite(tmp_path_factory) -> Path:
    from generator.build import BuildRequest, build_suite, write_suite
    from generator.paths import GRAMMAR_DIR, LEXICON_DIR
    root = tmp_path_factory.mktemp("fg")
    for phenomenon in ("filler_gap", "whether"):
        results, manifest = build_suite(BuildRequest(phenomenon, N, 0, dependency="wh"), LEXICON_DIR, GRAMMAR_DIR)
        write_suite(root / phenomenon, results, manifest)
    suite = root / "mixed"
    suite.mkdir()
    for name in ("filler_gap/filler_gap.jsonl", "whether/whether_island.jsonl"):
        shutil.copy(root / name, suite)
    return suite


def _rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_licensing_tables_and_report(tiny_models, mixed_suite, tmp_path):
    out = tmp_path / "results"
    result = CliRunner().invoke(app, ["run", "--model", str(tiny_models["gpt2"]), "--suite", str(mixed_suite),
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    run = out / "mixed" / "gpt2.lp"
    licensing = _rows(run / "licensing.csv")
    items = _rows(run / "items.csv")
    assert {r["paradigm"] for r in items} == {"whether_island"}         # islands keep their own table
    assert {r["paradigm"] for r in licensing} == {"filler_gap"}
    assert {r["measure"] for r in licensing} == {"LP", "MeanLP", "PenLP", "SLOR", "LP@spillover"}
    assert len(licensing) == N * 5
    sentences = {(r["item_id"], r["condition"]): float(r["LP"]) for r in _rows(run / "sentences.csv")}
    spill: dict[tuple[str, str], float] = {}
    for r in _rows(run / "regions.csv"):
        if r["region"] == "spillover":
            spill[(r["item_id"], r["condition"])] = float(r["LP"])
    for row in licensing:
        source = sentences if row["measure"] == "LP" else spill if row["measure"] == "LP@spillover" else None
        if source is None:
            continue
        s = {c: source[(row["item_id"], c)] for c in ("that_nogap", "wh_nogap", "that_gap", "wh_gap")}
        expected = (s["wh_gap"] - s["that_gap"]) - (s["wh_nogap"] - s["that_nogap"])
        assert float(row["licensing"]) == pytest.approx(expected, abs=1e-9)
        assert (row["WG_gt_WN"] == "true") == (s["wh_gap"] > s["wh_nogap"])
    summary = json.loads((run / "summary.json").read_text())
    lp = summary["licensing"]["LP"]["filler_gap"]
    assert lp["n"] == N and 0.0 <= lp["licensing_acc"] <= 1.0
    # The unigram baseline: the design is additive, so its whole-sentence licensing is 0 on every item.
    base = _rows(out / "mixed" / "unigram.unigram" / "licensing.csv")
    assert all(abs(float(r["licensing"])) < 1e-9 for r in base if r["measure"] == "LP")

    from benchmark.report.api import write_report
    text = write_report([run], out_dir=tmp_path / "report", n_resamples=50).read_text(encoding="utf-8")
    assert text.index("Filler-gap licensing") < text.index("Factorial accuracy")
    assert "after the gap" in text and "unigram licensing > 0 %" in text
    assert (tmp_path / "report" / "tables" / "licensing.csv").exists()
