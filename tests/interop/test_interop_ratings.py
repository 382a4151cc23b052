"""Latin-square rating lists (gen export --format ratings) and reading ratings back (bench ratings)."""

from __future__ import annotations

import csv
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmark.cli import app as bench_app
from benchmark.ratings import RatingsError, bin_scores, read_ratings, read_run, report
from generator.cli import app as gen_app
from generator.interop.commands import run_export
from generator.suite import CONDITIONS

runner = CliRunner()
BASE = {"short_nonisland": 6, "long_nonisland": 5, "short_island": 5, "long_island": 2, "filler": 4}


def read_list(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture
def lists_dir(suite_dir, tmp_path) -> Path:
    fillers = tmp_path / "fillers.txt"
    fillers.write_text("Gianni ha mangiato la mela.\nCosa ha detto Maria che Luisa ha comprato ieri?\n"
                       "Chi hanno visto i ragazzi al mercato?\n", encoding="utf-8")
    out = tmp_path / "lists"
    run_export(suite_dir, "ratings", out, lists=4, seed=5, fillers=fillers)
    return out


def test_latin_square_lists(lists_dir):
    lists = [read_list(lists_dir / f"list_{n:02d}.csv") for n in range(1, 5)]
    assert list(lists[0][0]) == ["list", "position", "kind", "paradigm", "item_id", "condition", "text", "rating"]
    seen: dict[str, set[str]] = {}
    for rows in lists:
        items = [r for r in rows if r["kind"] == "item"]
        assert len(items) == 16 and len({r["item_id"] for r in items}) == 16, "each item once per list"
        assert len([r for r in rows if r["kind"] == "filler"]) == 3
        for paradigm in ("whether_island", "complex_np_island", "subject_island"):
            counts = Counter(r["condition"] for r in items if r["paradigm"] == paradigm)
            assert len(set(counts.values())) == 1 and set(counts) == set(CONDITIONS), "balanced in every list"
        assert [int(r["position"]) for r in rows] == list(range(1, len(rows) + 1))
        assert all(r["rating"] == "" for r in rows)
        for r in items:
            seen.setdefault(r["item_id"], set()).add(r["condition"])
    assert all(conditions == set(CONDITIONS) for conditions in seen.values()), "every condition across lists"
    orders = [[r["item_id"] for r in rows] for rows in lists]
    assert len({tuple(o) for o in orders}) == 4, "each list in its own order"
    design = json.loads((lists_dir / "design.json").read_text(encoding="utf-8"))
    assert design["seed"] == 5 and design["lists"] == 4


def test_lists_depend_on_seed_only(suite_dir, tmp_path, lists_dir):
    fillers = tmp_path / "fillers.txt"
    run_export(suite_dir, "ratings", tmp_path / "same", lists=4, seed=5, fillers=fillers)
    run_export(suite_dir, "ratings", tmp_path / "other", lists=4, seed=6, fillers=fillers)
    one = (lists_dir / "list_01.csv").read_bytes()
    assert (tmp_path / "same" / "list_01.csv").read_bytes() == one
    assert (tmp_path / "other" / "list_01.csv").read_bytes() != one


def test_lists_must_be_a_multiple_of_four(suite_dir, tmp_path):
    result = runner.invoke(gen_app, ["export", str(suite_dir), "--format", "ratings", "--lists", "3",
                                     "--out", str(tmp_path / "l")])
    assert result.exit_code == 2 and "multiple of 4" in result.output and not (tmp_path / "l").exists()


def collected(lists_dir: Path, tmp_path: Path) -> Path:
    """Two participants per list rate with the island pattern, each on their own part of the scale."""
    rows = []
    for n in range(1, 5):
        for k, (scale, shift) in enumerate(((1.0, 0.0), (0.5, 3.0))):
            for r in read_list(lists_dir / f"list_{n:02d}.csv"):
                rating = round(BASE[r["condition"]] * scale + shift, 1)
                rows.append({**r, "participant": f"p{n}{k}", "rating": rating})
    path = tmp_path / "ratings.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def fake_run(suite_dir: Path, root: Path, name: str, li_penalty: float) -> Path:
    run = root / "results" / "fixture_suite" / name
    run.mkdir(parents=True)
    lines = ["item_id,paradigm,condition,text,n_tokens,LP,MeanLP,PenLP,SLOR"]
    base = {"short_nonisland": -20.0, "long_nonisland": -24.0, "short_island": -23.0, "long_island": -27.0 - li_penalty}
    for jsonl in sorted(suite_dir.glob("*.jsonl")):
        for k, line in enumerate(jsonl.read_text(encoding="utf-8").splitlines()):
            item = json.loads(line)
            for c in CONDITIONS:
                lp = base[c] - k * 0.1
                lines.append(f"{item['item_id']},{item['paradigm']},{c},\"{item['conditions'][c]['text']}\",10,"
                             f"{lp},{lp / 10},{lp / 5},{lp / 10 + 3}")
    (run / "sentences.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (run / "run.json").write_text(json.dumps({"model": name, "scorer": "causal"}), encoding="utf-8")
    return run


def test_zscores_per_participant(lists_dir, tmp_path):
    units = read_ratings(collected(lists_dir, tmp_path))
    by_participant: dict[str, list[float]] = {}
    for participant, *_, z in units.rows:
        by_participant.setdefault(participant, []).append(z)
    assert len(by_participant) == 8
    for zs in by_participant.values():
        mean = sum(zs) / len(zs)
        sd = math.sqrt(sum((z - mean) ** 2 for z in zs) / (len(zs) - 1))
        assert abs(mean) < 1e-9 and abs(sd - 1) < 1e-9
    # the two participants of a list used different scales but get identical z-scores
    z0 = [z for p, *_, z in units.rows if p == "p10"]
    z1 = [z for p, *_, z in units.rows if p == "p11"]
    assert z0 == pytest.approx(z1)


def test_bins_are_equal_width():
    assert bin_scores([0, 1, 2, 3, 4, 5, 6, 7]) == [1, 2, 3, 4, 5, 6, 7, 7]  # the maximum closes the last bin
    assert bin_scores([-10.0, -5.0, 0.0]) == [1, 4, 7]
    assert bin_scores([3.0, 3.0]) == [4, 4]


def test_report_tables_and_plot_data(lists_dir, suite_dir, tmp_path):
    ratings = collected(lists_dir, tmp_path)
    run_a = fake_run(suite_dir, tmp_path, "gpt-a", li_penalty=6)
    run_b = fake_run(suite_dir, tmp_path, "gpt-b", li_penalty=0)
    out = tmp_path / "report"
    summary = report(ratings, [run_a, run_b], out)
    assert summary["participants"] == 8 and summary["runs"] == ["gpt-a causal (LP)", "gpt-b causal (LP)"]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["ratings_by_condition.csv", "ratings_dd.csv", "ratings_zscored.csv", "summary.json",
         "ratings_complex_np_island.png", "ratings_subject_island.png", "ratings_whether_island.png"])
    with open(out / "ratings_dd.csv", encoding="utf-8") as handle:
        dd = {(r["source"], r["paradigm"]): r for r in csv.DictReader(handle)}
    human = dd[("humans", "whether_island")]
    assert float(human["dd"]) > 1 and int(human["n_units"]) == 8
    assert float(dd[("gpt-a causal (LP)", "whether_island")]["dd"]) > 0
    assert float(dd[("gpt-b causal (LP)", "whether_island")]["dd"]) == pytest.approx(0, abs=0.6)
    with open(out / "ratings_by_condition.csv", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    data = summary["plot_data"]["whether_island"]
    assert list(data) == ["humans", "gpt-a causal (LP)", "gpt-b causal (LP)"]
    for source, lines in data.items():
        for structure, points in lines.items():
            for length, (mean, se) in zip(("short", "long"), points):
                row = next(r for r in table if r["source"] == source and r["paradigm"] == "whether_island"
                           and r["condition"] == f"{length}_{structure}")
                assert float(row["mean_z"]) == pytest.approx(mean, abs=1e-6)
    humans = data["humans"]
    assert humans["nonisland"][0][0] > humans["island"][1][0], "SN above LI"
    assert humans["island"][0][0] - humans["island"][1][0] > humans["nonisland"][0][0] - humans["nonisland"][1][0]
    # rerun: byte-identical tables and plots
    report(ratings, [run_a, run_b], tmp_path / "again")
    for path in out.iterdir():
        assert (tmp_path / "again" / path.name).read_bytes() == path.read_bytes(), path.name


def test_model_scores_binned_over_all_paradigms(suite_dir, tmp_path):
    units = read_run(fake_run(suite_dir, tmp_path, "m", li_penalty=6))
    zs = [z for *_, z in units.rows]
    assert len(zs) == 16 * 4 and abs(sum(zs) / len(zs)) < 1e-9
    assert len({round(z, 9) for z in zs}) <= 7


def test_bench_ratings_cli_errors(lists_dir, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("participant,item_id,condition,rating\np1,whether_island-00000,short_island,6\n"
                   "p1,whether_island-00001,long_island,molto\n", encoding="utf-8")
    result = runner.invoke(bench_app, ["ratings", str(bad), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "bad.csv:3" in result.output and "molto" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "o").exists()
    no_cols = tmp_path / "nocols.csv"
    no_cols.write_text("who,item_id,condition,rating\n", encoding="utf-8")
    with pytest.raises(RatingsError, match=r"nocols.csv:1: missing column\(s\) participant"):
        read_ratings(no_cols)
    ratings = collected(lists_dir, tmp_path)
    result = runner.invoke(bench_app, ["ratings", str(ratings), "--run", str(tmp_path / "nowhere"),
                                       "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "sentences.csv" in result.output
    ok = runner.invoke(bench_app, ["ratings", str(ratings), "--out", str(tmp_path / "o")])
    assert ok.exit_code == 0, ok.output
    assert (tmp_path / "o" / "ratings_whether_island.png").is_file()
