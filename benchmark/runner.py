"""One `bench run`: read the suite, load the model, score every distinct sentence once (from
the cache where possible), and write the model run and the unigram baseline run."""

from __future__ import annotations

import datetime as _dt
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from benchmark import baseline
from benchmark.cache import ScoreCache, cache_key
from benchmark.errors import BenchError
from benchmark.measures import PENLP_ALPHA
from benchmark.records import SentenceInput, TokenScores
from benchmark.registry import DEFAULT_MODEL, slug
from benchmark.results import RunTables, build_tables, write_run
from benchmark.suite import Suite

SCORERS = ("auto", "lp", "pll", "pll-word-l2r")
Progress = Callable[[str, int], Callable[[int], None]]   # (description, total) -> advance(n)


@dataclass
class RunOptions:
    model: str | None = None
    scorer: str = "auto"
    out: Path = Path("results")
    device: str = "auto"
    dtype: str = "auto"
    revision: str | None = None
    token_budget: int | None = None
    use_cache: bool = True
    cache_dir: Path | None = None
    alpha: float = PENLP_ALPHA


@dataclass
class RunResult:
    run_dir: Path
    baseline_dir: Path
    tables: RunTables
    baseline_tables: RunTables
    info: dict
    warnings: list[str] = field(default_factory=list)


def lower_same_length(text: str) -> str:
    """Lower-cased text with the same length, so character offsets stay valid."""
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def sentence_inputs(suite: Suite, lowercase: bool) -> dict[tuple[str, str], SentenceInput]:
    out = {}
    for item, cond, sent in suite.sentences():
        text = lower_same_length(sent.text) if lowercase else sent.text
        out[(item.item_id, cond)] = SentenceInput(text, sent.words)
    return out


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version
    out = {"python": platform.python_version()}
    for pkg in ("isole", "torch", "transformers", "tokenizers", "wordfreq", "numpy"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            pass
    return out


def make_scorer(lm, scorer: str, token_budget: int | None):
    from benchmark.scorers.causal import CausalScorer
    from benchmark.scorers.masked import MaskedScorer
    if scorer == "auto":
        scorer = "lp" if lm.kind == "causal" else "pll-word-l2r"
    if lm.kind == "causal" and scorer != "lp":
        raise BenchError(f"--scorer {scorer} needs a masked model; '{lm.name}' is causal (use lp)")
    if lm.kind == "masked" and scorer == "lp":
        raise BenchError(f"--scorer lp needs a causal model; '{lm.name}' is masked (use pll or pll-word-l2r)")
    gpu = lm.device.type == "cuda"
    budget = token_budget or (65536 if gpu else 4096)
    if scorer == "lp":
        return CausalScorer(lm, budget, chunk_rows=20000 if gpu else 2000)
    return MaskedScorer(lm, scorer, budget, chunk_rows=200000 if gpu else 20000)


def score_all(scorer, inputs: list[SentenceInput], cache: ScoreCache,
              progress: Progress | None = None) -> tuple[dict[SentenceInput, TokenScores], int, int]:
    """Scores of the distinct `inputs`: cached ones read back, the rest computed and committed
    chunk by chunk. Returns (scores, sentences computed now, tokens computed now)."""
    unique = sorted(set(inputs), key=lambda s: (s.text, s.words))
    found = cache.get_many(unique)
    todo = [s for s in unique if s not in found]
    computed = {"sentences": 0, "tokens": 0}

    def done(pairs: list[tuple[SentenceInput, TokenScores]]) -> None:
        cache.put_many(pairs)
        for s, t in pairs:
            found[s] = t
            computed["sentences"] += 1
            computed["tokens"] += len(t)

    if todo:
        advance = progress("scoring", scorer.units(todo)) if progress else (lambda n: None)
        scorer.score(todo, done, advance)
    return found, computed["sentences"], computed["tokens"]


def run(suite: Suite, opts: RunOptions, progress: Progress | None = None, log=print) -> RunResult:
    from benchmark import loading, sanity
    loading.threads_hint()
    name = opts.model or DEFAULT_MODEL
    t0 = time.perf_counter()
    lm = loading.load(name, opts.device, opts.dtype, opts.revision, log=log)
    load_seconds = time.perf_counter() - t0
    scorer = make_scorer(lm, opts.scorer, opts.token_budget)
    warnings = list(lm.warnings) + sanity.special_token_warnings(lm.tokenizer)
    probe_bits, warn = sanity.surprisal_warning(lm, scorer)
    if warn:
        warnings.append(warn)
    for w in warnings:
        log(f"warning: {w}")

    inputs = sentence_inputs(suite, lm.lowercase)
    key = cache_key(model=lm.model_id, revision=lm.revision, scorer=scorer.scorer, dtype=lm.dtype,
                    lowercase=lm.lowercase, vocab_limit=lm.vocab_limit, bos=lm.bos_token)
    cache = ScoreCache(key, opts.cache_dir, with_words=scorer.scorer == "pll-word-l2r", enabled=opts.use_cache)
    t1 = time.perf_counter()
    try:
        scores, n_sent, n_tok = score_all(scorer, list(inputs.values()), cache, progress)
    finally:
        cache.close()
    seconds = time.perf_counter() - t1

    unigram = {k: baseline.sentence_logprob(s) for k, s in sentence_inputs(suite, False).items()}
    run_name = f"{slug(name)}.{scorer.scorer}"
    tables = build_tables(suite, run_name, {k: scores[s] for k, s in inputs.items()}, unigram, opts.alpha)
    info = {
        "model": name, "model_id": lm.model_id, "revision": lm.revision, "kind": lm.kind,
        "scorer": scorer.scorer, "dtype": lm.dtype, "device": str(lm.device), "lowercase": lm.lowercase,
        "bos": lm.bos_token if lm.kind == "causal" else None, "penlp_alpha": opts.alpha,
        "suite": str(suite.path), "suite_name": suite.name, "n_items": len(suite.items),
        "n_sentences": len(inputs), "n_distinct_sentences": len(set(inputs.values())),
        "n_scored_now": n_sent, "seconds": round(seconds, 3),
        "sentences_per_s": round(n_sent / seconds, 3) if n_sent and seconds > 0 else None,
        "tokens_per_s": round(n_tok / seconds, 3) if n_tok and seconds > 0 else None,
        "load_seconds": round(load_seconds, 3), "token_budget": scorer.token_budget,
        "tokenizer": type(lm.tokenizer).__name__, "vocab_limit": lm.vocab_limit,
        "probe_bits_per_token": round(probe_bits, 3), "warnings": warnings,
        "versions": versions(), "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    run_dir = write_run(opts.out, suite.name, run_name, tables, info)
    base_dir, base_tables = run_baseline(suite, opts)
    return RunResult(run_dir, base_dir, tables, base_tables, info, warnings)


def run_baseline(suite: Suite, opts: RunOptions) -> tuple[Path, RunTables]:
    t0 = time.perf_counter()
    inputs = sentence_inputs(suite, False)
    scores = {k: baseline.score(s) for k, s in inputs.items()}
    unigram = {k: baseline.sentence_logprob(s) for k, s in inputs.items()}
    tables = build_tables(suite, "unigram.unigram", scores, unigram, opts.alpha)
    seconds = time.perf_counter() - t0
    info = {
        "model": "unigram", "model_id": "wordfreq:it", "revision": versions().get("wordfreq", "unknown"),
        "kind": "unigram", "scorer": "unigram", "dtype": "fp64", "device": "cpu", "lowercase": True,
        "bos": None, "penlp_alpha": opts.alpha, "suite": str(suite.path), "suite_name": suite.name,
        "n_items": len(suite.items), "n_sentences": len(inputs), "seconds": round(seconds, 3),
        "sentences_per_s": round(len(inputs) / seconds, 3) if seconds > 0 else None,
        "tokens_per_s": None, "unigram_floor": baseline.FLOOR, "versions": versions(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    return write_run(opts.out, suite.name, "unigram.unigram", tables, info), tables
