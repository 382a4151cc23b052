"""`bench perf --model CAUSAL`: the prefix-shared path, the per-sentence path and minicons side
by side on the same model and sentences: token positions through the model, sentences/s and
the largest per-token difference from the per-sentence path.

The two paths of this engine take turns in every round (a shared machine's load then hits
them alike) and the best round counts; minicons runs in its own environment
(`--oracle-python`), best of the same number of passes."""

from __future__ import annotations

import time
from pathlib import Path

from benchmark.errors import BenchError


def _positions_per_sentence(lm, sentences: list[str]) -> list[int]:
    """Tokens through the model per sentence on the per-sentence path: BOS + the sentence."""
    return [len(ids) + 1 for ids in lm.tokenizer(sentences, add_special_tokens=False)["input_ids"]]


def _minicons_positions(lm, sentences: list[str], batch_size: int) -> int:
    """minicons pads each batch to its longest sentence and runs every slot."""
    lengths = _positions_per_sentence(lm, sentences)
    return sum(len(lengths[a:a + batch_size]) * max(lengths[a:a + batch_size])
               for a in range(0, len(lengths), batch_size))


def compare(lm, sentences: list[str], repeat: int = 2, token_budget: int | None = None,
            oracle_python: Path | None = None, log=print) -> dict:
    from benchmark.perf import _sync, minicons
    from benchmark.records import SentenceInput
    from benchmark.scorers.causal import CausalScorer
    from benchmark.scorers.shared import SharedPrefixScorer, probe_difference
    if lm.kind != "causal":
        raise BenchError(f"model '{lm.name}' is masked: the prefix-shared path is for causal models")
    gpu = lm.device.type == "cuda"
    budget = token_budget or (65536 if gpu else 4096)
    inputs = [SentenceInput(s, ()) for s in sentences]
    scorers = {"shared": SharedPrefixScorer(lm, budget), "per-sentence": CausalScorer(lm, budget)}
    import torch
    with torch.inference_mode():
        probe = probe_difference(lm)
    rows = {name: {"path": name, "seconds": []} for name in scorers}
    scores: dict[str, dict] = {}
    for name, scorer in scorers.items():             # warm-up
        scorer.score(inputs[:16], lambda pairs: None)
    _sync(lm.device)
    for rnd in range(repeat):
        for name, scorer in scorers.items():
            got: dict = {}
            if name == "shared":       # every pass plans anew, as a run does once
                scorer.computed_positions = scorer.padded_positions = 0
                scorer._last_plan = None
            t0 = time.perf_counter()
            with torch.inference_mode():
                scorer.score(inputs, got.update)
            _sync(lm.device)
            rows[name]["seconds"].append(time.perf_counter() - t0)
            scores[name] = got
            log(f"  round {rnd + 1}, {name}: {rows[name]['seconds'][-1]:.2f} s")
    reference = scores["per-sentence"]
    per_sentence_positions = sum(_positions_per_sentence(lm, sentences))
    rows["shared"]["positions"] = scorers["shared"].computed_positions
    rows["shared"]["padded_positions"] = scorers["shared"].padded_positions
    rows["per-sentence"]["positions"] = rows["per-sentence"]["padded_positions"] = per_sentence_positions
    for name in scorers:
        rows[name]["max_abs_diff"] = max(abs(a - b) for s in inputs
                                         for a, b in zip(scores[name][s].logprobs, reference[s].logprobs))
    if oracle_python is not None:
        batch = 64 if gpu else 16
        folder = getattr(lm.model, "name_or_path", None) or lm.model_id   # an alias's converted folder
        theirs = minicons(oracle_python, folder, sentences, lm.device.type, lm.dtype, batch, repeat,
                          torch.get_num_threads(), kind="causal")
        same = all(len(t) == len(reference[s]) for t, s in zip(theirs.scores, inputs))
        if not same:
            raise BenchError("minicons tokenised some sentences differently: no per-token comparison")
        rows["minicons"] = {"path": "minicons", "seconds": [theirs.seconds],
                            "positions": _minicons_positions(lm, sentences, batch),
                            "max_abs_diff": max(abs(a - b) for t, s in zip(theirs.scores, inputs)
                                                for a, b in zip(t, reference[s].logprobs))}
        rows["minicons"]["padded_positions"] = rows["minicons"]["positions"]
    base = min(rows["per-sentence"]["seconds"])
    out = []
    for r in rows.values():
        best = min(r["seconds"])
        out.append({**r, "best_s": round(best, 3), "sentences_per_s": round(len(inputs) / best, 2),
                    "speedup_vs_per_sentence": round(base / best, 2)})
    n_pred = sum(len(reference[s]) for s in inputs)
    log(f"{lm.name} on {lm.device} ({lm.dtype}, {torch.get_num_threads()} threads), {len(inputs)} sentences, "
        f"{n_pred} scored tokens; probe difference shared vs per-sentence {probe:.1e}")
    log("| path | token positions through the model | with padding | sentences/s | vs per-sentence | "
        "max abs diff per token vs per-sentence |")
    log("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in out:
        log(f"| {r['path']} | {r['positions']:,} | {r['padded_positions']:,} | {r['sentences_per_s']:.2f} | "
            f"{r['speedup_vs_per_sentence']:.2f}x | {r['max_abs_diff']:.1e} |")
    return {"model": lm.name, "device": str(lm.device), "dtype": lm.dtype, "n_sentences": len(inputs),
            "scored_tokens": n_pred, "probe_difference": probe, "paths": out}
