"""Data-parallel scoring: the balanced split, the launcher environment, a failing rank, and
2 processes under torchrun (gloo, CPU) giving the same tables as one process."""

from __future__ import annotations

import filecmp
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark import distributed
from benchmark.errors import BenchError

TABLES = ("tokens.csv.gz", "sentences.csv", "regions.csv", "items.csv", "summary.json")


@given(st.lists(st.integers(1, 400), max_size=200), st.integers(1, 9))
@settings(max_examples=200, deadline=None)
def test_balanced_split_deals_every_sentence_once_and_evenly(costs, world):
    shares = distributed.balanced_split(costs, world)
    assert len(shares) == world
    assert sorted(i for s in shares for i in s) == list(range(len(costs)))
    assert all(s == sorted(s) for s in shares)
    loads = [sum(costs[i] for i in s) for s in shares]
    assert max(loads) - min(loads) <= max(costs, default=0)     # greedy, costliest first
    assert shares == distributed.balanced_split(costs, world)  # deterministic


def test_balanced_split_spreads_each_length_group():
    costs = [10] * 6 + [5] * 4
    shares = distributed.balanced_split(costs, 2)
    assert [sum(costs[i] == 10 for i in s) for s in shares] == [3, 3]
    assert [sum(costs[i] == 5 for i in s) for s in shares] == [2, 2]


def test_token_costs_weigh_pll_by_rows(loaded):
    from benchmark.records import SentenceInput
    from benchmark.batching import token_costs
    s = SentenceInput("Il gatto dorme sul divano.", ())
    n = len(loaded["bert"].tokenizer(s.text)["input_ids"])
    assert token_costs(loaded["bert"], "pll", [s.text]) == [n * n]
    assert token_costs(loaded["gpt2"], "lp", [s.text]) == [len(loaded["gpt2"].tokenizer(s.text)["input_ids"]) + 1]
    assert token_costs(loaded["gpt2"], "lp", []) == []          # all cached: nothing to deal out
    assert distributed.balanced_split([], 3) == [[], [], []]


def test_ranks_from_the_launcher_environment(monkeypatch):
    for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"):
        monkeypatch.delenv(name, raising=False)
    assert distributed.from_env() == distributed.SINGLE
    monkeypatch.setenv("WORLD_SIZE", "8")
    monkeypatch.setenv("RANK", "5")
    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "4")
    r = distributed.from_env()
    assert (r.rank, r.world, r.local_rank, r.local_world, r.is_main) == (5, 8, 1, 4, False)
    assert r.shard_name("abc") == "abc.rank5of8"
    monkeypatch.setenv("RANK", "x")
    with pytest.raises(BenchError, match="RANK='x'"):
        distributed.from_env()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _agree_worker(rank: int, port: int, queue) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    ranks = distributed.Ranks(rank, 2, rank, 2)
    distributed.init(ranks, timeout_s=30)
    try:
        distributed.agree(ranks, "disk full" if rank == 1 else None, "scoring")
        queue.put((rank, "no error"))
    except BenchError as exc:
        queue.put((rank, str(exc)))
    finally:
        distributed.close(ranks)


def test_a_failing_rank_stops_every_rank():
    import torch.multiprocessing as mp
    ctx = mp.get_context("spawn")
    queue, port = ctx.Queue(), _free_port()
    procs = [ctx.Process(target=_agree_worker, args=(r, port, queue)) for r in range(2)]
    for p in procs:
        p.start()
    got = dict(queue.get(timeout=60) for _ in procs)
    for p in procs:
        p.join(timeout=30)
    assert got == {r: "scoring failed on 1 of 2 processes (rank 1: disk full)" for r in range(2)}


def _bench(args: list[str], cache: Path, nproc: int, monkeypatch) -> subprocess.CompletedProcess:
    """`bench run` with one thread per process: in this process, or under torchrun."""
    args = ["run", "--threads", "1", "--no-report", "--dist-timeout", "60"] + args
    for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ISOLE_CACHE_DIR", str(cache))
    if nproc == 1:
        import torch
        from typer.testing import CliRunner

        from benchmark.cli import app
        threads = torch.get_num_threads()
        try:
            r = CliRunner().invoke(app, args)
        finally:
            torch.set_num_threads(threads)
        return subprocess.CompletedProcess(args, r.exit_code, r.output, "")
    launch = [sys.executable, "-m", "torch.distributed.run", f"--nproc-per-node={nproc}", "--master-addr=127.0.0.1",
              f"--master-port={_free_port()}", "-m", "benchmark"]
    return subprocess.run(launch + args, capture_output=True, text=True, timeout=240)


def test_two_gloo_processes_write_the_same_tables_as_one(committed_tiny, fixture_suite, tmp_path, monkeypatch):
    """A causal and a masked model in one command, once with 1 process and once with 2."""
    import sqlite3
    models = ["--model", str(committed_tiny["gpt2"]), "--model", str(committed_tiny["bert"])]
    from benchmark.suite import read_suite
    n_items, runs = len(read_suite(fixture_suite).items), {}
    for nproc in (1, 2):
        out, cache = tmp_path / f"out{nproc}", tmp_path / f"cache{nproc}"
        r = _bench(models + ["--suite", str(fixture_suite), "--out", str(out)], cache, nproc, monkeypatch)
        assert r.returncode == 0, r.stdout + r.stderr
        runs[nproc] = sorted(d for d in (out / fixture_suite.name).iterdir() if d.name != "unigram.unigram")
        files = sorted(f.name for f in (cache / "scores").iterdir())
        assert len(files) == 2 and not any(".rank" in f for f in files), files   # shards merged, removed
        for f in files:
            with sqlite3.connect(cache / "scores" / f) as db:
                assert db.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == 4 * n_items
    assert [d.name for d in runs[1]] == [d.name for d in runs[2]] == ["bert.pll-word-l2r", "gpt2.lp"]
    for one, two in zip(runs[1], runs[2]):
        for name in TABLES:
            assert filecmp.cmp(one / name, two / name, shallow=False), (one.name, name)
        info = json.loads((two / "run.json").read_text())
        assert info["processes"] == 2 and info["n_scored_now"] == info["n_distinct_sentences"] > 0


@pytest.mark.parametrize("model,scorer,sharing", [("gpt2", "lp", False), ("gpt2", "lp", True), ("bert", "pll", False)])
def test_a_tokens_score_does_not_depend_on_its_batch(committed_tiny, model, scorer, sharing):
    """What makes the split exact: the same floats whatever else shares the batch (one thread).
    With prefix sharing, the packs are planned over the run's whole set of sentences, so a
    rank that scores part of it still computes the same packs."""
    import torch

    from benchmark import loading
    from benchmark.perf import italian_sentences
    from benchmark.records import SentenceInput
    from benchmark.runner import make_scorer
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        lm = loading.load(str(committed_tiny[model]), "cpu", "fp32", log=lambda *a: None)
        inputs = [SentenceInput(s, ()) for s in italian_sentences(24)]
        runs = []
        for budget, parts in ((4096, [inputs]), (17, [inputs]), (4096, [inputs[::2], inputs[1::2]])):
            got: dict = {}
            for part in parts:
                chosen = make_scorer(lm, scorer, budget, prefix_sharing=sharing)
                assert getattr(chosen, "path", None) != "shared" or sharing
                kw = {"universe": inputs} if sharing else {}
                chosen.score(part, got.update, **kw)
            runs.append([got[s].logprobs for s in inputs])
    finally:
        torch.set_num_threads(threads)
    assert runs[0] == runs[1] == runs[2]
