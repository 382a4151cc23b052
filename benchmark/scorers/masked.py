"""Masked-LM pseudo-log-likelihood: PLL (Salazar et al. 2020) and PLL-word-l2r (Kauf &
Ivanova 2023), computed over flattened rows.

Every (sentence, masked position) is one row. Rows are grouped by exact sequence length so no
padding is needed, batched by a token budget, and only the hidden states at the masked
positions go through the LM head. Results stay on the device until a chunk of sentences is
finished, then come back in one copy."""

from __future__ import annotations

from typing import Callable

from benchmark.batching import batch_size_for, chunks, length_groups, run_batches, singletons, token_costs
from benchmark.loading import LoadedModel
from benchmark.records import SentenceInput, TokenScores
from benchmark.scorers.encoding import Encoded, encode_many, l2r_mask_ends

Done = Callable[[list[tuple[SentenceInput, TokenScores]]], None]


class MaskedScorer:
    path = "per-row"
    def __init__(self, lm: LoadedModel, scorer: str = "pll", token_budget: int = 4096,
                 chunk_rows: int = 20000):
        if scorer not in ("pll", "pll-word-l2r"):
            raise ValueError(scorer)
        self.lm, self.scorer = lm, scorer
        self.token_budget, self.chunk_rows = token_budget, chunk_rows

    def plan(self, inputs: list[SentenceInput]) -> list[tuple[Encoded, list[int]]]:
        """Each sentence's encoding and, per scored token, one past the last masked position."""
        encs = encode_many(self.lm.tokenizer, [s.text for s in inputs], specials=True)
        if self.scorer == "pll":
            return [(e, [p + 1 for p in e.scored]) for e in encs]
        return [(e, l2r_mask_ends(e, s.words)) for e, s in zip(encs, inputs)]

    def units(self, inputs: list[SentenceInput]) -> int:
        """Rows (masked copies) needed for `inputs`: the unit of the progress bar."""
        return sum(len(e.scored) for e in encode_many(self.lm.tokenizer, [s.text for s in inputs], specials=True))

    def groups(self, todo: list[SentenceInput], universe: list[SentenceInput]) -> list[tuple[list[int], int]]:
        """Work groups for a data-parallel split: each sentence alone, weighed by its rows x length."""
        return singletons(token_costs(self.lm, self.scorer, [s.text for s in todo]))

    def score(self, inputs: list[SentenceInput], on_done: Done, progress: Callable[[int], None] = lambda n: None,
              universe: list[SentenceInput] | None = None) -> None:
        """`universe` (the run's other sentences) does not matter to this path."""
        import torch
        plans = self.plan(inputs)
        lengths = [len(e.ids) for e, _ in plans]
        n_rows = [len(e.scored) for e, _ in plans]
        batch_size = None
        with torch.inference_mode():
            for length, members in length_groups(lengths):
                batch_size = batch_size or batch_size_for(length, self.token_budget)
                batch_size = min(batch_size, batch_size_for(length, self.token_budget))
                for chunk in chunks(members, n_rows, self.chunk_rows):
                    batch_size, scores = self._chunk(chunk, plans, length, batch_size, progress)
                    on_done([(inputs[i], s) for i, s in zip(chunk, scores)])

    def _chunk(self, chunk: list[int], plans, length: int, batch_size: int, progress):
        import torch
        dev, mask_id = self.lm.device, self.lm.tokenizer.mask_token_id
        ids = torch.tensor([plans[i][0].ids for i in chunk], device=dev)
        sent, pos, end = [], [], []
        for k, i in enumerate(chunk):
            enc, ends = plans[i]
            sent += [k] * len(enc.scored)
            pos += list(enc.scored)
            end += ends
        sent_t = torch.tensor(sent, device=dev)
        pos_t = torch.tensor(pos, device=dev)
        end_t = torch.tensor(end, device=dev)
        out = torch.empty(len(sent), dtype=torch.float32, device=dev)
        columns = torch.arange(length, device=dev)

        def step(a: int, b: int) -> None:
            base = ids[sent_t[a:b]]
            masked = (columns >= pos_t[a:b, None]) & (columns < end_t[a:b, None])
            states = self.lm.hidden(base.masked_fill(masked, mask_id))
            rows = torch.arange(b - a, device=dev)
            out[a:b] = self.lm.logprobs(states[rows, pos_t[a:b]], base[rows, pos_t[a:b]])

        batch_size = run_batches(len(sent), batch_size, step, progress)
        values = out.cpu().tolist()
        scores, at = [], 0
        for i in chunk:
            enc = plans[i][0]
            n = len(enc.scored)
            scores.append(TokenScores(enc.tokens, enc.starts, enc.ends, tuple(values[at:at + n])))
            at += n
        return batch_size, scores
