"""Long-format CSV for spreadsheets: one row per region of every sentence, in reading order
(a gap is a row with empty text). A sentence without regions is one row, region `sentence`."""

from __future__ import annotations

from generator.interop.common import STRUCTURE, SHORT, Suite, WHOLE_SENTENCE, dump_csv
from generator.suite import CONDITIONS

HEADER = ("paradigm", "item_id", "condition", "length", "structure", "grammatical",
          "region_index", "region", "start", "end", "text")


def rows(suite: Suite):
    for paradigm, items in suite.paradigms.items():
        for item in items:
            for condition in CONDITIONS:
                sentence = item.conditions[condition]
                spans = [(r.name, r.start, r.end) for r in sentence.regions] or [(WHOLE_SENTENCE, 0, len(sentence.text))]
                for index, (name, start, end) in enumerate(spans, start=1):
                    yield (paradigm, item.item_id, condition, SHORT[condition], STRUCTURE[condition],
                           str(sentence.grammatical).lower(), index, name, start, end, sentence.text[start:end])


def export(suite: Suite) -> dict[str, str]:
    return {f"{suite.name}.csv": dump_csv(HEADER, rows(suite))}
