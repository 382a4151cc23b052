"""BLiMP's minimal-pair files (sentence_good / sentence_bad / UID / pairID …) import with no
flags into the `minimal_pair` design and score as pair accuracy, with every measure."""

import csv
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmark.cli import app as bench
from generator.cli import app as gen
from generator.interop.common import InteropError
from generator.interop.importers import import_file
from suite_format import read_suite

FIXTURES = Path(__file__).parent / "fixtures"
TINY_GPT2 = Path(__file__).parents[1] / "benchmark" / "data" / "tiny" / "gpt2"
runner = CliRunner()


def _items(files: dict[str, str], paradigm: str) -> list[dict]:
    return [json.loads(line) for line in files[f"{paradigm}.jsonl"].splitlines()]


def test_blimp_file_imports_with_no_flags():
    files = import_file(FIXTURES / "blimp_islands.jsonl")
    manifest = json.loads(files["manifest.json"])
    assert manifest["language"] == "en" and manifest["imported"]["format"] == "blimp"
    assert set(manifest["paradigms"]) == {"adjunct_island", "wh_island", "wh_vs_that_with_gap"}
    assert all(p["design"] == "minimal_pair" for p in manifest["paradigms"].values())
    assert manifest["imported"]["repeated_ids"] == {"wh_vs_that_with_gap": ["1"]}
    gap = _items(files, "wh_vs_that_with_gap")
    assert [i["item_id"] for i in gap] == ["wh_vs_that_with_gap-00000", "wh_vs_that_with_gap-00001",
                                           "wh_vs_that_with_gap-00001-r2"]
    first = gap[0]
    assert first["conditions"]["good"]["text"] == "Which book did Tom read?" and first["conditions"]["good"]["grammatical"]
    assert first["conditions"]["bad"]["grammatical"] is False
    assert first["source"]["pairID"] == "0" and first["source"]["linguistics_term"] == "filler_gap_dependency"
    assert first["additive"] is False and first["residual"] == ["+magazine", "+the"]
    island = _items(files, "wh_island")[0]
    assert island["additive"] is True     # the same words in another order
    assert gap[2]["conditions"]["good"]["text"] == "What was Sarah fixing before she left?"  # white space collapsed


def test_language_is_guessed_or_given(tmp_path):
    italian = tmp_path / "blimp_it.jsonl"
    italian.write_text(json.dumps({"sentence_good": "Cosa pensi che Gianni abbia riparato?",
                                   "sentence_bad": "Cosa ti chiedi se Gianni abbia riparato?",
                                   "UID": "whether_island", "pairID": 3}) + "\n")
    assert json.loads(import_file(italian)["manifest.json"])["language"] == "it"
    assert json.loads(import_file(italian, language="en")["manifest.json"])["language"] == "en"
    with pytest.raises(InteropError, match="--language 'fr'"):
        import_file(italian, language="fr")


def test_an_identical_pair_twice_is_refused(tmp_path):
    path = tmp_path / "twice.jsonl"
    line = json.dumps({"sentence_good": "Who did Amy see?", "sentence_bad": "Who did Amy see Tom?", "UID": "x",
                       "pairID": "7"})
    path.write_text(line + "\n" + line + "\n")
    with pytest.raises(InteropError, match="pair 7 of x appears twice"):
        import_file(path)


def test_blimp_suite_scores_pair_accuracy(tmp_path):
    out = tmp_path / "blimp"
    result = runner.invoke(gen, ["import", str(FIXTURES / "blimp_islands.jsonl"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 item reuse a published id" in result.output
    assert runner.invoke(gen, ["validate", str(out)]).exit_code == 0
    suite = read_suite(out)
    assert suite.language == "en" and {i.design for i in suite.items} == {"minimal_pair"}
    results = tmp_path / "results"
    run = runner.invoke(bench, ["run", "--model", str(TINY_GPT2), "--suite", str(out), "--out", str(results),
                                "--no-cache"])
    assert run.exit_code == 0, run.output
    assert "minimal pairs (good > bad, %)" in run.output
    run_dir = results / "blimp" / "gpt2.lp"
    pairs = list(csv.DictReader((run_dir / "pairs.csv").open()))
    assert len(pairs) == 5 * 4 and {p["measure"] for p in pairs} == {"LP", "MeanLP", "PenLP", "SLOR"}
    # pair accuracy recomputed from the sentence scores: good LP > bad LP
    sentences = {(r["item_id"], r["condition"]): float(r["LP"]) for r in csv.DictReader((run_dir / "sentences.csv").open())}
    summary = json.loads((run_dir / "summary.json").read_text())
    for paradigm, stats in summary["pairs"]["LP"].items():
        ids = {p["item_id"] for p in pairs if p["paradigm"] == paradigm}
        expected = sum(sentences[(i, "good")] > sentences[(i, "bad")] for i in ids) / len(ids)
        assert stats["accuracy"] == pytest.approx(expected) and stats["n"] == len(ids)
    report = (run_dir / "report" / "report.md").read_text()
    assert "### Minimal pairs" in report and "wh_vs_that_with_gap" in report
    cmp = runner.invoke(bench, ["compare", str(run_dir), str(results / "blimp" / "unigram.unigram"),
                                "--out", str(tmp_path / "cmp"), "--bootstrap", "50"])
    assert cmp.exit_code == 0, cmp.output
    assert "Minimal pairs (imported)" in (tmp_path / "cmp" / "compare.md").read_text()
    shutil.rmtree(results)
