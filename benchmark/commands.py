"""`bench run`, `bench models`, `bench perf`. Heavy libraries load inside the commands only."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer

from benchmark.errors import BenchError


def _fail(exc: BenchError) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(code=2)


@contextmanager
def _progress_bars():
    """A factory of progress bars; the display starts with the first bar (nothing is drawn
    when everything comes from the cache or an error stops the run early)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    bars = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), transient=False)

    def factory(description: str, total: int):
        if not bars.console.is_terminal:
            return _plain_progress(description, total)
        if not bars.live.is_started:
            bars.start()
        task = bars.add_task(description, total=total)
        return lambda n: bars.update(task, advance=n)
    try:
        yield factory
    finally:
        if bars.live.is_started:
            bars.stop()


def _plain_progress(description: str, total: int):
    """Progress for logs and pipes, where no bar is drawn: a line at every 5%."""
    import time
    state = {"done": 0, "shown": 0, "start": time.monotonic()}

    def advance(n: int) -> None:
        state["done"] += n
        step = max(total // 20, 1)
        if state["done"] - state["shown"] >= step or state["done"] >= total:
            state["shown"] = state["done"]
            elapsed = time.monotonic() - state["start"]
            left = elapsed * (total - state["done"]) / max(state["done"], 1)
            print(f"{description}: {state['done']}/{total} ({100 * state['done'] / max(total, 1):.0f}%), "
                  f"{elapsed:.0f} s elapsed, about {left:.0f} s left", flush=True)
    return advance


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.1f}"


def print_table(model_summary: dict, baseline_summary: dict, measure: str = "LP") -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{model_summary['run']} vs unigram baseline ({measure}; accuracies in %)")
    for col in ("paradigm", "n", "run", "DD>0", "mean DD", "SN>LI", "LN>LI", "SI>LI"):
        table.add_column(col, justify="left" if col in ("paradigm", "run") else "right")
    model_m = model_summary["measures"].get(measure, {})
    base_m = baseline_summary["measures"].get(measure, {})
    for paradigm in sorted(model_m):
        for label, s in (("model", model_m[paradigm]), ("unigram", base_m.get(paradigm))):
            if s is None:
                continue
            table.add_row(paradigm if label == "model" else "", str(s["n"]), label, _pct(s["factorial_acc"]),
                          f"{s['mean_DD']:.3f}", _pct(s["mp_SN_LI"]), _pct(s["mp_LN_LI"]), _pct(s["mp_SI_LI"]))
    Console().print(table)


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run_cmd(
        model: Optional[str] = typer.Option(None, "--model", "-m", help="Alias (see `bench models`), Hugging Face id or local directory. Default: gemma3_270m (offline)."),
        suite: Optional[Path] = typer.Option(None, "--suite", help="Suite directory or JSONL file. Default: generated/italian_wh_islands/."),
        scorer: str = typer.Option("auto", "--scorer", help="auto | lp | pll | pll-word-l2r (auto: lp for causal, pll-word-l2r for masked)."),
        out: Path = typer.Option(Path("results"), "--out", help="Results root: writes <out>/<suite>/<model>.<scorer>/."),
        device: str = typer.Option("auto", "--device", help="auto | cpu | cuda"),
        dtype: str = typer.Option("auto", "--dtype", help="auto | fp32 | bf16 (auto: bf16 on GPU, fp32 on CPU)"),
        revision: Optional[str] = typer.Option(None, "--revision", help="Hub revision (branch, tag or commit)."),
        token_budget: Optional[int] = typer.Option(None, "--token-budget", help="Tokens per batch (default 4096 CPU, 65536 GPU)."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the score cache."),
        alpha: float = typer.Option(0.8, "--alpha", help="PenLP length-penalty exponent."),
    ) -> None:
        """Score a suite with a language model and the unigram baseline; print accuracies."""
        from benchmark import runner
        from benchmark.suite import read_suite
        try:
            if scorer not in runner.SCORERS:
                raise BenchError(f"--scorer {scorer}: choose one of {', '.join(runner.SCORERS)}")
            the_suite = read_suite(suite)
            typer.echo(f"suite {the_suite.name}: {len(the_suite.items)} items, {len(the_suite.paradigms)} paradigms")
            opts = runner.RunOptions(model=model, scorer=scorer, out=out, device=device, dtype=dtype,
                                     revision=revision, token_budget=token_budget, use_cache=not no_cache,
                                     alpha=alpha)
            with _progress_bars() as bars:
                result = runner.run(the_suite, opts, progress=bars, log=typer.echo)
        except BenchError as exc:
            _fail(exc)
        except KeyboardInterrupt:
            typer.echo("interrupted: finished sentences are in the score cache; run the same command to resume",
                       err=True)
            raise typer.Exit(code=130)
        info = result.info
        typer.echo(f"{info['model']} ({info['model_id']} @ {info['revision']}), {info['scorer']}, {info['dtype']} "
                   f"on {info['device']}: {info['n_scored_now']} sentences scored in {info['seconds']:.1f} s"
                   + (f" ({info['sentences_per_s']:.1f} sentences/s)" if info["sentences_per_s"] else " (all cached)"))
        print_table(result.tables.summary, result.baseline_tables.summary)
        typer.echo(f"wrote {result.run_dir} and {result.baseline_dir}")
        try:
            from benchmark.report.api import write_report
        except ImportError:
            pass
        else:
            try:
                report = write_report([result.run_dir], baseline=result.baseline_dir)
            except BenchError as exc:
                _fail(exc)
            except Exception as exc:  # noqa: BLE001 - the scores are written; say so in one line
                why = str(exc) if type(exc).__name__ == "ReportError" else f"{type(exc).__name__}: {exc}"
                typer.echo(f"error: the scores are written, but the report failed: {why}", err=True)
                raise typer.Exit(code=1)
            if report:
                typer.echo(f"report: {report}")

    @app.command("models")
    def models_cmd() -> None:
        """List the models known by name."""
        from rich.console import Console
        from rich.table import Table

        from benchmark.registry import DEFAULT_MODEL, REGISTRY
        table = Table(title="Models (any Hugging Face id or local directory works too)")
        for col in ("alias", "id", "kind", "notes"):
            table.add_column(col)
        for spec in REGISTRY:
            alias = spec.alias + (" (default)" if spec.alias == DEFAULT_MODEL else "")
            table.add_row(alias, spec.hf_id, spec.kind, spec.notes + ("; lower-cased input" if spec.lowercase and "lower" not in spec.notes else ""))
        Console().print(table)

    @app.command("perf")
    def perf_cmd(
        device: str = typer.Option("cpu", "--device", help="cpu: small BERT vs minicons; cuda: BERT-base shape on the GPU."),
        oracle_python: Optional[Path] = typer.Option(None, "--oracle-python", help="Python of an environment with minicons (transformers 4.x) for the comparison."),
        n_sentences: Optional[int] = typer.Option(None, "--n", help="Number of sentences (default 300 on CPU; the default suite or 20000 on GPU)."),
        suite: Optional[Path] = typer.Option(None, "--suite", help="Sentences from this suite instead of the built-in ones."),
        token_budget: Optional[int] = typer.Option(None, "--token-budget"),
        model: Optional[str] = typer.Option(None, "--model", help="Measure this model (alias, id or directory) instead of a random BERT."),
        repeat: int = typer.Option(3, "--repeat", help="Report the best of this many timed passes (each side)."),
        threads: Optional[int] = typer.Option(None, "--threads", help="CPU threads for both sides (default: torch's)."),
    ) -> None:
        """Measure PLL throughput (and GPU utilisation) against minicons on the same model and sentences."""
        from benchmark import perf
        try:
            perf.main(device=device, oracle_python=oracle_python, n_sentences=n_sentences, suite=suite,
                      token_budget=token_budget, model=model, repeat=repeat, threads=threads,
                      log=typer.echo)
        except BenchError as exc:
            _fail(exc)
