"""`bench ratings`: human acceptability ratings beside model scores (benchmark/ratings.py)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("ratings")
    def ratings(
        ratings_csv: Path = typer.Argument(..., help="Collected ratings: participant, item_id, condition, rating."),
        run: Optional[List[Path]] = typer.Option(None, "--run", help="A run folder results/<suite>/<run>/ (repeatable)."),
        out: Path = typer.Option(..., "--out", "-o", help="Output folder for tables and plots."),
        measure: str = typer.Option("LP", "--measure", help="Model sentence measure: LP, MeanLP, PenLP or SLOR."),
        force: bool = typer.Option(False, "--force", help="Replace the output folder if it is not empty."),
    ) -> None:
        """Z-score human ratings per participant, tabulate them per paradigm (mean z by
        condition, DD) and plot them beside the given models' scores."""
        from benchmark.ratings import RatingsError, report

        try:
            summary = report(ratings_csv, list(run or []), out, measure, force)
        except (RatingsError, OSError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2)
        typer.echo(f"{summary['participants']} participants, {summary['judgments']} judgments; "
                   f"wrote tables and {len(summary['plots'])} plots to {out}")
        for note in summary["notes"]:
            typer.echo(f"note: {note}")
