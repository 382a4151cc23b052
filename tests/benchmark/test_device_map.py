"""Models larger than one device: accelerate's device map (here CPU memory plus disk offload,
forced by a small --max-memory) gives the scores of the unsplit model."""

from __future__ import annotations

import pytest

from benchmark import loading
from benchmark.errors import BenchError
from benchmark.records import SentenceInput
from benchmark.runner import make_scorer

SENTENCES = ["Chi pensa che Gianni abbia riscosso il pagamento?", "Cosa si domanda se Gianni abbia riscosso?",
             "Il gatto dorme sul divano.", "Maria crede che l'avvocato abbia firmato il contratto."]


def _scores(lm, scorer: str) -> list[tuple[float, ...]]:
    got: dict = {}
    inputs = [SentenceInput(s, ()) for s in SENTENCES]
    make_scorer(lm, scorer, 4096).score(inputs, got.update)
    return [got[s].logprobs for s in inputs]


@pytest.mark.parametrize("model,scorer", [("gpt2", "lp"), ("bert", "pll")])
def test_a_model_split_by_a_device_map_scores_like_the_whole(committed_tiny, model, scorer):
    quiet = dict(log=lambda *a: None)
    whole = loading.load(str(committed_tiny[model]), "cpu", "fp32", **quiet)
    split = loading.load(str(committed_tiny[model]), "cpu", "fp32", device_map="auto",
                         max_memory=loading.parse_max_memory("cpu=100KB"), **quiet)
    assert whole.device_map is None
    assert {"cpu", "disk"} <= set(split.device_map.values()), split.device_map   # really split
    for a, b in zip(_scores(whole, scorer), _scores(split, scorer)):
        assert len(a) == len(b)
        assert max(abs(x - y) for x, y in zip(a, b)) <= 1e-5


def test_device_map_options_are_checked():
    assert loading.parse_max_memory("0=20GiB, cpu=60GiB") == {"0": "20GiB", "cpu": "60GiB"}
    with pytest.raises(BenchError, match="DEVICE=SIZE"):
        loading.parse_max_memory("20GiB")
    with pytest.raises(BenchError, match="--device-map everywhere: choose one of auto"):
        loading.load("unused", "cpu", device_map="everywhere")
    with pytest.raises(BenchError, match="add --device-map auto"):
        loading.load("unused", "cpu", max_memory={"cpu": "1GiB"})


def test_bench_run_passes_the_device_map_through(committed_tiny, fixture_suite, tmp_path):
    import json

    from typer.testing import CliRunner

    from benchmark.cli import app
    out = tmp_path / "results"
    r = CliRunner().invoke(app, ["run", "--model", str(committed_tiny["gpt2"]), "--suite", str(fixture_suite),
                                 "--out", str(out), "--device-map", "auto", "--max-memory", "cpu=100KB",
                                 "--no-cache", "--no-report"])
    assert r.exit_code == 0, r.output
    info = json.loads((out / fixture_suite.name / "gpt2.lp" / "run.json").read_text())
    assert {"cpu", "disk"} <= set(info["device_map"].values())
    bad = CliRunner().invoke(app, ["run", "--suite", str(fixture_suite), "--max-memory", "cpu=1GiB"])
    assert bad.exit_code == 2 and "add --device-map auto" in bad.output
