"""`gen import` of suites in the published shape of the 2022 thesis: {"sentences": [...]} with
BLiMP-style metadata beside the four conditions, and one adjunct file mixing connectives.

The fixtures in data/ are our own items written in that shape (the published files cannot be
redistributed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.interop.common import InteropError, load_suite, write_tree
from generator.interop.import_labels import adjunct_connective, paradigm_for
from generator.interop.importers import import_file
from suite_format.schema import validate_suite_folder

DATA = Path(__file__).parent / "data"
TINY_GPT2 = Path(__file__).parents[1] / "benchmark" / "data" / "tiny" / "gpt2"  # committed, offline
THESIS = {
    "thesis_whether_island.json": "whether_island",
    "thesis_complex_np_island.json": "complex_np_island",
    "thesis_subject_island.json": "subject_island",
}
METADATA = ("field", "linguistics_term", "UID", "island_subcategory", "pairID")
runner = CliRunner()


def imported(tmp_path: Path, source: Path, *args: str) -> tuple[Path, str]:
    """Run `gen import`; the suite folder (schema-valid) and what the command printed."""
    out = tmp_path / f"imported_{source.stem}"
    result = runner.invoke(app, ["import", str(source), "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    assert validate_suite_folder(out) == []
    return out, result.output


def valid(files: dict[str, str], folder: Path) -> dict[str, str]:
    """`files` of import_file, after checking them against the schema as a suite folder."""
    write_tree(folder, files)
    assert validate_suite_folder(folder) == []
    return files


@pytest.mark.parametrize("name", sorted(THESIS))
def test_published_shape_imports_without_flags(tmp_path, name):
    source = DATA / name
    records = json.loads(source.read_text(encoding="utf-8"))["sentences"]
    out, output = imported(tmp_path, source)
    suite = load_suite(out)
    paradigm = THESIS[name]
    assert list(suite.paradigms) == [paradigm]
    items = suite.paradigms[paradigm]
    assert [i.item_id for i in items] == [f"{paradigm}-{n:05d}" for n in range(1, 5)]  # numbered by pairID
    for item, record in zip(items, records):
        # every key but the four conditions, as written: names, order and values
        assert item.source == {k: record[k] for k in METADATA}
        assert list(item.source) == list(METADATA)
        assert item.source["field"] == "syntax" and item.source["linguistics_term"] == "island_effects"
        assert [s.grammatical for s in item.conditions.values()] == [True, True, True, False]
    assert f"{paradigm}: 4 items" in output
    line = (out / f"{paradigm}.jsonl").read_text(encoding="utf-8").splitlines()[0]
    assert json.loads(line)["source"]["pairID"] == "1"


def test_mixed_adjunct_file_is_split_by_connective(tmp_path):
    out, output = imported(tmp_path, DATA / "thesis_adjunct_island.json")
    suite = load_suite(out)
    ids = {name: [i.item_id for i in items] for name, items in suite.paradigms.items()}
    assert ids == {
        "adjunct_island": ["adjunct_island-00007"],                                    # perché
        "adjunct_island_conditional": ["adjunct_island_conditional-00001",             # se
                                       "adjunct_island_conditional-00003", "adjunct_island_conditional-00008"],
        "adjunct_island_temporal": ["adjunct_island_temporal-00002",                   # quando (se ne va)
                                    "adjunct_island_temporal-00004",                   # mentre
                                    "adjunct_island_temporal-00005",                   # dopo che
                                    "adjunct_island_temporal-00006"],                  # prima che
    }
    assert all(i.source["island_subcategory"] == "adjunct_island" for i in suite.items)
    assert "8 items in 3 paradigms" in output
    assert "adjunct_island: 1 item (no se or temporal connective: 1)" in output
    assert "adjunct_island_conditional: 3 items (connective 'se': 3)" in output
    assert ("adjunct_island_temporal: 4 items (connective 'dopo che': 1, connective 'mentre': 1, "
            "connective 'prima che': 1, connective 'quando': 1)") in output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["imported"]["n_items"] == 8
    assert {name: entry["n_items"] for name, entry in manifest["imported"]["assigned"].items()} == \
        {"adjunct_island": 1, "adjunct_island_conditional": 3, "adjunct_island_temporal": 4}
    assert manifest["imported"]["assigned"]["adjunct_island_conditional"]["by"] == {"connective 'se'": 3}
    assert {name: p["n_items"] for name, p in manifest["paradigms"].items()} == \
        {"adjunct_island": 1, "adjunct_island_conditional": 3, "adjunct_island_temporal": 4}


def test_paradigm_flag_still_forces_one_paradigm(tmp_path):
    out, output = imported(tmp_path, DATA / "thesis_adjunct_island.json", "--paradigm", "adjunct_island_temporal")
    suite = load_suite(out)
    assert list(suite.paradigms) == ["adjunct_island_temporal"] and len(suite.items) == 8
    assert "adjunct_island_temporal: 8 items (--paradigm: 8)" in output


def test_import_of_published_shape_is_deterministic(tmp_path):
    source = DATA / "thesis_adjunct_island.json"
    assert valid(import_file(source), tmp_path / "first") == import_file(source)


@pytest.mark.parametrize("label, expected", [
    ("wh_island", "whether_island"),
    ("whether_island", "whether_island"),
    ("complex_NP_island", "complex_np_island"),
    ("CNP", "complex_np_island"),
    ("sentential_subject_island", "subject_island"),
    ("adjunct_island / wh_island", "adjunct_island_conditional"),    # subcategory before UID
    ("complex_np_island / wh_island", "complex_np_island"),
    ("se / adjunct_island", "adjunct_island_conditional"),
    ("temporal", "adjunct_island_temporal"),
    ("adjunct_island_temporal / adjunct_island", "adjunct_island_temporal"),  # a paradigm name wins
])
def test_labels_of_the_literature(label, expected):
    texts = {"short_island": "Chi si arrabbia se Marco dimentica le chiavi?"}
    assert paradigm_for(label, texts, "f:1")[0] == expected


@pytest.mark.parametrize("island, connective", [
    ("Chi si arrabbia se Marco dimentica le chiavi?", "se"),
    ("Chi se ne va quando Marta accende la radio?", "quando"),     # `se ne`: the pronoun
    ("Chi è uscito dopo che la nonna ha cucinato la pasta?", "dopo che"),
    ("Chi è partito prima che Luca chiudesse il negozio?", "prima che"),
    ("Chi sorride mentre Paolo legge il giornale?", "mentre"),
    ("Chi esce appena Paolo arriva?", "appena"),
    ("Chi è triste perché Anna ha venduto la macchina?", None),
])
def test_adjunct_connective(island, connective):
    assert adjunct_connective({"short_island": island, "long_island": island}) == connective


def test_metadata_that_mentions_islands_is_not_a_condition(tmp_path):
    record = json.loads((DATA / "thesis_whether_island.json").read_text(encoding="utf-8"))["sentences"][0]
    rated = tmp_path / "rated.json"   # numeric per-condition metadata is kept, not refused
    rated.write_text(json.dumps({"sentences": [dict(record, long_island_rating=2.5, sentence_id="s1",
                                                    notes=["a", "b"])]}), encoding="utf-8")
    out, _ = imported(tmp_path, rated)
    item = load_suite(out).items[0]
    assert item.source["long_island_rating"] == 2.5 and item.source["notes"] == ["a", "b"]
    assert item.source["sentence_id"] == "s1"
    typo = tmp_path / "typo.json"    # a sentence under a misspelt condition key is refused
    typo.write_text(json.dumps({"sentences": [dict(record, sentence_good="Chi pensa che Luca dorma?")]}),
                    encoding="utf-8")
    with pytest.raises(InteropError, match=r"typo.json:1: unknown condition key 'sentence_good': rename it"):
        import_file(typo)


def test_forced_paradigm_refuses_mixed_dependencies(tmp_path):
    record = json.loads((DATA / "thesis_complex_np_island.json").read_text(encoding="utf-8"))["sentences"][0]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(json.dumps(record) + "\n" + json.dumps(dict(record, pairID="2", clause_type="RC")) + "\n",
                     encoding="utf-8")
    with pytest.raises(InteropError, match=r"mixed.jsonl:2: --paradigm complex_np_island would mix wh items"):
        import_file(mixed, paradigm="complex_np_island")
    files = valid(import_file(mixed), tmp_path / "split")  # without it, the rc item gets its own paradigm
    assert set(files) == {"complex_np_island.jsonl", "complex_np_island_rc.jsonl", "manifest.json"}


def test_imported_suite_runs_in_the_benchmark(tmp_path, monkeypatch):
    """`gen import FILE --out DIR`, then `bench run --suite DIR --model TINY` with no other flags."""
    from benchmark.cli import app as bench_app

    monkeypatch.chdir(tmp_path)                       # bench writes ./results by default
    monkeypatch.setenv("ISOLE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    suite_dir, _ = imported(tmp_path, DATA / "thesis_adjunct_island.json")
    result = runner.invoke(bench_app, ["run", "--suite", str(suite_dir), "--model", str(TINY_GPT2)])
    assert result.exit_code == 0, result.output
    run_dir = tmp_path / "results" / suite_dir.name / "gpt2.lp"
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    assert set(summary["measures"]["LP"]) == {"adjunct_island", "adjunct_island_conditional", "adjunct_island_temporal"}
    assert len((run_dir / "sentences.csv").read_text(encoding="utf-8").splitlines()) == 1 + 8 * 4


def test_a_published_id_reused_for_another_item_is_kept_in_source(tmp_path):
    """The thesis's complex-NP file gives some pairIDs to two different items: both import,
    the second with its own id, and the summary says how many ids repeated."""
    records = json.loads((DATA / "thesis_complex_np_island.json").read_text(encoding="utf-8"))["sentences"]
    other = dict(records[2], pairID=records[1]["pairID"])  # item 3's sentences under item 2's id
    source = tmp_path / "thesis_complex_np_island.json"
    source.write_text(json.dumps({"sentences": [*records, other]}, ensure_ascii=False), encoding="utf-8")
    out, output = imported(tmp_path, source)
    items = load_suite(out).paradigms["complex_np_island"]
    ids = [i.item_id for i in items]
    assert len(set(ids)) == len(ids) == len(records) + 1
    assert ids[-1] == f"complex_np_island-{int(records[1]['pairID']):05d}-r2"
    assert items[-1].source["pairID"] == records[1]["pairID"]  # the published id, as written
    assert "1 item reuse a published id of another item" in output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["imported"]["repeated_ids"] == {"complex_np_island": [str(records[1]["pairID"])]}
    # the same item twice is still an error: one copy is a mistake, not a second item
    source.write_text(json.dumps({"sentences": [*records, records[1]]}, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["import", str(source), "--out", str(tmp_path / "again")])
    assert result.exit_code == 2 and "appears twice" in result.output and "Traceback" not in result.output


def test_relative_clause_files_named_rc_import_into_the_rc_paradigms(tmp_path):
    """2016-shape relative-clause files say `rc_` in their name and nothing in their records:
    they belong to the `_rc` paradigms, not to the wh islands."""
    rows = [{"short_nonisland": "Ieri ho conosciuto il giovane che pensa che Marta abbia riparato la radio.",
             "long_nonisland": "Ieri ho visto la radio che il giovane pensa che Marta abbia riparato.",
             "short_island": "Ieri ho conosciuto il giovane che si chiede se Marta abbia riparato la radio.",
             "long_island": "Ieri ho visto la radio che il giovane si chiede se Marta abbia riparato.",
             "item": k} for k in (1, 2)]
    rows[1] = {**rows[1], **{c: t.replace("Marta", "Paola") for c, t in rows[1].items() if c != "item"}}
    source = tmp_path / "rc_whether_island.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out, output = imported(tmp_path, source)
    suite = load_suite(out)
    assert list(suite.paradigms) == ["whether_island_rc"]
    assert {i.dependency for i in suite.paradigms["whether_island_rc"]} == {"rc"}
    # an explicit clause type still decides, whatever the file is called
    source2 = tmp_path / "rc_whether_island2.jsonl"
    source2.write_text("".join(json.dumps({**r, "clause_type": "WH"}, ensure_ascii=False) + "\n" for r in rows),
                       encoding="utf-8")
    out2, _ = imported(tmp_path, source2)
    assert list(load_suite(out2).paradigms) == ["whether_island"]
