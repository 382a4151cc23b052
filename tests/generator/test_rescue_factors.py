"""The factors that may rescue an island (grammar README, `filler` and `gap`): item-matched,
additive at every level, and each level differing from the reference only where it should."""

import re

import pytest

from generator.build import BuildRequest, build_suite, write_suite
from generator.lexicon import load_lexicon
from generator.paths import GRAMMAR_DIR, LEXICON_DIR

RESUMPTIVE_PARADIGMS = ("whether_island", "complex_np_island", "adjunct_island_conditional", "adjunct_island_temporal",
                        "whether_island_rc", "complex_np_island_rc", "adjunct_island_conditional_rc",
                        "adjunct_island_temporal_rc")
CLITIC = re.compile(r"^(l'|lo |la )")


@pytest.fixture(scope="module")
def crossed():
    return build_suite(BuildRequest("all", 40, 7, vary=("filler", "gap")), LEXICON_DIR, GRAMMAR_DIR)


def _sets(items):
    sets: dict[str, dict[tuple, object]] = {}
    for item in items:
        sets.setdefault(item.matched_set, {})[tuple(sorted(item.variant.items()))] = item
    return sets


def _region(sentence, name):
    return next(sentence.text[r.start:r.end] for r in sentence.regions if r.name == name)


def test_every_level_is_additive_and_matched(crossed):
    results, manifest = crossed
    assert set(results) >= set(RESUMPTIVE_PARADIGMS) | {"subject_island", "filler_gap"}
    for name, items in results.items():
        assert all(item.additive for item in items), name
        for members in _sets(items).values():
            cells = 2 ** len(manifest["paradigms"][name]["vary"])
            assert len(members) == cells, name
            shared = [item.lexical for item in members.values()]
            # the same lexical item at every level; a level may add a slot (the D-linked noun)
            for lexical in shared:
                common = set(lexical) & set(shared[0])
                assert {k: lexical[k] for k in common} == {k: shared[0][k] for k in common}, name


def test_a_resumptive_clitic_takes_the_gap_and_agrees_with_the_filler(crossed):
    results, _ = crossed
    lexicon = load_lexicon(LEXICON_DIR)
    for name in RESUMPTIVE_PARADIGMS:
        for item in results[name]:
            if item.variant["gap"] != "resumptive":
                continue
            rc = name.endswith("_rc")
            head = lexicon.entry("nouns", item.lexical["object"])
            feminine = (rc or item.variant["filler"] == "dlinked") and head.feature("gender") == "f"
            for condition in ("long_nonisland", "long_island"):
                sentence = item.conditions[condition]
                verb = _region(sentence, "verb")
                assert CLITIC.match(verb), (item.item_id, verb)
                # the participle agrees with the clitic: feminine after a feminine head or
                # D-linked noun, masculine after bare cosa (Cosa … l'ha riparato?)
                assert verb.endswith("a") == feminine, (item.item_id, verb)
                assert _region(sentence, "gap") == ""  # the extraction site stays marked
            for condition in ("short_nonisland", "short_island"):
                assert not CLITIC.match(_region(item.conditions[condition], "verb"))


def test_levels_differ_only_where_the_factor_acts(crossed):
    results, _ = crossed
    for name in RESUMPTIVE_PARADIGMS:
        for members in _sets(results[name]).values():
            by_gap = {}
            for key, item in members.items():
                by_gap.setdefault(dict(key).get("filler", ""), {})[dict(key)["gap"]] = item
            for pair in by_gap.values():
                gap, resumptive = pair["gap"], pair["resumptive"]
                for condition in ("short_nonisland", "short_island"):  # no long dependency: untouched
                    assert gap.conditions[condition].text == resumptive.conditions[condition].text
                for condition in ("long_nonisland", "long_island"):
                    a, b = gap.conditions[condition], resumptive.conditions[condition]
                    assert [_region(a, r.name) for r in a.regions if r.name != "verb"] == \
                           [_region(b, r.name) for r in b.regions if r.name != "verb"], name


def test_d_linked_fillers_of_the_subject_island_and_the_baseline(crossed):
    results, _ = crossed
    for members in _sets(results["subject_island"]).values():
        bare, dlinked = members[(("filler", "bare"), ("possessor_type", "noun"))], \
            members[(("filler", "dlinked"), ("possessor_type", "noun"))]
        for condition in ("short_nonisland", "long_nonisland"):  # whole-NP rows are D-linked already
            assert bare.conditions[condition].text == dlinked.conditions[condition].text
        wh = dlinked.lexical["wh_possessor"]
        assert wh != dlinked.lexical["possessor"]
        for condition in ("short_island", "long_island"):
            assert _region(bare.conditions[condition], "filler") == "Di chi"  # capitalised: it opens the sentence
            assert _region(dlinked.conditions[condition], "filler") == f"Di quale {wh}"
    for members in _sets(results["filler_gap"]).values():
        by_filler = {dict(k)["filler"]: item for k, item in members.items()}
        bare, dlinked = by_filler["bare"], by_filler["dlinked"]
        wh = dlinked.lexical["wh_object"]
        assert wh != dlinked.lexical["object"]
        for condition in ("that_nogap", "that_gap"):
            assert bare.conditions[condition].text == dlinked.conditions[condition].text
        for condition in ("wh_nogap", "wh_gap"):
            assert _region(bare.conditions[condition], "filler") == "cosa"
            assert _region(dlinked.conditions[condition], "filler") == f"quale {wh}"


def test_the_crossed_build_is_byte_identical_per_seed(crossed, tmp_path):
    results, manifest = crossed
    again, manifest_again = build_suite(BuildRequest("all", 40, 7, vary=("filler", "gap")), LEXICON_DIR, GRAMMAR_DIR)
    write_suite(tmp_path / "a", results, manifest)
    write_suite(tmp_path / "b", again, manifest_again)
    for path in sorted((tmp_path / "a").iterdir()):
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes(), path.name


def test_a_factor_named_twice_or_both_varied_and_fixed_is_refused():
    from generator.build import BuildError

    with pytest.raises(BuildError, match="names a factor twice"):
        BuildRequest("all", 5, 0, vary=("gap", "gap"))
    with pytest.raises(BuildError, match="both varied .--vary. and fixed"):
        build_suite(BuildRequest("whether", 5, 0, vary=("gap",), levels=(("gap", "resumptive"),)),
                    LEXICON_DIR, GRAMMAR_DIR)


def test_a_level_may_require_another_factors_level(tmp_path):
    from generator.build import BuildError
    from generator.grammar import GrammarError, load_paradigm

    results, manifest = build_suite(BuildRequest("whether", 30, 1, vary=("gap",)), LEXICON_DIR, GRAMMAR_DIR)
    for name in ("whether_island", "whether_island_rc"):
        # an indicative se-clause made complete by the clitic could be a conditional adjunct
        assert {item.variant["mood"] for item in results[name]} == {"subjunctive"}, name
        assert all(item.additive for item in results[name])
    default, _ = build_suite(BuildRequest("whether", 60, 1), LEXICON_DIR, GRAMMAR_DIR)
    assert {item.variant["mood"] for item in default["whether_island"]} == {"subjunctive", "indicative"}
    with pytest.raises(BuildError, match="no combination of levels allows gap=resumptive, mood=indicative"):
        build_suite(BuildRequest("whether", 5, 0, levels=(("gap", "resumptive"), ("mood", "indicative"))),
                    LEXICON_DIR, GRAMMAR_DIR)
    path = tmp_path / "whether_island.yaml"
    path.write_text((GRAMMAR_DIR / "it" / "whether_island.yaml").read_text().replace(
        "requires: {mood: subjunctive}", "requires: {mood: conditional}"))
    with pytest.raises(GrammarError, match=r"gap.levels.resumptive.requires.mood.*'conditional' is not a level"):
        load_paradigm(path)
