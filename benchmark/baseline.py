"""The syntax-blind baseline: every orthographic word of the suite scored by its unigram
frequency from `wordfreq`, in the suite's language (its ISO 639-1 code: it, en).

logprob(word) = ln(max(word_frequency(word.lower(), language), FLOOR)), FLOOR = 1e-9 (below the
smallest frequency wordfreq lists, Zipf 0 = 1e-9 per word; punctuation, which wordfreq does
not count, gets the floor too). Each value is rounded to a multiple of 2**-20 so sums of
them are exact in floating point: on an additive item (same word multisets) DD is exactly 0."""

from __future__ import annotations

import math
from functools import lru_cache

from benchmark.records import SentenceInput, TokenScores
from suite_format.records import DEFAULT_LANGUAGE

FLOOR = 1e-9
QUANTUM = 2.0 ** -20


@lru_cache(maxsize=None)
def word_logprob(word: str, language: str = DEFAULT_LANGUAGE) -> float:
    from wordfreq import word_frequency
    lp = math.log(max(word_frequency(word.lower(), language), FLOOR))
    return round(lp / QUANTUM) * QUANTUM


def score(s: SentenceInput, language: str = DEFAULT_LANGUAGE) -> TokenScores:
    words = [s.text[a:b] for a, b in s.words]
    return TokenScores(tuple(words), tuple(a for a, _ in s.words), tuple(b for _, b in s.words),
                       tuple(word_logprob(w, language) for w in words))


def sentence_logprob(s: SentenceInput, language: str = DEFAULT_LANGUAGE) -> float:
    return math.fsum(word_logprob(s.text[a:b], language) for a, b in s.words)
