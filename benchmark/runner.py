"""One `bench run`: read the suite, load the model, score every distinct sentence once (from
the cache where possible), and write the model run and the unigram baseline run. Under a
launcher with several processes the distinct sentences are split between them
(benchmark/distributed.py) and rank 0 writes the run."""

from __future__ import annotations

import datetime as _dt
import os
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from benchmark import baseline, batching, distributed
from benchmark.cache import ScoreCache, cache_key
from benchmark.distributed import Ranks
from benchmark.errors import BenchError
from benchmark.measures import PENLP_ALPHA
from benchmark.records import SentenceInput, TokenScores
from benchmark.registry import DEFAULT_MODEL, slug
from benchmark.results import check_writable, RunTables, build_tables, write_run
from benchmark.suite import Suite
from suite_format import ParadigmInfo

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
    threads: int | None = None            # CPU threads per process (default: the cores / processes per node)
    device_map: str | None = None         # "auto": spread a large model over the devices (accelerate)
    max_memory: dict[str, str] | None = None   # per device, with device_map: {"0": "20GiB", "cpu": "60GiB"}
    compile: bool = False                 # torch.compile the model body
    prefix_sharing: bool = True           # causal LP: compute each distinct token prefix once
    full_suite: Suite | None = None       # with a sample: the suite whose scoring time is estimated


@dataclass
class RunResult:
    run_dir: Path
    baseline_dir: Path
    tables: RunTables
    baseline_tables: RunTables
    info: dict
    warnings: list[str] = field(default_factory=list)


def sample_suite(suite: Suite, per_paradigm: int, seed: int = 0) -> Suite:
    """A stratified sample: `per_paradigm` whole items (all four sentences, so DD is complete)
    drawn from each paradigm with a fixed seed, in the suite's order. Its name says it is one."""
    import random
    if per_paradigm < 1:
        raise BenchError(f"--sample {per_paradigm}: give a number of items per paradigm of at least 1")
    by_paradigm: dict[str, list] = {}
    for item in suite.items:
        by_paradigm.setdefault(item.paradigm, []).append(item)
    rng = random.Random(seed)
    keep = set()
    for paradigm in sorted(by_paradigm):
        items = by_paradigm[paradigm]
        keep.update(i.item_id for i in rng.sample(items, min(per_paradigm, len(items))))
    return suite.subset(f"{suite.name}.sample{per_paradigm}-seed{seed}", keep)


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


PROBE_TOLERANCE = {"fp32": 1e-4, "bf16": 0.5}   # per token, shared vs per-sentence path on the probe


def make_scorer(lm, scorer: str, token_budget: int | None, prefix_sharing: bool = True):
    from benchmark.scorers.causal import CausalScorer
    from benchmark.scorers.masked import MaskedScorer
    from benchmark.scorers.shared import SharedPrefixScorer, probe_difference
    if scorer == "auto":
        scorer = "lp" if lm.kind == "causal" else "pll-word-l2r"
    if lm.kind == "causal" and scorer != "lp":
        raise BenchError(f"--scorer {scorer} needs a masked model; '{lm.name}' is causal (use lp)")
    if lm.kind == "masked" and scorer == "lp":
        raise BenchError(f"--scorer lp needs a causal model; '{lm.name}' is masked (use pll or pll-word-l2r)")
    gpu = lm.device.type == "cuda"
    budget = token_budget or (65536 if gpu else 4096)
    rows = int(os.environ.get("ISOLE_CHUNK_ROWS") or 0)   # smaller commits, for crash-safety tests
    if scorer != "lp":
        return MaskedScorer(lm, scorer, budget, chunk_rows=rows or (200000 if gpu else 20000))
    rows = rows or (20000 if gpu else 2000)
    if prefix_sharing:
        import torch
        with torch.inference_mode():
            diff = probe_difference(lm)
        if diff <= PROBE_TOLERANCE[lm.dtype]:
            return SharedPrefixScorer(lm, budget, chunk_rows=rows)
        lm.warnings.append(f"prefix sharing off: on a probe it differed from the per-sentence path by {diff:.2e} "
                           "per token (the model computes positions or masks its own way)")
    return CausalScorer(lm, budget, chunk_rows=rows)


def distinct(inputs: list[SentenceInput]) -> list[SentenceInput]:
    return sorted(set(inputs), key=lambda s: (s.text, s.words))


def score_all(scorer, inputs: list[SentenceInput], cache: ScoreCache, progress: Progress | None = None,
              universe: list[SentenceInput] | None = None) -> tuple[dict[SentenceInput, TokenScores], int, int]:
    """Scores of the distinct `inputs`: cached ones read back, the rest computed and committed
    chunk by chunk. `universe` (default: the inputs) is the run's whole set of distinct
    sentences, over which a prefix-sharing scorer plans its packs. Returns (scores, sentences
    computed now, tokens computed now)."""
    unique = distinct(inputs)
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
        scorer.score(todo, done, advance, universe=universe or unique)
    return found, computed["sentences"], computed["tokens"]


def positions_per_sentence(scorer, inputs: list[SentenceInput]) -> float:
    """Work per distinct sentence of `inputs` in model positions (rows x length for PLL), as
    the scorer would plan it: what a sample's speed is scaled by to estimate a whole suite,
    whose sentences share more prefixes than a sample's."""
    unique = distinct(inputs)
    return sum(cost for _, cost in scorer.groups(unique, unique)) / max(1, len(unique))


def score_parallel(scorer, lm, inputs: list[SentenceInput], key: str, opts: RunOptions, ranks: Ranks,
                   progress: Progress | None = None) -> tuple[dict[SentenceInput, TokenScores], int, int]:
    """`score_all` split across ranks: rank 0 reads the shared cache and says what is left, the
    rest is dealt out balanced by token count, each rank scores its share (committing to a
    cache shard of its own), and rank 0 gathers every score and merges them into the shared
    cache. Rank 0 gets all the scores; the other ranks get only theirs."""
    with_words = scorer.scorer == "pll-word-l2r"
    found: dict[SentenceInput, TokenScores] = {}
    unique = distinct(inputs)
    main = ScoreCache(key, opts.cache_dir, with_words=with_words, enabled=False)
    error, left = None, []
    if ranks.is_main:
        try:
            main = ScoreCache(key, opts.cache_dir, with_words=with_words, enabled=opts.use_cache)
            found = main.get_many(unique)
            left = [i for i, s in enumerate(unique) if s not in found]
        except BenchError as exc:
            error = str(exc)
    error, left = distributed.broadcast(ranks, (error, left))   # every rank learns of a failure
    if error:
        main.close()
        raise BenchError(error)
    try:
        todo = [unique[i] for i in left]
        groups = scorer.groups(todo, unique)   # what must stay on one rank, and its cost
        mine = distributed.balanced_split([cost for _, cost in groups], ranks.world)[ranks.rank]
        share = [todo[i] for g in mine for i in groups[g][0]]
        shard = ScoreCache(ranks.shard_name(key), opts.cache_dir, with_words=with_words, enabled=False)
        part = ([], 0, 0)
        try:
            shard = ScoreCache(ranks.shard_name(key), opts.cache_dir, with_words=with_words, enabled=opts.use_cache)
            got, n_sent, n_tok = score_all(scorer, share, shard, progress if ranks.is_main else None, unique)
            part = ([(s, got[s]) for s in share], n_sent, n_tok)
        except BenchError as exc:
            error = str(exc)
        except Exception as exc:  # noqa: BLE001 - reported to every rank, so none waits for this one
            error = f"{type(exc).__name__}: {exc}"
        finally:
            shard.close()
        distributed.agree(ranks, error, "scoring")
        parts = distributed.gather(ranks, part)
        n_sent = n_tok = 0
        if ranks.is_main:
            for pairs, n, t in parts:
                main.put_many(pairs)
                found.update(pairs)
                n_sent, n_tok = n_sent + n, n_tok + t
        else:
            found.update(part[0])
        distributed.barrier(ranks)      # the shared cache holds everything: the shards can go
        distributed.remove_shard(shard.path)
    finally:
        main.close()
    return found, n_sent, n_tok


def _load(name: str, opts: RunOptions, ranks: Ranks, log):
    """The model on every rank, or the same error on every rank."""
    from benchmark import loading
    error, lm = None, None
    try:
        lm = loading.load(name, opts.device, opts.dtype, opts.revision, log=log, device_index=ranks.local_rank
                          if ranks.active else None, device_map=opts.device_map, max_memory=opts.max_memory)
    except BenchError as exc:
        error = str(exc)
    except Exception as exc:  # noqa: BLE001 - one line for people, and no rank left waiting
        error = f"cannot load model '{name}': {type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    if not ranks.active and error:
        raise BenchError(error)
    distributed.agree(ranks, error, f"loading model '{name}'")
    return lm


def run(suite: Suite, opts: RunOptions, progress: Progress | None = None, log=print,
        ranks: Ranks = distributed.SINGLE) -> RunResult | None:
    """Score `suite` with one model; rank 0 writes the run and the baseline and gets the result,
    the other ranks get None."""
    from benchmark import loading
    check_writable(opts.out)   # a read-only or full disk is reported before any scoring
    threads = loading.threads_hint(opts.threads, ranks.local_world)
    name = opts.model or DEFAULT_MODEL
    t0 = time.perf_counter()
    lm = _load(name, opts, ranks, log)
    load_seconds = time.perf_counter() - t0
    try:
        return _score_and_write(suite, opts, progress, log, ranks, lm, name, load_seconds, threads)
    finally:
        del lm
        batching.free_memory()


def _score_and_write(suite, opts, progress, log, ranks, lm, name, load_seconds, threads):
    from benchmark import sanity
    scorer = make_scorer(lm, opts.scorer, opts.token_budget, opts.prefix_sharing)
    if opts.compile:
        lm.compile()
    warnings = list(lm.warnings) + sanity.special_token_warnings(lm.tokenizer)
    probe_bits, warn = sanity.surprisal_warning(lm, scorer)
    if warn:
        warnings.append(warn)
    for w in warnings if ranks.is_main else ():
        log(f"warning: {w}")

    inputs = sentence_inputs(suite, lm.lowercase)
    key = cache_key(model=lm.model_id, revision=lm.revision, scorer=scorer.scorer, dtype=lm.dtype,
                    lowercase=lm.lowercase, vocab_limit=lm.vocab_limit, bos=lm.bos_token,
                    **({"path": "shared"} if scorer.path == "shared" else {}))
    t1 = time.perf_counter()
    if ranks.active:
        scores, n_sent, n_tok = score_parallel(scorer, lm, list(inputs.values()), key, opts, ranks, progress)
    else:
        cache = ScoreCache(key, opts.cache_dir, with_words=scorer.scorer == "pll-word-l2r", enabled=opts.use_cache)
        try:
            scores, n_sent, n_tok = score_all(scorer, list(inputs.values()), cache, progress)
        finally:
            cache.close()
    seconds = time.perf_counter() - t1
    if not ranks.is_main:
        return None

    unigram = {k: baseline.sentence_logprob(s, suite.language) for k, s in sentence_inputs(suite, False).items()}
    run_name = f"{slug(name)}.{scorer.scorer}"
    tables = build_tables(suite, run_name, {k: scores[s] for k, s in inputs.items()}, unigram, opts.alpha)
    info = {
        "model": name, "model_id": lm.model_id, "revision": lm.revision, "kind": lm.kind,
        "scorer": scorer.scorer, "dtype": lm.dtype, "device": str(lm.device), "lowercase": lm.lowercase,
        "bos": lm.bos_token if lm.kind == "causal" else None, "penlp_alpha": opts.alpha,
        "suite": str(suite.path), "suite_name": suite.name, "language": suite.language, "n_items": len(suite.items),
        "n_sentences": len(inputs), "n_distinct_sentences": len(set(inputs.values())),
        "n_scored_now": n_sent, "seconds": round(seconds, 3),
        "sentences_per_s": round(n_sent / seconds, 3) if n_sent and seconds > 0 else None,
        "tokens_per_s": round(n_tok / seconds, 3) if n_tok and seconds > 0 else None,
        "load_seconds": round(load_seconds, 3), "token_budget": scorer.token_budget,
        "processes": ranks.world, "threads_per_process": threads, "device_map": lm.device_map,
        "compiled": opts.compile, "causal_path": scorer.path if lm.kind == "causal" else None,
        "tokenizer": type(lm.tokenizer).__name__, "vocab_limit": lm.vocab_limit,
        "probe_bits_per_token": round(probe_bits, 3), "warnings": warnings,
        "versions": versions(), "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "paradigms": paradigm_infos(suite),
    }
    if opts.full_suite is not None:
        info["positions_per_sentence"] = round(positions_per_sentence(scorer, list(inputs.values())), 3)
        info["full_suite_positions_per_sentence"] = round(positions_per_sentence(
            scorer, list(sentence_inputs(opts.full_suite, lm.lowercase).values())), 3)
    run_dir = write_run(opts.out, suite.name, run_name, tables, info)
    base_dir, base_tables = run_baseline(suite, opts)
    return RunResult(run_dir, base_dir, tables, base_tables, info, warnings)


def paradigm_infos(suite: Suite) -> dict[str, dict]:
    """Each paradigm's label, dependency and island strength, from the suite's manifest (or
    guessed from the name for suites built before it said), for the report's layout."""
    described = suite.manifest.get("paradigms") or {}
    return {name: ParadigmInfo.from_json(name, described.get(name) if isinstance(described, dict) else None).to_json()
            for name in sorted({item.paradigm for item in suite.items})}


def run_baseline(suite: Suite, opts: RunOptions) -> tuple[Path, RunTables]:
    t0 = time.perf_counter()
    inputs = sentence_inputs(suite, False)
    scores = {k: baseline.score(s, suite.language) for k, s in inputs.items()}
    unigram = {k: baseline.sentence_logprob(s, suite.language) for k, s in inputs.items()}
    tables = build_tables(suite, "unigram.unigram", scores, unigram, opts.alpha)
    seconds = time.perf_counter() - t0
    info = {
        "model": "unigram", "model_id": f"wordfreq:{suite.language}", "language": suite.language,
        "revision": versions().get("wordfreq", "unknown"),
        "kind": "unigram", "scorer": "unigram", "dtype": "fp64", "device": "cpu", "lowercase": True,
        "bos": None, "penlp_alpha": opts.alpha, "suite": str(suite.path), "suite_name": suite.name,
        "n_items": len(suite.items), "n_sentences": len(inputs), "seconds": round(seconds, 3),
        "sentences_per_s": round(len(inputs) / seconds, 3) if seconds > 0 else None,
        "tokens_per_s": None, "unigram_floor": baseline.FLOOR, "versions": versions(),
        "paradigms": paradigm_infos(suite),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    return write_run(opts.out, suite.name, "unigram.unigram", tables, info), tables
