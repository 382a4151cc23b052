"""Orthographic words and the additive-multiset invariant (ITALIAN_GRAMMAR.md).

A word is a maximal run of non-space characters, split after an elision apostrophe
(`l'articolo` -> `l'`, `articolo`) and with sentence punctuation as a word of its own."""

from __future__ import annotations

import re
from collections import Counter
from typing import Mapping, Sequence

from suite_format import ISLAND, Design

_APOSTROPHES = "'’"
_PUNCT = ".,;:?!…"
_WORD = re.compile(rf"[^\s{_APOSTROPHES}{re.escape(_PUNCT)}]+[{_APOSTROPHES}]?|[{_APOSTROPHES}]|[{re.escape(_PUNCT)}]")


def word_spans(text: str) -> list[tuple[int, int]]:
    """Character spans [start, end) of the orthographic words of `text`."""
    return [(m.start(), m.end()) for m in _WORD.finditer(text)]


def words(text: str) -> list[str]:
    return [text[a:b] for a, b in word_spans(text)]


def residual(sn: Sequence[str], ln: Sequence[str], si: Sequence[str], li: Sequence[str]) -> list[str]:
    """Words that break bag(SN) - bag(LN) == bag(SI) - bag(LI).

    Equivalent to bag(SN) + bag(LI) == bag(LN) + bag(SI); the residual is the symmetric
    difference of those two sums, sorted, with a leading `+` for words in excess on the
    SN+LI side and `-` for words in excess on the LN+SI side. Empty means additive."""
    left = Counter(sn) + Counter(li)
    right = Counter(ln) + Counter(si)
    out = [f"+{w}" for w, n in sorted((left - right).items()) for _ in range(n)]
    out += [f"-{w}" for w, n in sorted((right - left).items()) for _ in range(n)]
    return out


def design_residual(bags: Mapping[str, Sequence[str]], design: Design = ISLAND) -> list[str]:
    """Residual of the four conditions' word lists under `design`'s interaction contrast:
    `+` marks words in excess on its negative-sign side (SN + LI for islands)."""
    (neg_a, neg_b), (pos_a, pos_b) = design.sides()
    return residual(bags[neg_a], bags[pos_a], bags[pos_b], bags[neg_b])


def condition_residual(texts: Mapping[str, str], design: Design = ISLAND) -> list[str]:
    """Residual of the four condition texts keyed by condition name."""
    return design_residual({c: words(t) for c, t in texts.items()}, design)
