"""The suite format package: every generated suite validates against the JSON Schema, the
reader round-trips both designs byte for byte, and it refuses what it cannot read with the
file and line."""

from __future__ import annotations

import json

import pytest

from generator.build import BuildRequest, build_suite, write_suite
from generator.paths import GENERATED_DIR, GRAMMAR_DIR, LEXICON_DIR
from suite_format import FILLER_GAP, ISLAND, SuiteFormatError, dumps_item, read_suite
from suite_format.schema import validate_suite_folder


@pytest.fixture(scope="module")
def small_suite(tmp_path_factory):
    results, manifest = build_suite(BuildRequest("all", 8, 3), LEXICON_DIR, GRAMMAR_DIR)
    out = tmp_path_factory.mktemp("fmt") / "suite"
    write_suite(out, results, manifest)
    return out


def test_every_generated_paradigm_validates_against_the_schema(small_suite):
    assert validate_suite_folder(small_suite) == []
    suite = read_suite(small_suite)
    designs = {item.design for item in suite.items}
    assert designs == {ISLAND.name, FILLER_GAP.name}
    manifest = json.loads((small_suite / "manifest.json").read_text())
    assert manifest["format_version"] == 3 and manifest["language"] == "it"
    for name, entry in manifest["paradigms"].items():
        assert list(entry["conditions"]) == list(suite.paradigms[name][0].layout.conditions)


def test_the_shipped_suite_validates():
    assert validate_suite_folder(GENERATED_DIR / "italian_islands") == []


def test_round_trip_is_byte_identical_for_both_designs(small_suite):
    for path in sorted(small_suite.glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        items = read_suite(path).items
        assert [dumps_item(i) for i in items] == lines


def test_filler_gap_items_follow_their_design(small_suite):
    items = read_suite(small_suite).paradigms["filler_gap"]
    for item in items:
        assert tuple(item.conditions) == FILLER_GAP.conditions
        assert {c for c, s in item.conditions.items() if not s.grammatical} == {"wh_nogap", "that_gap"}
        assert item.additive
        gap = item.conditions["wh_gap"]
        assert [r.name for r in gap.regions][-3:] == ["gap", "spillover", "end"]
        # the same words right after the gap in all four cells: the critical region is comparable
        spill = {s.text[r.start:r.end] for s in item.conditions.values() for r in s.regions if r.name == "spillover"}
        assert len(spill) == 1


def _one_line(small_suite, tmp_path, edit):
    line = json.loads((small_suite / "filler_gap.jsonl").read_text().splitlines()[0])
    edit(line)
    folder = tmp_path / "bad"
    folder.mkdir(parents=True)
    (folder / "filler_gap.jsonl").write_text(json.dumps(line) + "\n")
    return folder


def test_reader_refuses_unknown_design_and_wrong_conditions(small_suite, tmp_path):
    folder = _one_line(small_suite, tmp_path, lambda d: d.update(design="cleft"))
    with pytest.raises(SuiteFormatError, match=r"filler_gap\.jsonl:1: unknown design 'cleft'"):
        read_suite(folder)
    folder = _one_line(small_suite, tmp_path / "b", lambda d: d.update(design="island"))
    with pytest.raises(SuiteFormatError, match=r":1: item '.*' lacks condition\(s\) short_nonisland"):
        read_suite(folder)
    assert any("conditions" in p for p in validate_suite_folder(folder))


def test_reader_refuses_a_newer_format(small_suite, tmp_path):
    folder = tmp_path / "new"
    folder.mkdir()
    (folder / "filler_gap.jsonl").write_text((small_suite / "filler_gap.jsonl").read_text())
    (folder / "manifest.json").write_text(json.dumps({"format_version": 4, "paradigms": {}}))
    with pytest.raises(SuiteFormatError, match=r"manifest\.json: suite format version 4.*upgrade"):
        read_suite(folder)


def test_version_1_items_read_as_island_items(small_suite, tmp_path):
    line = json.loads((small_suite / "whether_island.jsonl").read_text().splitlines()[0])
    del line["design"]
    (tmp_path / "old.jsonl").write_text(json.dumps(line) + "\n")
    item = read_suite(tmp_path / "old.jsonl").items[0]
    assert item.design == "island" and item.layout is ISLAND


def test_schema_names_the_line_and_the_key(small_suite, tmp_path):
    folder = _one_line(small_suite, tmp_path, lambda d: d.pop("additive"))
    problems = validate_suite_folder(folder)
    assert problems[0].startswith("filler_gap.jsonl:1: (top): 'additive' is a required property")


def test_golden_first_filler_gap_item_of_seed_0():
    """The shipped suite's first filler-gap item, pinned (read as natural Italian)."""
    item = read_suite(GENERATED_DIR / "italian_islands" / "filler_gap.jsonl").items[0]
    assert [s.text for s in item.conditions.values()] == [
        "Paola scrive che Giovanni ha rovinato il motorino ieri sera.",
        "Paola scrive cosa Giovanni ha rovinato il motorino ieri sera.",
        "Paola scrive che Giovanni ha rovinato ieri sera.",
        "Paola scrive cosa Giovanni ha rovinato ieri sera."]


def test_version_2_suites_read_as_italian(small_suite, tmp_path):
    """A suite written before items said their language is Italian; a bad code is refused."""
    folder = tmp_path / "v2"
    folder.mkdir()
    lines = [json.loads(line) for line in (small_suite / "whether_island.jsonl").read_text().splitlines()]
    for line in lines:
        del line["language"]
    (folder / "whether_island.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (folder / "manifest.json").write_text(json.dumps({"format_version": 2, "paradigms": {}}))
    suite = read_suite(folder)
    assert suite.language == "it" and {i.language for i in suite.items} == {"it"}
    lines[0]["language"] = "Italian"
    (folder / "whether_island.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    with pytest.raises(SuiteFormatError, match="whether_island.jsonl:1: 'language' must be a language code"):
        read_suite(folder)
