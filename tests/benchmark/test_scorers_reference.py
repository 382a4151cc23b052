"""Scores of the batched engine agree with the one-at-a-time reference to 1e-4."""

from __future__ import annotations

import pytest

import bench_reference as ref
from benchmark.records import SentenceInput
from benchmark.runner import make_scorer
from conftest import word_spans

SENTENCES = [
    "Chi pensa che Gianni abbia riscosso il pagamento?",
    "Cosa si domanda se l'avvocato abbia firmato?",
    "Il gatto dorme sul divano.",
    "Luca è partito perché la nonna stava male.",
    "Che cosa ti ha raccontato l'amica di Giulia?",
    "Perché?",
    "Quale libro hai letto prima di partire per Roma?",
    "Dove hai messo le chiavi della macchina?",
    "Gli studenti hanno ascoltato la lezione del professore.",
]


def inputs() -> list[SentenceInput]:
    return [SentenceInput(s, tuple(tuple(w) for w in word_spans(s))) for s in SENTENCES]


def run(scorer, ins):
    got = {}
    scorer.score(ins, lambda pairs: got.update(pairs))
    return [got[s] for s in ins]


@pytest.mark.parametrize("budget", [4096, 40])      # 40 tokens: many small batches per length group
@pytest.mark.parametrize("name,scorer_name", [("bert", "pll"), ("bert", "pll-word-l2r"), ("roberta", "pll"),
                                              ("roberta", "pll-word-l2r"), ("gpt2", "lp")])
def test_engine_matches_reference(loaded, name, scorer_name, budget):
    lm = loaded[name]
    scorer = make_scorer(lm, scorer_name, budget)
    for s, got in zip(inputs(), run(scorer, inputs())):
        if scorer_name == "lp":
            want = ref.lp(lm.model, lm.tokenizer, s.text)
        else:
            want = ref.pll(lm.model, lm.tokenizer, s.text, s.words if scorer_name == "pll-word-l2r" else None)
        assert len(got.logprobs) == len(want)
        assert max(abs(a - b) for a, b in zip(got.logprobs, want)) < 1e-4, s.text


def test_l2r_differs_from_pll_only_on_multi_token_words(loaded):
    lm = loaded["roberta"]
    pll = run(make_scorer(lm, "pll", None), inputs())
    l2r = run(make_scorer(lm, "pll-word-l2r", None), inputs())
    some_differ = False
    for s, a, b in zip(inputs(), pll, l2r):
        from benchmark.scorers.encoding import word_index
        widx = word_index(a.starts, a.ends, s.words)
        for k, (x, y) in enumerate(zip(a.logprobs, b.logprobs)):
            last_of_word = k + 1 == len(widx) or widx[k + 1] != widx[k]
            if last_of_word:
                assert x == pytest.approx(y, abs=1e-5)
            else:
                some_differ |= abs(x - y) > 1e-6
    assert some_differ


def test_causal_first_token_is_scored_after_bos(loaded):
    lm = loaded["gpt2"]
    [scores] = run(make_scorer(lm, "lp", None), [SentenceInput("Chi pensa?", ((0, 3), (4, 9), (9, 10)))])
    assert lm.bos_token == "<|endoftext|>"
    assert scores.starts[0] == 0 and scores.tokens[0] == "Chi"
    assert "".join("Chi pensa?"[a:b] for a, b in zip(scores.starts, scores.ends)).replace(" ", "") == "Chipensa?"


def test_offsets_cover_the_text_without_spaces(loaded):
    for name in ("bert", "roberta", "gpt2"):
        scorer = make_scorer(loaded[name], "auto", None)
        for s, ts in zip(inputs(), run(scorer, inputs())):
            spans = list(dict.fromkeys(zip(ts.starts, ts.ends)))   # a byte-level BPE may split one character
            assert "".join(s.text[a:b] for a, b in spans) == s.text.replace(" ", ""), (name, s.text)
            assert ts.starts == tuple(sorted(ts.starts))


def test_uncased_input_is_lowercased():
    from benchmark.runner import lower_same_length
    assert lower_same_length("Chi È L'Avvocato?") == "chi è l'avvocato?"
    assert len(lower_same_length("İstanbul")) == len("İstanbul")


def test_softmax_restricted_to_tokenizer_vocabulary(tmp_path, tiny_models):
    """A config vocabulary larger than the tokenizer (dbmdz XXL): log-softmax over the tokenizer's entries."""
    import shutil

    import torch
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    from benchmark import loading
    d = tmp_path / "bigvocab"
    shutil.copytree(tiny_models["bert"], d)
    model = AutoModelForMaskedLM.from_pretrained(d)
    n = len(AutoTokenizer.from_pretrained(d))
    model.resize_token_embeddings(n + 37)
    torch.manual_seed(1)
    with torch.no_grad():
        model.get_output_embeddings().bias[n:] = 5.0   # untrained rows that would steal probability
    model.save_pretrained(d)
    lm = loading.load(str(d), "cpu", "fp32", log=lambda *a: None)
    assert lm.vocab_limit == n
    s = inputs()[0]
    [got] = run(make_scorer(lm, "pll", None), [s])
    want = ref.pll(lm.model, lm.tokenizer, s.text, vocab=n)
    assert max(abs(a - b) for a, b in zip(got.logprobs, want)) < 1e-4
