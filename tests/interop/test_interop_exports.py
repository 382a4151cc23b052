"""Exports: BLiMP pairs, SyntaxGym suites, lm-eval task folders, HF dataset folders, long CSV."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from generator.cli import app
from generator.interop.commands import run_export
from generator.suite import CONDITIONS, read_items
from suite_format.schema import validate_suite_folder

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO.parent / "shared" / "ref" / "syntaxgym_test_suite.schema.json"
runner = CliRunner()


def export(suite_dir: Path, fmt: str, tmp_path: Path, **kw) -> Path:
    out = tmp_path / f"out-{fmt}"
    run_export(suite_dir, fmt, out, **kw)
    return out


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("fmt", ["blimp", "syntaxgym", "lm-eval", "hf", "csv", "ratings"])
def test_exports_are_byte_identical_on_rerun(suite_dir, tmp_path, fmt):
    first = tree(export(suite_dir, fmt, tmp_path))
    run_export(suite_dir, fmt, tmp_path / "again", force=True)
    assert tree(tmp_path / "again") == first
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "temporary folders left behind"


# ---- BLiMP ------------------------------------------------------------------------------

def test_blimp_three_pairs_per_item(suite_dir, tmp_path):
    out = export(suite_dir, "blimp", tmp_path)
    items = list(read_items(suite_dir / "whether_island.jsonl"))
    pairs = [json.loads(line) for line in (out / "whether_island.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(pairs) == 3 * len(items)
    keys = {"sentence_good", "sentence_bad", "field", "linguistics_term", "UID", "pairID", "item_id",
            "good_condition", "bad_condition"}
    assert all(keys <= set(p) for p in pairs)
    assert len({p["pairID"] for p in pairs}) == len(pairs)
    first = items[0]
    mine = [p for p in pairs if p["item_id"] == first.item_id]
    assert [p["good_condition"] for p in mine] == list(CONDITIONS[:3])
    assert {p["sentence_bad"] for p in mine} == {first.conditions["long_island"].text}
    assert [p["sentence_good"] for p in mine] == [first.conditions[c].text for c in CONDITIONS[:3]]
    assert {p["UID"] for p in pairs} == {"whether_island"}


# ---- SyntaxGym --------------------------------------------------------------------------

def _structure_problems(suite: dict, items) -> list[str]:
    """SyntaxGym's rules beyond the schema (and the schema's shape), checked without the schema."""
    problems = []
    meta = suite["region_meta"]
    numbers = sorted(int(k) for k in meta)
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"region_meta not numbered 1..n: {numbers}")
    if suite["meta"].get("metric") != "sum" or not suite["meta"].get("name"):
        problems.append("meta needs name and metric 'sum'")
    for sg_item, item in zip(suite["items"], items):
        if [c["condition_name"] for c in sg_item["conditions"]] != list(CONDITIONS):
            problems.append(f"item {sg_item['item_number']}: conditions {sg_item['conditions']}")
        for cond in sg_item["conditions"]:
            if not re.fullmatch(r"[A-Za-z0-9_-]+", cond["condition_name"]):
                problems.append(f"condition name not ASCII: {cond['condition_name']}")
            regions = cond["regions"]
            if [r["region_number"] for r in regions] != numbers:
                problems.append(f"item {sg_item['item_number']} {cond['condition_name']}: region numbers differ")
            for r in regions:
                if set(r) != {"region_number", "content"}:
                    problems.append(f"extra region keys {set(r)}")
                text = r["content"]
                if text != text.strip() or "  " in text:
                    problems.append(f"bad spaces in {text!r}")
                if meta[str(r["region_number"])].startswith("gap") and text:
                    problems.append(f"gap region not empty: {text!r}")
            joined = " ".join(r["content"] for r in regions if r["content"])
            expected = item.conditions[cond["condition_name"]].text
            if joined.replace(" ?", "?") != expected:
                problems.append(f"regions {joined!r} do not rebuild {expected!r}")
    for prediction in suite["predictions"]:
        for region, condition in re.findall(r"\(([^;()]+);%([^%]+)%\)", prediction["formula"]):
            if region != "*" and region not in meta:
                problems.append(f"prediction names region {region}")
            if condition not in CONDITIONS:
                problems.append(f"prediction names condition {condition}")
    return problems


def test_syntaxgym_structure(suite_dir, tmp_path):
    out = export(suite_dir, "syntaxgym", tmp_path)
    for paradigm in ("whether_island", "complex_np_island", "subject_island"):
        suite = json.loads((out / f"{paradigm}.json").read_text(encoding="utf-8"))
        items = list(read_items(suite_dir / f"{paradigm}.jsonl"))
        assert _structure_problems(suite, items) == []
        formulas = [p["formula"] for p in suite["predictions"]]
        assert formulas[0] == ("((*;%long_island%) - (*;%short_island%)) > "
                               "((*;%long_nonisland%) - (*;%short_nonisland%))")
        assert len(formulas) == 2, "whole sentence and critical region"
        assert [i["item_number"] for i in suite["items"]] == list(range(1, len(items) + 1))


def test_syntaxgym_critical_region_follows_the_gap(suite_dir, tmp_path):
    out = export(suite_dir, "syntaxgym", tmp_path)
    whether = json.loads((out / "whether_island.json").read_text(encoding="utf-8"))
    critical = re.search(r"\((\d+);", whether["predictions"][1]["formula"]).group(1)
    assert whether["region_meta"][critical] == "end"  # "abbia riscosso __ ?": the "?" region
    subject = json.loads((out / "subject_island.json").read_text(encoding="utf-8"))
    critical = re.search(r"\((\d+);", subject["predictions"][1]["formula"]).group(1)
    li = next(c for c in subject["items"][0]["conditions"] if c["condition_name"] == "long_island")
    si = next(c for c in subject["items"][0]["conditions"] if c["condition_name"] == "short_island")
    assert li["regions"][int(critical) - 1]["content"] == "abbia causato"  # right after the subject gap
    assert si["regions"][int(critical) - 1]["content"] == "abbia causato"  # same region in every condition


@pytest.mark.skipif(not SCHEMA.is_file(), reason="SyntaxGym schema not found in <repo>/../shared/ref/ "
                    "(reference files are kept outside the repository); structural checks still run")
def test_syntaxgym_validates_against_schema(suite_dir, tmp_path):
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    out = export(suite_dir, "syntaxgym", tmp_path)
    for path in sorted(out.glob("*.json")):
        jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), schema)


def test_syntaxgym_imported_suite_is_one_region(tmp_path):
    src = tmp_path / "whether.jsonl"
    src.write_text(json.dumps({"island_type": "whether", "short_nonisland": "Chi pensa che Gianni abbia riscosso il pagamento?",
                               "long_nonisland": "Cosa pensa Maria che Gianni abbia riscosso?",
                               "short_island": "Chi si domanda se Gianni abbia riscosso il pagamento?",
                               "long_island": "Cosa si domanda Maria se Gianni abbia riscosso?"}) + "\n", encoding="utf-8")
    assert runner.invoke(app, ["import", str(src), "--out", str(tmp_path / "imp")]).exit_code == 0
    assert validate_suite_folder(tmp_path / "imp") == []
    out = export(tmp_path / "imp", "syntaxgym", tmp_path)
    suite = json.loads((out / "whether_island.json").read_text(encoding="utf-8"))
    assert suite["region_meta"] == {"1": "sentence"}
    assert [p["formula"].count("*") for p in suite["predictions"]] == [4]


# ---- lm-evaluation-harness ----------------------------------------------------------------

# The keys the harness documents for a local multiple-choice task (docs/new_task_guide.md and
# its BLiMP tasks), checked once by loading this export with lm-eval 0.4 (TaskManager with
# include_path, and a full run with its `dummy` model).
LM_EVAL_TASK_KEYS = {"task", "dataset_path", "dataset_kwargs", "test_split", "output_type",
                     "doc_to_text", "doc_to_choice", "doc_to_target", "metric_list"}


def test_lm_eval_task_folder(suite_dir, tmp_path):
    out = export(suite_dir, "lm-eval", tmp_path)
    group = yaml.safe_load((out / "_isole_fixture_suite.yaml").read_text(encoding="utf-8"))
    assert group["group"] == "isole_fixture_suite"
    assert sorted(group["task"]) == sorted(f"isole_fixture_suite_{p}" for p in
                                          ("whether_island", "complex_np_island", "subject_island"))
    for paradigm in ("whether_island", "complex_np_island", "subject_island"):
        config = yaml.safe_load((out / f"{paradigm}.yaml").read_text(encoding="utf-8"))
        assert LM_EVAL_TASK_KEYS <= set(config)
        assert config["task"] == f"isole_fixture_suite_{paradigm}"
        assert config["dataset_path"] == "json"
        assert config["output_type"] == "multiple_choice"
        data_file = config["dataset_kwargs"]["data_files"][config["test_split"]]
        assert (out / data_file).is_file() and not Path(data_file).is_absolute()
        assert config["doc_to_choice"] == "{{[sentence_good, sentence_bad]}}"
        assert config["doc_to_target"] == 0 and config["doc_to_text"] == ""
        # no space before the choice: the harness then scores the sentence `bench run` scores
        assert config["target_delimiter"] == ""
        text = (out / f"{paradigm}.yaml").read_text(encoding="utf-8")
        assert "target_delimiter: ''\n" in text and "doc_to_text: ''\n" in text
        assert [m["metric"] for m in config["metric_list"]] == ["acc"]
        doc = json.loads((out / data_file).read_text(encoding="utf-8").splitlines()[0])
        assert {"sentence_good", "sentence_bad"} <= set(doc)


def test_lm_eval_absolute_paths(suite_dir, tmp_path):
    out = export(suite_dir, "lm-eval", tmp_path, absolute_paths=True)
    config = yaml.safe_load((out / "whether_island.yaml").read_text(encoding="utf-8"))
    path = Path(config["dataset_kwargs"]["data_files"]["test"])
    assert path.is_absolute() and path.is_file()


# ---- Hugging Face ------------------------------------------------------------------------

def test_hf_folder_and_card(suite_dir, tmp_path):
    out = export(suite_dir, "hf", tmp_path)
    card = (out / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(card.split("---\n")[1])
    configs = {c["config_name"]: c for c in header["configs"]}
    assert configs["all"]["default"] is True
    for name, config in configs.items():
        pattern = config["data_files"][0]["path"]
        assert list(out.glob(pattern)), f"{name}: {pattern} matches no file"
    assert {i["config_name"] for i in header["dataset_info"]} == set(configs)
    lexicon_lines = "".join(f"lexicon/{n}.csv {h * 64}\n" for n, h in (("names", "b"), ("nouns", "a")))
    assert hashlib.sha256(lexicon_lines.encode()).hexdigest() in card
    assert "seed: `13`" in card and "generator version: `0.1.0`" in card
    rows = [json.loads(line) for line in (out / "data/whether_island.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 8
    assert rows[0]["long_island"] == "Cosa si domanda Maria se Gianni abbia riscosso?"
    assert rows[0]["variant"] == [{"name": "subject_type", "value": "name"}]
    assert set(rows[0]["regions"]) == set(CONDITIONS)


# ---- long CSV ----------------------------------------------------------------------------

def test_csv_long_rebuilds_sentences(suite_dir, tmp_path):
    out = export(suite_dir, "csv", tmp_path)
    with open(out / "fixture_suite.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0])[:4] == ["paradigm", "item_id", "condition", "length"]
    assert {"region", "text"} <= set(rows[0])
    items = {i.item_id: i for p in ("whether_island", "complex_np_island", "subject_island")
             for i in read_items(suite_dir / f"{p}.jsonl")}
    assert len(rows) == sum(len(i.conditions[c].regions) for i in items.values() for c in CONDITIONS)
    for row in rows:
        sentence = items[row["item_id"]].conditions[row["condition"]]
        assert sentence.text[int(row["start"]):int(row["end"])] == row["text"]
    gaps = [r for r in rows if r["region"] == "gap"]
    assert gaps and all(r["text"] == "" for r in gaps)


# ---- command line ------------------------------------------------------------------------

def test_export_cli_errors_are_one_line_and_exit_2(suite_dir, tmp_path):
    missing = runner.invoke(app, ["export", str(tmp_path / "nope"), "--format", "blimp", "--out", str(tmp_path / "o")])
    assert missing.exit_code == 2 and "nope" in missing.output and "Traceback" not in missing.output
    bad_format = runner.invoke(app, ["export", str(suite_dir), "--format", "xml", "--out", str(tmp_path / "o")])
    assert bad_format.exit_code == 2 and "xml" in bad_format.output
    ok = runner.invoke(app, ["export", str(suite_dir), "--format", "blimp", "--out", str(tmp_path / "o")])
    assert ok.exit_code == 0, ok.output
    again = runner.invoke(app, ["export", str(suite_dir), "--format", "csv", "--out", str(tmp_path / "o")])
    assert again.exit_code == 2 and "--force" in again.output
    assert (tmp_path / "o" / "whether_island.jsonl").is_file(), "a refused export leaves the old folder alone"
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "whether_island.jsonl").write_text('{"item_id": "x"}\n', encoding="utf-8")
    bad_suite = runner.invoke(app, ["export", str(broken), "--format", "blimp", "--out", str(tmp_path / "o2")])
    assert bad_suite.exit_code == 2 and "whether_island.jsonl:1" in bad_suite.output
    assert not (tmp_path / "o2").exists()


def test_lm_eval_harness_loads_the_tasks(suite_dir, tmp_path, monkeypatch):
    """Runs only where lm-evaluation-harness is installed (it is not a dependency)."""
    pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager, get_task_dict

    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    out = export(suite_dir, "lm-eval", tmp_path, absolute_paths=True)
    tasks = get_task_dict(["isole_fixture_suite"], TaskManager(include_path=str(out)))
    (group, members), = tasks.items()
    sizes = {name: len(list(task.test_docs())) for name, task in members.items()}
    assert sizes == {"isole_fixture_suite_complex_np_island": 12, "isole_fixture_suite_subject_island": 12,
                     "isole_fixture_suite_whether_island": 24}
    task = members["isole_fixture_suite_whether_island"]
    doc = next(iter(task.test_docs()))
    assert task.doc_to_choice(doc) == [doc["sentence_good"], doc["sentence_bad"]] and task.doc_to_target(doc) == 0
