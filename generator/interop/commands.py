"""`gen export` and `gen import` (docs/interop.md). Bad input ends with one line naming the
file (and line) and exit code 2; outputs appear all at once or not at all."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

EXPORT_FORMATS = ("blimp", "syntaxgym", "lm-eval", "hf", "csv", "ratings")


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


FACTORIAL_ONLY = ("syntaxgym", "hf", "ratings")  # formats whose layout needs the four conditions


def run_export(suite_dir: Path, fmt: str, out: Path, lists: int = 4, seed: Optional[int] = None,
               fillers: Optional[Path] = None, absolute_paths: bool = False, force: bool = False) -> int:
    """Export a suite; returns the number of files written."""
    from generator.interop import blimp, csv_long, hf, lm_eval, ratings, syntaxgym
    from generator.interop.common import InteropError, load_suite, write_tree

    if fmt not in EXPORT_FORMATS:
        raise InteropError(f"--format {fmt}: unknown export format (expected one of {', '.join(EXPORT_FORMATS)})")
    suite = load_suite(suite_dir)
    pairs_only = sorted({i.paradigm for i in suite.items if len(i.layout.conditions) != 4})
    if pairs_only and fmt in FACTORIAL_ONLY:
        raise InteropError(f"--format {fmt} exports 2x2 designs; {', '.join(pairs_only)} "
                           f"{'is a minimal-pair paradigm' if len(pairs_only) == 1 else 'are minimal-pair paradigms'} "
                           f"(two sentences an item): export {'it' if len(pairs_only) == 1 else 'them'} as blimp, lm-eval or csv")
    if fmt == "ratings":
        manifest_seed = suite.manifest.get("seed")
        chosen_seed = seed if seed is not None else manifest_seed if isinstance(manifest_seed, int) else 0
        filler_trials = ratings.read_fillers(fillers) if fillers else []
        files = ratings.export(suite, lists=lists, seed=chosen_seed, fillers=filler_trials)
    elif fmt == "lm-eval":
        files = lm_eval.export(suite, data_root=out if absolute_paths else None)
    else:
        files = {"blimp": blimp, "syntaxgym": syntaxgym, "hf": hf, "csv": csv_long}[fmt].export(suite)
    write_tree(out, files, force=force)
    return len(files)


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export(
        suite_dir: Path = typer.Argument(..., help="Suite folder (<paradigm>.jsonl + manifest.json)."),
        fmt: str = typer.Option(..., "--format", "-f", help=f"One of: {', '.join(EXPORT_FORMATS)}."),
        out: Path = typer.Option(..., "--out", "-o", help="Output folder (created; see --force)."),
        lists: int = typer.Option(4, "--lists", help="ratings: number of Latin-square lists (multiple of 4)."),
        seed: Optional[int] = typer.Option(None, "--seed", help="ratings: shuffling seed (default: the suite's seed)."),
        fillers: Optional[Path] = typer.Option(None, "--fillers", help="ratings: filler sentences (CSV with `text`, or one a line)."),
        absolute_paths: bool = typer.Option(False, "--absolute-paths", help="lm-eval: write absolute data_files paths."),
        force: bool = typer.Option(False, "--force", help="Replace the output folder if it is not empty."),
    ) -> None:
        """Export a suite for other tools (BLiMP, SyntaxGym, lm-eval, HF datasets, CSV, rating lists).

        Formats: blimp (minimal-pair JSONL), syntaxgym (test-suite JSON per paradigm),
        lm-eval (lm-evaluation-harness task folder), hf (datasets folder with card),
        csv (long format), ratings (Latin-square lists for a 7-point rating study)."""
        from generator.interop.common import InteropError

        try:
            n = run_export(suite_dir, fmt, out, lists, seed, fillers, absolute_paths, force)
        except (InteropError, OSError) as exc:
            _fail(str(exc))
        typer.echo(f"wrote {n} files to {out} ({fmt})")

    @app.command("import")
    def import_(
        file: Path = typer.Argument(..., help="Hand-written suite: JSONL (four condition keys, or BLiMP's "
                                                  "sentence_good / sentence_bad pairs) or long-format CSV."),
        out: Path = typer.Option(..., "--out", "-o", help="Suite folder to write (<paradigm>.jsonl + manifest.json)."),
        fmt: Optional[str] = typer.Option(None, "--format", "-f", help="jsonl or csv (default: detected)."),
        paradigm: Optional[str] = typer.Option(None, "--paradigm", help="Paradigm of every item (overrides island types)."),
        language: Optional[str] = typer.Option(None, "--language", help="it or en (default: the language whose "
                                                                        "word frequencies the sentences fit best)."),
        force: bool = typer.Option(False, "--force", help="Replace the output folder if it is not empty."),
    ) -> None:
        """Convert a hand-written suite or a BLiMP file into the suite format, so `bench run` can score it."""
        import json

        from generator.interop.common import InteropError, write_tree
        from generator.interop.importers import import_file, summary_lines

        try:
            files = import_file(file, fmt, paradigm, language)
            write_tree(out, files, force=force)
        except (InteropError, OSError) as exc:
            _fail(str(exc))
        manifest = json.loads(files["manifest.json"])
        n_items, n_paradigms = manifest["imported"]["n_items"], len(manifest["paradigms"])
        typer.echo(f"imported {file} into {out}: {n_items} item{'s' if n_items != 1 else ''} "
                   f"in {n_paradigms} paradigm{'s' if n_paradigms != 1 else ''}")
        for line in summary_lines(manifest):
            typer.echo(line)


__all__ = ["register", "run_export", "EXPORT_FORMATS"]
