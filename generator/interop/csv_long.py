"""Long-format CSV for spreadsheets: one row per region of every sentence, in reading order
(a gap is a row with empty text). A sentence without regions is one row, region `sentence`.

After `condition` comes one column per factor of the suite's designs, named after the factor
and holding the sentence's level of it (suite_format/designs.py): `length, structure` for
island suites (short/long, nonisland/island), `filler, gap` for filler_gap suites (that/wh,
nogap/gap). A suite with paradigms of both designs has all four columns, in that order, and
a row leaves empty the columns of factors its design does not have."""

from __future__ import annotations

from generator.interop.common import Suite, WHOLE_SENTENCE, design_factors, dump_csv, suite_designs

LEADING = ("paradigm", "item_id", "condition")
TRAILING = ("grammatical", "region_index", "region", "start", "end", "text")


def header(factors: tuple[str, ...]) -> tuple[str, ...]:
    """paradigm, item_id, condition, <factor columns>, grammatical, region_index, region, start, end, text."""
    return (*LEADING, *factors, *TRAILING)


def rows(suite: Suite, factors: tuple[str, ...]):
    for paradigm, items in suite.paradigms.items():
        for item in items:
            design = item.layout
            for condition in design.conditions:
                sentence = item.conditions[condition]
                levels = design.levels(condition)
                cells = [levels.get(factor, "") for factor in factors]
                spans = [(r.name, r.start, r.end) for r in sentence.regions] or [(WHOLE_SENTENCE, 0, len(sentence.text))]
                for index, (name, start, end) in enumerate(spans, start=1):
                    yield (paradigm, item.item_id, condition, *cells,
                           str(sentence.grammatical).lower(), index, name, start, end, sentence.text[start:end])


def export(suite: Suite) -> dict[str, str]:
    factors = design_factors(suite_designs(suite))
    return {f"{suite.name}.csv": dump_csv(header(factors), rows(suite, factors))}
