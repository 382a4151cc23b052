"""The benchmark's side of the suite format: the shared reader (suite_format), the default
suite, and format problems reported as BenchError (the benchmark never imports the generator)."""

from __future__ import annotations

from pathlib import Path

from benchmark.errors import BenchError
from suite_format import ISLAND, Item, Region, Sentence, Suite, SuiteFormatError  # noqa: F401
from suite_format import read_suite as _read_suite

CONDITIONS = ISLAND.conditions
SHORT = ISLAND.abbrev

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SUITE = REPO_ROOT / "generated" / "italian_islands"


def read_suite(path: Path | str | None = None) -> Suite:
    """The suite at `path` (a directory of JSONL files or one JSONL file); None = the default."""
    if path is None:
        if not DEFAULT_SUITE.is_dir():
            raise BenchError(
                f"the default suite {DEFAULT_SUITE.relative_to(REPO_ROOT)}/ does not exist yet: "
                "create it with `gen build --phenomenon all`, or pass --suite DIR|FILE")
        path = DEFAULT_SUITE
    try:
        return _read_suite(path)
    except SuiteFormatError as exc:
        raise BenchError(str(exc)) from None
