"""Scores on the committed tiny models agree with minicons (values stored by
scripts/minicons_oracle.py golden) and with a few pinned values."""

from __future__ import annotations

import json

import pytest

from benchmark import loading
from benchmark.records import SentenceInput
from benchmark.runner import make_scorer
from conftest import DATA, word_spans

GOLDEN = json.loads((DATA / "minicons_golden.json").read_text(encoding="utf-8"))
SENTENCES = json.loads((DATA / "oracle_sentences.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def committed_loaded(committed_tiny):
    return {n: loading.load(str(p), "cpu", "fp32", log=lambda *a: None) for n, p in committed_tiny.items()}


def score(lm, scorer_name, texts):
    ins = [SentenceInput(t, tuple(tuple(w) for w in word_spans(t))) for t in texts]
    got = {}
    make_scorer(lm, scorer_name, None).score(ins, lambda pairs: got.update(pairs))
    return [list(got[s].logprobs) for s in ins]


@pytest.mark.parametrize("name", ["bert", "roberta"])
@pytest.mark.parametrize("ours,theirs", [("pll", "original"), ("pll-word-l2r", "within_word_l2r")])
def test_masked_matches_minicons(committed_loaded, name, ours, theirs):
    mine = score(committed_loaded[name], ours, SENTENCES["masked"])
    gold = GOLDEN["models"][name][theirs]
    for a, b in zip(mine, gold):
        assert len(a) == len(b)
        assert max(abs(x - y) for x, y in zip(a, b)) < 1e-4


def test_causal_matches_minicons(committed_loaded):
    mine = score(committed_loaded["gpt2"], "lp", SENTENCES["causal"])
    for a, b in zip(mine, GOLDEN["models"]["gpt2"]["lp"]):
        assert len(a) == len(b)
        assert max(abs(x - y) for x, y in zip(a, b)) < 1e-4


def test_pinned_sentence_scores(committed_loaded):
    """A few sentence scores pinned by value (they also equal minicons' sums)."""
    first = SENTENCES["masked"][0]
    assert sum(score(committed_loaded["bert"], "pll", [first])[0]) == pytest.approx(-59.036, abs=1e-3)
    assert sum(score(committed_loaded["roberta"], "pll-word-l2r", [first])[0]) == pytest.approx(
        sum(GOLDEN["models"]["roberta"]["within_word_l2r"][0]), abs=1e-4)
    assert sum(score(committed_loaded["gpt2"], "lp", [first])[0]) == pytest.approx(
        sum(GOLDEN["models"]["gpt2"]["lp"][0]), abs=1e-4)
