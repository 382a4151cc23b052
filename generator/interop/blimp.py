"""BLiMP-style minimal pairs: one JSONL per paradigm, one pair per minimal pair of the item's
design, in the design's order: an island item gives three (SN, LN and SI, each the good
sentence against LI), a filler_gap item two (that_nogap against that_gap, wh_gap against
wh_nogap). Field names follow BLiMP's released files; our item and condition ids ride along
so results can be joined back to the suite."""

from __future__ import annotations

from collections import Counter

from generator.interop.common import Suite, dump_jsonl
from generator.suite import Item
from generator.words import words

FIELD = "syntax"
# BLiMP's linguistics_term of each design (BLiMP files its filler-gap paradigms under
# filler_gap_dependency); a design not listed here uses its own name.
LINGUISTICS_TERMS = {"island": "island_effects", "filler_gap": "filler_gap_dependency"}


def linguistics_term(design: str) -> str:
    return LINGUISTICS_TERMS.get(design, design)


def pairs(paradigm: str, items: list[Item]) -> list[dict]:
    records = []
    for item in items:
        for good_condition, bad_condition in item.layout.minimal_pairs:
            good = item.conditions[good_condition].text
            bad = item.conditions[bad_condition].text
            records.append({
                "sentence_good": good,
                "sentence_bad": bad,
                "field": FIELD,
                "linguistics_term": linguistics_term(item.design),
                "UID": paradigm,
                "simple_LM_method": True,
                "one_prefix_method": False,
                "two_prefix_method": False,
                "lexically_identical": Counter(words(good)) == Counter(words(bad)),
                "pairID": str(len(records)),
                "item_id": item.item_id,
                "good_condition": good_condition,
                "bad_condition": bad_condition,
            })
    return records


def export(suite: Suite) -> dict[str, str]:
    return {f"{paradigm}.jsonl": dump_jsonl(pairs(paradigm, items))
            for paradigm, items in suite.paradigms.items()}
