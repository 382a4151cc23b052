"""The amelioration table: each filler / gap cell minus the reference cell (bare, gap), paired
over matched sets, on synthetic crossed runs whose DDs make the differences exact."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchmark.report.amelioration import run_ameliorations
from benchmark.report.api import compare, write_report
from benchmark.report.load import load_run

N_SETS = 8
BOOT = 100
STRENGTH = {"whether_island": "weak", "whether_island_rc": "weak", "subject_island": "weak",
            "complex_np_island": "strong"}
# Per paradigm, DD of each cell minus DD of the reference cell (bare, gap), the same in every set;
# None: the factor is not varied (rc paradigms have no filler, subject islands no resumptive).
SHIFTS = {
    "whether_island": {("bare", "resumptive"): -0.5, ("dlinked", "gap"): -1.0, ("dlinked", "resumptive"): -2.0},
    "whether_island_rc": {(None, "resumptive"): -0.5},
    "subject_island": {("dlinked", "gap"): -1.0},
    "complex_np_island": {("bare", "resumptive"): -1.0, ("dlinked", "gap"): -2.0, ("dlinked", "resumptive"): -3.0},
}
MISSING = ("whether_island", "0", ("dlinked", "resumptive"))  # one set lacks one cell


def _item_rows(scale: float) -> list[dict]:
    """Reference DD k + 0.5 in set k (all > 0); a shift of −s turns the first ceil(s − 0.5)
    sets to DD ≤ 0. Quarter multiples keep every difference exact in floating point."""
    rows = []
    for paradigm, shifts in SHIFTS.items():
        reference = (None, "gap") if paradigm.endswith("_rc") else ("bare", "gap")
        for k in range(N_SETS):
            for cell, shift in {reference: 0.0, **shifts}.items():
                if (paradigm, str(k), cell) == MISSING:
                    continue
                filler, gap = cell
                rows.append({"item_id": f"{paradigm}-{k:03d}-{filler}-{gap}", "paradigm": paradigm,
                             "matched_set": f"{paradigm}-{k:03d}", "variant.filler": filler,
                             "variant.gap": "gap" if paradigm == "subject_island" else gap,
                             "variant.mood": ("indicative", "subjunctive")[k % 2],  # drawn per set
                             "DD": k + 0.5 + shift * scale})
    return rows


def write_crossed_run(path: Path, model: str, scale: float = 1.0) -> Path:
    """A run folder of the `bench run` contract: sentences whose scores give each item its DD."""
    rng = np.random.default_rng(0)
    items, sentences = [], []
    for row in _item_rows(scale):
        b, e, f = rng.normal(-40.0, 4.0), rng.normal(0.0, 1.0), rng.normal(0.0, 1.0)
        scores = {"SN": b + e, "LN": b - 1 + e, "SI": b - 2 + f, "LI": b - 3 + f - row["DD"]}
        for cond, name in zip(("short_nonisland", "long_nonisland", "short_island", "long_island"), scores):
            sentences.append({"item_id": row["item_id"], "paradigm": row["paradigm"], "condition": cond,
                              "LP": scores[name], "PenLP": scores[name] / 2})
        for measure, div in (("LP", 1.0), ("PenLP", 2.0)):
            s = {k: v / div for k, v in scores.items()}
            items.append({**row, "measure": measure, **s, "length": s["SN"] - s["LN"],
                          "structure": s["SN"] - s["SI"], "total": s["SN"] - s["LI"], "DD": row["DD"] / div,
                          "SN_gt_LI": s["SN"] > s["LI"], "LN_gt_LI": s["LN"] > s["LI"],
                          "SI_gt_LI": s["SI"] > s["LI"]})
    path.mkdir(parents=True)
    pd.DataFrame(items).to_csv(path / "items.csv", index=False)
    pd.DataFrame(sentences).to_csv(path / "sentences.csv", index=False)
    run = {"model": model, "model_id": f"synthetic/{model}", "kind": "causal", "scorer": "lp",
           "suite_name": "crossed", "n_items": len(sentences) // 4,
           "paradigms": {p: {"design": "island", "strength": s} for p, s in STRENGTH.items()}}
    (path / "run.json").write_text(json.dumps(run))
    return path


@pytest.fixture(scope="module")
def crossed(tmp_path_factory) -> Path:
    return write_crossed_run(tmp_path_factory.mktemp("crossed") / "crossed" / "model_a.lp", "model_a")


def _rows(run_dir: Path, measure: str = "LP"):
    return [r for r in run_ameliorations(load_run(run_dir), BOOT, 0) if r.measure == measure]


def test_differences_are_the_planted_shifts_with_zero_width_intervals(crossed):
    rows = {r.contrast: r for r in _rows(crossed) if r.info.name == "complex_np_island"}
    assert list(rows) == ["filler=dlinked", "gap=resumptive", "filler=dlinked × gap=resumptive"]
    # shift −1 flips set 0 (DD 0.5 → −0.5), −2 sets 0–1, −3 sets 0–2
    for contrast, shift, flipped in (("gap=resumptive", -1.0, 1), ("filler=dlinked", -2.0, 2),
                                     ("filler=dlinked × gap=resumptive", -3.0, 3)):
        r = rows[contrast]
        assert r.n_sets == N_SETS
        assert (r.diff_DD.value, r.diff_DD.lo, r.diff_DD.hi) == (shift, shift, shift)
        assert r.reference_DD.value == np.mean(np.arange(N_SETS) + 0.5)
        assert r.level_DD.value == r.reference_DD.value + shift
        assert r.reference_acc.value == 100.0
        assert r.level_acc.value == 100.0 * (N_SETS - flipped) / N_SETS
        assert r.diff_acc.value == -100.0 * flipped / N_SETS
        assert r.diff_acc.lo <= r.diff_acc.value <= r.diff_acc.hi
        assert r.reference == (("filler", "bare"), ("gap", "gap"))
    penlp = {r.contrast: r for r in _rows(crossed, "PenLP") if r.info.name == "complex_np_island"}
    assert penlp["gap=resumptive"].diff_DD.value == -0.5  # the second table measure, on its own DD


def test_a_set_missing_a_cell_leaves_only_that_contrast(crossed):
    rows = {r.contrast: r for r in _rows(crossed) if r.info.name == "whether_island"}
    assert rows["filler=dlinked × gap=resumptive"].n_sets == N_SETS - 1
    assert rows["filler=dlinked × gap=resumptive"].diff_DD.value == -2.0
    assert rows["filler=dlinked"].n_sets == rows["gap=resumptive"].n_sets == N_SETS


def test_islands_weak_to_strong_and_only_factors_varied_within_sets(crossed):
    order = [(r.info.name, r.contrast) for r in _rows(crossed)]
    assert order == [  # no mood contrast: mood is drawn per set, constant within it
        ("whether_island", "filler=dlinked"), ("whether_island", "gap=resumptive"),
        ("whether_island", "filler=dlinked × gap=resumptive"),
        ("whether_island_rc", "gap=resumptive"),          # rc: gap only, after its wh island
        ("subject_island", "filler=dlinked"),              # filler only; weak, so before complex NP
        ("complex_np_island", "filler=dlinked"), ("complex_np_island", "gap=resumptive"),
        ("complex_np_island", "filler=dlinked × gap=resumptive"),
    ]
    assert [r.island for r in _rows(crossed)][2:4] == ["whether (weak), wh", "whether (weak), rc"]
    assert [r.island for r in _rows(crossed)][4:6] == ["subject (weak), wh", "complex NP, wh"]


def test_report_section_csv_and_determinism(crossed, tmp_path):
    first = write_report([crossed], out_dir=tmp_path / "a", n_extreme=0, n_resamples=BOOT)
    again = write_report([crossed], out_dir=tmp_path / "b", n_extreme=0, n_resamples=BOOT)
    text = first.read_text(encoding="utf-8")
    assert "### Amelioration: what rescues an island" in text and "island effect (amelioration)" in text
    table = pd.read_csv(tmp_path / "a" / "tables" / "amelioration.csv")
    assert len(table) == 2 * 8 and set(table["measure"]) == {"LP", "PenLP"}
    row = table[(table["measure"] == "LP") & (table["paradigm"] == "complex_np_island")
                & (table["contrast"] == "gap=resumptive")].iloc[0]
    assert (row["island"], row["dependency"], row["strength"]) == ("complex NP", "wh", "strong")
    assert row["reference"] == "filler=bare, gap=gap" and row["n_sets"] == N_SETS
    assert (row["diff_DD"], row["diff_DD_lo"], row["diff_DD_hi"], row["diff_acc"]) == (-1.0, -1.0, -1.0, -12.5)
    line = next(x for x in text.splitlines() if x.startswith("| complex NP, wh") and "| gap=resumptive" in x)
    assert [c.strip() for c in line.strip("|").split("|")][2:5] + [line.split("|")[-2].strip()] == [
        "8", "100.0", "87.5", "-1.00 [-1.00, -1.00]"]
    for rel in ("tables/amelioration.csv", "report.md"):
        assert (tmp_path / "a" / rel).read_bytes() == (again.parent / rel).read_bytes(), rel


def test_no_section_without_matched_sets(report, causal):
    assert run_ameliorations(causal, BOOT, 0) == []  # mood varies per item, every set holds one item
    assert "Amelioration" not in report.read_text(encoding="utf-8")
    assert not (report.parent / "tables" / "amelioration.csv").exists()


def test_compare_has_one_column_per_model(crossed, suite, tmp_path):
    other = write_crossed_run(crossed.parent / "model_b.lp", "model_b", scale=2.0)
    paths = [compare([crossed, other], tmp_path / name, n_resamples=BOOT) for name in ("a", "b")]
    text = paths[0].read_text(encoding="utf-8")
    section = text.split("## Amelioration: what rescues an island")[1]
    header = next(x for x in section.splitlines() if x.startswith("| island"))
    assert [c.strip() for c in header.strip("|").split("|")] == ["island", "contrast", "model_a (LP)", "model_b (LP)"]
    line = next(x for x in section.splitlines() if x.startswith("| complex NP, wh") and "| gap=resumptive" in x)
    assert [c.strip() for c in line.strip("|").split("|")][2:] == ["-1.00 [-1.00, -1.00]", "-2.00 [-2.00, -2.00]"]
    table = pd.read_csv(tmp_path / "a" / "tables" / "amelioration.csv")
    assert set(table["column"]) == {"model_a (LP)", "model_a (PenLP)", "model_b (LP)", "model_b (PenLP)"}
    assert (tmp_path / "a" / "tables" / "amelioration.csv").read_bytes() == \
        (tmp_path / "b" / "tables" / "amelioration.csv").read_bytes()
    plain = compare([suite / "tiny_gpt.lp"], tmp_path / "plain", n_resamples=20)
    assert "Amelioration" not in plain.read_text(encoding="utf-8")
    assert not (tmp_path / "plain" / "tables" / "amelioration.csv").exists()
