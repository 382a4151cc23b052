"""A GGUF is converted once even when several processes ask for it at the same moment
(ranks under torchrun start together on a fresh cache)."""

import threading
import time

from benchmark import gemma


def test_concurrent_requests_convert_once(tmp_path, monkeypatch):
    calls = []

    def slow_convert(target, gguf_in, info, bos_token):
        calls.append(target)
        time.sleep(0.3)  # a reader arriving now must wait, not see a half-written folder
        target.mkdir(parents=True)
        (target / gemma.MARKER).write_text("{}", encoding="utf-8")
        return target

    monkeypatch.setattr(gemma, "_convert", slow_convert)
    target = tmp_path / "models" / "tiny"
    seen = []

    def ask():
        out = gemma.convert_gguf(target, None, {})
        seen.append((out / gemma.MARKER).is_file())

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert seen == [True] * 4


def test_a_converting_rank_other_than_0_still_writes_the_weights(tiny_models, tmp_path, monkeypatch):
    """Under torchrun transformers writes weights only on rank 0; the rank that holds the
    conversion lock may be another one, and must still leave a complete folder."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(tiny_models["gpt2"])
    tokenizer = AutoTokenizer.from_pretrained(tiny_models["gpt2"])
    # rank 1 of an initialised process group, as transformers sees it (wherever it defines the check)
    checks = type(model).should_save_on_this_rank.__globals__
    monkeypatch.setitem(checks, "_is_torch_distributed_initialized", lambda: True)
    monkeypatch.setitem(checks, "_get_torch_distributed_rank", lambda: 1)
    assert not model.should_save_on_this_rank(True)  # what plain save_pretrained would do here
    out = tmp_path / "converted"
    gemma.save_here(model, tokenizer, out)
    assert (out / "config.json").is_file() and list(out.glob("*.safetensors"))
    again = AutoModelForCausalLM.from_pretrained(out)
    assert again.config.n_layer == model.config.n_layer
