"""Exports of designs other than the island 2x2: a built filler_gap suite (and one that mixes it
with island paradigms) in every format, read back and checked against the items."""

from __future__ import annotations

import csv
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.build import BuildRequest, build_suite, write_suite
from generator.interop.commands import EXPORT_FORMATS, run_export
from generator.paths import GRAMMAR_DIR, LEXICON_DIR
from generator.suite import read_items, write_items
from suite_format import FILLER_GAP, ISLAND

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO.parent / "shared" / "ref" / "syntaxgym_test_suite.schema.json"
N_ITEMS = 8


@pytest.fixture(scope="module")
def fg_dir(tmp_path_factory) -> Path:
    results, manifest = build_suite(BuildRequest("filler_gap", N_ITEMS, 0), LEXICON_DIR, GRAMMAR_DIR)
    out = tmp_path_factory.mktemp("built") / "fg_suite"
    write_suite(out, results, manifest)
    return out


@pytest.fixture(scope="module")
def fg_items(fg_dir):
    items = list(read_items(fg_dir / "filler_gap.jsonl"))
    assert len(items) == N_ITEMS and all(i.design == "filler_gap" for i in items)
    return items


def export(suite_dir: Path, fmt: str, tmp_path: Path, **kw) -> Path:
    out = tmp_path / f"out-{fmt}"
    run_export(suite_dir, fmt, out, **kw)
    return out


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def read_csv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_every_format_exports_filler_gap_and_reruns_identically(fg_dir, tmp_path, fmt):
    first = tree(export(fg_dir, fmt, tmp_path))
    assert first
    run_export(fg_dir, fmt, tmp_path / "again")
    assert tree(tmp_path / "again") == first


# ---- BLiMP and lm-eval: one pair per design pair ----------------------------------------

def check_pairs(pairs: list[dict], items) -> None:
    assert len(pairs) == len(FILLER_GAP.minimal_pairs) * len(items) == 2 * len(items)
    assert [p["pairID"] for p in pairs] == [str(n) for n in range(len(pairs))]
    by_item: dict[str, list[dict]] = {}
    for p in pairs:
        by_item.setdefault(p["item_id"], []).append(p)
    assert list(by_item) == [i.item_id for i in items]
    for item in items:
        mine = by_item[item.item_id]
        assert [(p["good_condition"], p["bad_condition"]) for p in mine] == [("that_nogap", "that_gap"),
                                                                            ("wh_gap", "wh_nogap")]
        for p in mine:
            good, bad = item.conditions[p["good_condition"]], item.conditions[p["bad_condition"]]
            assert p["sentence_good"] == good.text and p["sentence_bad"] == bad.text
            assert good.grammatical and not bad.grammatical
            assert p["sentence_good"] != p["sentence_bad"]
            assert p["UID"] == "filler_gap" and p["linguistics_term"] == "filler_gap_dependency"
            assert p["lexically_identical"] is False  # the gap drops the object
    # the wh_gap sentence of a pair is its that_gap twin with the filler for the complementizer
    item = items[0]
    assert "che" in item.conditions["that_gap"].text.split() and "che" not in item.conditions["wh_gap"].text.split()


def test_blimp_pairs_are_the_design_pairs(fg_dir, fg_items, tmp_path):
    out = export(fg_dir, "blimp", tmp_path)
    assert sorted(tree(out)) == ["filler_gap.jsonl"]
    check_pairs(read_jsonl(out / "filler_gap.jsonl"), fg_items)


def test_lm_eval_task_holds_the_design_pairs(fg_dir, fg_items, tmp_path):
    out = export(fg_dir, "lm-eval", tmp_path)
    group = yaml.safe_load((out / "_isole_fg_suite.yaml").read_text(encoding="utf-8"))
    assert group["task"] == ["isole_fg_suite_filler_gap"]
    config = yaml.safe_load((out / "filler_gap.yaml").read_text(encoding="utf-8"))
    assert config["task"] == "isole_fg_suite_filler_gap" and config["output_type"] == "multiple_choice"
    assert config["doc_to_choice"] == "{{[sentence_good, sentence_bad]}}" and config["doc_to_target"] == 0
    data = out / config["dataset_kwargs"]["data_files"]["test"]
    check_pairs(read_jsonl(data), fg_items)


# ---- SyntaxGym -----------------------------------------------------------------------------

def evaluate(formula: str, surprisal: dict[str, float]) -> bool:
    """A SyntaxGym formula of (region;%condition%) terms, with each term's surprisal put in."""
    return eval(re.sub(r"\(([^;()]+);%([^%]+)%\)", lambda m: repr(surprisal[m.group(2)]), formula))


def test_syntaxgym_conditions_regions_and_licensing_predictions(fg_dir, fg_items, tmp_path):
    out = export(fg_dir, "syntaxgym", tmp_path)
    suite = json.loads((out / "filler_gap.json").read_text(encoding="utf-8"))
    meta = suite["region_meta"]
    assert suite["meta"] == {"name": "fg_suite_filler_gap", "metric": "sum"}
    assert sorted(int(k) for k in meta) == list(range(1, len(meta) + 1))
    assert list(meta.values()).count("spillover") == 1
    spill = next(k for k, name in meta.items() if name == "spillover")

    formulas = [p["formula"] for p in suite["predictions"]]
    assert formulas == [
        "((*;%wh_nogap%) - (*;%that_nogap%)) > ((*;%wh_gap%) - (*;%that_gap%))",
        f"(({spill};%wh_nogap%) - ({spill};%that_nogap%)) > (({spill};%wh_gap%) - ({spill};%that_gap%))",
    ]
    # each prediction holds exactly when the licensing interaction (in log-probability) is positive
    rng = random.Random(1)
    for _ in range(200):
        surprisal = {c: rng.uniform(0, 30) for c in FILLER_GAP.conditions}
        licensing = FILLER_GAP.contrast({c: -s for c, s in surprisal.items()})
        assert all(evaluate(f, surprisal) == (licensing > 0) for f in formulas)

    assert [i["item_number"] for i in suite["items"]] == list(range(1, N_ITEMS + 1))
    for sg_item, item in zip(suite["items"], fg_items):
        assert [c["condition_name"] for c in sg_item["conditions"]] == list(FILLER_GAP.conditions)
        for cond in sg_item["conditions"]:
            sentence = item.conditions[cond["condition_name"]]
            contents = [r["content"] for r in cond["regions"]]
            assert [r["region_number"] for r in cond["regions"]] == list(range(1, len(meta) + 1))
            expected = [" ".join(sentence.text[r.start:r.end].split()) for r in sentence.regions]
            assert [c for c in contents if c] == [t for t in expected if t], "regions rebuild the sentence"
            spillover = next(r for r in sentence.regions if r.name == "spillover")
            assert contents[int(spill) - 1] == sentence.text[spillover.start:spillover.end] != ""
            for number, text in enumerate(contents, start=1):
                assert text == text.strip() and "  " not in text
                if meta[str(number)].startswith("gap"):
                    assert text == ""


@pytest.mark.skipif(not SCHEMA.is_file(), reason="SyntaxGym schema not found in <repo>/../shared/ref/")
def test_syntaxgym_filler_gap_validates_against_schema(fg_dir, tmp_path):
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    out = export(fg_dir, "syntaxgym", tmp_path)
    jsonschema.validate(json.loads((out / "filler_gap.json").read_text(encoding="utf-8")), schema)


# ---- Hugging Face --------------------------------------------------------------------------

def test_hf_rows_hold_the_four_condition_texts(fg_dir, fg_items, tmp_path):
    out = export(fg_dir, "hf", tmp_path)
    rows = read_jsonl(out / "data/filler_gap.jsonl")
    assert [r["item_id"] for r in rows] == [i.item_id for i in fg_items]
    for row, item in zip(rows, fg_items):
        assert {c: row[c] for c in FILLER_GAP.conditions} == {c: item.conditions[c].text for c in FILLER_GAP.conditions}
        assert not set(ISLAND.conditions) & set(row)
        assert list(row["regions"]) == list(FILLER_GAP.conditions)
        assert row["regions"]["wh_gap"] == [r.to_json() for r in item.conditions["wh_gap"].regions]
    card = (out / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(card.split("---\n")[1])
    names = [f["name"] for f in header["dataset_info"][0]["features"]]
    assert [n for n in names if n in FILLER_GAP.conditions] == list(FILLER_GAP.conditions)
    assert not set(ISLAND.conditions) & set(names)
    assert "filler-gap" in header["tags"] and "island-effects" not in header["tags"]
    body = card.split("---\n", 2)[2]
    assert "design `filler_gap`" in body and "| filler_gap | filler_gap | 8 |" in body
    assert all(f"`{c}`" in body for c in FILLER_GAP.conditions)
    assert "licensing = S(that_nogap) + S(wh_gap) - S(wh_nogap) - S(that_gap)" in body
    assert "long_island" not in body


# ---- long CSV ------------------------------------------------------------------------------

def test_csv_factor_columns_hold_the_design_levels(fg_dir, fg_items, tmp_path):
    out = export(fg_dir, "csv", tmp_path)
    rows = read_csv(out / "fg_suite.csv")
    assert list(rows[0])[:6] == ["paradigm", "item_id", "condition", "filler", "gap", "grammatical"]
    items = {i.item_id: i for i in fg_items}
    sentences = Counter(r["item_id"] for r in {(r["item_id"], r["condition"]): r for r in rows}.values())
    assert sentences == {item_id: 4 for item_id in items}, "four sentences per item"
    assert len(rows) == sum(len(i.conditions[c].regions) for i in fg_items for c in FILLER_GAP.conditions)
    expected = {"that_nogap": ("that", "nogap"), "wh_nogap": ("wh", "nogap"),
                "that_gap": ("that", "gap"), "wh_gap": ("wh", "gap")}
    for row in rows:
        assert (row["filler"], row["gap"]) == expected[row["condition"]]
        sentence = items[row["item_id"]].conditions[row["condition"]]
        assert row["grammatical"] == str(sentence.grammatical).lower()
        assert sentence.text[int(row["start"]):int(row["end"])] == row["text"]
    assert {r["grammatical"] for r in rows if r["condition"] in ("wh_nogap", "that_gap")} == {"false"}


# ---- rating lists --------------------------------------------------------------------------

def test_rating_lists_rotate_the_design_conditions(fg_dir, fg_items, tmp_path):
    out = export(fg_dir, "ratings", tmp_path, lists=4, seed=3)
    seen: dict[str, set[str]] = {}
    texts = {(i.item_id, c): i.conditions[c].text for i in fg_items for c in FILLER_GAP.conditions}
    for number in range(1, 5):
        rows = read_csv(out / f"list_{number:02d}.csv")
        assert sorted(r["item_id"] for r in rows) == sorted(i.item_id for i in fg_items)
        assert Counter(r["condition"] for r in rows) == {c: N_ITEMS // 4 for c in FILLER_GAP.conditions}
        for r in rows:
            assert r["text"] == texts[(r["item_id"], r["condition"])]
            seen.setdefault(r["item_id"], set()).add(r["condition"])
    assert all(conditions == set(FILLER_GAP.conditions) for conditions in seen.values())
    design = json.loads((out / "design.json").read_text(encoding="utf-8"))
    assert design["conditions_per_list"] == [{c: 2 for c in FILLER_GAP.conditions}] * 4
    assert design["designs"] == {"filler_gap": list(FILLER_GAP.conditions)}
    assert "filler_gap: that_nogap, wh_nogap, that_gap, wh_gap" in (out / "README.md").read_text(encoding="utf-8")


# ---- a suite with both designs -------------------------------------------------------------

def test_mixed_suite_island_files_unchanged(suite_dir, fg_items, tmp_path):
    """Island paradigms export as they do alone; the suite-wide files take both designs' columns."""
    mixed = tmp_path / "mixed" / suite_dir.name  # the same suite name: SyntaxGym's meta.name carries it
    mixed.mkdir(parents=True)
    for path in suite_dir.iterdir():
        (mixed / path.name).write_bytes(path.read_bytes())
    write_items(mixed / "filler_gap.jsonl", fg_items)
    for fmt in ("blimp", "syntaxgym"):
        alone, both = tree(export(suite_dir, fmt, tmp_path / "alone")), tree(export(mixed, fmt, tmp_path / "both"))
        assert {k: v for k, v in both.items() if not k.startswith("filler_gap")} == alone
        assert any(k.startswith("filler_gap") for k in both)

    rows = read_csv(export(mixed, "csv", tmp_path) / f"{suite_dir.name}.csv")
    assert list(rows[0])[3:7] == ["length", "structure", "filler", "gap"]
    for row in rows:
        filled = ("filler", "gap") if row["paradigm"] == "filler_gap" else ("length", "structure")
        assert all(row[f] for f in filled) and not any(row[f] for f in {"length", "structure", "filler", "gap"} - set(filled))

    hf = export(mixed, "hf", tmp_path)
    fg_row = read_jsonl(hf / "data/filler_gap.jsonl")[0]
    island_row = read_jsonl(hf / "data/whether_island.jsonl")[0]
    assert list(fg_row) == list(island_row), "one schema for every file of the `all` config"
    assert fg_row["long_island"] is None and fg_row["wh_gap"] == fg_items[0].conditions["wh_gap"].text
    assert island_row["wh_gap"] is None and island_row["regions"]["wh_gap"] is None

    lists = export(mixed, "ratings", tmp_path, lists=4, seed=0)
    rows = read_csv(lists / "list_01.csv")
    assert {r["condition"] for r in rows if r["paradigm"] == "filler_gap"} <= set(FILLER_GAP.conditions)
    assert {r["condition"] for r in rows if r["paradigm"] != "filler_gap"} <= set(ISLAND.conditions)
    counts = json.loads((lists / "design.json").read_text(encoding="utf-8"))["conditions_per_list"][0]
    assert list(counts) == [*ISLAND.conditions, *FILLER_GAP.conditions]
