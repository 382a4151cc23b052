"""Run a `gen` or `bench` command line in a child process and judge how it ended.

The parent imports the command-line apps (and their heavy libraries) once; each case is a
forked child that runs the app's main with the case's argv, its stdout and stderr sent to
files, and is killed past a time limit. `run_fresh` runs the same argv in a brand-new Python,
to show that the forked path behaves like the installed console scripts."""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

APPS = {"gen": "generator.cli", "bench": "benchmark.cli"}
TRACEBACK_MARKERS = ("Traceback (most recent call last)", "Traceback ")


@dataclass(frozen=True)
class Outcome:
    exit_code: int | None     # None: killed past the time limit (a hang)
    output: str               # stdout and stderr together
    seconds: float

    @property
    def hung(self) -> bool:
        return self.exit_code is None

    @property
    def traceback(self) -> bool:
        return any(marker in self.output for marker in TRACEBACK_MARKERS)


@contextmanager
def parent_state():
    """Restore the environment variables and torch's thread count the campaign changes (it
    also runs inside the test session)."""
    saved = dict(os.environ)
    import torch
    threads = torch.get_num_threads()
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
        torch.set_num_threads(threads)


def preload() -> None:
    """Import what the commands import, so each forked child starts warm. torch stays at one
    thread in the parent: no thread pool exists yet when a child is forked."""
    import importlib
    for name in ("generator.cli", "benchmark.cli", "generator.build", "generator.checks",
                 "generator.interop.importers", "benchmark.runner", "benchmark.loading", "benchmark.suite",
                 "rich.console", "rich.table", "rich.progress"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    import torch
    torch.set_num_threads(1)
    for name in ("transformers", "transformers.models.gpt2.modeling_gpt2", "transformers.models.bert.modeling_bert",
                 "transformers.models.roberta.modeling_roberta", "transformers.models.llama.modeling_llama",
                 "transformers.tokenization_utils_tokenizers", "benchmark.report.api", "benchmark.report.figures",
                 "benchmark.report.statistics", "benchmark.report.mixed", "benchmark.report.bootstrap",
                 "benchmark.scorers.causal", "benchmark.scorers.masked", "benchmark.baseline",
                 "matplotlib.pyplot", "statsmodels.formula.api", "wordfreq", "safetensors.torch"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def _child(app_name: str, argv: list[str], cwd: Path, out_path: Path) -> None:
    """Runs in the forked child: never returns."""
    code = 1
    try:
        os.setpgid(0, 0)
        fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        # Python-level streams may not write to fds 1 and 2 (pytest's capture replaces them).
        sys.stdout = sys.__stdout__ = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), encoding="utf-8",
                                                       line_buffering=True)
        sys.stderr = sys.__stderr__ = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), encoding="utf-8",
                                                       line_buffering=True)
        sys.stdin = sys.__stdin__ = io.TextIOWrapper(os.fdopen(0, "rb", closefd=False), encoding="utf-8")
        os.chdir(cwd)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import importlib
        app = importlib.import_module(APPS[app_name]).app
        try:
            app(args=argv, prog_name=app_name, standalone_mode=True)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # what a user would see: the uncaught exception's traceback
            traceback.print_exc()
            code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


class Running:
    """One forked case in flight."""

    def __init__(self, app_name: str, argv: list[str], cwd: Path, timeout: float):
        self.out_path = Path(cwd) / ".fuzz-output.txt"
        self.timeout, self.start = timeout, time.monotonic()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(app_name, argv, Path(cwd), self.out_path)
        self.pid = pid
        self.pidfd = os.pidfd_open(pid)

    @property
    def deadline(self) -> float:
        return self.start + self.timeout

    def finish(self, killed: bool = False) -> Outcome:
        if killed:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.pidfd)
        seconds = time.monotonic() - self.start
        output = self.out_path.read_text(encoding="utf-8", errors="replace") if self.out_path.exists() else ""
        code = None if killed else os.waitstatus_to_exitcode(status)
        return Outcome(code, output, seconds)


def run_forked(app_name: str, argv: list[str], cwd: Path, timeout: float) -> Outcome:
    job = Running(app_name, argv, cwd, timeout)
    ready, _, _ = select.select([job.pidfd], [], [], timeout)
    return job.finish(killed=not ready)


def run_fresh(app_name: str, argv: list[str], cwd: Path, timeout: float, env: dict | None = None) -> Outcome:
    """The same case through the installed console script, in a new interpreter."""
    script = Path(sys.executable).with_name(app_name)
    command = [str(script)] if script.exists() else [sys.executable, "-c",
                                                     f"from {APPS[app_name]} import app; app(prog_name={app_name!r})"]
    start = time.monotonic()
    try:
        done = subprocess.run(command + argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout, env=env, start_new_session=True)
    except subprocess.TimeoutExpired as exc:
        out = exc.output.decode("utf-8", "replace") if exc.output else ""
        return Outcome(None, out, time.monotonic() - start)
    return Outcome(done.returncode, done.stdout.decode("utf-8", "replace"), time.monotonic() - start)
