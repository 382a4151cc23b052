"""Data-parallel scoring under an existing launcher (`torchrun`, `accelerate launch`, or either
inside a SLURM job): every process (rank) loads the model, scores a share of the distinct
sentences, and rank 0 gathers the scores and writes the one run folder. With one process none
of this runs.

The launchers describe the job in the environment (RANK, WORLD_SIZE, LOCAL_RANK,
LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT). Only Python objects travel between ranks (the
sentences' scores), so the process group always uses the gloo backend, on CPUs and GPUs alike,
and on one node or several.

The score cache has one writer per file: rank 0 reads the shared cache and decides what is
left to score; each rank commits its finished chunks to a shard of its own
(`<key>.rank<r>of<n>.sqlite`), so an interrupted rank resumes from it; rank 0 merges all the
scores into the shared cache at the end and the shards are deleted. One writer per file keeps
SQLite's locking out of the picture, which matters on the network file systems of clusters."""

from __future__ import annotations

import datetime as _dt
import heapq
import os
from dataclasses import dataclass
from typing import Sequence

from benchmark.errors import BenchError

DEFAULT_TIMEOUT_S = 3600     # how long a rank waits for the others at a meeting point


@dataclass(frozen=True)
class Ranks:
    rank: int = 0
    world: int = 1
    local_rank: int = 0
    local_world: int = 1

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    @property
    def active(self) -> bool:
        return self.world > 1

    def shard_name(self, key: str) -> str:
        return f"{key}.rank{self.rank}of{self.world}"


SINGLE = Ranks()


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    try:
        return int(value) if value.strip() else default
    except ValueError:
        raise BenchError(f"the environment variable {name}={value!r} is not a whole number "
                         "(it is set by torchrun or accelerate launch)") from None


def from_env() -> Ranks:
    """The ranks a launcher described in the environment; one process when none did."""
    world = _env_int("WORLD_SIZE", 1)
    if world <= 1:
        return SINGLE
    rank = _env_int("RANK", 0)
    local_world = _env_int("LOCAL_WORLD_SIZE", world)
    ranks = Ranks(rank, world, _env_int("LOCAL_RANK", rank % max(local_world, 1)), local_world)
    if not 0 <= ranks.rank < world or not 0 <= ranks.local_rank < ranks.local_world:
        raise BenchError(f"inconsistent launcher environment: RANK={rank}, WORLD_SIZE={world}, "
                         f"LOCAL_RANK={ranks.local_rank}, LOCAL_WORLD_SIZE={ranks.local_world}")
    return ranks


def init(ranks: Ranks, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
    """Join the process group (once per process)."""
    if not ranks.active:
        return
    import torch.distributed as dist
    if dist.is_initialized():
        return
    for name in ("MASTER_ADDR", "MASTER_PORT"):
        if not os.environ.get(name):
            raise BenchError(f"WORLD_SIZE={ranks.world} but {name} is not set: start bench run with "
                             "torchrun or accelerate launch, which set it")
    dist.init_process_group("gloo", rank=ranks.rank, world_size=ranks.world,
                            timeout=_dt.timedelta(seconds=timeout_s))


def close(ranks: Ranks) -> None:
    if not ranks.active:
        return
    import torch.distributed as dist
    if dist.is_initialized():
        dist.destroy_process_group()


def agree(ranks: Ranks, error: str | None, what: str) -> None:
    """A meeting point: every rank says whether its part of `what` failed; if any did, every
    rank raises the same error naming the ranks, so none waits for a rank that gave up."""
    if not ranks.active:
        if error:
            raise BenchError(error)
        return
    import torch.distributed as dist
    errors: list = [None] * ranks.world
    dist.all_gather_object(errors, error)
    failed = [(r, e) for r, e in enumerate(errors) if e]
    if failed:
        detail = "; ".join(f"rank {r}: {e}" for r, e in failed)
        raise BenchError(f"{what} failed on {len(failed)} of {ranks.world} processes ({detail})")


def broadcast(ranks: Ranks, value):
    """Rank 0's `value`, on every rank."""
    if not ranks.active:
        return value
    import torch.distributed as dist
    box = [value]
    dist.broadcast_object_list(box, src=0)
    return box[0]


def gather(ranks: Ranks, value) -> list | None:
    """Every rank's `value`, in rank order, on rank 0 (None elsewhere)."""
    if not ranks.active:
        return [value]
    import torch.distributed as dist
    out: list | None = [None] * ranks.world if ranks.is_main else None
    dist.gather_object(value, out, dst=0)
    return out


def barrier(ranks: Ranks) -> None:
    if ranks.active:
        import torch.distributed as dist
        dist.barrier()


def balanced_split(costs: Sequence[int], world: int) -> list[list[int]]:
    """Indices of `costs` dealt to `world` shares of nearly equal total cost: the costliest
    first, each to the least loaded share (ties to the lowest rank). Sentences of one length
    have one cost, so every share gets its part of every length group and batches stay full.
    Each share is returned in ascending index order."""
    heap = [(0, r) for r in range(world)]
    shares: list[list[int]] = [[] for _ in range(world)]
    for i in sorted(range(len(costs)), key=lambda i: (-costs[i], i)):
        load, r = heapq.heappop(heap)
        shares[r].append(i)
        heapq.heappush(heap, (load + costs[i], r))
    return [sorted(s) for s in shares]


def remove_shard(path) -> None:
    """A shard's SQLite file and its companions (journal, WAL, shared memory)."""
    for f in path.parent.glob(path.name + "*"):
        f.unlink(missing_ok=True)

