"""`bench run`, `bench models`, `bench perf`. Heavy libraries load inside the commands only."""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
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


def _full_width_console():
    """A terminal's width on a terminal; in a pipe or log no cell is cut short with `…`."""
    from rich.console import Console
    console = Console()
    return console if console.is_terminal else Console(width=100_000, color_system=None)


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.1f}"


def print_table(model_summary: dict, baseline_summary: dict, measure: str = "LP",
                described: dict | None = None) -> None:
    """`described`: run.json's `paradigms`, for the island column (weak islands marked)."""
    from rich.table import Table

    from suite_format import ParadigmInfo
    table = Table(title=f"{model_summary['run']} vs unigram baseline ({measure}; accuracies in %)")
    for col in ("paradigm", "island", "n", "run", "DD>0", "mean DD", "SN>LI", "LN>LI", "SI>LI"):
        table.add_column(col, justify="left" if col in ("paradigm", "island", "run") else "right")
    model_m = model_summary["measures"].get(measure, {})
    base_m = baseline_summary["measures"].get(measure, {})
    for paradigm in sorted(model_m):
        info = ParadigmInfo.from_json(paradigm, (described or {}).get(paradigm))
        island = f"{info.marked_label}, {info.dependency}"
        for label, s in (("model", model_m[paradigm]), ("unigram", base_m.get(paradigm))):
            if s is None:
                continue
            first = label == "model"
            table.add_row(paradigm if first else "", island if first else "", str(s["n"]), label,
                          _pct(s["factorial_acc"]), f"{s['mean_DD']:.3f}", _pct(s["mp_SN_LI"]), _pct(s["mp_LN_LI"]),
                          _pct(s["mp_SI_LI"]))
    _full_width_console().print(table)


def print_licensing(model_summary: dict, baseline_summary: dict) -> None:
    """The filler-gap licensing figures, printed above the island table (the baseline they rest on)."""
    from rich.table import Table
    model_l = model_summary.get("licensing", {})
    if not model_l:
        return
    base_l = baseline_summary.get("licensing", {})
    table = Table(title=f"{model_summary['run']}: filler-gap licensing (accuracies in %; LP@spillover = "
                        "the words right after the gap)")
    for col in ("paradigm", "measure", "n", "run", "licensing>0", "mean", "TN>TG", "WG>WN"):
        table.add_column(col, justify="left" if col in ("paradigm", "measure", "run") else "right")
    for measure in ("LP", "LP@spillover"):
        for paradigm in sorted(model_l.get(measure, {})):
            for label, s in (("model", model_l[measure][paradigm]), ("unigram", base_l.get(measure, {}).get(paradigm))):
                if s is None:
                    continue
                first = label == "model"
                table.add_row(paradigm if first else "", measure if first else "", str(s["n"]), label,
                              _pct(s["licensing_acc"]), f"{s['mean_licensing']:.3f}", _pct(s["mp_TN_TG"]),
                              _pct(s["mp_WG_WN"]))
    _full_width_console().print(table)


def print_pairs(model_summary: dict, baseline_summary: dict) -> None:
    """Pair accuracy of imported minimal pairs (BLiMP's figure), with every measure."""
    from rich.table import Table
    model_p = model_summary.get("pairs", {})
    if not model_p:
        return
    base_p = baseline_summary.get("pairs", {})
    table = Table(title=f"{model_summary['run']}: minimal pairs (good > bad, %)")
    for col in ("paradigm", "n", *model_p, "unigram LP"):
        table.add_column(col, justify="left" if col == "paradigm" else "right")
    for paradigm in sorted(next(iter(model_p.values()))):
        base = base_p.get("LP", {}).get(paradigm)
        table.add_row(paradigm, str(model_p["LP"][paradigm]["n"]),
                      *(_pct(model_p[m][paradigm]["accuracy"]) for m in model_p),
                      _pct(base["accuracy"]) if base else "-")
    _full_width_console().print(table)


def model_list(models: list[str] | None, models_file: Path | None) -> list[str]:
    """The models of --model (repeated) and --models FILE, in that order, each once."""
    from benchmark.registry import DEFAULT_MODEL
    names = list(models or [])
    if models_file is not None:
        try:
            lines = models_file.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise BenchError(f"--models {models_file}: cannot read it ({exc.strerror or exc})") from None
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line)
        if not names:
            raise BenchError(f"--models {models_file}: the file names no model (one alias, id or folder per line)")
    return list(dict.fromkeys(names)) or [DEFAULT_MODEL]


def _quiet_exit(code: int) -> None:
    raise typer.Exit(code=code)


def _show(result) -> None:
    info = result.info
    typer.echo(f"{info['model']} ({info['model_id']} @ {info['revision']}), {info['scorer']}, {info['dtype']} "
               f"on {info['device']}" + (f" x {info['processes']} processes" if info.get("processes", 1) > 1 else "")
               + f": {info['n_scored_now']} sentences scored in {info['seconds']:.1f} s"
               + (f" ({info['sentences_per_s']:.1f} sentences/s)" if info["sentences_per_s"] else " (all cached)"))
    print_licensing(result.tables.summary, result.baseline_tables.summary)
    print_pairs(result.tables.summary, result.baseline_tables.summary)
    if result.tables.items:
        print_table(result.tables.summary, result.baseline_tables.summary,
                    described=result.info.get("paradigms"))
    typer.echo(f"wrote {result.run_dir} and {result.baseline_dir}")


def _report_failed(exc: Exception) -> None:
    if isinstance(exc, BenchError):
        _fail(exc)
    why = str(exc) if type(exc).__name__ == "ReportError" else f"{type(exc).__name__}: {exc}"
    typer.echo(f"error: the scores are written, but the report failed: {why}", err=True)
    raise typer.Exit(code=1)


def _report(result) -> None:
    try:
        from benchmark.report.api import write_report
    except ImportError:
        return
    try:
        report = write_report([result.run_dir], baseline=result.baseline_dir)
    except Exception as exc:  # noqa: BLE001 - the scores are written; say so in one line
        _report_failed(exc)
    if report:
        typer.echo(f"report: {report}")


def _compare(results) -> None:
    """`bench compare` of every model that was scored, with the unigram baseline."""
    try:
        from benchmark.report.api import compare
    except ImportError:
        return
    try:
        path = compare([r.run_dir for r in results] + [results[0].baseline_dir])
    except Exception as exc:  # noqa: BLE001 - the scores are written; say so in one line
        _report_failed(exc)
    typer.echo(f"comparison: {path}")


def _estimate(results, full_suite) -> None:
    """Speed on the sample and what the whole suite would take at that speed."""
    n_full = len({s.text for _, _, s in full_suite.sentences()})
    for r in results:
        rate = r.info.get("sentences_per_s")
        if not rate:
            typer.echo(f"{r.info['model']}: every sentence of the sample came from the cache; no speed measured")
            continue
        # the whole suite shares more prefixes per sentence than a sample: scale by the work
        work = (r.info.get("full_suite_positions_per_sentence") or 1) / (r.info.get("positions_per_sentence") or 1)
        minutes = n_full / rate * work / 60
        typer.echo(f"{r.info['model']}: {rate:.1f} sentences/s on {r.info['device']} over "
                   f"{r.info['n_scored_now']} sentences of the sample; the full suite ({n_full} distinct "
                   f"sentences, {work:.2f}x the sample's model positions per sentence) would take about "
                   f"{minutes:.0f} min of scoring at this speed (bash scripts/main.sh --full, or bench run "
                   "without --sample)")


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run_cmd(
        model: Optional[list[str]] = typer.Option(None, "--model", "-m", help="Alias (see `bench models`), Hugging Face id or local directory; repeat it to score several models in turn. Default: gemma3_270m (offline)."),
        models_file: Optional[Path] = typer.Option(None, "--models", help="A file with one model (alias, id or directory) per line; # starts a comment."),
        suite: Optional[Path] = typer.Option(None, "--suite", help="Suite directory or JSONL file. Default: generated/italian_islands/."),
        scorer: str = typer.Option("auto", "--scorer", help="auto | lp | pll | pll-word-l2r (auto: lp for causal, pll-word-l2r for masked)."),
        out: Path = typer.Option(Path("results"), "--out", help="Results root: writes <out>/<suite>/<model>.<scorer>/."),
        device: str = typer.Option("auto", "--device", help="auto | cpu | cuda"),
        dtype: str = typer.Option("auto", "--dtype", help="auto | fp32 | bf16 (auto: bf16 on GPU, fp32 on CPU)"),
        revision: Optional[str] = typer.Option(None, "--revision", help="Hub revision (branch, tag or commit)."),
        token_budget: Optional[int] = typer.Option(None, "--token-budget", help="Tokens per batch (default 4096 CPU, 65536 GPU)."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the score cache."),
        alpha: float = typer.Option(0.8, "--alpha", help="PenLP length-penalty exponent."),
        threads: Optional[int] = typer.Option(None, "--threads", help="CPU threads per process (default: the cores, shared out between the processes of a node)."),
        device_map: Optional[str] = typer.Option(None, "--device-map", help="auto | balanced | sequential: spread a model larger than one device over the GPUs, then CPU memory (accelerate)."),
        max_memory: Optional[str] = typer.Option(None, "--max-memory", help="With --device-map: memory per device, e.g. 0=20GiB,1=20GiB,cpu=60GiB."),
        sample: Optional[int] = typer.Option(None, "--sample", help="Score a stratified sample: this many whole items per paradigm (the suite's name gets a .sample suffix)."),
        seed: int = typer.Option(0, "--seed", help="Seed of --sample."),
        dist_timeout: float = typer.Option(3600.0, "--dist-timeout", help="Under torchrun or accelerate launch: seconds a process waits for the others."),
        no_report: bool = typer.Option(False, "--no-report", help="Write the scores and tables only (no report or comparison)."),
        compile_model: bool = typer.Option(False, "--compile", help="torch.compile the model body: faster on long runs, a one-off compilation first (see docs/benchmark.md)."),
        prefix_sharing: bool = typer.Option(True, "--prefix-sharing/--no-prefix-sharing", help="Causal LP: compute each distinct token prefix once (default; exact to float rounding). --no-prefix-sharing scores sentence by sentence."),
    ) -> None:
        """Score a suite with one or more language models and the unigram baseline; print accuracies.
        Under `torchrun --nproc-per-node N` or `accelerate launch`, the processes share the sentences."""
        from benchmark import distributed, runner
        from benchmark.loading import parse_max_memory
        from benchmark.suite import read_suite
        try:
            ranks = distributed.from_env()
            distributed.init(ranks, dist_timeout)
        except BenchError as exc:
            _fail(exc)
        say = typer.echo if ranks.is_main else (lambda *a, **k: None)
        try:
            if scorer not in runner.SCORERS:
                raise BenchError(f"--scorer {scorer}: choose one of {', '.join(runner.SCORERS)}")
            if device_map and ranks.local_world > 1:
                raise BenchError("--device-map spreads one model over this node's devices: start one process "
                                 f"per node (this node has {ranks.local_world})")
            names = model_list(model, models_file)
            full_suite = read_suite(suite)
            the_suite = runner.sample_suite(full_suite, sample, seed) if sample is not None else full_suite
            say(f"suite {full_suite.name}: {len(full_suite.items)} items, {len(full_suite.paradigms)} paradigms")
            if sample is not None:
                say(f"SAMPLE: {len(the_suite.items)} of {len(full_suite.items)} items ({sample} whole items per "
                    f"paradigm, seed {seed}), {4 * len(the_suite.items)} sentences; results in {the_suite.name}/")
            base = runner.RunOptions(scorer=scorer, out=out, device=device, dtype=dtype, revision=revision,
                                     token_budget=token_budget, use_cache=not no_cache, alpha=alpha,
                                     threads=threads, device_map=device_map, max_memory=parse_max_memory(max_memory),
                                     compile=compile_model, prefix_sharing=prefix_sharing,
                                     full_suite=full_suite if sample is not None else None)
        except BenchError as exc:
            _fail(exc)
        results, failed = [], []
        for name in names:
            opts = runner.RunOptions(**{**base.__dict__, "model": name})
            try:
                with (_progress_bars() if ranks.is_main else nullcontext(None)) as bars:
                    result = runner.run(the_suite, opts, progress=bars, log=say, ranks=ranks)
            except BenchError as exc:
                if len(names) == 1:
                    _fail(exc) if ranks.is_main else _quiet_exit(2)
                say(f"error: model {name}: {exc}; going on with the others", err=True)
                failed.append(name)
                continue
            except KeyboardInterrupt:
                say("interrupted: finished sentences are in the score cache; run the same command to resume",
                    err=True)
                raise typer.Exit(code=130)
            if result is not None:
                results.append(result)
                _show(result)
                if len(names) == 1 and not no_report:
                    _report(result)
        distributed.close(ranks)
        if len(names) > 1 and results and not no_report:
            _compare(results)
        if sample is not None and results:
            _estimate(results, full_suite)
        if failed:
            say(f"error: {len(failed)} of {len(names)} models failed: {', '.join(failed)}", err=True)
            raise typer.Exit(code=1)

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
        _full_width_console().print(table)

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
        cpu_variants: bool = typer.Option(False, "--cpu-variants", help="With --model: a table of CPU variants (threads, torch.compile) measured in turns on the same sentences."),
        dtype: str = typer.Option("auto", "--dtype", help="With --model: auto | fp32 | bf16 (auto: bf16 on GPU, fp32 on CPU)."),
    ) -> None:
        """Measure throughput against minicons on the same model and sentences: PLL (and GPU
        utilisation) for masked models; for a causal --model, the prefix-shared path, the
        per-sentence path and minicons side by side."""
        from benchmark import perf
        try:
            if n_sentences is not None and n_sentences < 1:
                raise BenchError(f"--n {n_sentences}: give a number of sentences of at least 1")
            if repeat < 1:
                raise BenchError(f"--repeat {repeat}: give a number of timed passes of at least 1")
            if model is not None and not cpu_variants:
                from benchmark import loading, perf_causal
                if threads:
                    import torch
                    torch.set_num_threads(threads)
                lm = loading.load(model, device, dtype, log=lambda *_: None)
                if lm.kind == "causal":
                    perf_causal.compare(lm, perf.sample_sentences(suite, n_sentences or 440), repeat=repeat,
                                        token_budget=token_budget, oracle_python=oracle_python, log=typer.echo)
                    return
                del lm
            if cpu_variants:
                if model is None:
                    raise BenchError("--cpu-variants measures a given model: add --model, e.g. --model gemma3_270m")
                perf.measure_cpu_variants(model, perf.sample_sentences(suite, n_sentences or 200),
                                          repeat=repeat, log=typer.echo)
                return
            perf.main(device=device, oracle_python=oracle_python, n_sentences=n_sentences, suite=suite,
                      token_budget=token_budget, model=model, repeat=repeat, threads=threads,
                      log=typer.echo)
        except BenchError as exc:
            _fail(exc)
