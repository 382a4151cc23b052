"""Prefix-shared causal scoring (benchmark/scorers/shared.py): the packing, and exact agreement
with the per-sentence path on tiny random models of every causal family the registry uses
(GPT-2, Llama, Mistral with a sliding window, Gemma 3 with sliding and global layers)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.records import SentenceInput
from benchmark.scorers.prefix_trie import ancestor_mask, pack, padded_length

TOL = 1e-4


# --- the packing ------------------------------------------------------------------------
def _prefixes(seq):
    return {tuple(seq[:k]) for k in range(1, len(seq))}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), min_size=2, max_size=9), min_size=1, max_size=40),
       st.integers(1, 30))
def test_packs_hold_each_prefix_a_sentence_needs_and_no_more(seqs, capacity):
    packs = pack(seqs, capacity)
    assert sorted(m for p in packs for m in p.members) == list(range(len(seqs)))
    for p in packs:
        longest = max(len(seqs[m]) - 1 for m in p.members)
        assert len(p) <= max(capacity, longest)
        nodes = set()
        for m, path in zip(p.members, p.paths):
            seq = seqs[m]
            assert len(path) == len(seq) - 1
            for k, node in enumerate(path):       # node k holds prefix seq[:k+1]
                assert p.tokens[node] == seq[k] and p.depths[node] == k
                if k:
                    anc = path[k - 1]
                    assert anc < node < p.ends[anc]            # preorder: parent first, subtree contiguous
            nodes |= {(tuple(seq[:k + 1]), node) for k, node in enumerate(path)}
        # one node per distinct prefix: the pack computes every shared beginning once
        assert len(nodes) == len(p) == len({prefix for prefix, _ in nodes})
    one = pack(seqs, 10 ** 6)
    if one:
        assert len(one) == 1 and len(one[0]) == len(set().union(*(_prefixes(s) for s in seqs)))


def test_mask_lets_a_node_see_exactly_its_ancestors_and_the_window():
    import torch
    seqs = [[9, 1, 2, 3, 4], [9, 1, 2, 5, 6], [9, 7, 8]]
    [p] = pack(seqs, 100)
    T = padded_length(len(p))
    ends = torch.arange(1, T + 1)
    ends[:len(p)] = torch.tensor(p.ends)
    depths = torch.zeros(T, dtype=torch.long)
    depths[:len(p)] = torch.tensor(p.depths)
    full = ancestor_mask(ends[None], depths[None])[0]
    windowed = ancestor_mask(ends[None], depths[None], window=2)[0]
    for path in p.paths:
        for k, node in enumerate(path):
            seen = set(full[node].nonzero().flatten().tolist())
            assert seen == set(path[:k + 1])
            assert set(windowed[node].nonzero().flatten().tolist()) == set(path[max(0, k - 1):k + 1])
    for pad in range(len(p), T):
        assert full[pad].nonzero().flatten().tolist() == [pad]


# --- tiny models of each family --------------------------------------------------------
FAMILIES = ("gpt2", "llama", "mistral_sliding", "gemma3_mixed", "qwen2")


def _build(kind: str, folder, tokenizer_dir):
    import torch
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(tokenizer_dir)
    V = len(tok)
    common = dict(vocab_size=V, hidden_size=32, intermediate_size=64, num_hidden_layers=4, num_attention_heads=4,
                  num_key_value_heads=2, bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id)
    torch.manual_seed(0)
    if kind == "llama":
        from transformers import LlamaConfig as C, LlamaForCausalLM as M
        cfg = C(**common)
    elif kind == "mistral_sliding":
        from transformers import MistralConfig as C, MistralForCausalLM as M
        cfg = C(**common, sliding_window=3)
    elif kind == "qwen2":
        from transformers import Qwen2Config as C, Qwen2ForCausalLM as M
        cfg = C(**common)
    else:
        from transformers import Gemma3TextConfig as C, Gemma3ForCausalLM as M
        cfg = C(**common, head_dim=8, sliding_window=3, layer_types=["sliding_attention", "full_attention"] * 2,
                query_pre_attn_scalar=8, final_logit_softcapping=30.0)
    model = M(cfg).eval()
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def family_models(committed_tiny, tmp_path_factory):
    from benchmark import loading
    root = tmp_path_factory.mktemp("families")
    out = {"gpt2": loading.load(str(committed_tiny["gpt2"]), "cpu", "fp32", log=lambda *a: None)}
    for kind in FAMILIES[1:]:
        folder = _build(kind, root / kind, committed_tiny["gpt2"])
        out[kind] = loading.load(str(folder), "cpu", "fp32", log=lambda *a: None)
    return out


def _sentences(n: int, seed: int = 0) -> list[SentenceInput]:
    from benchmark.perf import italian_sentences
    texts = italian_sentences(n, seed)
    texts += [t.replace("?", " ieri sera?") for t in texts[:10]]
    return [SentenceInput(t, ()) for t in texts]


def _both(lm, inputs, capacity=64):
    from benchmark.scorers.causal import CausalScorer
    from benchmark.scorers.shared import SharedPrefixScorer
    shared, single = {}, {}
    scorer = SharedPrefixScorer(lm, capacity=capacity)
    scorer.score(inputs, shared.update)
    CausalScorer(lm).score(inputs, single.update)
    return scorer, shared, single


@pytest.mark.parametrize("family", FAMILIES)
def test_shared_path_matches_the_per_sentence_path(family_models, family):
    lm = family_models[family]
    inputs = _sentences(120)
    scorer, shared, single = _both(lm, inputs)
    assert set(shared) == set(single) == set(inputs)
    worst = 0.0
    for s in inputs:
        a, b = shared[s], single[s]
        assert (a.tokens, a.starts, a.ends) == (b.tokens, b.starts, b.ends)
        worst = max(worst, max(abs(x - y) for x, y in zip(a.logprobs, b.logprobs)))
    assert worst <= TOL
    total = sum(len(single[s]) + 1 for s in inputs)       # positions the per-sentence path computes
    assert scorer.computed_positions < 0.7 * total            # the shared beginnings were computed once


def test_sliding_window_is_applied(family_models):
    """Sentences longer than the window: a mask without the window would differ."""
    from benchmark.scorers import shared as shared_mod
    lm = family_models["gemma3_mixed"]
    assert shared_mod.attention_layouts(lm.model.config) == {"full_attention": None, "sliding_attention": 3}
    inputs = _sentences(20)
    real = shared_mod.attention_layouts
    try:
        shared_mod.attention_layouts = lambda config: {"full_attention": None, "sliding_attention": None}
        _, wrong, single = _both(lm, inputs)
    finally:
        shared_mod.attention_layouts = real
    assert max(abs(x - y) for s in inputs for x, y in zip(wrong[s].logprobs, single[s].logprobs)) > 1e-3


def test_a_packs_floats_do_not_depend_on_what_else_is_scored(family_models):
    """What keeps a resumed or data-parallel run byte-identical: packs are planned over the
    whole set, so scoring any part of it gives the same floats."""
    import torch
    from benchmark.scorers.shared import SharedPrefixScorer
    lm = family_models["gemma3_mixed"]
    inputs = _sentences(80)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        whole, parts = {}, {}
        SharedPrefixScorer(lm, token_budget=4096, capacity=64).score(inputs, whole.update)
        rng = random.Random(0)
        shuffled = rng.sample(inputs, len(inputs))
        for part in (shuffled[:30], shuffled[30:]):
            SharedPrefixScorer(lm, token_budget=100, capacity=64).score(part, parts.update, universe=inputs)
    finally:
        torch.set_num_threads(threads)
    assert set(parts) == set(inputs)
    assert all(whole[s].logprobs == parts[s].logprobs for s in inputs)


def test_groups_keep_each_pack_on_one_rank(family_models):
    from benchmark.scorers.shared import SharedPrefixScorer
    lm = family_models["llama"]
    inputs = _sentences(60)
    scorer = SharedPrefixScorer(lm, capacity=48)
    todo = inputs[::2]
    groups = scorer.groups(todo, inputs)
    assert sorted(i for g, _ in groups for i in g) == list(range(len(todo)))
    plan = scorer.plan(inputs)
    pack_of = {plan.inputs[m]: k for k, p in enumerate(plan.packs) for m in p.members}
    for g, cost in groups:
        assert len({pack_of[todo[i]] for i in g}) == 1 and cost == len(plan.packs[pack_of[todo[g[0]]]])


def test_make_scorer_shares_by_default_and_switches_back(family_models):
    from benchmark.runner import make_scorer
    lm = family_models["gpt2"]
    assert make_scorer(lm, "lp", None).path == "shared"
    assert make_scorer(lm, "lp", None, prefix_sharing=False).path == "per-sentence"


def test_an_interrupted_shared_run_resumes_with_the_same_floats(family_models, tmp_path):
    """Commits of at most chunk_rows sentences; the rerun scores only what the cache lacks and
    plans the same packs, so every float equals an uninterrupted run's."""
    import torch
    from benchmark.cache import ScoreCache
    from benchmark.runner import score_all
    from benchmark.scorers.shared import SharedPrefixScorer
    lm = family_models["llama"]
    inputs = _sentences(60)

    class Interrupted(Exception):
        pass

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        cache, commits = ScoreCache("shared-resume", tmp_path), []
        real_put = cache.put_many

        def put_then_stop(pairs):
            real_put(pairs)
            commits.append(len(pairs))
            if len(commits) == 3:
                raise Interrupted()

        cache.put_many = put_then_stop
        with pytest.raises(Interrupted):
            score_all(SharedPrefixScorer(lm, chunk_rows=7, capacity=64), inputs, cache)
        cache.close()
        assert max(commits) <= 7
        cache = ScoreCache("shared-resume", tmp_path)
        resumed, n_sent, _ = score_all(SharedPrefixScorer(lm, chunk_rows=7, capacity=64), inputs, cache)
        cache.close()
        whole: dict = {}
        SharedPrefixScorer(lm, capacity=64).score(inputs, whole.update)
    finally:
        torch.set_num_threads(threads)
    assert n_sent == len(inputs) - sum(commits)
    assert all(resumed[s].logprobs == whole[s].logprobs for s in inputs)


def test_bench_perf_puts_both_paths_side_by_side(committed_tiny):
    from benchmark import loading, perf_causal
    from benchmark.perf import italian_sentences
    lm = loading.load(str(committed_tiny["gpt2"]), "cpu", "fp32", log=lambda *a: None)
    lines: list[str] = []
    report = perf_causal.compare(lm, italian_sentences(40), repeat=1, log=lines.append)
    rows = {r["path"]: r for r in report["paths"]}
    assert set(rows) == {"shared", "per-sentence"}
    assert rows["shared"]["positions"] < rows["per-sentence"]["positions"]
    assert rows["shared"]["max_abs_diff"] <= TOL and rows["per-sentence"]["max_abs_diff"] == 0
    assert any(line.startswith("| shared |") for line in lines)


def test_bench_run_records_the_path_and_switches_back(committed_tiny, fixture_suite, tmp_path):
    import json
    from typer.testing import CliRunner
    from benchmark.cli import app
    paths = {}
    for flag in ("--prefix-sharing", "--no-prefix-sharing"):
        out = tmp_path / flag
        r = CliRunner().invoke(app, ["run", "--model", str(committed_tiny["gpt2"]), "--suite", str(fixture_suite),
                                     "--out", str(out), "--no-cache", "--no-report", flag])
        assert r.exit_code == 0, r.output
        paths[flag] = json.loads((out / fixture_suite.name / "gpt2.lp" / "run.json").read_text())["causal_path"]
    assert paths == {"--prefix-sharing": "shared", "--no-prefix-sharing": "per-sentence"}


def test_a_model_the_probe_catches_falls_back_with_a_warning(family_models, monkeypatch):
    """A model whose attention the masks do not reproduce (here: Gemma 3 with its sliding
    window forgotten) is scored sentence by sentence, and the run says why."""
    from benchmark.runner import make_scorer
    from benchmark.scorers import shared as shared_mod
    lm = family_models["gemma3_mixed"]
    monkeypatch.setattr(shared_mod, "attention_layouts",
                        lambda config: {"full_attention": None, "sliding_attention": None})
    before = len(lm.warnings)
    try:
        assert make_scorer(lm, "lp", None).path == "per-sentence"
        assert "prefix sharing off" in lm.warnings[-1]
    finally:
        del lm.warnings[before:]
