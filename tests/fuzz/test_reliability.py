"""Reliability: a seeded subset of the fuzz campaign, a few kill -9 trials, the score cache
under corruption and concurrent writers, clear messages for unwritable output, and tables
that survive pipes."""

from __future__ import annotations

import errno
import json
import multiprocessing
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmark.cache import ScoreCache
from benchmark.errors import BenchError
from benchmark.records import SentenceInput, TokenScores
from benchmark import results

from .cases import GRAMMAR, LEXICON


REPO = Path(__file__).resolve().parents[2]


def _run_module(module: str, args: list[str], summary: Path) -> dict:
    """The fork server needs a parent that has never run torch (its thread pool does not
    survive a fork), so it runs in its own process, not inside the test session."""
    done = subprocess.run([sys.executable, "-m", module, *args, "--json", str(summary)], cwd=REPO,
                          capture_output=True, text=True, timeout=600)
    assert summary.exists(), done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(summary.read_text())


def test_fuzz_subset_has_no_traceback_hang_or_unclear_message(tmp_path):
    summary = _run_module("tests.fuzz", ["--cases", "250", "--seed", "7", "--jobs", "2", "--fresh", "2"],
                          tmp_path / "fuzz.json")
    assert summary["cases"] == 250
    assert summary["failures"] == 0, summary["failed_cases"][:3]
    assert summary["tracebacks"] == 0 and summary["hangs"] == 0
    fresh = summary["fresh_subprocess_check"]
    assert fresh["cases"] == 2 and fresh["mismatches"] == []
    for name, counts in summary["by_input"].items():   # every input is exercised
        assert sum(counts.values()) > 0, name
    assert sum(c.get("clean error", 0) for c in summary["by_input"].values()) > 0
    assert sum(c.get("ok", 0) for c in summary["by_input"].values()) > 0


def test_kill_trials_rerun_is_byte_identical_and_builds_never_partial(tmp_path):
    summary = _run_module("tests.fuzz.kills", ["--trials", "2", "--build-trials", "2", "--items", "4", "--seed", "3"],
                          tmp_path / "kills.json")
    assert summary["problems"] == []
    bench = [t for t in summary["trials"] if isinstance(t["trial"], int)]
    builds = [t for t in summary["trials"] if not isinstance(t["trial"], int)]
    assert len(bench) == 2 and all(t["identical"] for t in bench)
    assert bench[1]["killed"].startswith("at cache-commit")
    assert bench[1]["rescored"] + bench[1]["cached_before_rerun"] == 16   # 4 items x 4 distinct sentences
    assert len(builds) == 2 and all(t["suite_after_kill"] in ("previous", "none", "new") for t in builds)
    concurrent = summary["concurrent"]
    assert concurrent["exit_codes"] == [0, 0] and concurrent["identical_tables"]
    assert concurrent["cache_rows"] == concurrent["distinct_sentences"] and not concurrent["database_locked_messages"]


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
    shutil.copytree(GRAMMAR / "it", grammar)
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
