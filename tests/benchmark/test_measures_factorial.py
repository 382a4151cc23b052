"""Sentence measures, region sums, factorial and minimal-pair arithmetic."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmark.factorial import ItemScores, dd_from_effects, effects, summarize
from benchmark.measures import region_scores, sentence_measures
from benchmark.records import TokenScores
from benchmark.suite import Region


def test_metrics_md_check():
    # METRICS.md: length -4.01, structure 6.10, total 6.84 => DD 4.75
    assert dd_from_effects(-4.01, 6.10, 6.84) == pytest.approx(4.75, abs=1e-12)
    # the same through the four scores: SN = 0, LN = 4.01, SI = -6.10, LI = -6.84
    e = effects(0.0, 4.01, -6.10, -6.84)
    assert (e.length, e.structure, e.total) == pytest.approx((-4.01, 6.10, 6.84))
    assert e.DD == pytest.approx(4.75)


def test_golden_sentence_measures():
    m = sentence_measures([-1.0, -2.0, -3.0], unigram_lp=-20.0)
    assert (m.n_tokens, m.LP, m.MeanLP) == (3, -6.0, -2.0)
    assert m.PenLP == pytest.approx(-6.0 / (8 / 6) ** 0.8)
    assert m.PenLP == pytest.approx(-4.76651, abs=1e-5)
    assert m.SLOR == pytest.approx((-6.0 + 20.0) / 3)
    assert sentence_measures([-1.0, -2.0, -3.0], -20.0, alpha=1.0).PenLP == pytest.approx(-4.5)


@given(st.lists(st.floats(-30, 0), min_size=1, max_size=40), st.floats(-200, 0))
def test_measures_properties(lps, uni):
    m = sentence_measures(lps, uni)
    assert m.LP == pytest.approx(math.fsum(lps))
    assert m.MeanLP * m.n_tokens == pytest.approx(m.LP, abs=1e-9)
    assert abs(m.PenLP) <= abs(m.LP) + 1e-9 or m.n_tokens == 1


@given(*[st.floats(-100, 0) for _ in range(4)])
def test_dd_identity(sn, ln, si, li):
    e = effects(sn, ln, si, li)
    assert e.DD == pytest.approx(ln + si - sn - li, abs=1e-9)


def test_summary():
    rows = [ItemScores("a", "p", "a", {}, "LP", -10, -12, -13, -20),   # DD = -12-13+10+20 = 5; all pairs True
            ItemScores("b", "p", "b", {}, "LP", -10, -12, -13, -11),   # DD = -4; SN>LI only
            ItemScores("c", "p", "c", {}, "LP", -10, -10, -10, -10)]   # DD = 0 (not > 0); ties are not wins
    s = summarize(rows)
    assert s.n == 3 and s.factorial_acc == pytest.approx(1 / 3) and s.mean_DD == pytest.approx(1 / 3)
    assert (s.mp_SN_LI, s.mp_LN_LI, s.mp_SI_LI) == pytest.approx((2 / 3, 1 / 3, 1 / 3))
    assert s.mp_mean == pytest.approx(4 / 9)


def test_region_sums():
    text = "Chi pensa che Gianni ha detto?"
    regions = (Region("filler", 0, 3), Region("matrix", 4, 13), Region("subject", 14, 20),
               Region("verb", 21, 29), Region("gap", 29, 29), Region("end", 29, 30))
    ts = TokenScores(("Chi", "pen", "sa", "che", "Gianni", "ha", "detto", "?"),
                     (0, 4, 7, 10, 14, 21, 24, 29), (3, 7, 9, 13, 20, 23, 29, 30),
                     (-1.0, -2.0, -0.5, -1.0, -4.0, -1.5, -2.5, -0.25))
    got = {r.name: (r.n_tokens, r.LP) for r in region_scores(regions, ts)}
    assert got == {"filler": (1, -1.0), "matrix": (3, -3.5), "subject": (1, -4.0), "verb": (2, -4.0),
                   "gap": (0, 0.0), "end": (1, -0.25)}
    assert text[29] == "?"
