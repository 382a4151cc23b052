"""Model loading and sanity checks; the pieces of `bench perf` that need no GPU."""

from __future__ import annotations

import pytest

from benchmark import loading, perf, registry, sanity
from benchmark.errors import BenchError
from benchmark.runner import make_scorer


def test_kind_and_split_head(loaded):
    assert (loaded["bert"].kind, loaded["roberta"].kind, loaded["gpt2"].kind) == ("masked", "masked", "causal")
    for lm in loaded.values():
        assert lm._head is not None, lm.warnings           # the head runs only where needed
        assert lm.vocab_limit == len(lm.tokenizer)


def test_random_model_triggers_the_plausibility_warning(loaded):
    lm = loaded["gpt2"]
    bits, warning = sanity.surprisal_warning(lm, make_scorer(lm, "lp", None))
    assert bits > 0 and warning and "uniform" in warning
    assert sanity.special_token_warnings(lm.tokenizer) == []


def test_tokenizer_larger_than_output_layer_is_refused(tmp_path, tiny_models):
    import shutil

    from transformers import AutoModelForMaskedLM
    d = tmp_path / "small_out"
    shutil.copytree(tiny_models["bert"], d)
    model = AutoModelForMaskedLM.from_pretrained(d)
    model.resize_token_embeddings(50)
    model.save_pretrained(d)
    with pytest.raises(BenchError, match="do not belong together"):
        loading.load(str(d), "cpu", "fp32", log=lambda *a: None)


def test_device_and_dtype_resolution():
    import torch
    assert loading.resolve_device("cpu").type == "cpu"
    assert loading.resolve_dtype("auto", torch.device("cpu")) == "fp32"
    assert loading.resolve_dtype("bf16", torch.device("cpu")) == "bf16"
    with pytest.raises(BenchError):
        loading.resolve_dtype("fp16", torch.device("cpu"))
    if not torch.cuda.is_available():
        with pytest.raises(BenchError, match="no CUDA GPU"):
            loading.resolve_device("cuda")


def test_bf16_scores_close_to_fp32(tiny_models):
    fp32 = loading.load(str(tiny_models["bert"]), "cpu", "fp32", log=lambda *a: None)
    bf16 = loading.load(str(tiny_models["bert"]), "cpu", "bf16", log=lambda *a: None)
    from benchmark.records import SentenceInput
    s = SentenceInput("Il gatto dorme sul divano.", ())
    a, b = {}, {}
    make_scorer(fp32, "pll", None).score([s], a.update)
    make_scorer(bf16, "pll", None).score([s], b.update)
    assert b[s].logprobs == pytest.approx(a[s].logprobs, abs=0.5)


def test_registry():
    assert registry.lookup("gilberto").lowercase
    assert registry.lookup("bert_xxl").hf_id == "dbmdz/bert-base-italian-xxl-cased"
    assert registry.slug("dbmdz/bert-base-italian-cased") == "bert-base-italian-cased"
    assert registry.slug("/data/x/my model/") == "my_model"
    assert registry.DEFAULT_MODEL == "gemma3_270m"


def test_perf_helpers():
    assert perf.peak_flops("NVIDIA H100 80GB HBM3") == 989e12
    assert perf.peak_flops("NVIDIA H100 PCIe") == 756e12
    assert perf.peak_flops("NVIDIA H200") == 989e12
    assert perf.peak_flops("NVIDIA A100-SXM4-80GB") == 312e12
    assert perf.peak_flops("Some GPU") is None
    shape = perf.BertShape(1, 4, 1, 8, 10, 10)
    # one sentence of 3 tokens (1 scored row): encoder 2*3*(4*16 + 2*32) + 4*9*4, head 2*(16 + 40)
    assert perf.pll_flops(shape, [3]) == 2 * 3 * (64 + 64) + 144 + 2 * 56
    assert perf.italian_sentences(50) == perf.italian_sentences(50) and len(set(perf.italian_sentences(50))) == 50
