"""`--vary zipf_band`: item-matched frequent / rare sets, bands in the manifest, re-checked."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.lexicon import load_lexicon
from generator.paths import LEXICON_DIR
from suite_format import read_suite


@pytest.fixture(scope="module")
def varied(tmp_path_factory):
    out = tmp_path_factory.mktemp("zb") / "suite"
    result = CliRunner().invoke(app, ["build", "--phenomenon", "complex_np", "--dependency", "wh", "--n", "30",
                                      "--vary", "zipf_band", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return out


def test_bands_are_in_the_manifest_and_every_slot_respects_its_band(varied):
    manifest = json.loads((varied / "manifest.json").read_text())
    bands = manifest["paradigms"]["complex_np_island"]["zipf_bands"]
    assert {"matrix", "head", "verb", "object"} <= set(bands)
    lexicon = load_lexicon(LEXICON_DIR)
    tables = {"matrix": "verbs", "head": "nouns", "verb": "verbs", "object": "nouns", "esubj": "names"}
    items = read_suite(varied).items
    assert len(items) == 60
    for item in items:
        level = item.variant["zipf_band"]
        for slot, band in bands.items():
            zipf = lexicon.entry(tables[slot], item.lexical[slot]).zipf
            assert (zipf >= band["threshold"]) == (level == "frequent"), (item.item_id, slot, zipf)
            low, high = band[level]
            assert low <= zipf <= high


def test_matched_sets_share_the_skeleton(varied):
    sets: dict[str, list] = {}
    for item in read_suite(varied).items:
        sets.setdefault(item.set_id, []).append(item)
    assert len(sets) == 30
    for members in sets.values():
        assert sorted(i.variant["zipf_band"] for i in members) == ["frequent", "rare"]
        skeletons = [{k: v for k, v in i.variant.items() if k != "zipf_band"} for i in members]
        assert skeletons[0] == skeletons[1]


def test_validate_rebuilds_the_band_variant(varied):
    result = CliRunner().invoke(app, ["validate", str(varied)])
    assert result.exit_code == 0, result.output


def test_every_paradigm_can_be_banded(tmp_path):
    from generator.build import BuildRequest, build_suite
    from generator.paths import GRAMMAR_DIR
    results, manifest = build_suite(BuildRequest("all", 4, 0, "zipf_band"), LEXICON_DIR, GRAMMAR_DIR)
    assert set(results) == set(manifest["paradigms"]) and len(results) == 11
    for name, entry in manifest["paradigms"].items():
        assert entry["zipf_bands"], name
        assert {i.variant["zipf_band"] for i in results[name]} == {"frequent", "rare"}
