"""Balance report of a paradigm's items: lengths, frequency, lemma usage, additivity, overlap.

Content words are the words that are forms of a content lemma (nouns, lexical verbs, names);
their frequency is the lemma's Zipf value from the lexicon, so no word list is loaded."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import fsum

from .lexicon import Lexicon
from .languages import get_language
from .suite import Item

CONTENT_TABLES = ("nouns", "verbs", "names", "predicates")  # tables whose lemmas are content words


def content_forms(lexicon: Lexicon, tables: tuple[str, ...]) -> dict[str, float]:
    """Every surface form of a content lemma -> that lemma's Zipf frequency."""
    out: dict[str, float] = {}
    tables = tuple(t for t in tables if t in lexicon.tables)  # a language may have no such table
    surface_forms = get_language(lexicon.language).surface_forms
    for table in tables:
        for entry in lexicon.table(table):
            if table == "verbs" and entry.has("roles", "auxiliary"):
                continue
            for form in surface_forms(entry):
                out.setdefault(form.lower(), entry.zipf)
    return out


def mean(values) -> float:
    """fsum / n: correctly rounded, and much faster than statistics.mean's exact fractions."""
    values = list(values)
    return fsum(values) / len(values)


def _round(x: float) -> float:
    return round(float(x), 4)


def paradigm_stats(items: list[Item], lexicon: Lexicon, tables: tuple[str, ...]) -> dict:
    if not items:
        return {"n_items": 0}
    zipf = content_forms(lexicon, tables)
    content_lemmas = {e.lemma for t in tables if t in lexicon.tables for e in lexicon.table(t)
                      if not e.has("roles", "auxiliary")}

    conditions = items[0].layout.conditions  # one paradigm, one design
    lowered = {c: [[w.lower() for w in item.conditions[c].word_strings] for item in items] for c in conditions}
    per_condition = {}
    for c in conditions:
        n_words = [len(words) for words in lowered[c]]
        n_chars = [len(item.conditions[c].text) for item in items]
        freqs = [zipf[w] for words in lowered[c] for w in words if w in zipf]
        per_condition[c] = {"mean_words": _round(mean(n_words)), "mean_chars": _round(mean(n_chars)),
                            "zipf_mean_content": _round(mean(freqs)) if freqs else None}

    usage = Counter()
    for item in items:
        usage.update({lemma for lemma in item.lexical.values() if lemma in content_lemmas})
    most_lemma, most_uses = min(usage.items(), key=lambda kv: (-kv[1], kv[0])) if usage else ("", 0)

    overlaps = []
    for k in range(len(items)):
        bags = {c: Counter(w for w in lowered[c][k] if w in zipf) for c in conditions}
        sizes = {c: sum(bag.values()) for c, bag in bags.items()}
        for a, b in combinations(conditions, 2):
            bag_a, bag_b = bags[a], bags[b]
            shared = sum(min(n, bag_b[w]) for w, n in bag_a.items() if w in bag_b)
            union = sizes[a] + sizes[b] - shared
            overlaps.append(shared / union if union else 1.0)

    residuals = [len(i.residual) for i in items]
    residual_words = Counter(w for i in items for w in i.residual)
    return {
        "n_items": len(items),
        "conditions": per_condition,
        "lemma_usage": {
            "n_lemmas": len(usage),
            "max_uses": most_uses,
            "min_uses": min(usage.values()) if usage else 0,
            "most_used": most_lemma,
            "max_share": _round(most_uses / len(items)),
        },
        "additive_share": _round(sum(i.additive for i in items) / len(items)),
        "mean_residual_words": _round(mean(residuals)),
        "most_common_residual": [w for w, _ in sorted(residual_words.items(), key=lambda kv: (-kv[1], kv[0]))[:6]],
        "mean_content_overlap": _round(mean(overlaps)),
        "variants": {k: dict(sorted(Counter(i.variant.get(k, "") for i in items).items()))
                     for k in sorted({k for i in items for k in i.variant})},
    }
