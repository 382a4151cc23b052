"""`gen review`: write a blinded review sheet for a suite, or score filled sheets (docs/review.md)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, NoReturn, Optional

import typer


@contextmanager
def _user_errors() -> Iterator[None]:
    """Bad sheets, keys and suites are one message and exit code 2, no traceback."""
    from .review import ReviewError
    from .suite import SuiteFormatError

    try:
        yield
    except (ReviewError, SuiteFormatError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def review(
    paths: list[Path] = typer.Argument(..., metavar="SUITE_OR_SHEETS",
                                     help="A suite folder; with --score, one or more filled sheets."),
    score: bool = typer.Option(False, "--score", help="Score filled sheets instead of writing one."),
    n: int = typer.Option(30, min=1, help="Items per paradigm in the sheet (all four sentences of each); in a "
                                          "suite built with --vary, matched sets, so items per paradigm and level."),
    seed: int = typer.Option(0, help="Sampling and shuffling seed; the same seed gives byte-identical files."),
    paradigm: list[str] = typer.Option([], help="Only this paradigm (repeatable; default: all)."),
    out: Optional[Path] = typer.Option(None, help="The sheet to write (CSV); its key goes beside it as <name>.key.csv."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing sheet and key."),
    key: Optional[Path] = typer.Option(None, help="With --score: the key file (default: the one beside the sheets)."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="With --score: also write the figures as JSON here."),
) -> None:
    """Native-speaker review: write a blinded sheet (SUITE --out sheet.csv), or score filled copies (--score)."""
    with _user_errors():
        if score:
            _score(paths, key, json_out)
        else:
            _write(paths, n, seed, paradigm, out, force)


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _write(paths: list[Path], n: int, seed: int, paradigms: list[str], out: Optional[Path], force: bool) -> None:
    from .review import key_path_for, sample_rows, write_sheet
    from .suite import read_suite

    if len(paths) != 1 or not paths[0].is_dir() and paths[0].suffix.lower() == ".csv":
        _fail("writing a sheet takes one suite folder (to score filled sheets, add --score)")
    if out is None:
        _fail("say where to write the sheet: --out sheet.csv (the key goes beside it)")
    if out.suffix.lower() != ".csv":
        _fail(f"--out {out}: the sheet is a CSV file; give a name ending in .csv")
    existing = [p for p in (out, key_path_for(out)) if p.exists()]
    if existing and not force:
        _fail(f"{existing[0]} exists (it may hold judgments); choose another --out or add --force")
    rows = sample_rows(read_suite(paths[0]), n, seed, paradigms)
    key = write_sheet(out, rows)
    unique = len({r.row_id for r in rows})
    shared = f"; {len(rows)} key rows, a sentence shared by levels being one row" if unique < len(rows) else ""
    typer.echo(f"wrote {unique} rows to {out} (key: {key}{shared}); hand out copies of the sheet only")


def _score(sheets: list[Path], key: Optional[Path], json_out: Optional[Path]) -> None:
    import sys

    from .review import (ReviewError, find_key, read_filled_sheet, read_key, render_text, render_tsv,
                         score_sheets, write_json)

    for sheet in sheets:
        if sheet.is_dir():
            _fail(f"{sheet} is a folder; --score takes filled sheets (CSV files)")
    key_path = key or find_key(sheets)
    key_rows = read_key(key_path)
    filled, problems = [], []
    for sheet in sheets:  # every sheet checked, so that all can be fixed in one round
        try:
            filled.append(read_filled_sheet(sheet, key_rows))
        except ReviewError as exc:
            problems.append(str(exc))
    if problems:
        raise ReviewError("\n".join(problems))
    result = score_sheets(key_rows, filled)
    if sys.stdout.isatty():
        render_text(result)
    else:
        typer.echo(render_tsv(result), nl=False)
    if json_out is not None:
        write_json(json_out, result, key_path)
        typer.echo(f"wrote {json_out}", err=True)


def register(app: typer.Typer) -> None:
    app.command("review")(review)
