"""Token prefixes shared between sentences, packed for one forward pass each.

A causal model's prediction of token k depends only on tokens 0..k-1, so sentences that begin
alike need those beginnings computed once. The sentences (token ids, BOS first) are sorted and
merged into a token trie; a node is one distinct prefix. Each sentence of m tokens needs the
m-1 nodes of its own prefixes (the last token predicts nothing). Consecutive sentences in sorted
order go into one pack until the pack would hold more than `capacity` nodes; a subtree cut by a
pack boundary repeats its shared ancestors in the next pack.

Sorted insertion lays a pack's nodes out in depth-first preorder, so every subtree is one
contiguous run [j, end[j]): node j is an ancestor of node i (or i itself) exactly when
j <= i < end[j]. That gives the attention mask in one comparison, and the position of a node is
its depth. The packing depends only on the set of sentences and the capacity, never on the
device, the batch or the process that computes a pack: so a pack's floats are the same in any
run over the same sentences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Pack:
    tokens: tuple[int, ...]           # node token ids, preorder
    depths: tuple[int, ...]           # position of each node (BOS at 0)
    ends: tuple[int, ...]             # one past the last node of each node's subtree
    members: tuple[int, ...]          # indices (into the packed sequences) of the sentences here
    paths: tuple[tuple[int, ...], ...]   # per member, the node of each prefix ids[:k], k = 1..m-1

    def __len__(self) -> int:
        return len(self.tokens)


class _Builder:
    def __init__(self) -> None:
        self.tokens: list[int] = []
        self.depths: list[int] = []
        self.parents: list[int] = []
        self.children: list[dict[int, int]] = [{}]    # children of a virtual root, then of each node
        self.members: list[int] = []
        self.paths: list[tuple[int, ...]] = []

    def new_nodes(self, prefix: Sequence[int]) -> int:
        """How many nodes `prefix` would add."""
        at, shared = 0, 0
        for t in prefix:
            nxt = self.children[at].get(t)
            if nxt is None:
                break
            at, shared = nxt + 1, shared + 1
        return len(prefix) - shared

    def add(self, index: int, prefix: Sequence[int]) -> None:
        at, path = 0, []
        for depth, t in enumerate(prefix):
            node = self.children[at].get(t)
            if node is None:
                node = len(self.tokens)
                self.children[at][t] = node
                self.tokens.append(t)
                self.depths.append(depth)
                self.parents.append(at - 1)
                self.children.append({})
            path.append(node)
            at = node + 1
        self.members.append(index)
        self.paths.append(tuple(path))

    def build(self) -> Pack:
        ends = list(range(1, len(self.tokens) + 1))
        for node in range(len(self.tokens) - 1, -1, -1):   # children come after their parent
            parent = self.parents[node]
            if parent >= 0:
                ends[parent] = max(ends[parent], ends[node])
        return Pack(tuple(self.tokens), tuple(self.depths), tuple(ends), tuple(self.members), tuple(self.paths))


def pack(sequences: Sequence[Sequence[int]], capacity: int) -> list[Pack]:
    """Packs of at most `capacity` nodes (more only for one sentence longer than that) covering
    every sequence of two or more tokens; identical sequences share one path."""
    order = sorted((i for i, s in enumerate(sequences) if len(s) >= 2), key=lambda i: tuple(sequences[i]))
    packs, current = [], _Builder()
    for i in order:
        prefix = sequences[i][:-1]
        if current.members and len(current.tokens) + current.new_nodes(prefix) > capacity:
            packs.append(current.build())
            current = _Builder()
        current.add(i, prefix)
    if current.members:
        packs.append(current.build())
    return packs


def padded_length(n_nodes: int, multiple: int = 16) -> int:
    """The row length a pack is computed at: a function of the pack and the device type alone
    (see the module note)."""
    return -(-n_nodes // multiple) * multiple


def ancestor_mask(ends, depths, window: int | None = None):
    """Boolean (B, T, T) mask from (B, T) tensors: query i may see key j when j is i or an
    ancestor of i (j <= i < end[j]) and, with a sliding `window`, fewer than `window`
    positions back. Padding slots have end = own index + 1 and so see only themselves."""
    import torch
    T = ends.shape[-1]
    idx = torch.arange(T, device=ends.device)
    q = idx.view(1, T, 1)
    k = idx.view(1, 1, T)
    mask = (k <= q) & (q < ends.unsqueeze(1))
    if window is not None:
        mask &= (depths.unsqueeze(2) - depths.unsqueeze(1)) < window
    return mask
