"""`bench run`, `bench models` end to end on a fixture suite and tiny local models."""

from __future__ import annotations

import csv
import gzip
import json
import sys
import types

import pytest
from typer.testing import CliRunner

from benchmark.cli import app

RUNNER = CliRunner()
RUN_KEYS = {"model", "model_id", "revision", "kind", "scorer", "dtype", "device", "lowercase", "bos", "penlp_alpha",
            "suite", "suite_name", "n_items", "n_sentences", "seconds", "sentences_per_s", "tokens_per_s",
            "versions", "created"}
FILES = ("run.json", "tokens.csv.gz", "sentences.csv", "regions.csv", "items.csv", "summary.json")


@pytest.fixture(autouse=True)
def no_report(monkeypatch):
    monkeypatch.setitem(sys.modules, "benchmark.report.api", None)   # the report half is tested elsewhere


def bench(*args):
    return RUNNER.invoke(app, list(args))


def header(path):
    with open(path, newline="", encoding="utf-8") as f:
        return next(csv.reader(f))


def test_run_masked_end_to_end(tiny_models, fixture_suite, tmp_path):
    out = tmp_path / "results"
    r = bench("run", "--model", str(tiny_models["bert"]), "--suite", str(fixture_suite), "--out", str(out))
    assert r.exit_code == 0, r.output
    run_dir = out / "fixture_suite" / "bert.pll-word-l2r"
    base_dir = out / "fixture_suite" / "unigram.unigram"
    for d in (run_dir, base_dir):
        assert sorted(p.name for p in d.iterdir()) == sorted(FILES)
    assert [p.name for p in (out / "fixture_suite").iterdir() if p.name.startswith(".")] == []
    info = json.loads((run_dir / "run.json").read_text())
    assert RUN_KEYS <= set(info)
    assert (info["kind"], info["scorer"], info["dtype"], info["device"], info["bos"]) == \
        ("masked", "pll-word-l2r", "fp32", "cpu", None)
    assert info["n_items"] == 5 and info["n_sentences"] == 20 and info["revision"].startswith("sha256:")
    assert header(run_dir / "sentences.csv") == ["item_id", "paradigm", "condition", "text", "n_tokens",
                                                 "LP", "MeanLP", "PenLP", "SLOR"]
    assert header(run_dir / "regions.csv") == ["item_id", "paradigm", "condition", "region_index", "region",
                                               "char_start", "char_end", "n_tokens", "LP"]
    assert header(run_dir / "items.csv") == [
        "item_id", "paradigm", "matched_set", "variant.mood", "variant.subject_type", "measure", "SN", "LN",
        "SI", "LI", "length", "structure", "total", "DD", "SN_gt_LI", "LN_gt_LI", "SI_gt_LI"]
    with gzip.open(run_dir / "tokens.csv.gz", "rt", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["item_id", "condition", "token_index", "token", "char_start", "char_end", "logprob"]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["run"] == "bert.pll-word-l2r"
    assert set(summary["measures"]) == {"LP", "MeanLP", "PenLP", "SLOR"}
    s = summary["measures"]["LP"]["whether_island"]
    assert set(s) == {"n", "factorial_acc", "mean_DD", "mp_SN_LI", "mp_LN_LI", "mp_SI_LI", "mp_mean"} and s["n"] == 3
    base = json.loads((base_dir / "summary.json").read_text())
    assert base["measures"]["LP"]["whether_island"]["mean_DD"] == 0.0     # additive items
    assert "whether_island" in r.output and "unigram" in r.output and "SN>LI" in r.output
    # the island column: this fixture's manifest predates strengths, so the label is guessed unmarked
    assert "whether, wh" in r.output and "(weak)" not in r.output

    # region sums add up to the sentence LP
    sentences = {(row[0], row[2]): float(row[5]) for row in csv.reader(open(run_dir / "sentences.csv")) if row[0] != "item_id"}
    regions: dict = {}
    for row in list(csv.reader(open(run_dir / "regions.csv")))[1:]:
        regions[(row[0], row[2])] = regions.get((row[0], row[2]), 0.0) + float(row[8])
    assert all(regions[k] == pytest.approx(v, abs=1e-9) for k, v in sentences.items())

    # deterministic: a second run (from the cache) writes byte-identical tables
    before = {f: (run_dir / f).read_bytes() for f in FILES if f != "run.json"}
    r2 = bench("run", "--model", str(tiny_models["bert"]), "--suite", str(fixture_suite), "--out", str(out))
    assert r2.exit_code == 0, r2.output
    assert "all cached" in r2.output
    assert {f: (run_dir / f).read_bytes() for f in before} == before


def test_run_causal_records_bos(tiny_models, fixture_suite, tmp_path):
    out = tmp_path / "results"
    r = bench("run", "--model", str(tiny_models["gpt2"]), "--suite", str(fixture_suite / "whether_island.jsonl"),
              "--out", str(out), "--scorer", "lp", "--no-cache")
    assert r.exit_code == 0, r.output
    info = json.loads((out / "fixture_suite-whether_island" / "gpt2.lp" / "run.json").read_text())
    assert info["kind"] == "causal" and info["bos"] == "<|endoftext|>"
    assert info["sentences_per_s"] > 0


def test_report_is_written_when_available(tiny_models, fixture_suite, tmp_path, monkeypatch):
    calls = []
    fake = types.ModuleType("benchmark.report.api")
    fake.write_report = lambda runs, baseline: calls.append((runs, baseline))
    monkeypatch.setitem(sys.modules, "benchmark.report.api", fake)
    r = bench("run", "--model", str(tiny_models["roberta"]), "--suite", str(fixture_suite),
              "--out", str(tmp_path), "--scorer", "pll")
    assert r.exit_code == 0, r.output
    assert calls == [([tmp_path / "fixture_suite" / "roberta.pll"], tmp_path / "fixture_suite" / "unigram.unigram")]


def test_bad_suite_is_one_line_and_writes_nothing(tiny_models, tmp_path):
    d = tmp_path / "broken"
    d.mkdir()
    (d / "whether_island.jsonl").write_text("{not json\n")
    r = bench("run", "--model", str(tiny_models["bert"]), "--suite", str(d), "--out", str(tmp_path / "res"))
    assert r.exit_code == 2
    assert "whether_island.jsonl:1: not valid JSON" in r.output
    assert "Traceback" not in r.output
    assert not (tmp_path / "res").exists()


def test_errors_for_people(tiny_models, fixture_suite, tmp_path):
    r = bench("run", "--model", str(tiny_models["bert"]), "--suite", str(fixture_suite), "--scorer", "lp",
              "--out", str(tmp_path))
    assert r.exit_code == 2 and "needs a causal model" in r.output
    r = bench("run", "--model", "./no/such/dir", "--suite", str(fixture_suite), "--out", str(tmp_path))
    assert r.exit_code == 2 and "no such model directory" in r.output


def test_unreachable_hub_alias_is_one_clear_message(fixture_suite, tmp_path, monkeypatch):
    import huggingface_hub.constants as hc
    monkeypatch.setattr(hc, "HF_HUB_OFFLINE", True)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    r = bench("run", "--model", "bert", "--suite", str(fixture_suite), "--out", str(tmp_path))
    assert r.exit_code == 2, r.output
    assert "dbmdz/bert-base-italian-cased" in r.output and "local directory" in r.output
    assert "Traceback" not in r.output
    assert [line for line in r.output.splitlines() if line.strip()][1:] == [
        line for line in r.output.splitlines() if line.startswith("error:")]


def test_models_lists_the_registry():
    r = bench("models")
    assert r.exit_code == 0
    for alias in ("bert", "bert_xxl", "gilberto", "umberto", "geppetto", "mbert", "xlmr", "minerva_350m", "gemma3_270m"):
        assert alias in r.output
