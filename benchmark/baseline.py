"""The syntax-blind baseline: every orthographic word of the suite scored by its Italian
unigram frequency from `wordfreq`.

logprob(word) = ln(max(word_frequency(word.lower(), "it"), FLOOR)), FLOOR = 1e-9 (below the
smallest frequency wordfreq lists, Zipf 0 = 1e-9 per word; punctuation, which wordfreq does
not count, gets the floor too). Each value is rounded to a multiple of 2**-20 so sums of
them are exact in floating point: on an additive item (same word multisets) DD is exactly 0."""

from __future__ import annotations

import math
from functools import lru_cache

from benchmark.records import SentenceInput, TokenScores

FLOOR = 1e-9
QUANTUM = 2.0 ** -20


@lru_cache(maxsize=None)
def word_logprob(word: str) -> float:
    from wordfreq import word_frequency
    lp = math.log(max(word_frequency(word.lower(), "it"), FLOOR))
    return round(lp / QUANTUM) * QUANTUM


def score(s: SentenceInput) -> TokenScores:
    words = [s.text[a:b] for a, b in s.words]
    return TokenScores(tuple(words), tuple(a for a, _ in s.words), tuple(b for _, b in s.words),
                       tuple(word_logprob(w) for w in words))


def sentence_logprob(s: SentenceInput) -> float:
    return math.fsum(word_logprob(s.text[a:b]) for a, b in s.words)
