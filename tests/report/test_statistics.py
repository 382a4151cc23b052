"""Statistics on synthetic scores with a known, planted interaction."""

import math

import numpy as np
import pandas as pd
import pytest

from benchmark.report import mixed
from benchmark.report.load import CONDITIONS, Run, RunInfo
from benchmark.report.summary import AVERAGE, item_matrix, paradigm_stats, variant_stats
from benchmark.report.synthetic import PLANTED_DD


def _run_from_sentences(sentences: pd.DataFrame) -> Run:
    info = RunInfo.from_json({"model": "toy", "scorer": "lp", "kind": "causal"})
    return Run(path=None, name="toy.lp", info=info, sentences=sentences, items=pd.DataFrame())


def _planted(n_items: int, dd: float, noise: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_items):
        base, length, structure = rng.normal(-40, 4), rng.normal(-2, 1), rng.normal(-3, 1)
        score = {"short_nonisland": base, "long_nonisland": base + length,
                 "short_island": base + structure, "long_island": base + length + structure - dd}
        for cond in CONDITIONS:
            rows.append({"item_id": f"i{i:04d}", "paradigm": "whether_island", "condition": cond,
                         "LP": score[cond] + rng.normal(0, noise)})
    return pd.DataFrame(rows)


def test_mixed_model_recovers_planted_interaction_and_sign():
    run = _run_from_sentences(_planted(200, dd=3.0, noise=1.0, seed=0))
    fit = mixed.fit_interaction(run, "whether_island", "LP")
    assert fit.converged and not fit.error
    assert fit.ci_lo < -3.0 < fit.ci_hi  # interaction = -DD
    assert fit.estimate < 0 and fit.p_value < 1e-6


def test_zero_effect_gives_wide_interval_around_zero():
    run = _run_from_sentences(_planted(40, dd=0.0, noise=3.0, seed=1))
    fit = mixed.fit_interaction(run, "whether_island", "LP")
    assert fit.ci_lo < 0 < fit.ci_hi
    assert fit.ci_hi - fit.ci_lo > 1.0
    assert fit.p_value > 0.05


def test_start_values_reach_the_same_fit_as_statsmodels_alone():
    from statsmodels.regression.mixed_linear_model import MixedLM

    sentences = _planted(30, dd=2.0, noise=2.0, seed=2)
    run = _run_from_sentences(sentences)
    ours = mixed.fit_interaction(run, "whether_island", "LP")
    y, exog, groups = mixed.design(sentences, "LP")
    plain = MixedLM(y, exog, groups=groups).fit(reml=True)
    assert ours.estimate == pytest.approx(plain.fe_params[3], abs=1e-6)
    assert ours.ci_lo == pytest.approx(plain.conf_int()[3][0], abs=1e-3)
    assert ours.p_value == pytest.approx(plain.pvalues[3], rel=1e-3, abs=1e-12)


def test_fit_problems_are_reported_not_hidden():
    # no noise and no item variance: a degenerate fit that statsmodels warns about or rejects
    sentences = _planted(10, dd=1.0, noise=0.0, seed=3)
    sentences["LP"] = sentences["condition"].map(dict(zip(CONDITIONS, (0.0, -1.0, -2.0, -4.0))))
    fit = mixed.fit_interaction(_run_from_sentences(sentences), "whether_island", "LP")
    assert fit.warnings or fit.error or not fit.converged
    frame = mixed.mixed_frame([fit])
    assert (frame["warnings"].str.len() + frame["error"].str.len()).iloc[0] > 0


def test_paradigm_statistics_follow_the_planted_effects(causal):
    rows = {r.paradigm: r for r in paradigm_stats(causal, "LP", 500, 0)}
    items = causal.measure_items("LP")
    for paradigm in PLANTED_DD:
        r = rows[paradigm]
        dd = items.loc[items["paradigm"] == paradigm, "DD"]
        assert r.n == len(dd) == 60
        assert r.mean_DD.value == pytest.approx(dd.mean())
        assert r.factorial_acc.value == pytest.approx(100 * (dd > 0).mean())
        assert r.mean_DD.lo <= r.mean_DD.value <= r.mean_DD.hi
    assert rows["whether_island"].factorial_acc.lo > 90
    assert rows["adjunct_island_temporal"].mean_DD.lo < 0 < rows["adjunct_island_temporal"].mean_DD.hi
    avg = rows[AVERAGE]
    assert avg.factorial_acc.value == pytest.approx(np.mean([rows[p].factorial_acc.value for p in PLANTED_DD]))


def test_minimal_pair_accuracies_match_item_outcomes(causal):
    rows = {r.paradigm: r for r in paradigm_stats(causal, "PenLP", 200, 0)}
    items = causal.measure_items("PenLP")
    sub = items[items["paradigm"] == "subject_island"]
    r = rows["subject_island"]
    assert r.mp_SN_LI.value == pytest.approx(100 * sub["SN_gt_LI"].mean())
    assert r.mp_LN_LI.value == pytest.approx(100 * sub["LN_gt_LI"].mean())
    assert r.mp_mean.value == pytest.approx(100 * sub[["SN_gt_LI", "LN_gt_LI", "SI_gt_LI"]].to_numpy().mean())


def test_baseline_dd_is_zero_and_never_counts_as_positive(baseline):
    rows = {r.paradigm: r for r in paradigm_stats(baseline, "LP", 200, 0)}
    for r in rows.values():
        assert r.factorial_acc.value == 0 and r.factorial_acc.hi == 0
        assert r.mean_DD.value == 0
    # rounding noise of an additive score is not an island effect
    items = baseline.measure_items("LP").head(3).assign(DD=[1e-13, -1e-13, 0.5])
    assert list(item_matrix(items)[:, 0]) == [0.0, 0.0, 100.0]


def test_variant_levels_get_their_own_rows(causal):
    rows = variant_stats(causal, "LP", 200, 0)
    assert {(r.paradigm, r.factor, r.level) for r in rows} == {
        ("whether_island", "mood", "subjunctive"), ("whether_island", "mood", "indicative")}
    by_level = {r.level: r for r in rows}
    assert by_level["subjunctive"].mean_DD.value > by_level["indicative"].mean_DD.value
    assert sum(r.n for r in rows) == 60
    assert not math.isnan(by_level["indicative"].factorial_acc.lo)
