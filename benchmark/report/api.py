"""Entry points for other code (`bench run` calls write_report when it finishes)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from .bootstrap import DEFAULT_RESAMPLES
from .errors import ReportError
from .load import Run, find_baseline, load_run
from .output import atomic_folder


def write_report(run_dirs: Sequence[Path], baseline: Path | None = None, out_dir: Path | None = None,
                 items: Sequence[str] = (), n_extreme: int = 2, seed: int = 0,
                 n_resamples: int = DEFAULT_RESAMPLES) -> Path:
    """Write report.md, report.html, tables/*.csv and figures/ for one or more runs of a suite;
    return the path of report.md. Without `baseline`, the sibling `unigram.unigram` run is used
    when there is one. Raises ReportError with a message for people on bad inputs."""
    from .report import MAIN_MEASURE, ReportOptions, build_report
    from .surprisal import choose_items

    runs = _load_all(run_dirs)
    base = _baseline(runs, baseline)
    runs = [r for r in runs if base is None or r.path.resolve() != base.path.resolve()] or runs
    target = Path(out_dir) if out_dir is not None else _default_out(runs, "report")
    if n_resamples < 1:
        raise ReportError("the number of bootstrap resamples must be at least 1")
    opts = ReportOptions(tuple(items), n_extreme, n_resamples, seed)
    for run in runs:  # unknown item ids fail here, before any work
        choose_items(run, MAIN_MEASURE, opts.items, opts.n_extreme)
    with atomic_folder(target) as tmp:
        build_report(runs, base, tmp, opts)
    return target / "report.md"


def compare(run_dirs: Sequence[Path], out_dir: Path | None = None, seed: int = 0,
            n_resamples: int = DEFAULT_RESAMPLES) -> Path:
    """Models side by side: factorial accuracy and minimal-pair tables, a grouped bar chart.
    Returns the path of compare.md."""
    from .compare import build_comparison

    runs = _load_all(run_dirs)
    target = Path(out_dir) if out_dir is not None else _default_out(runs, "compare", single_ok=False)
    with atomic_folder(target) as tmp:
        build_comparison(runs, tmp, seed, n_resamples)
    return target / "compare.md"


def _load_all(run_dirs: Sequence[Path]) -> list[Run]:
    if not run_dirs:
        raise ReportError("give at least one run folder (results/<suite>/<model>.<scorer>/)")
    seen, runs = set(), []
    for d in run_dirs:
        key = Path(d).resolve()
        if key not in seen:
            seen.add(key)
            runs.append(load_run(Path(d)))
    return runs


def _baseline(runs: list[Run], baseline: Path | None) -> Run | None:
    if baseline is not None:
        return load_run(Path(baseline))
    found = find_baseline(runs[0].path)
    if found is None or (len(runs) == 1 and found.resolve() == runs[0].path.resolve()):
        return None
    return load_run(found)


def _default_out(runs: list[Run], name: str, single_ok: bool = True) -> Path:
    if single_ok and len(runs) == 1:
        return runs[0].path / name
    parents = {r.path.resolve().parent for r in runs}
    if len(parents) == 1:
        return runs[0].path.parent / name
    raise ReportError("the runs come from different suite folders; choose where to write with --out")
