"""Causal-LM log-probability: LP(s) = sum_t log P(w_t | w_<t), with the model's BOS token
prepended so the first token is scored too (EOS stands in when there is no BOS).

Sentences are grouped by exact token length (no padding), batched by a token budget; the LM
head runs on row chunks so full-vocabulary logits never exist for a whole batch at once."""

from __future__ import annotations

from typing import Callable

from benchmark.batching import batch_size_for, chunks, length_groups, run_batches, singletons, token_costs
from benchmark.errors import BenchError
from benchmark.loading import LoadedModel
from benchmark.records import SentenceInput, TokenScores
from benchmark.scorers.encoding import Encoded, encode_many

Done = Callable[[list[tuple[SentenceInput, TokenScores]]], None]


class CausalScorer:
    scorer = "lp"
    path = "per-sentence"

    def __init__(self, lm: LoadedModel, token_budget: int = 4096, chunk_rows: int = 2000):
        if lm.bos_id is None:
            raise BenchError(f"model '{lm.name}' has neither a BOS nor an EOS token: the first word "
                             "of a sentence cannot be scored")
        self.lm, self.token_budget, self.chunk_rows = lm, token_budget, chunk_rows

    def encode(self, inputs: list[SentenceInput]) -> list[Encoded]:
        return encode_many(self.lm.tokenizer, [s.text for s in inputs], specials=False, prefix_id=self.lm.bos_id)

    def units(self, inputs: list[SentenceInput]) -> int:
        return len(inputs)

    def groups(self, todo: list[SentenceInput], universe: list[SentenceInput]) -> list[tuple[list[int], int]]:
        """Work groups for a data-parallel split: each sentence alone, weighed by its tokens."""
        return singletons(token_costs(self.lm, "lp", [s.text for s in todo]))

    def score(self, inputs: list[SentenceInput], on_done: Done, progress: Callable[[int], None] = lambda n: None,
              universe: list[SentenceInput] | None = None) -> None:
        """`universe` (the run's other sentences) does not matter to this path."""
        import torch
        encs = self.encode(inputs)
        lengths = [len(e.ids) for e in encs]
        batch_size = None
        with torch.inference_mode():
            for length, members in length_groups(lengths):
                batch_size = min(batch_size or 1 << 30, batch_size_for(length, self.token_budget))
                for chunk in chunks(members, [1] * len(encs), self.chunk_rows):
                    batch_size, scores = self._chunk([encs[i] for i in chunk], length, batch_size, progress)
                    on_done([(inputs[i], s) for i, s in zip(chunk, scores)])

    def _chunk(self, encs: list[Encoded], length: int, batch_size: int, progress):
        import torch
        dev = self.lm.device
        ids = torch.tensor([e.ids for e in encs], device=dev)
        out = torch.empty(len(encs), length - 1, dtype=torch.float32, device=dev)

        def step(a: int, b: int) -> None:
            batch = ids[a:b]
            states = self.lm.hidden(batch)[:, :-1]
            lp = self.lm.logprobs(states.reshape(-1, states.shape[-1]), batch[:, 1:].reshape(-1))
            out[a:b] = lp.view(b - a, length - 1)

        batch_size = run_batches(len(encs), batch_size, step, progress)
        values = out.cpu().tolist()
        return batch_size, [TokenScores(e.tokens, e.starts, e.ends, tuple(v)) for e, v in zip(encs, values)]
