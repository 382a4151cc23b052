"""Crash safety, shown: `bench run` and `gen build` killed with SIGKILL at seeded random moments
and at named points (inside the cache commit, during the final write), then rerun.

`python -m tests.fuzz.kills --trials 20 --seed 0` checks, for `bench run` on a tiny model:
- after the kill, the run folder is absent or complete (never partial);
- the rerun finishes, and its tables are byte-identical to an uninterrupted run's (run.json aside);
- the rerun scored exactly the sentences the cache did not hold;
- no temporary folder is left behind;
and for `gen build`: after the kill the output folder holds the previous suite or none.
It also runs two `bench run`s of one model on one cache at the same time."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .campaign import ENV
from .cases import GRAMMAR, LEXICON, TINY_MODELS
from .forkserver import Running, preload, run_forked

TABLES = ("tokens.csv.gz", "sentences.csv", "regions.csv", "items.csv", "summary.json")
RUN_FILES = TABLES + ("run.json",)
POINTS = ("cache-commit", "final-write", "final-swap")
CHUNK_ROWS = "12"   # several commits even for a small suite


@dataclass
class Report:
    trials: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _bench_argv(suite: Path, out: Path, model: str = "gpt2") -> list[str]:
    return ["run", "--model", str(TINY_MODELS / model), "--suite", str(suite), "--out", str(out)]


def _tables(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in TABLES if (run_dir / name).exists()}


def _cached_rows(cache_dir: Path) -> int:
    total = 0
    for path in cache_dir.glob("scores/*.sqlite"):
        db = sqlite3.connect(path)
        total += db.execute("SELECT count(*) FROM scores").fetchone()[0]
        db.close()
    return total


@contextlib.contextmanager
def _environment(env: dict[str, str]):
    """`env` set for what is started inside (a forked child inherits it), then restored."""
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 300, app: str = "bench"):
    with _environment(env):
        return run_forked(app, argv, cwd, timeout)


def _start(argv: list[str], cwd: Path, env: dict[str, str], app: str = "bench") -> Running:
    with _environment(env):
        return Running(app, argv, cwd, timeout=300)


def _wait_for(job: Running, text: str, limit: float) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if job.out_path.exists() and text in job.out_path.read_text(errors="replace"):
            return True
        time.sleep(0.02)
    return False


def bench_trials(root: Path, suite: Path, trials: int, seed: int, report: Report, log=print) -> None:
    rng = random.Random(seed)
    ref_out, ref_cache = root / "reference", root / "reference-cache"
    env = {"ISOLE_CACHE_DIR": str(ref_cache), "ISOLE_CHUNK_ROWS": CHUNK_ROWS}
    start = time.monotonic()
    done = _run(_bench_argv(suite, ref_out), root, env)
    full_seconds = time.monotonic() - start
    if done.exit_code != 0:
        raise SystemExit(f"the uninterrupted reference run failed:\n{done.output}")
    run_name = "gpt2.lp"
    ref_dir = ref_out / suite.name / run_name
    reference = _tables(ref_dir)
    reference_base = _tables(ref_out / suite.name / "unigram.unigram")
    distinct = json.loads((ref_dir / "run.json").read_text())["n_scored_now"]
    commits = -(-distinct // int(CHUNK_ROWS))
    log(f"reference run: {distinct} distinct sentences in {full_seconds:.1f} s")
    for k in range(trials):
        out, cache = root / f"t{k}-out", root / f"t{k}-cache"
        env = {"ISOLE_CACHE_DIR": str(cache), "ISOLE_CHUNK_ROWS": CHUNK_ROWS}
        point = POINTS[(k // 2) % len(POINTS)] if k % 2 == 1 else None
        if point:   # the n-th commit of the cache, or the write of the model run (n = 1) or the baseline (n = 2)
            nth = rng.randint(1, commits) if point == "cache-commit" else rng.randint(1, 2)
            env["ISOLE_PAUSE_AT"] = f"{point}@{nth}:600"
        if point == "final-swap" or (point is None and rng.random() < 0.3):
            shutil.copytree(ref_out, out)   # a previous run to replace: it must survive or vanish whole
        job = _start(_bench_argv(suite, out), root, env)
        if point:
            reached = _wait_for(job, f"pause: {point}", 120)
            moment = f"at {point} #{nth}" if reached else f"{point} #{nth} never reached"
            if not reached:
                report.problems.append(f"trial {k}: the pause point {point} #{nth} was never reached")
        else:
            delay = rng.uniform(0.2, full_seconds)
            time.sleep(delay)
            moment = f"after {delay:.2f} s"
        job.finish(killed=True)
        run_dir = out / suite.name / run_name
        after_kill = sorted(p.name for p in run_dir.iterdir()) if run_dir.exists() else []
        if after_kill and not set(RUN_FILES) <= set(after_kill):
            report.problems.append(f"trial {k}: partial run folder after the kill: {after_kill}")
        cached = _cached_rows(cache)
        rerun = _run(_bench_argv(suite, out), root, {"ISOLE_CACHE_DIR": str(cache), "ISOLE_CHUNK_ROWS": CHUNK_ROWS})
        trial = {"trial": k, "killed": moment, "run_folder_after_kill": "complete" if after_kill else "absent",
                 "cached_before_rerun": cached, "rerun_exit": rerun.exit_code}
        if rerun.exit_code != 0:
            report.problems.append(f"trial {k}: the rerun failed: {rerun.output[-500:]}")
        else:
            info = json.loads((run_dir / "run.json").read_text())
            trial["rescored"] = info["n_scored_now"]
            if info["n_scored_now"] != distinct - cached:
                report.problems.append(f"trial {k}: rerun scored {info['n_scored_now']}, expected "
                                       f"{distinct} - {cached} cached = {distinct - cached}")
            same = _tables(run_dir) == reference and _tables(out / suite.name / "unigram.unigram") == reference_base
            trial["identical"] = same
            if not same:
                report.problems.append(f"trial {k}: tables differ from the uninterrupted run")
            leftovers = [p.name for p in (out / suite.name).iterdir() if p.name.startswith(".")]
            if leftovers:
                report.problems.append(f"trial {k}: temporary folders left: {leftovers}")
        report.trials.append(trial)
        log(f"bench trial {k}: killed {moment}; folder {trial['run_folder_after_kill']}; {cached} cached; "
            f"rerun scored {trial.get('rescored')}; identical: {trial.get('identical')}")
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)


def build_trials(root: Path, trials: int, seed: int, report: Report, log=print, crossed: bool = False,
                 language: str = "it") -> None:
    """`gen build` killed while it builds or writes: the output is the previous suite or none.
    `crossed`: a build that crosses the rescue factors item-matched (--vary filler --vary gap);
    `language`: the suite's (the English one is built like the Italian one)."""
    rng = random.Random(seed + (2 if crossed else 1) + (10 if language != "it" else 0))
    argv = ["build", "--phenomenon", "all", "--n", "40" if crossed else "150", "--lexicon", str(LEXICON),
            "--grammar", str(GRAMMAR), "-q", "--language", language,
            *(["--vary", "filler", "--vary", "gap"] if crossed else [])]
    root = root / (("crossed" if crossed else "plain") + ("" if language == "it" else f"-{language}"))
    root.mkdir()
    previous = root / "previous"
    start = time.monotonic()
    if run_forked("gen", argv + ["--seed", "1", "--out", str(previous)], root, 300).exit_code != 0:
        raise SystemExit("gen build failed on the repository's own lexicon and grammar")
    seconds = time.monotonic() - start
    old = {p.name: p.read_bytes() for p in previous.iterdir()}
    if run_forked("gen", argv + ["--seed", "2", "--out", str(root / "new")], root, 300).exit_code != 0:
        raise SystemExit("gen build failed on the repository's own lexicon and grammar")
    new = {p.name: p.read_bytes() for p in (root / "new").iterdir()}
    for k in range(trials):
        out = root / f"b{k}" / "suite"
        shutil.copytree(previous, out)
        point = ("suite-write", "suite-swap")[(k // 2) % 2] if k % 2 == 1 else None
        job = _start(argv + ["--seed", "2", "--out", str(out)], root,
                     {"ISOLE_PAUSE_AT": f"{point}:600"} if point else {}, app="gen")
        if point:
            if not _wait_for(job, f"pause: {point}", 120):
                report.problems.append(f"gen build trial {k}: the pause point {point} was never reached")
            moment = f"at {point}"
        else:
            delay = rng.uniform(0.05, seconds * 1.1)
            time.sleep(delay)
            moment = f"after {delay:.2f} s"
        job.finish(killed=True)
        state = "none"
        if out.exists():
            now = {p.name: p.read_bytes() for p in out.iterdir()}
            state = "previous" if now == old else "new" if now == new else "partial"
        if state == "partial":
            report.problems.append(f"gen build trial {k}: partial suite folder after the kill")
        rerun = run_forked("gen", argv + ["--seed", "2", "--out", str(out)], root, 300)
        leftovers = [p.name for p in out.parent.iterdir() if p.name.startswith(".")]
        if rerun.exit_code != 0 or {p.name: p.read_bytes() for p in out.iterdir()} != new or leftovers:
            report.problems.append(f"gen build trial {k}: the rebuild differs or left {leftovers}")
        kind = ("build-crossed" if crossed else "build") + ("" if language == "it" else f"-{language}")
        report.trials.append({"trial": f"{kind}-{k}", "killed": moment, "suite_after_kill": state})
        log(f"gen {kind} trial {k}: killed {moment}; suite folder: {state}")
        shutil.rmtree(out.parent, ignore_errors=True)


def concurrent_runs(root: Path, suite: Path, report: Report, log=print) -> dict:
    """Two `bench run`s of one model on one cache at the same time (own output folders)."""
    cache = root / "shared-cache"
    env = {"ISOLE_CACHE_DIR": str(cache), "ISOLE_CHUNK_ROWS": "4"}
    jobs = [_start(_bench_argv(suite, root / f"c{k}"), root, env) for k in range(2)]
    outcomes = [job.finish() for job in jobs]   # waits for both
    tables = [_tables(root / f"c{k}" / suite.name / "gpt2.lp") for k in range(2)]
    rows = _cached_rows(cache)
    run_json = root / "c0" / suite.name / "gpt2.lp" / "run.json"
    distinct = json.loads(run_json.read_text()).get("n_distinct_sentences") if run_json.exists() else None
    ok = (all(o.exit_code == 0 for o in outcomes) and tables[0] == tables[1] and bool(tables[0])
          and rows == distinct)   # no row lost: the cache holds every distinct sentence once
    locked = any("locked" in o.output for o in outcomes)
    result = {"exit_codes": [o.exit_code for o in outcomes], "identical_tables": tables[0] == tables[1],
              "cache_rows": rows, "distinct_sentences": distinct, "database_locked_messages": locked}
    if not ok or locked:
        report.problems.append(f"concurrent runs: {result}; {outcomes[0].output[-300:]} {outcomes[1].output[-300:]}")
    log(f"concurrent runs: exit codes {result['exit_codes']}, identical tables: {result['identical_tables']}, "
        f"{rows} cache rows for {distinct} distinct sentences, 'database is locked': {locked}")
    return result


def make_suite(root: Path, n: int) -> Path:
    suite = root / "killsuite"
    outcome = run_forked("gen", ["build", "--phenomenon", "whether", "--dependency", "wh", "--n", str(n), "--seed", "0", "--out", str(suite),
                                 "-q", "--lexicon", str(LEXICON), "--grammar", str(GRAMMAR)], root, 120)
    if outcome.exit_code != 0:
        raise SystemExit(f"cannot build the trial suite: {outcome.output}")
    return suite


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.kills", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=20, help="bench run kill trials (default 20)")
    parser.add_argument("--build-trials", type=int, default=20, help="gen build kill trials (default 20)")
    parser.add_argument("--items", type=int, default=12, help="items of the trial suite (default 12)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=Path("kill-summary.json"))
    args = parser.parse_args(argv)
    os.environ.update(ENV)
    preload()
    report = Report()
    with tempfile.TemporaryDirectory(prefix="isole-kills-") as tmp:
        root = Path(tmp)
        suite = make_suite(root, args.items)
        if args.trials:
            bench_trials(root, suite, args.trials, args.seed, report)
        if args.build_trials:  # a third each: plain, crossed (--vary filler --vary gap), English
            third = args.build_trials // 3
            build_trials(root, args.build_trials - 2 * third, args.seed, report)
            build_trials(root, third, args.seed, report, crossed=True)
            build_trials(root, third, args.seed, report, language="en")
        concurrent = concurrent_runs(root, suite, report)
    summary = {"trials": report.trials, "concurrent": concurrent, "problems": report.problems}
    args.json.write_text(json.dumps(summary, indent=1) + "\n")
    bench = [t for t in report.trials if isinstance(t["trial"], int)]
    print(f"bench run: {len(bench)} kill trials, {sum(t.get('identical', False) for t in bench)} reruns byte-identical, "
          f"{sum(t['run_folder_after_kill'] == 'absent' for t in bench)} left no folder, "
          f"{sum(t['run_folder_after_kill'] == 'complete' for t in bench)} a complete one")
    builds = [t for t in report.trials if not isinstance(t["trial"], int)]
    print(f"gen build: {len(builds)} kill trials: " + ", ".join(
        f"{s}: {sum(t['suite_after_kill'] == s for t in builds)}" for s in ("previous", "none", "new", "partial")))
    print(f"{len(report.problems)} problem(s)")
    for p in report.problems:
        print(f"- {p}")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
