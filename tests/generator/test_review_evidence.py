"""The shipped native reviews (docs/reviews/) score to the figures their README reports, and
their keys point at real conditions: the evidence behind the guarantees stays checkable."""

import json
from pathlib import Path

import pytest

from generator.review import read_filled_sheet, read_key, score_json, score_sheets

REVIEWS = Path(__file__).resolve().parents[2] / "docs" / "reviews"
ROUNDS = ("before", "after1", "after2", "after3", "after4")


def pooled(scores: dict, kind: str, measure: str) -> tuple[int, int]:
    (rate,) = [r for r in scores["rates"] if r["paradigm"] == "all" and r["reader"] == "pooled"
               and r["meant_to_be"] == kind and r["measure"] == measure]
    return rate["count"], rate["n"]


@pytest.mark.parametrize("round_name", ROUNDS)
def test_scores_json_is_what_the_sheets_give(round_name):
    folder = REVIEWS / round_name
    key = read_key(folder / "sheet.key.csv")
    sheets = [read_filled_sheet(folder / f"reader{i}.csv", key) for i in (1, 2, 3)]
    fresh = score_json(score_sheets(key, sheets), Path("sheet.key.csv"))
    stored = json.loads((folder / "scores.json").read_text(encoding="utf-8"))
    assert fresh["rates"] == stored["rates"]
    assert fresh["agreement"] == stored["agreement"]


def test_shipped_round_figures():
    """The figures docs/reviews/README.md and the closing table quote for the shipped suite."""
    scores = json.loads((REVIEWS / "after4" / "scores.json").read_text(encoding="utf-8"))
    assert pooled(scores, "grammatical", "ungrammatical") == (0, 1350)
    assert pooled(scores, "grammatical", "odd-strong") == (0, 1350)
    assert pooled(scores, "grammatical", "odd-mild") == (226, 1350)
    assert pooled(scores, "violation", "alt-parse-clear") == (0, 450)
    assert pooled(scores, "violation", "any-acceptable-parse") == (3, 450)
    assert pooled(scores, "violation", "second-error") == (0, 450)
    before = json.loads((REVIEWS / "before" / "scores.json").read_text(encoding="utf-8"))
    assert pooled(before, "violation", "any-acceptable-parse") == (58, 450)
    assert pooled(before, "grammatical", "odd-mild") == (321, 1350)
