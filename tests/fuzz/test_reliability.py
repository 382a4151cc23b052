"""Reliability: a seeded subset of the fuzz campaign, a few kill -9 trials, the score cache
under corruption and concurrent writers, clear messages for unwritable output, and tables
that survive pipes."""

from __future__ import annotations

import errno
import multiprocessing
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmark.cache import ScoreCache
from benchmark.errors import BenchError
from benchmark.records import SentenceInput, TokenScores
from benchmark import results

from .campaign import ENV, run_campaign
from .forkserver import parent_state
from .cases import GRAMMAR, LEXICON
from . import kills


def test_fuzz_subset_has_no_traceback_hang_or_unclear_message():
    summary = run_campaign(n=150, seed=7, jobs=2, fresh=2, log=lambda *_: None)
    assert summary.cases == 150
    assert summary.failures == [], summary.failures[:3]
    assert summary.fresh["mismatches"] == [] and summary.fresh["cases"] == 2
    for name, counts in summary.by_input.items():   # every input is exercised, with both outcomes overall
        assert sum(counts.values()) > 0, name
    assert sum(c["clean error"] for c in summary.by_input.values()) > 0
    assert sum(c["ok"] for c in summary.by_input.values()) > 0


def test_kill_trials_rerun_is_byte_identical_and_builds_never_partial(tmp_path):
    report = kills.Report()
    with parent_state():
        os.environ.update(ENV)
        kills.preload()
        suite = kills.make_suite(tmp_path, 4)
        kills.bench_trials(tmp_path, suite, trials=2, seed=3, report=report, log=lambda *_: None)
        kills.build_trials(tmp_path, trials=2, seed=3, report=report, log=lambda *_: None)
        result = kills.concurrent_runs(tmp_path, suite, report, log=lambda *_: None)
    assert report.problems == []
    assert report.trials[1]["killed"].startswith("at cache-commit")
    assert all(t.get("identical") for t in report.trials[:2])
    assert result["identical_tables"] and result["exit_codes"] == [0, 0]


def _pairs(k: int, offset: int = 0) -> list[tuple[SentenceInput, TokenScores]]:
    return [(SentenceInput(f"frase {i}", ((0, 5),)), TokenScores(("frase",), (0,), (5,), (-float(i),)))
            for i in range(offset, offset + k)]


def _writer(root: str, offset: int) -> None:
    cache = ScoreCache("shared", Path(root))
    for start in range(0, 200, 10):
        cache.put_many(_pairs(10, offset + start))
    cache.close()


def test_cache_survives_concurrent_writers(tmp_path):
    context = multiprocessing.get_context("spawn")
    procs = [context.Process(target=_writer, args=(str(tmp_path), offset)) for offset in (0, 100, 0)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    cache = ScoreCache("shared", tmp_path)
    got = cache.get_many([s for s, _ in _pairs(300)])
    cache.close()
    assert len(got) == 300
    assert got[SentenceInput("frase 250", ((0, 5),))].logprobs == (-250.0,)


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_corrupt_cache_is_set_aside_and_rebuilt(tmp_path, capsys, damage):
    cache = ScoreCache("k", tmp_path)
    cache.put_many(_pairs(400))
    cache.close()
    path = tmp_path / "k.sqlite"
    for extra in tmp_path.glob("k.sqlite-*"):
        extra.unlink()
    data = path.read_bytes()
    path.write_bytes(b"not a database" * 100 if damage == "garbage" else data[: len(data) // 3])
    cache = ScoreCache("k", tmp_path)
    assert cache.get_many([s for s, _ in _pairs(3)]) == {}
    cache.put_many(_pairs(3))
    assert len(cache.get_many([s for s, _ in _pairs(3)])) == 3
    cache.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "k.sqlite" in err and "k.sqlite.corrupt-1" in err
    assert (tmp_path / "k.sqlite.corrupt-1").exists()


def test_damaged_row_is_rescored(tmp_path):
    cache = ScoreCache("k", tmp_path)
    cache.put_many(_pairs(2))
    cache._db.execute("UPDATE scores SET data = '{oops' WHERE sentence = ?", ('"frase 1"',))
    assert list(cache.get_many([s for s, _ in _pairs(2)])) == [_pairs(1)[0][0]]
    cache.put_many(_pairs(2))
    assert len(cache.get_many([s for s, _ in _pairs(2)])) == 2
    cache.close()


def test_unwritable_or_full_output_is_reported_before_scoring(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(BenchError, match=r"--out .*file/results: cannot write results there"):
        results.check_writable(blocker / "results")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(results.tempfile, "mkstemp", full)
    with pytest.raises(BenchError, match="the disk is full"):
        results.check_writable(tmp_path / "out")


def test_tables_are_not_cut_in_a_pipe(tmp_path):
    from generator.cli import app
    out = CliRunner().invoke(app, ["list"])   # CliRunner's stdout is not a terminal
    assert out.exit_code == 0, out.output
    assert "…" not in out.output
    assert "adjunct_island_conditional" in out.output
    assert all(len(line) > 80 for line in out.output.splitlines()[1:3])


def test_unknown_jinja_filter_names_file_condition_and_filters(tmp_path):
    from generator.cli import app
    grammar = tmp_path / "grammar"
    shutil.copytree(GRAMMAR, grammar)
    path = grammar / "whether_island.yaml"
    text = path.read_text()
    assert "{{ esubj | np }}" in text
    path.write_text(text.replace("{{ esubj | np }}", "{{ esubj | npx }}", 1))
    out = CliRunner().invoke(app, ["build", "--phenomenon", "whether", "--n", "2", "--grammar", str(grammar),
                                   "--lexicon", str(LEXICON), "--out", str(tmp_path / "s"), "-q"])
    assert out.exit_code == 2
    assert "whether_island.yaml: conditions." in out.output and "No filter named 'npx'" in out.output
    assert "np, participle" in out.output and "Traceback" not in out.output
    assert not (tmp_path / "s").exists()
