"""The default build: balance, additivity, restrictions, determinism, limits."""

import json
import math
from collections import Counter

import pytest
from wordfreq import word_frequency

from generator.build import BuildError, BuildRequest, build_suite, write_suite
from generator.checks import check_item_format, check_item_restrictions
from generator.grammar import load_paradigms
from generator.paths import GRAMMAR_DIR, LEXICON_DIR
from generator.suite import CONDITIONS, paradigm_files, read_items
from suite_format import FILLER_GAP

WH_ISLANDS = {"whether_island", "complex_np_island", "subject_island",
              "adjunct_island_conditional", "adjunct_island_temporal"}
PARADIGMS = WH_ISLANDS | {f"{p}_rc" for p in WH_ISLANDS} | {"filler_gap"}


def unigram_score(text_words):
    """A syntax-blind scorer: the sum of log unigram frequencies (wordfreq)."""
    return sum(math.log(max(word_frequency(w.lower(), "it"), 1e-9)) for w in text_words)


def test_every_paradigm_has_1000_distinct_items(default_build):
    results, manifest = default_build
    assert set(results) == PARADIGMS
    for name, items in results.items():
        assert len(items) == 1000
        texts = {tuple(s.text for s in i.conditions.values()) for i in items}
        assert len(texts) == 1000, name
        assert len({i.item_id for i in items}) == 1000


def test_default_designs_are_additive(default_build):
    results, manifest = default_build
    shares = {name: stats["additive_share"] for name, stats in manifest["paradigms"].items()}
    assert sum(share == 1.0 for share in shares.values()) >= 3, shares
    assert all(share == 1.0 for share in shares.values()), shares


def test_unigram_scorer_gets_zero_dd_on_additive_items(default_build):
    results, _ = default_build
    for items in results.values():
        for item in items[:200]:
            s = {c: unigram_score(sentence.word_strings) for c, sentence in item.conditions.items()}
            dd = item.layout.contrast(s)  # DD for islands, the licensing interaction for filler_gap
            if item.additive:
                assert abs(dd) < 1e-9, (item.item_id, dd)


def test_no_content_lemma_in_more_than_5_percent_of_items(default_build):
    results, manifest = default_build
    for name, items in results.items():
        usage = manifest["paradigms"][name]["lemma_usage"]
        assert usage["max_share"] <= 0.05, (name, usage)
        counts = Counter(lemma for i in items for slot, lemma in i.lexical.items() if slot != "conn")
        assert max(counts.values()) <= 50, (name, counts.most_common(3))


def test_independent_checker_passes_on_the_full_build(default_build, lexicon):
    results, _ = default_build
    paradigms = load_paradigms(GRAMMAR_DIR)
    problems = []
    for items in results.values():
        for item in items:
            problems += check_item_format(item)
            problems += check_item_restrictions(item, paradigms, lexicon)
    assert not problems, problems[:10]


def test_violation_is_the_only_ungrammatical_condition(default_build):
    results, _ = default_build
    for items in results.values():
        for item in items[:20]:
            flags = [s.grammatical for s in item.conditions.values()]
            expected = [True, True, True, False] if item.design == "island" else [True, False, False, True]
            assert flags == expected


def test_long_conditions_mark_their_gap_with_an_empty_region(default_build):
    results, _ = default_build
    for name, items in results.items():
        if items[0].design != "island":
            continue  # filler_gap: its gap cells are tested in test_suite_format.py
        for item in items[:50]:
            for condition in ("long_nonisland", "long_island"):
                gaps = [r for r in item.conditions[condition].regions if r.name == "gap"]
                assert len(gaps) == 1 and gaps[0].start == gaps[0].end, (item.item_id, condition)
            if not name.startswith("subject_island"):  # there the short rows have a gap too (object gap)
                assert not any(r.name == "gap" for r in item.conditions["short_nonisland"].regions)


def test_manifest_reports_balance(default_build):
    _, manifest = default_build
    assert manifest["seed"] == 0 and manifest["command"].startswith("gen build")
    assert any(key == "lexicon/it/nouns.csv" for key in manifest["files"])
    for stats in manifest["paradigms"].values():
        assert set(stats["conditions"]) == set(CONDITIONS if stats["design"] == "island" else FILLER_GAP.conditions)
        assert stats["capacity"] >= 1000
        assert 0 < stats["mean_content_overlap"] <= 1


def test_same_seed_same_bytes_other_seed_other_items(tmp_path):
    outputs = []
    for run, seed in enumerate((3, 3, 4)):
        results, manifest = build_suite(BuildRequest("whether", 200, seed), LEXICON_DIR, GRAMMAR_DIR)
        write_suite(tmp_path / str(run), results, manifest)
        outputs.append({p.name: p.read_bytes() for p in sorted((tmp_path / str(run)).iterdir())})
    assert outputs[0] == outputs[1]
    assert outputs[0]["whether_island.jsonl"] != outputs[2]["whether_island.jsonl"]


def test_asking_for_more_than_the_capacity_names_the_maximum():
    with pytest.raises(BuildError, match=r"the maximum is [\d]+ distinct items"):
        build_suite(BuildRequest("whether", 10**12, 0), LEXICON_DIR, GRAMMAR_DIR)


def test_vary_builds_item_matched_sets():
    results, _ = build_suite(BuildRequest("whether", 50, 0, vary="subject_type"), LEXICON_DIR, GRAMMAR_DIR)
    items = results["whether_island"]
    assert len(items) == 150
    sets = {}
    for item in items:
        sets.setdefault(item.matched_set, []).append(item)
    assert len(sets) == 50
    for members in sets.values():
        assert sorted(i.variant["subject_type"] for i in members) == ["name", "noun", "pronoun"]
        shared = [{k: v for k, v in i.lexical.items() if k != "esubj"} for i in members]
        assert all(s == shared[0] for s in shared), shared
        assert len({i.lexical["esubj"] for i in members}) == 3


def test_fixed_level_is_applied():
    results, _ = build_suite(BuildRequest("complex_np", 30, 0, levels=(("filler", "dlinked"),)), LEXICON_DIR, GRAMMAR_DIR)
    for item in results["complex_np_island"]:
        assert item.conditions["long_island"].text.lower().startswith(("quale ", "quali "))
        assert item.variant["filler"] == "dlinked"


def test_shipped_default_suite_is_current(default_build, tmp_path):
    """generated/ holds exactly what `gen build` writes today (regenerate it when this fails)."""
    from generator.paths import GENERATED_DIR
    shipped = GENERATED_DIR / "italian_islands"
    assert shipped.is_dir(), "run: gen build --phenomenon all --n 1000 --seed 0"
    results, manifest = default_build
    write_suite(tmp_path / "fresh", results, manifest)
    for path in sorted((tmp_path / "fresh").iterdir()):
        assert (shipped / path.name).read_bytes() == path.read_bytes(), path.name
    assert {p.name for p in paradigm_files(shipped)} == {f"{p}.jsonl" for p in PARADIGMS}
    assert json.loads((shipped / "manifest.json").read_text())["paradigms"].keys() == PARADIGMS
    assert sum(1 for _ in read_items(shipped / "whether_island.jsonl")) == 1000


def test_vary_across_all_paradigms_builds_those_that_have_the_factor():
    results, manifest = build_suite(BuildRequest("all", 10, 0, vary="filler"), LEXICON_DIR, GRAMMAR_DIR)
    wh = {"whether_island", "complex_np_island", "subject_island", "adjunct_island_conditional",
          "adjunct_island_temporal", "filler_gap"}
    assert set(results) == wh  # every wh paradigm has a bare and a D-linked filler, no rc paradigm has one
    # Crossing two factors: each paradigm varies those it has (rc: gap alone; subject: filler alone).
    results, manifest = build_suite(BuildRequest("all", 6, 0, vary=("filler", "gap")), LEXICON_DIR, GRAMMAR_DIR)
    assert set(results) == set(PARADIGMS) - {"subject_island_rc"}
    assert manifest["vary"] == ["filler", "gap"]
    assert manifest["paradigms"]["whether_island_rc"]["vary"] == ["gap"]
    assert manifest["paradigms"]["subject_island"]["vary"] == ["filler"]
    assert [i.item_id for i in results["whether_island"][:4]] == [
        f"whether_island-00000-{f}-{g}" for f in ("bare", "dlinked") for g in ("gap", "resumptive")]
    for name, items in results.items():
        sets = {}
        for item in items:
            sets.setdefault(item.matched_set, []).append(item)
        assert all(len(s) == (4 if len(manifest["paradigms"][name]["vary"]) == 2 else 2) for s in sets.values()), name
        assert len(sets) == 6 and all(item.additive for item in items), name
    with pytest.raises(BuildError, match="no paradigm of 'all' has the variant factor"):
        build_suite(BuildRequest("all", 10, 0, vary="colour"), LEXICON_DIR, GRAMMAR_DIR)


def test_published_2sg_design_is_flagged_non_additive():
    results, manifest = build_suite(BuildRequest("whether", 40, 0, levels=(("matrix", "pro_2sg"),)),
                                    LEXICON_DIR, GRAMMAR_DIR)
    assert manifest["paradigms"]["whether_island"]["additive_share"] == 0.0
    for item in results["whether_island"]:
        assert item.residual and not item.additive
        assert item.conditions["long_nonisland"].text.split()[1].endswith("i")  # 2sg: pensi, dici, …
