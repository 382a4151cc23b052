"""Figures are rendered from the fixture run; the tests check the data behind them."""

import math

import numpy as np
import pytest

from benchmark.report import interaction, surprisal
from benchmark.report.errors import ReportError
from benchmark.report.load import CONDITIONS


def test_seven_point_scale_then_z_scores():
    scores = np.array([-70.0, -60.0, -50.0, -40.0, -30.0, -20.0, -10.0, -10.0])
    z = interaction.seven_point_z(scores)
    bins = np.array([1, 2, 3, 4, 5, 6, 7, 7], dtype=float)
    assert np.allclose(z, (bins - bins.mean()) / bins.std())
    assert interaction.seven_point_z(np.full(5, -3.0)).tolist() == [0.0] * 5


def test_interaction_data_shows_the_planted_island_effect(causal, baseline):
    data = interaction.interaction_data(causal, "LP")
    assert len(data) == 5 * 4 and (data["n"] == 60).all()
    z = data.set_index(["paradigm", "condition"])["mean_z"]

    def dd(p):
        return z[p, "long_nonisland"] + z[p, "short_island"] - z[p, "short_nonisland"] - z[p, "long_island"]

    assert dd("whether_island") > 0.5
    assert abs(dd("adjunct_island_temporal")) < dd("whether_island") / 3
    assert (data["se"] > 0).all()
    subject = data[data["paradigm"] == "subject_island"]
    assert set(subject["length"]) == {"object gap", "subject gap"}
    base = interaction.interaction_data(baseline, "LP").set_index(["paradigm", "condition"])["mean_z"]
    base_dd = base["whether_island", "long_nonisland"] + base["whether_island", "short_island"] \
        - base["whether_island", "short_nonisland"] - base["whether_island", "long_island"]
    assert abs(base_dd) < 0.2  # additive scores: nearly parallel lines after binning


def test_interaction_figure_is_written(causal, tmp_path):
    data = interaction.interaction_data(causal, "LP")
    paths = interaction.plot_interactions(data, "test", tmp_path / "grid")
    assert [p.name for p in paths] == ["grid.png", "grid.pdf"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and paths[1].read_bytes()[:5] == b"%PDF-"


def test_extreme_items_are_the_lowest_and_highest_dd(causal):
    items = causal.measure_items("LP").sort_values("DD")
    chosen = surprisal.choose_items(causal, "LP", (), 2)
    assert chosen == list(items["item_id"].iloc[:2]) + list(items["item_id"].iloc[-2:])
    assert surprisal.choose_items(causal, "LP", ("whether_island-00001",), 2) == ["whether_island-00001"]
    with pytest.raises(ReportError, match="unknown item"):
        surprisal.choose_items(causal, "LP", ("nope",), 2)


def test_surprisal_data_is_bits_per_token_with_regions(causal, tmp_path):
    item = "subject_island-00003"
    data = surprisal.surprisal_data(causal, [item])
    tokens = causal.tokens([item])
    assert len(data) == len(tokens)
    merged = data.merge(tokens, on=["item_id", "condition", "token_index"])
    assert np.allclose(merged["bits"], -merged["logprob"] / math.log(2))
    assert list(dict.fromkeys(data["condition"])) == list(CONDITIONS)
    long_island = data[data["condition"] == "long_island"]
    assert "gap" not in set(long_island["region"]) and "object" not in set(long_island["region"])
    assert long_island["region"].iloc[0] == "filler" and long_island["token"].iloc[-1] == "?"
    sn = data[data["condition"] == "short_nonisland"]
    assert "object" in set(sn["region"]) and (sn["region"] != "").all()
    # sums of bits per sentence match the sentence LP
    lp = causal.sentences.set_index(["item_id", "condition"])["LP"]
    for cond, rows in data.groupby("condition"):
        assert rows["bits"].sum() * math.log(2) == pytest.approx(-lp[item, cond])
    fx = surprisal.effects(causal, "LP", item)
    assert fx.DD == pytest.approx(fx.total - fx.length - fx.structure)
    paths = surprisal.plot_item(data, fx, "tiny_gpt", "LP", tmp_path / "item")
    assert all(p.stat().st_size > 1000 for p in paths)


def test_region_runs_and_short_names():
    assert surprisal.region_runs(["a", "a", "b", "", "b"]) == [("a", 0, 1), ("b", 2, 2), ("", 3, 3), ("b", 4, 4)]
    assert surprisal.short_region("complementizer", 1) == "compl."
    assert surprisal.short_region("complementizer", 2) == "complementizer"
