"""Load-time sanity checks (MODELS.md): special tokens map to themselves, and a short Italian
sentence gets a mean surprisal clearly below that of a uniform guess. Problems that make
scoring impossible raise `BenchError` in loading; these return warnings for people."""

from __future__ import annotations

import math

from benchmark.loading import PROBE, LoadedModel
from benchmark.records import SentenceInput


def special_token_warnings(tokenizer) -> list[str]:
    out = []
    for tok in tokenizer.all_special_tokens:
        tid = tokenizer.convert_tokens_to_ids(tok)
        back = tokenizer.convert_ids_to_tokens(tid) if tid is not None else None
        if back != tok or (tid == tokenizer.unk_token_id and tok != tokenizer.unk_token):
            out.append(f"special token {tok!r} does not map to itself (id {tid} -> {back!r})")
    return out


def probe_input(lowercase: bool) -> SentenceInput:
    from benchmark.runner import lower_same_length
    text = lower_same_length(PROBE) if lowercase else PROBE
    words, start = [], 0
    for w in text.replace(".", " .").split():
        a = text.index(w, start)
        words.append((a, a + len(w)))
        start = a + len(w)
    return SentenceInput(text, tuple(words))


def surprisal_warning(lm: LoadedModel, scorer) -> tuple[float, str | None]:
    """Mean surprisal in bits per token on a short Italian sentence, and a warning when it is
    within 10% of a uniform guess over the vocabulary (an untrained model, a broken tokenizer)."""
    got = []
    scorer.score([probe_input(lm.lowercase)], got.extend)
    lps = got[0][1].logprobs
    bits = -sum(lps) / len(lps) / math.log(2)
    uniform = math.log2(lm.vocab_limit)
    if not math.isfinite(bits):
        return bits, "the probe sentence got a non-finite score: the model's weights look broken"
    if bits > 0.9 * uniform:
        return bits, (f"implausible scores: {bits:.1f} bits/token on {PROBE!r}, close to a uniform guess "
                      f"({uniform:.1f} bits); is the model trained and its tokenizer the right one?")
    return bits, None
