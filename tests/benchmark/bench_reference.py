"""The straightforward reference: one sentence at a time, one masked copy at a time, full
logits through the model's own forward, log-softmax over the whole output."""

from __future__ import annotations

import torch


def lp(model, tok, text: str) -> list[float]:
    bos = tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id
    ids = [bos] + tok(text, add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        logp = torch.log_softmax(model(torch.tensor([ids])).logits[0].float(), dim=-1)
    return [logp[t - 1, ids[t]].item() for t in range(1, len(ids))]


def _word_of(text: str, offset: tuple[int, int], words) -> int | None:
    a, b = offset
    while a < b and text[a].isspace():
        a += 1
    for k, (ws, we) in enumerate(words):
        if ws <= a < we:
            return k
    return None


def pll(model, tok, text: str, words=None, vocab: int | None = None) -> list[float]:
    enc = tok(text, return_offsets_mapping=True, return_special_tokens_mask=True)
    ids, special, offsets = enc["input_ids"], enc["special_tokens_mask"], enc["offset_mapping"]
    positions = [i for i, s in enumerate(special) if not s]
    out = []
    for p in positions:
        x = list(ids)
        x[p] = tok.mask_token_id
        if words:
            w = _word_of(text, offsets[p], words)
            for q in positions:
                if q > p and w is not None and _word_of(text, offsets[q], words) == w:
                    x[q] = tok.mask_token_id
        with torch.no_grad():
            logits = model(torch.tensor([x])).logits[0, p].float()
        if vocab is not None:
            logits = logits[:vocab]
        out.append(torch.log_softmax(logits, dim=-1)[ids[p]].item())
    return out
