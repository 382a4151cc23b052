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
    return [m.span() for m in _WORD.finditer(text)]


def words(text: str) -> list[str]:
    return [text[a:b] for a, b in word_spans(text)]


def residual(sn: Sequence[str], ln: Sequence[str], si: Sequence[str], li: Sequence[str]) -> list[str]:
    """Words that break bag(SN) - bag(LN) == bag(SI) - bag(LI).

    Equivalent to bag(SN) + bag(LI) == bag(LN) + bag(SI); the residual is the symmetric
    difference of those two sums, sorted, with a leading `+` for words in excess on the
    SN+LI side and `-` for words in excess on the LN+SI side. Empty means additive."""
    if sorted([*sn, *li]) == sorted([*ln, *si]):  # the usual case, without building counters
        return []
    left = Counter(sn) + Counter(li)
    right = Counter(ln) + Counter(si)
    out = [f"+{w}" for w, n in sorted((left - right).items()) for _ in range(n)]
    out += [f"-{w}" for w, n in sorted((right - left).items()) for _ in range(n)]
    return out


def design_residual(bags: Mapping[str, Sequence[str]], design: Design = ISLAND) -> list[str]:
    """Residual of the conditions' word lists under `design`'s contrast: `+` marks words in
    excess on its negative-sign side (SN + LI for islands, the bad sentence of a pair)."""
    neg, pos = design.sides()
    if len(neg) == 2:
        return residual(bags[neg[0]], bags[pos[0]], bags[pos[1]], bags[neg[1]])
    left = sum((Counter(bags[c]) for c in neg), Counter())
    right = sum((Counter(bags[c]) for c in pos), Counter())
    return ([f"+{w}" for w, n in sorted((left - right).items()) for _ in range(n)]
            + [f"-{w}" for w, n in sorted((right - left).items()) for _ in range(n)])


def condition_residual(texts: Mapping[str, str], design: Design = ISLAND) -> list[str]:
    """Residual of the four condition texts keyed by condition name."""
    return design_residual({c: words(t) for c, t in texts.items()}, design)
