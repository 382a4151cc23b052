"""Engine behaviour: batching by length, out-of-memory halving, deduplication, cache resume."""

from __future__ import annotations

import pytest
import torch

from benchmark import batching
from benchmark.cache import ScoreCache
from benchmark.errors import BenchError
from benchmark.records import SentenceInput
from benchmark.runner import make_scorer, score_all
from conftest import word_spans

TEXTS = ["Chi pensa che Gianni abbia riscosso il pagamento?", "Cosa pensa che Gianni abbia riscosso?",
         "Il gatto dorme sul divano.", "Luca è partito.", "Dove hai messo le chiavi della macchina?",
         "Perché non mi hai chiamato ieri sera?", "Maria crede che l'avvocato abbia firmato il contratto."]


def ins(texts=TEXTS):
    return [SentenceInput(t, tuple(tuple(w) for w in word_spans(t))) for t in texts]


def test_length_groups_and_chunks():
    groups = batching.length_groups([3, 5, 3, 7, 5])
    assert groups == [(7, [3]), (5, [1, 4]), (3, [0, 2])]
    assert list(batching.chunks([0, 1, 2, 3], [4, 4, 4, 9], 8)) == [[0, 1], [2], [3]]
    assert batching.batch_size_for(12, 4096) == 341 and batching.batch_size_for(5000, 4096) == 1


def test_oom_halves_the_batch_and_retries():
    seen, done = [], []

    def step(a, b):
        seen.append(b - a)
        if b - a > 3:
            raise torch.OutOfMemoryError("CUDA out of memory (simulated)")
        done.extend(range(a, b))

    final = batching.run_batches(20, 16, step)
    assert done == list(range(20)) and final == 2
    assert seen[:4] == [16, 8, 4, 2]

    def always(a, b):
        raise RuntimeError("CUDA error: out of memory")
    with pytest.raises(BenchError, match="out of memory with a batch of one row"):
        batching.run_batches(3, 1, always)
    with pytest.raises(ValueError):
        batching.run_batches(3, 2, lambda a, b: (_ for _ in ()).throw(ValueError("other")))


def test_oom_in_the_model_gives_identical_scores(loaded, monkeypatch):
    lm = loaded["bert"]
    clean = {}
    make_scorer(lm, "pll", 4096).score(ins(), lambda p: clean.update(p))
    real_hidden, calls = type(lm).hidden, []

    def flaky_hidden(self, ids):
        calls.append(ids.shape[0])
        if ids.shape[0] > 5:
            raise torch.OutOfMemoryError("simulated")
        return real_hidden(self, ids)

    monkeypatch.setattr(type(lm), "hidden", flaky_hidden)
    again = {}
    make_scorer(lm, "pll", 4096).score(ins(), lambda p: again.update(p))
    assert any(c > 5 for c in calls) and max(c for c in calls[-3:]) <= 5
    for s in ins():
        assert again[s].logprobs == pytest.approx(clean[s].logprobs, abs=1e-5)


def test_dedup_scores_each_distinct_sentence_once(loaded, tmp_path):
    lm = loaded["gpt2"]
    scorer = make_scorer(lm, "lp", None)
    seen = []
    real = scorer.score
    scorer.score = lambda todo, done, adv=lambda n: None, **kw: (seen.extend(todo), real(todo, done, adv, **kw))[1]
    many = ins() * 3 + ins()[:2]
    cache = ScoreCache("k", tmp_path, enabled=False)
    scores, n_sent, n_tok = score_all(scorer, many, cache)
    assert len(seen) == len(TEXTS) == n_sent and set(scores) == set(many)


def test_cache_resumes_an_interrupted_run(loaded, tmp_path):
    lm = loaded["bert"]
    texts = [f"{t} {k}" for k in range(3) for t in TEXTS]   # more sentences, several lengths
    scorer = make_scorer(lm, "pll-word-l2r", 256)
    scorer.chunk_rows = 30                                   # commit every few sentences

    class Interrupted(Exception):
        pass

    cache = ScoreCache("resume", tmp_path, with_words=True)
    committed = []
    real_put = cache.put_many

    def put_then_stop(pairs):
        real_put(pairs)
        committed.extend(pairs)
        if len(committed) >= 6:
            raise Interrupted()

    cache.put_many = put_then_stop
    with pytest.raises(Interrupted):
        score_all(scorer, ins(texts), cache)
    cache.close()
    n_first = len(committed)
    assert 6 <= n_first < len(texts)

    cache = ScoreCache("resume", tmp_path, with_words=True)
    scores, n_sent, _ = score_all(scorer, ins(texts), cache)
    cache.close()
    assert n_sent == len(texts) - n_first                   # only the unfinished ones
    fresh = {}
    make_scorer(lm, "pll-word-l2r", 4096).score(ins(texts), lambda p: fresh.update(p))
    for s in ins(texts):
        assert scores[s].logprobs == pytest.approx(fresh[s].logprobs, abs=1e-5)
        assert scores[s].tokens == fresh[s].tokens
