"""`bench report` and `bench compare`. Heavy libraries are imported inside the commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from .errors import ReportError


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("compare")(compare)


def report(
    run_dirs: list[Path] = typer.Argument(..., metavar="RUN_DIR...",
                                          help="Run folders: results/<suite>/<model>.<scorer>/"),
    baseline: Optional[Path] = typer.Option(None, help="Unigram baseline run [default: the sibling "
                                                       "unigram.unigram folder, when there is one]"),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Output folder [default: RUN_DIR/report "
                                                                "for one run, <suite>/report for several]"),
    items: str = typer.Option("", help="Comma-separated item ids for token-surprisal plots"),
    extreme: int = typer.Option(2, help="Without --items: plot this many lowest- and highest-DD items"),
    bootstrap: int = typer.Option(1000, help="Bootstrap resamples for the confidence intervals"),
    seed: int = typer.Option(0, help="Seed of the bootstrap"),
) -> None:
    """Tables, statistics and figures for one or more runs: report.md, report.html, CSVs."""
    from .api import write_report

    chosen = tuple(i.strip() for i in items.split(",") if i.strip())
    path = _guard(lambda: write_report(run_dirs, baseline=baseline, out_dir=out, items=chosen,
                                       n_extreme=extreme, seed=seed, n_resamples=bootstrap))
    typer.echo(f"wrote {path} and {path.with_name('report.html')}")


def compare(
    run_dirs: list[Path] = typer.Argument(..., metavar="RUN_DIR...", help="Run folders to compare"),
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       help="Output folder [default: <suite>/compare]"),
    bootstrap: int = typer.Option(1000, help="Bootstrap resamples for the confidence intervals"),
    seed: int = typer.Option(0, help="Seed of the bootstrap"),
) -> None:
    """Models side by side: factorial accuracy and minimal-pair tables, grouped bar chart."""
    from .api import compare as run_compare

    path = _guard(lambda: run_compare(run_dirs, out_dir=out, seed=seed, n_resamples=bootstrap))
    typer.echo(f"wrote {path} and {path.with_name('compare.html')}")


def _guard(action):
    """Run `action`; a ReportError (or an unwritable output folder) becomes a one-line message
    and exit code 2."""
    try:
        return action()
    except ReportError as exc:
        message = str(exc)
    except OSError as exc:
        message = f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code=2)
