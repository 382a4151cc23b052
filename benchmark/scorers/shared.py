"""Causal LP with every distinct token prefix computed once.

The sentences of a run are merged into a token trie and packed (prefix_trie.py); each pack is
one row through the model, with a tree-shaped attention mask (a node sees itself and its
ancestors) and position ids equal to the node's depth, so every node gets exactly the hidden
state it has in its own sentence. The LM head runs once per node: one log-softmax serves every
sentence that continues that prefix. Per-token log-probabilities match the per-sentence path
(causal.py) to float rounding; a probe at start-up checks it on the loaded model and falls back
to the per-sentence path when the model computes positions or masks its own way.

Sliding-window layers (Gemma 3, Mistral) get a mask of their own: depth distance below the
window. Models whose layers differ (Gemma 3 alternates sliding and global layers) receive one
mask per layer type.

Packs are planned over the run's whole set of distinct sentences (the `universe`), not over
the ones still to score: a resumed run, or a rank of a data-parallel run, computes the same
packs as an uninterrupted single process, so the tables are byte-identical."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from benchmark.batching import chunks, run_batches
from benchmark.loading import LoadedModel
from benchmark.records import SentenceInput, TokenScores
from benchmark.scorers.causal import CausalScorer
from benchmark.scorers.encoding import Encoded
from benchmark.scorers.prefix_trie import Pack, ancestor_mask, pack, padded_length

Done = Callable[[list[tuple[SentenceInput, TokenScores]]], None]
CAPACITY = {"cpu": 256, "cuda": 1024}   # nodes per pack (docs/benchmark.md: chosen by measurement)
# Row lengths are rounded up to this multiple so that packs of nearly equal size share a batch.
# A CPU gains nothing from batching rows of 256 (one pack is a large enough matrix product),
# so there a pack runs at its exact length, without padding.
ROW_MULTIPLE = {"cpu": 1, "cuda": 16}
PROBE = ("Il gatto dorme sul divano.", "Il gatto dorme sul letto di casa.", "Il cane dorme.",
         "Chi pensa che il gatto dorma?", "Chi pensa che il cane abbia dormito?")


@dataclass(frozen=True)
class Plan:
    encodings: dict[SentenceInput, Encoded]
    packs: list[Pack]
    inputs: list[SentenceInput]          # the universe, in the order pack members index


def attention_layouts(config) -> dict[str, int | None]:
    """Layer type -> sliding window (None: global) of the layers the model has."""
    window = getattr(config, "sliding_window", None)
    types = getattr(config, "layer_types", None)
    if types:
        return {t: (window if "sliding" in t else None) for t in sorted(set(types))}
    return {"full_attention": window}


def _universe(todo: list[SentenceInput], universe: list[SentenceInput] | None) -> list[SentenceInput]:
    """Every sentence the packs are planned over, in one fixed order."""
    return sorted(set(universe or ()) | set(todo), key=lambda s: (s.text, s.words))


class SharedPrefixScorer(CausalScorer):
    """The per-sentence scorer's tokenisation and checks, with packed prefix trees for scoring."""
    path = "shared"

    def __init__(self, lm: LoadedModel, token_budget: int = 4096, chunk_rows: int = 2000,
                 capacity: int | None = None):
        super().__init__(lm, token_budget, chunk_rows)
        self.capacity = capacity or CAPACITY.get(lm.device.type, 256)
        self.row_multiple = ROW_MULTIPLE.get(lm.device.type, 16)
        self.layouts = attention_layouts(lm.model.config)
        self.computed_positions = 0       # real nodes through the model, for perf reports
        self.padded_positions = 0
        self._last_plan: tuple[tuple, Plan] | None = None

    # --- planning -------------------------------------------------------------------------
    def plan(self, universe: list[SentenceInput]) -> Plan:
        """The packs over `universe`; the last plan is kept, since a run asks for it more than
        once (to split the work between ranks, then to score)."""
        key = tuple(universe)
        if self._last_plan is None or self._last_plan[0] != key:
            encs = self.encode(universe)
            plan = Plan(dict(zip(universe, encs)), pack([e.ids for e in encs], self.capacity), list(universe))
            self._last_plan = (key, plan)
        return self._last_plan[1]

    def groups(self, todo: list[SentenceInput], universe: list[SentenceInput]) -> list[tuple[list[int], int]]:
        """`todo` (by index) in groups that must stay together (one pack each), with the pack's
        cost in model positions: how a data-parallel run splits the work."""
        where = {s: i for i, s in enumerate(todo)}
        plan, out = self.plan(_universe(todo, universe)), []
        for p in plan.packs:
            mine = [where[plan.inputs[m]] for m in p.members if plan.inputs[m] in where]
            if mine:
                out.append((mine, len(p)))
        return out

    # --- scoring --------------------------------------------------------------------------
    def score(self, inputs: list[SentenceInput], on_done: Done, progress: Callable[[int], None] = lambda n: None,
              universe: list[SentenceInput] | None = None) -> None:
        import torch
        todo = set(inputs)
        plan = self.plan(_universe(inputs, universe))
        packs = [p for p in plan.packs if any(plan.inputs[i] in todo for i in p.members)]
        by_length: dict[int, list[Pack]] = {}
        for p in packs:
            by_length.setdefault(padded_length(len(p), self.row_multiple), []).append(p)
        with torch.inference_mode():
            for T in sorted(by_length, reverse=True):
                group = by_length[T]
                sizes = [len(p.members) for p in group]
                for chunk in chunks(list(range(len(group))), sizes, self.chunk_rows):
                    done = self._chunk([group[i] for i in chunk], T, plan, todo, progress)
                    for a in range(0, len(done), self.chunk_rows):   # commits of chunk_rows at most
                        on_done(done[a:a + self.chunk_rows])

    def _chunk(self, packs: list[Pack], T: int, plan: Plan, todo: set, progress) -> list:
        import torch
        dev = self.lm.device
        B = len(packs)
        ids = torch.full((B, T), self.lm.bos_id, dtype=torch.long)
        depths = torch.zeros((B, T), dtype=torch.long)
        ends = torch.arange(1, T + 1).repeat(B, 1)
        for b, p in enumerate(packs):
            n = len(p)
            ids[b, :n] = torch.tensor(p.tokens)
            depths[b, :n] = torch.tensor(p.depths)
            ends[b, :n] = torch.tensor(p.ends)
        ids, depths, ends = ids.to(dev), depths.to(dev), ends.to(dev)
        results: list[list[float] | None] = [None] * B
        per_batch = max(1, self.token_budget // T)

        preds = [self._predictions(p, plan) for p in packs]

        def step(a: int, b: int) -> None:
            states = self.lm.tree_hidden(ids[a:b], depths[a:b], self._masks(ends[a:b], depths[a:b]))
            # the head runs on the real nodes only, once each; predictions index into them
            real, rows, offset = [], [], 0
            for k in range(a, b):
                real.append(torch.arange(len(packs[k])) + (k - a) * T)
                rows.append(preds[k][0] + offset)
                offset += len(packs[k])
            nodes = states.reshape(-1, states.shape[-1])[torch.cat(real).to(dev)]
            targets = torch.cat([preds[k][1] for k in range(a, b)])
            values = self.lm.logprobs_rows(nodes, torch.cat(rows).to(dev), targets.to(dev)).cpu().tolist()
            at = 0
            for k in range(a, b):
                n = len(preds[k][1])
                results[k], at = values[at:at + n], at + n
            self.computed_positions += offset
            self.padded_positions += (b - a) * T
            progress(sum(plan.inputs[m] in todo for k in range(a, b) for m in packs[k].members))

        run_batches(B, per_batch, step)
        out = []
        for p, values in zip(packs, results):
            at = 0
            for member, path in zip(p.members, p.paths):
                s = plan.inputs[member]
                lp = values[at:at + len(path)]
                at += len(path)
                if s in todo:
                    e = plan.encodings[s]
                    out.append((s, TokenScores(e.tokens, e.starts, e.ends, tuple(lp))))
        return out

    @staticmethod
    def _predictions(p: Pack, plan: Plan):
        """(node, target) of every prediction in `p`, member by member, token by token."""
        import torch
        nodes, targets = [], []
        for member, path in zip(p.members, p.paths):
            nodes += path
            targets += plan.encodings[plan.inputs[member]].ids[1:]
        return torch.tensor(nodes, dtype=torch.long), torch.tensor(targets, dtype=torch.long)

    def _masks(self, ends, depths):
        """The additive attention mask(s) in the model's dtype: one tensor, or one per layer type."""
        import torch
        dtype = self.lm.compute_dtype
        masks = {}
        for kind, window in self.layouts.items():
            allowed = ancestor_mask(ends, depths, window)
            blocked = torch.tensor(torch.finfo(dtype).min, dtype=dtype, device=allowed.device)
            masks[kind] = torch.where(allowed, torch.zeros((), dtype=dtype, device=allowed.device), blocked).unsqueeze(1)
        return next(iter(masks.values())) if len(masks) == 1 else masks


def probe_difference(lm: LoadedModel) -> float:
    """Largest |difference| per token between this path and the per-sentence one on a few
    sentences that share beginnings (a model that derives positions or masks its own way,
    e.g. ALiBi, shows it here)."""
    inputs = [SentenceInput(s, ()) for s in PROBE]
    shared, single = {}, {}
    SharedPrefixScorer(lm, capacity=24).score(inputs, shared.update)
    CausalScorer(lm).score(inputs, single.update)
    return max(abs(a - b) for s in inputs for a, b in zip(shared[s].logprobs, single[s].logprobs))
