import pytest
from hypothesis import given, strategies as st

from generator.formula import ANYTHING, FormulaError, parse_formula

FEATURES = {"classes": frozenset({"food", "artifact"}), "gender": frozenset({"f"}), "zipf": 4.2}


@pytest.mark.parametrize("text,expected", [
    ("*", True), ("", True),
    ("classes=food", True), ("classes=drink", False), ("classes!=drink", True), ("classes!=food", False),
    ("classes=drink | classes=food", True), ("classes=food & gender=m", False),
    ("classes=food & gender=f", True), ("gender=m | classes=artifact & gender=f", True),
    ("zipf>=4", True), ("zipf<4", False), ("zipf>4.2", False), ("zipf<=4.2", True),
    ("missing=x", False), ("missing!=x", True),
])
def test_matches(text, expected):
    assert parse_formula(text).matches(FEATURES) is expected


@pytest.mark.parametrize("bad", ["classes", "classes==food", "(classes=food)", "classes=food &", "zipf>=high"])
def test_malformed_formulas_are_errors(bad):
    with pytest.raises(FormulaError):
        parse_formula(bad)


def test_round_trip_through_str():
    text = "classes=food & gender=f | classes=drink"
    assert str(parse_formula(text)) == text
    assert str(ANYTHING) == "*"


atoms = st.sampled_from(["classes=food", "classes=drink", "gender=f", "gender=m", "zipf>=4", "classes!=artifact"])
formulas = st.lists(st.lists(atoms, min_size=1, max_size=3).map(" & ".join), min_size=1, max_size=3).map(" | ".join)


@given(formulas, formulas)
def test_conjunction_is_logical_and(a, b):
    fa, fb = parse_formula(a), parse_formula(b)
    assert (fa & fb).matches(FEATURES) == (fa.matches(FEATURES) and fb.matches(FEATURES))
