"""Tokenisation with character offsets, and the token -> word map used by PLL-word-l2r."""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.errors import BenchError


@dataclass(frozen=True)
class Encoded:
    ids: tuple[int, ...]            # the full model input (special tokens included)
    scored: tuple[int, ...]         # positions in `ids` whose log-probability is wanted
    tokens: tuple[str, ...]         # token strings of the scored positions
    starts: tuple[int, ...]         # character offsets of the scored positions, whitespace trimmed
    ends: tuple[int, ...]


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def encode(tokenizer, text: str, *, specials: bool, prefix_id: int | None = None) -> Encoded:
    """Token ids of `text`. With `specials`, the tokenizer adds its own special tokens (masked
    models); `prefix_id` is prepended and not scored (the BOS of causal models)."""
    return encode_many(tokenizer, [text], specials=specials, prefix_id=prefix_id)[0]


def encode_many(tokenizer, texts: list[str], *, specials: bool, prefix_id: int | None = None) -> list[Encoded]:
    """`encode` for many texts in one call of the (parallel, Rust) tokenizer."""
    if not getattr(tokenizer, "is_fast", False):
        raise BenchError("the model's tokenizer has no fast (Rust) version: character offsets are needed")
    if not texts:
        return []
    batch = tokenizer(list(texts), add_special_tokens=specials, return_offsets_mapping=True,
                      return_special_tokens_mask=True)
    out = []
    for k, text in enumerate(texts):
        ids = list(batch["input_ids"][k])
        special = list(batch["special_tokens_mask"][k]) if specials else [0] * len(ids)
        offsets = [_trim(text, a, b) for a, b in batch["offset_mapping"][k]]
        if prefix_id is not None:
            ids, special, offsets = [prefix_id] + ids, [1] + special, [(0, 0)] + offsets
        scored = tuple(i for i, s in enumerate(special) if not s)
        if not scored:
            raise BenchError(f"the tokenizer produced no tokens for {text!r}")
        toks = tokenizer.convert_ids_to_tokens([ids[i] for i in scored])
        out.append(Encoded(tuple(ids), scored, tuple(toks),
                           tuple(offsets[i][0] for i in scored), tuple(offsets[i][1] for i in scored)))
    return out


def word_index(starts: tuple[int, ...], ends: tuple[int, ...], words: tuple[tuple[int, int], ...]) -> list[int]:
    """For each token, the index of the suite word it belongs to: the word holding its first
    character; a token made only of whitespace belongs to the next word."""
    out = []
    for a, b in zip(starts, ends):
        k = next((w for w, (ws, we) in enumerate(words) if ws <= a < we and a < b), None)
        if k is None:
            k = next((w for w, (ws, _) in enumerate(words) if ws >= a), len(words) - 1)
        out.append(k)
    return out


def l2r_mask_ends(enc: Encoded, words: tuple[tuple[int, int], ...]) -> list[int]:
    """For each scored token (by position in `enc.ids`), one past the last position masked
    with it under PLL-word-l2r: the token itself and the later tokens of the same word."""
    if not words:
        return [p + 1 for p in enc.scored]
    widx = word_index(enc.starts, enc.ends, words)
    ends = []
    for k, pos in enumerate(enc.scored):
        j = k
        while j + 1 < len(enc.scored) and widx[j + 1] == widx[k] and enc.scored[j + 1] == enc.scored[j] + 1:
            j += 1
        ends.append(enc.scored[j] + 1)
    return ends
