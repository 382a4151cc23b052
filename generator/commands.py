"""`gen build`, `gen list`, `gen validate`."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer

from .paths import GENERATED_DIR, GRAMMAR_DIR, LEXICON_DIR

def _user_errors() -> tuple[type[Exception], ...]:
    from .build import BuildError
    from .checks import CheckError
    from .grammar import GrammarError
    from .languages import UnknownLanguage
    from .lexicon import LexiconError
    from .paths import MissingLanguageFolder
    from .render import TemplateError
    from .sampler import UnsatisfiableError
    from .suite import SuiteFormatError
    return (BuildError, CheckError, GrammarError, LexiconError, TemplateError, UnsatisfiableError,
            SuiteFormatError, FileNotFoundError, UnknownLanguage, MissingLanguageFolder)


@contextmanager
def user_errors() -> Iterator[None]:
    """Errors caused by input are printed as one message and exit code 2, no traceback."""
    try:
        yield
    except _user_errors() as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _parse_levels(levels: list[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for text in levels:
        if "=" not in text:
            typer.echo(f"error: --level takes FACTOR=LEVEL (e.g. subject_type=noun), not {text!r}", err=True)
            raise typer.Exit(2)
        factor, level = text.split("=", 1)
        out.append((factor.strip(), level.strip()))
    return tuple(out)


def build(
    phenomenon: str = typer.Option("all", help="whether, complex_np, subject, adjunct, filler_gap, or all (see gen list)."),
    dependency: str = typer.Option("all", help="wh (questions), rc (relative clauses), or all."),
    language: str = typer.Option("it", help="it (Italian), en (English), or all: one suite per language."),
    n: int = typer.Option(1000, min=1, help="Items per paradigm (matched sets with --vary)."),
    seed: int = typer.Option(0, help="Random seed; the same seed gives byte-identical files."),
    out: Optional[Path] = typer.Option(None, help="Output folder (default: generated/<suite>); with "
                                                  "--language all, the folder that gets one suite per language."),
    vary: list[str] = typer.Option([], help="Cross a variant factor item-matched (e.g. subject_type); "
                                          "repeat it to cross several, each level with each (--vary filler --vary gap)."),
    level: list[str] = typer.Option([], help="Fix a variant level, FACTOR=LEVEL (repeatable)."),
    lexicon: Path = typer.Option(LEXICON_DIR, help="Lexicon folder (one sub-folder per language, or one language's tables)."),
    grammar: Path = typer.Option(GRAMMAR_DIR, help="Grammar folder (one sub-folder per language, or one language's paradigms)."),
    jobs: int = typer.Option(0, min=0, help="Paradigms built at once (0: one per CPU core); the output "
                                            "is the same for any value."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or report."),
) -> None:
    """Generate a suite: one JSONL per paradigm plus manifest.json (one suite per language)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from .build import BuildRequest, build_suites, suite_name, write_suite
    from .balance_table import balance_table, print_table
    from .languages import language_codes

    console = Console(stderr=True)
    with user_errors():
        codes = language_codes(language, grammar)
        requests = [BuildRequest(phenomenon, n, seed, tuple(vary), _parse_levels(level), dependency, code)
                    for code in codes]
        with Progress(TextColumn("{task.description:<28}"), BarColumn(), MofNCompleteColumn(),
                      console=console, disable=quiet or not console.is_terminal, transient=True) as bar:
            def progress(name: str, total: int):
                task = bar.add_task(name, total=total)
                return lambda k: bar.advance(task, k)
            # every language built before any is written
            built = [(request, *suite) for request, suite in zip(
                requests, build_suites(requests, lexicon, grammar, progress, jobs or os.cpu_count() or 1))]
        for request, results, manifest in built:
            if out is None:
                target = GENERATED_DIR / suite_name(request)
            else:
                target = out / suite_name(request) if len(codes) > 1 else out
            write_suite(target, results, manifest)
            if not quiet:
                print_table(balance_table(manifest))
                typer.echo(f"wrote {sum(len(v) for v in results.values())} items to {target}")


def list_paradigms(
    language: str = typer.Option("all", help="it, en, or all."),
    lexicon: Path = typer.Option(LEXICON_DIR, help="Lexicon folder."),
    grammar: Path = typer.Option(GRAMMAR_DIR, help="Grammar folder."),
) -> None:
    """Paradigms, their language, variants and how many distinct items the lexicon allows."""
    from rich.table import Table

    from .balance_table import print_table
    from .build import BuildRequest, ParadigmBuilder
    from .grammar import load_paradigms
    from .languages import language_codes
    from .lexicon import load_lexicon

    with user_errors():
        table = Table(title="Paradigms")
        table.add_column("paradigm", no_wrap=True)
        for column in ("language", "island", "phenomenon", "dependency", "design", "variants (default first)",
                       "capacity"):
            table.add_column(column)
        for code in language_codes(language, grammar):
            lex = load_lexicon(lexicon, code)
            for paradigm in load_paradigms(grammar, code).values():
                builder = ParadigmBuilder(paradigm, lex, BuildRequest(paradigm.phenomenon, language=code))
                variants = "; ".join(
                    f"{f}: {v.default}" + "".join(f", {lv}" for lv in v.levels if lv != v.default)
                    for f, v in paradigm.variants.items())
                capacity = f"{builder.capacity:,}" + ("" if all(p.exact for p in builder.plans) else " (bound)")
                # weak islands marked where users look (the same label as the report's tables)
                table.add_row(paradigm.name, code, paradigm.info.marked_label, paradigm.phenomenon,
                              paradigm.dependency, paradigm.item_design, variants or "-", capacity)
    print_table(table)


def validate(
    suite: Path = typer.Argument(..., help="A suite folder written by gen build."),
    lexicon: Path = typer.Option(LEXICON_DIR, help="Lexicon folder."),
) -> None:
    """Re-check a suite (format, additivity, selectional restrictions) and print its balance."""
    from .checks import check_suite
    from .balance_table import balance_table, print_table

    with user_errors():
        manifest, problems = check_suite(suite, lexicon)
    print_table(balance_table(manifest))
    if problems:
        for p in problems[:30]:
            typer.echo(f"problem: {p}", err=True)
        typer.echo(f"{len(problems)} problem(s) in {suite}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{suite}: all checks passed")


def register(app: typer.Typer) -> None:
    app.command("build")(build)
    app.command("list")(list_paradigms)
    app.command("validate")(validate)
