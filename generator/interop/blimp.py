"""BLiMP-style minimal pairs: one JSONL per paradigm, three pairs per item (SN, LN and SI,
each the good sentence against LI). Field names follow BLiMP's released files; our item
and condition ids ride along so results can be joined back to the suite."""

from __future__ import annotations

from collections import Counter

from generator.interop.common import BAD_CONDITION, GOOD_CONDITIONS, Suite, dump_jsonl
from generator.suite import Item
from generator.words import words

FIELD = "syntax"
LINGUISTICS_TERM = "island_effects"


def pairs(paradigm: str, items: list[Item]) -> list[dict]:
    records = []
    for item in items:
        bad = item.conditions[BAD_CONDITION].text
        for good_condition in GOOD_CONDITIONS:
            good = item.conditions[good_condition].text
            records.append({
                "sentence_good": good,
                "sentence_bad": bad,
                "field": FIELD,
                "linguistics_term": LINGUISTICS_TERM,
                "UID": paradigm,
                "simple_LM_method": True,
                "one_prefix_method": False,
                "two_prefix_method": False,
                "lexically_identical": Counter(words(good)) == Counter(words(bad)),
                "pairID": str(len(records)),
                "item_id": item.item_id,
                "good_condition": good_condition,
                "bad_condition": BAD_CONDITION,
            })
    return records


def export(suite: Suite) -> dict[str, str]:
    return {f"{paradigm}.jsonl": dump_jsonl(pairs(paradigm, items))
            for paradigm, items in suite.paradigms.items()}
