"""The cross-language comparison: one model's runs on an Italian and an English suite, paradigm
by paradigm, with the Italian − English difference and its bootstrap interval."""

import re

import numpy as np
import pandas as pd
import pytest

from benchmark.report.compare import build_comparison
from benchmark.report.crosslang import crosslang_frame, language_pairs
from benchmark.report.load import Run, RunInfo


def _run(language: str, dd: dict[str, list[float]], licensing: list[float], model: str = "toy", tmp=None) -> Run:
    info = RunInfo.from_json({"model": model, "scorer": "lp", "kind": "causal", "language": language,
                              "suite_name": f"{language}_islands"})
    rows = []
    for paradigm, values in dd.items():
        for k, value in enumerate(values):
            sn, ln, si = -40.0, -42.0, -43.0
            rows.append({"item_id": f"{paradigm}-{k}", "paradigm": paradigm, "measure": "LP", "SN": sn, "LN": ln,
                         "SI": si, "LI": ln + si - sn - value, "length": sn - ln, "structure": sn - si,
                         "total": 0.0, "DD": value, "SN_gt_LI": True, "LN_gt_LI": True, "SI_gt_LI": True})
    lic = pd.DataFrame([{"item_id": f"fg-{k}", "paradigm": "filler_gap", "measure": "LP", "TN": -30.0, "WN": -33.0,
                         "TG": -34.0, "WG": -37.0 + v, "wh_effect_nogap": -3.0, "wh_effect_gap": -3.0 + v,
                         "licensing": v, "TN_gt_TG": True, "WG_gt_WN": True} for k, v in enumerate(licensing)])
    described = {"whether_island": {"label": "whether", "dependency": "wh", "design": "island", "strength": "weak"},
                 "subject_island": {"label": "subject", "dependency": "wh", "design": "island", "strength": "strong"},
                 "filler_gap": {"label": "filler-gap", "dependency": "wh", "design": "filler_gap"}}
    path = (tmp / f"{language}_islands" / f"{model}.lp") if tmp else None
    return Run(path=path, name=f"{model}.lp", info=info, sentences=pd.DataFrame(), items=pd.DataFrame(rows),
               licensing=lic, described=described)


def test_difference_and_interval_by_paradigm():
    italian = _run("it", {"whether_island": [1.0] * 40, "subject_island": [2.0, -1.0] * 20}, [0.5] * 30)
    english = _run("en", {"whether_island": [1.0, -1.0] * 20, "subject_island": [3.0] * 40}, [0.5, -0.5] * 15)
    assert language_pairs([english, italian]) == [(italian, english)]   # Italian first, whatever the order given
    frame = crosslang_frame([english, italian], 500, 0).set_index("paradigm")
    w = frame.loc["whether_island"]
    assert (w["positive_a"], w["positive_b"], w["positive_diff"]) == (100.0, 50.0, 50.0)
    assert w["positive_diff_lo"] < 50.0 < w["positive_diff_hi"] and w["positive_diff_lo"] > 20.0
    assert w["mean_diff"] == pytest.approx(1.0)
    s = frame.loc["subject_island"]
    assert s["positive_diff"] == -50.0 and s["mean_diff"] == pytest.approx(0.5 - 3.0)
    assert s["mean_diff_lo"] < -2.5 < s["mean_diff_hi"]
    f = frame.loc["filler_gap"]
    assert f["statistic"] == "licensing" and f["positive_diff"] == 50.0 and f["n_a"] == 30
    # a paradigm an English-only interval could not see is seeded by language and paradigm alone
    again = crosslang_frame([italian, english], 500, 0).set_index("paradigm")
    assert np.allclose(again["positive_diff_lo"], frame.loc[again.index, "positive_diff_lo"])


def test_no_section_without_two_languages():
    italian = _run("it", {"whether_island": [1.0] * 10}, [])
    other = _run("it", {"whether_island": [1.0] * 10}, [], model="other")
    assert language_pairs([italian, other]) == []
    assert crosslang_frame([italian, other], 100, 0).empty


def test_compare_writes_the_section_and_one_plot_per_island(tmp_path):
    italian = _run("it", {"whether_island": [1.0] * 20, "subject_island": [2.0] * 20}, [0.5] * 10, tmp=tmp_path)
    english = _run("en", {"whether_island": [-1.0] * 20, "subject_island": [2.0] * 20}, [0.5] * 10, tmp=tmp_path)
    out = build_comparison([italian, english], tmp_path / "cmp", 0, 200)
    text = re.sub(r" +", " ", out.read_text())
    assert "## Across languages" in text and "toy: Italian and English" in text
    assert ("| whether, wh | 20 / 20 | 100.0 [100.0, 100.0] | 0.0 [0.0, 0.0] | 100.0 [100.0, 100.0] "
            "| 1.00 [1.00, 1.00] | -1.00 [-1.00, -1.00] | 2.00 [2.00, 2.00] |") in text
    assert (tmp_path / "cmp" / "tables" / "crosslang.csv").exists()
    assert (tmp_path / "cmp" / "figures" / "crosslang_whether.png").exists()
    assert (tmp_path / "cmp" / "figures" / "crosslang_subject.png").exists()
