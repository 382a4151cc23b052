"""Run fuzz cases through the fork server and sum up, per input, how the commands ended."""

from __future__ import annotations

import json
import os
import select
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import cases as fuzz_cases
from .forkserver import Outcome, Running, parent_state, preload, run_fresh, run_forked

ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
       "MPLBACKEND": "Agg", "COLUMNS": "100"}


def verdict(case: fuzz_cases.Case, outcome: Outcome, case_dir: Path) -> str:
    """'ok' (exit 0), 'clean error', or what went wrong."""
    if outcome.hung:
        return "hang"
    if outcome.traceback:
        return "traceback"
    if outcome.exit_code == 0:
        return "ok"
    if not outcome.output.strip():
        return "silent failure"
    if case.names and not any(name in outcome.output for name in case.names):
        return "message names no file or key"
    if case.no_output and (case_dir / case.no_output).exists():
        return "partial output left"
    return "clean error"


@dataclass
class Summary:
    seed: int
    cases: int = 0
    seconds: float = 0.0
    by_input: dict[str, Counter] = field(default_factory=dict)
    seconds_by_input: Counter = field(default_factory=Counter)
    failures: list[dict] = field(default_factory=list)
    fresh: dict = field(default_factory=dict)

    @property
    def tracebacks(self) -> int:
        return sum(c["traceback"] for c in self.by_input.values())

    @property
    def hangs(self) -> int:
        return sum(c["hang"] for c in self.by_input.values())

    def to_json(self) -> dict:
        return {"seed": self.seed, "cases": self.cases, "seconds": round(self.seconds, 1),
                "tracebacks": self.tracebacks, "hangs": self.hangs, "failures": len(self.failures),
                "by_input": {k: dict(sorted(v.items())) for k, v in self.by_input.items()},
                "seconds_by_input": {k: round(v, 1) for k, v in self.seconds_by_input.items()},
                "fresh_subprocess_check": self.fresh, "failed_cases": self.failures[:200]}

    def table(self) -> str:
        kinds = ("ok", "clean error", "traceback", "hang", "message names no file or key", "silent failure",
                 "partial output left")
        head = f"{'input':<9} {'cases':>6} " + " ".join(f"{k[:14]:>14}" for k in kinds)
        lines = [head]
        for name, counts in self.by_input.items():
            lines.append(f"{name:<9} {sum(counts.values()):>6} " + " ".join(f"{counts[k]:>14}" for k in kinds))
        total = Counter()
        for counts in self.by_input.values():
            total.update(counts)
        lines.append(f"{'all':<9} {self.cases:>6} " + " ".join(f"{total[k]:>14}" for k in kinds))
        return "\n".join(lines)


def _prepare(root: Path) -> fuzz_cases.Base:
    """Snapshots of the lexicon and grammar (the cases' known-good inputs) and a small suite built from them."""
    base = root / "base"
    lexicon, grammar, suite = base / "lexicon", base / "grammar", base / "suite"
    shutil.copytree(fuzz_cases.LEXICON, lexicon)
    shutil.copytree(fuzz_cases.GRAMMAR, grammar)
    outcome = run_forked("gen", ["build", "--phenomenon", "all", "--n", "2", "--seed", "0", "--out", str(suite), "-q",
                                 "--lexicon", str(lexicon), "--grammar", str(grammar)], root, timeout=120)
    if outcome.exit_code != 0:
        raise SystemExit(f"fuzz: the repository's own lexicon and grammar do not build a suite:\n{outcome.output}")
    # A crossed suite for the review input: sheets sampled by matched set and level.
    varied = base / "varied"
    outcome = run_forked("gen", ["build", "--phenomenon", "whether", "--n", "3", "--seed", "0", "--vary", "filler",
                                 "--vary", "gap", "--out", str(varied), "-q", "--lexicon", str(lexicon),
                                 "--grammar", str(grammar)], root, timeout=120)
    if outcome.exit_code != 0:
        raise SystemExit(f"fuzz: the repository's own grammar does not build a crossed suite:\n{outcome.output}")
    return fuzz_cases.Base(root, lexicon, grammar, suite, varied)


def run_campaign(n: int, seed: int, jobs: int = 1, inputs: tuple[str, ...] = fuzz_cases.INPUTS,
                 fresh: int = 0, log=print, keep: Path | None = None) -> Summary:
    with parent_state():
        return _campaign(n, seed, jobs, inputs, fresh, log, keep)


def _campaign(n: int, seed: int, jobs: int, inputs: tuple[str, ...], fresh: int, log, keep: Path | None) -> Summary:
    os.environ.update(ENV)
    preload()
    summary = Summary(seed, by_input={i: Counter() for i in inputs})
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="isole-fuzz-") as tmp:
        root = Path(tmp)
        os.environ["ISOLE_CACHE_DIR"] = str(root / "cache")
        base = _prepare(root)
        todo = fuzz_cases.make_cases(base, n, seed, inputs)
        running: dict[int, tuple[fuzz_cases.Case, Running, Path]] = {}
        step = max(len(todo) // 20, 1)
        queue = list(todo)
        while queue or running:
            while queue and len(running) < jobs:
                case = queue.pop(0)
                case_dir = root / f"{case.input}-{case.number}"
                case_dir.mkdir()
                case.setup(case_dir)
                job = Running(case.app, case.argv, case_dir, case.timeout)
                running[job.pidfd] = (case, job, case_dir)
            wait = max(0.0, min(j.deadline for _, j, _ in running.values()) - time.monotonic())
            ready, _, _ = select.select(list(running), [], [], wait)
            now = time.monotonic()
            for fd in list(running):
                case, job, case_dir = running[fd]
                if fd not in ready and now < job.deadline:
                    continue
                del running[fd]
                outcome = job.finish(killed=fd not in ready)
                result = verdict(case, outcome, case_dir)
                summary.by_input[case.input][result] += 1
                summary.seconds_by_input[case.input] += outcome.seconds
                summary.cases += 1
                if result not in ("ok", "clean error"):
                    summary.failures.append(_failure(case, outcome, result, keep, case_dir))
                shutil.rmtree(case_dir, ignore_errors=True)
                if summary.cases % step == 0 or summary.cases == len(todo):
                    log(f"fuzz: {summary.cases}/{len(todo)} cases, {len(summary.failures)} failure(s), "
                        f"{time.monotonic() - start:.0f} s")
        if fresh:
            summary.fresh = _fresh_check(base, todo, fresh, root)
    summary.seconds = time.monotonic() - start
    return summary


def _failure(case, outcome: Outcome, result: str, keep: Path | None, case_dir: Path) -> dict:
    if keep is not None:
        target = keep / case_dir.name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(case_dir, target, symlinks=True)
    return {"input": case.input, "number": case.number, "mutation": case.mutation, "verdict": result,
            "command": f"{case.app} {' '.join(case.argv)}", "exit_code": outcome.exit_code,
            "output_tail": outcome.output[-1500:]}


def _fresh_check(base, todo: list, k: int, root: Path) -> dict:
    """Run `k` cases (spread over the inputs) both forked and in a new interpreter: same exit
    code and same verdict, or the fork server is not a faithful stand-in."""
    picked = todo[:: max(len(todo) // k, 1)][:k]
    same = 0
    mismatches = []
    for case in picked:
        results, outputs = [], []
        for runner in (run_forked, run_fresh):
            case_dir = root / f"fresh-{case.input}-{case.number}-{runner.__name__}"
            case_dir.mkdir()
            case.setup(case_dir)
            outcome = runner(case.app, case.argv, case_dir, case.timeout)
            results.append((outcome.exit_code, verdict(case, outcome, case_dir)))
            outputs.append(outcome.output[-300:])
            shutil.rmtree(case_dir, ignore_errors=True)
        if results[0] == results[1]:
            same += 1
        else:
            mismatches.append({"case": f"{case.input}-{case.number}", "forked": results[0], "fresh": results[1],
                               "outputs": outputs})
    return {"cases": len(picked), "same_exit_code_and_verdict": same, "mismatches": mismatches}


def write_summary(summary: Summary, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(summary.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
