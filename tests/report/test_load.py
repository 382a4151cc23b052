import pandas as pd
import pytest

from benchmark.report.errors import ReportError
from benchmark.report.load import axis_labels, find_baseline, load_run, order_paradigms


def test_lowercase_booleans_and_empty_variant_cells_load(suite, tmp_path):
    run_dir = tmp_path / "model.lp"
    run_dir.mkdir()
    for name in ("run.json", "sentences.csv", "regions.csv", "tokens.csv.gz"):
        (run_dir / name).write_bytes((suite / "tiny_gpt.lp" / name).read_bytes())
    items = pd.read_csv(suite / "tiny_gpt.lp" / "items.csv")
    for col in ("SN_gt_LI", "LN_gt_LI", "SI_gt_LI"):
        items[col] = items[col].map({True: "true", False: "false"})
    items.to_csv(run_dir / "items.csv", index=False)
    run = load_run(run_dir)
    assert run.items["SN_gt_LI"].dtype == bool
    assert run.variant_columns == ["variant.mood"]
    assert run.items.loc[run.items["paradigm"] == "subject_island", "variant.mood"].isna().all()

    items["SN_gt_LI"] = "maybe"
    items.to_csv(run_dir / "items.csv", index=False)
    with pytest.raises(ReportError, match="SN_gt_LI must hold True/False"):
        load_run(run_dir)
    items.drop(columns=["DD"]).to_csv(run_dir / "items.csv", index=False)
    with pytest.raises(ReportError, match=r"items.csv: missing column\(s\) DD"):
        load_run(run_dir)


def test_labels_order_and_baseline_lookup(suite, causal, masked, baseline):
    assert causal.measure_label("PenLP") == "PenLP"
    assert masked.measure_label("LP") == "PLL-word-l2r (LP)"
    assert baseline.is_baseline and not masked.is_baseline
    assert causal.paradigms[:3] == ["whether_island", "complex_np_island", "subject_island"]
    assert order_paradigms(["zeta_island", "subject_island"]) == ["subject_island", "zeta_island"]
    assert axis_labels("subject_island") == ("object gap", "subject gap")
    assert axis_labels("whether_island") == ("short", "long")
    assert find_baseline(suite / "tiny_gpt.lp") == suite / "unigram.unigram"
