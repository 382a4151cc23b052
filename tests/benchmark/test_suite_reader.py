"""The suite reader: the format, and clear errors naming file and line for bad input."""

from __future__ import annotations

import json

import pytest

from benchmark import suite as suite_mod
from benchmark.errors import BenchError
from benchmark.suite import read_suite
from conftest import FIXTURE_ITEMS, write_suite


def test_reads_fixture_suite(fixture_suite):
    s = read_suite(fixture_suite)
    assert s.name == "fixture_suite"
    assert len(s.items) == 5 and list(s.paradigms) == ["adjunct_island", "whether_island"]
    item = next(i for i in s.items if i.item_id == "whether_island-00002")
    sent = item.conditions["short_nonisland"]
    assert [sent.text[a:b] for a, b in sent.words][:5] == ["Chi", "pensa", "che", "l'", "avvocato"]
    assert item.matched_set == "ms-1" and item.variant["subject_type"] == "np"
    gap = [r for r in item.conditions["long_island"].regions if r.name == "gap"][0]
    assert gap.start == gap.end
    assert next(i for i in s.items if i.item_id == "adjunct_island-00001").set_id == "adjunct_island-00001"


def test_single_file(fixture_suite):
    s = read_suite(fixture_suite / "whether_island.jsonl")
    assert s.name == "fixture_suite-whether_island" and len(s.items) == 3


def _write(tmp_path, lines):
    d = tmp_path / "bad"
    d.mkdir()
    (d / "whether_island.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return d


def test_invalid_json_names_file_and_line(tmp_path):
    good = json.dumps(FIXTURE_ITEMS[0])
    d = _write(tmp_path, [good, '{"item_id": "x", "paradigm": '])
    with pytest.raises(BenchError, match=r"whether_island\.jsonl:2: not valid JSON"):
        read_suite(d)


def test_missing_condition(tmp_path):
    item = json.loads(json.dumps(FIXTURE_ITEMS[0]))
    del item["conditions"]["long_island"]
    d = _write(tmp_path, [json.dumps(item)])
    with pytest.raises(BenchError, match=r"whether_island\.jsonl:1: item 'whether_island-00001' lacks condition\(s\) long_island"):
        read_suite(d)


def test_region_outside_text(tmp_path):
    item = json.loads(json.dumps(FIXTURE_ITEMS[0]))
    item["conditions"]["short_island"]["regions"][-1]["end"] = 999
    d = _write(tmp_path, ["", json.dumps(item)])
    with pytest.raises(BenchError, match=r"whether_island\.jsonl:2: condition 'short_island': regions\[6\] = \[\d+, 999\] lies outside the text"):
        read_suite(d)


def test_word_outside_text_and_missing_words(tmp_path):
    item = json.loads(json.dumps(FIXTURE_ITEMS[0]))
    item["conditions"]["short_nonisland"]["words"].append([40, 80])
    with pytest.raises(BenchError, match=r":1: condition 'short_nonisland': words\[\d+\]"):
        read_suite(_write(tmp_path, [json.dumps(item)]))
    item = json.loads(json.dumps(FIXTURE_ITEMS[0]))
    del item["conditions"]["long_nonisland"]["words"]
    d = tmp_path / "b2"
    d.mkdir()
    (d / "p.jsonl").write_text(json.dumps(item) + "\n")
    with pytest.raises(BenchError, match=r"p\.jsonl:1: condition 'long_nonisland' has no word spans"):
        read_suite(d)


def test_not_an_object_and_duplicates(tmp_path):
    with pytest.raises(BenchError, match=r":1: an item must be a JSON object"):
        read_suite(_write(tmp_path, ["[1, 2]"]))
    d = write_suite(tmp_path / "dup", [FIXTURE_ITEMS[0], FIXTURE_ITEMS[0]])
    with pytest.raises(BenchError, match="occurs twice"):
        read_suite(d)


def test_missing_default_suite_says_how_to_create_it(tmp_path, monkeypatch):
    monkeypatch.setattr(suite_mod, "DEFAULT_SUITE", tmp_path / "generated" / "italian_islands")
    monkeypatch.setattr(suite_mod, "REPO_ROOT", tmp_path)
    with pytest.raises(BenchError, match=r"generated/italian_islands/ does not exist yet.*gen build --phenomenon all"):
        read_suite(None)


def test_empty_and_missing(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(BenchError, match="no <paradigm>.jsonl files"):
        read_suite(tmp_path / "empty")
    with pytest.raises(BenchError, match="no such suite"):
        read_suite(tmp_path / "nowhere")
