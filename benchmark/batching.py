"""Batching without padding: rows grouped by exact length, batches sized by a token budget,
and an out-of-memory retry that halves the batch."""

from __future__ import annotations

from collections import defaultdict
from typing import Callable, Iterator, Sequence

from benchmark.errors import BenchError


def length_groups(lengths: Sequence[int]) -> list[tuple[int, list[int]]]:
    """Indices grouped by length, longest first (the first batches show memory trouble early)."""
    groups: dict[int, list[int]] = defaultdict(list)
    for i, n in enumerate(lengths):
        groups[n].append(i)
    return sorted(groups.items(), key=lambda kv: -kv[0])


def chunks(indices: list[int], weights: Sequence[int], max_weight: int) -> Iterator[list[int]]:
    """Consecutive runs of `indices` whose summed weight stays within `max_weight` (at least one)."""
    run: list[int] = []
    total = 0
    for i in indices:
        if run and total + weights[i] > max_weight:
            yield run
            run, total = [], 0
        run.append(i)
        total += weights[i]
    if run:
        yield run


def token_costs(lm, scorer_name: str, texts: Sequence[str]) -> list[int]:
    """The work of each sentence in tokens through the model: L for LP, L rows of L tokens for PLL."""
    if not texts:        # everything came from the cache
        return []
    ids = lm.tokenizer(list(texts), add_special_tokens=lm.kind == "masked")["input_ids"]
    return [len(x) + 1 if scorer_name == "lp" else len(x) ** 2 for x in ids]


def singletons(costs: Sequence[int]) -> list[tuple[list[int], int]]:
    """Work groups of one sentence each (scorers whose sentences share no computation)."""
    return [([i], c) for i, c in enumerate(costs)]


def batch_size_for(length: int, token_budget: int) -> int:
    return max(1, token_budget // max(1, length))


def is_oom(exc: BaseException) -> bool:
    try:
        import torch
        if isinstance(exc, torch.OutOfMemoryError):
            return True
    except (ImportError, AttributeError):
        pass
    return isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()


def free_memory() -> None:
    """Give back what a model or a failed batch held (also between models of one run)."""
    import gc
    gc.collect()
    try:
        import torch
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:
        pass


def run_batches(n_rows: int, batch_size: int, step: Callable[[int, int], None],
                on_batch: Callable[[int], None] | None = None) -> int:
    """Calls step(start, stop) over [0, n_rows) in batches; on out-of-memory the batch is halved
    and retried. Returns the batch size that worked last (callers keep it for the next group)."""
    start = 0
    while start < n_rows:
        stop = min(n_rows, start + batch_size)
        try:
            step(start, stop)
        except Exception as exc:  # noqa: BLE001 - only out-of-memory is handled
            if not is_oom(exc):
                raise
            if stop - start <= 1:
                raise BenchError("out of memory with a batch of one row: use --device cpu "
                                 "or a smaller model") from None
            free_memory()
            batch_size = max(1, (stop - start) // 2)
            continue
        if on_batch is not None:
            on_batch(stop - start)
        start = stop
    return batch_size
