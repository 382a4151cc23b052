"""The properties that keep violations free of acceptable readings and items free of
repeats: lexicon columns, their validation, and what the default build draws from them."""

import csv
import dataclasses
from collections import Counter
from itertools import combinations

import pytest

from generator.build import BuildRequest, build_suite
from generator.checks import check_item_restrictions, repeated_sentences
from generator.grammar import load_paradigms
from generator.lexicon import LexiconError, load_lexicon
from generator.paths import GRAMMAR_DIR, LEXICON_DIR
from generator.suite import CONDITIONS


def _clear_cell(path, lemma: str, column: str) -> int:
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    col = rows[0].index(column)
    index = next(i for i, r in enumerate(rows) if r[0] == lemma)
    rows[index][col] = ""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    return index + 1


@pytest.mark.parametrize("table, lemma, column, condition", [
    ("verbs", "riparare", "absolute_use", "roles=transitive"),
    ("verbs", "uscire", "cosa_why", "roles=host"),
    ("verbs", "pensare", "proleptic_di", "roles=bridge"),
    ("nouns", "reazione", "gradable", "count=count"),
    ("nouns", "voce", "trivial_content", "classes=info"),
])
def test_a_parse_blocking_column_left_empty_is_named(lexicon_copy, table, lemma, column, condition):
    line = _clear_cell(lexicon_copy / f"{table}.csv", lemma, column)
    with pytest.raises(LexiconError, match=rf"{table}.csv:{line}: column {column}: empty, but every row "
                                           rf"with {condition} needs it"):
        load_lexicon(lexicon_copy)


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def test_names_one_letter_apart_share_a_family(lexicon):
    """The family column covers every near-identical pair (Paolo/Paola, Maria/Marta), so the
    grammar's `family!=` rule keeps them out of one item."""
    names = lexicon.table("names")
    assert lexicon.entry("names", "Gianni").feature("family") == lexicon.entry("names", "Giovanni").feature("family")
    for a, b in combinations(names, 2):
        if _edit_distance(a.lemma.lower(), b.lemma.lower()) <= 1:
            assert a.feature("family") == b.feature("family"), (a.lemma, b.lemma)


def test_two_names_of_an_item_are_never_one_family(default_build, lexicon):
    results, _ = default_build
    family = {n.lemma: n.feature("family") for n in lexicon.table("names")}
    checked = 0
    for items in results.values():
        for item in items:
            names = [lemma for slot, lemma in item.lexical.items() if slot in ("esubj", "msubj") and lemma in family]
            if len(names) == 2:
                checked += 1
                assert family[names[0]] != family[names[1]], item.item_id
    assert checked >= 3000  # whether and both adjunct paradigms


def test_no_sentence_repeats_within_a_paradigm(default_build):
    results, _ = default_build
    for name, items in results.items():
        counts = Counter(item.conditions[c].text for item in items for c in item.conditions)
        assert max(counts.values()) == 1, (name, counts.most_common(2))
        assert not repeated_sentences(items)


def test_matched_sets_may_share_sentences_but_sets_do_not():
    """Under --vary filler the short rows of a set are the same sentence (chi…); across
    sets nothing repeats."""
    results, _ = build_suite(BuildRequest("complex_np", 60, 3, vary="filler"), LEXICON_DIR, GRAMMAR_DIR)
    items = results["complex_np_island"]
    assert not repeated_sentences(items)
    sets = Counter(i.matched_set for i in items)
    assert len(sets) == 60 and set(sets.values()) == {2}


def test_checker_flags_a_repeated_sentence_and_a_name_family_clash(default_build, lexicon):
    items = default_build[0]["whether_island"][:3]
    copy = dataclasses.replace(items[1], item_id="whether_island-99999")
    problems = repeated_sentences([*items, copy])
    assert len(problems) == 4 and problems[0].startswith("whether_island-99999/short_nonisland: sentence already in")

    forged = dataclasses.replace(items[0], lexical={**items[0].lexical, "esubj": "Giovanni", "msubj": "Gianni"})
    problems = check_item_restrictions(forged, load_paradigms(GRAMMAR_DIR), lexicon)
    assert any("msubj=" in p and "family!=" in p for p in problems), problems


def test_default_build_draws_only_parse_safe_entries(default_build, lexicon):
    """What the readers found, ruled out in the output itself."""
    results, _ = default_build
    verb = lambda lemma: lexicon.entry("verbs", lemma)  # noqa: E731
    noun = lambda lemma: lexicon.entry("nouns", lemma)  # noqa: E731
    for name in ("whether_island", "complex_np_island", "adjunct_island_conditional", "adjunct_island_temporal"):
        for item in results[name]:
            assert verb(item.lexical["verb"]).feature("absolute_use") == "no", item.item_id  # no gapless clause
            # a past act, not a state (Chi comunica che Roberto ha detestato l'opuscolo?)
            assert verb(item.lexical["verb"]).feature("stative") == "no", item.item_id
    for item in results["whether_island"]:
        # expectation wants a coming event; the clause is a past act
        assert verb(item.lexical["bridge"]).feature("prospective") != "yes", item.item_id
    for name in ("adjunct_island_conditional", "adjunct_island_temporal"):
        for item in results[name]:
            host = verb(item.lexical["host"])
            assert (host.feature("cosa_why"), host.feature("se_complement"), host.feature("object")) == ("no", "no", "none")
            assert verb(item.lexical["verb"]).has("event_kind", host.feature("reacts_to")), item.item_id
            long_island = item.conditions["long_island"].text
            if name == "adjunct_island_conditional":
                # a future host before a past condition (Chi interverrà se Luisa ha ritirato…)
                future = host.form("fut", 2)
                assert all(f" {future} " in item.conditions[r].text for r in ("short_island", "long_island")), item.item_id
            else:  # told in the past: host and bridge in the present perfect, the same words in both rows
                for verb_slot, rows in (("host", ("short_island", "long_island")),
                                        ("bridge", ("short_nonisland", "long_nonisland"))):
                    participle = verb(item.lexical[verb_slot]).form("part", 0)
                    assert all(f" {participle} " in item.conditions[r].text for r in rows), item.item_id
                assert lexicon.entry("names", item.lexical["msubj"]).feature("gender") == "m", item.item_id
    for name in ("whether_island", "complex_np_island", "adjunct_island_conditional", "adjunct_island_temporal"):
        for item in results[name]:
            # a named person acts on it alone: no skyscraper, plane or ferry
            assert noun(item.lexical["object"]).feature("scale") != "large", item.item_id
    for item in results["adjunct_island_temporal"]:
        # each connective's tense: no one-off act in the simple present (Chi annuncia che Teresa allaga…)
        conn, part = item.lexical["conn"], verb(item.lexical["verb"]).form("part", 0)
        clause = item.conditions["short_island"].text.split(f" {conn} ", 1)[1]
        # no mentre or prima che: their imperfect reads as a habit or an act in progress
        # under the bridge verb (Chi ha pensato che Teresa sradicasse la quercia?)
        expected = {"quando": f" ha {part} ", "dopo che": f" aveva {part} "}[conn]
        assert expected in f" {clause} ", item.item_id
    for item in results["subject_island"]:
        assert lexicon.entry("predicates", item.lexical["pred"]).feature("proleptic_di") == "no"
        # epistemic (è probabile che), not evaluative (è normale che) about a past cause
        assert lexicon.entry("predicates", item.lexical["pred"]).feature("reading") == "epistemic"  # not è prevedibile / è realistico che (prospective)
        # a letter or a reply anyone may write, not a notary's song
        assert noun(item.lexical["subj_noun"]).feature("author") == "anyone", item.item_id
        assert noun(item.lexical["obj_noun"]).feature("count") == "count"  # Quale reazione, not Quale rabbia
        assert noun(item.lexical["obj_noun"]).feature("di_theme") == "no"  # not 'fear of whom'
    for item in results["adjunct_island_conditional"]:
        # a condition is answered by a disruptive or contestable act, never by a chore
        assert verb(item.lexical["host"]).feature("reacts_to") in ("disruptive", "contestable", "grave", "public"), item.item_id
        # a community's reaction (si mobilita, insorge) answers harm to a building, not a printer
        if verb(item.lexical["host"]).feature("reacts_to") == "public":
            assert "building" in noun(item.lexical["object"]).feature("classes").split(";"), item.item_id
        # se + the present perfect: the non-island twin reports a completed act, never a
        # one-off event in the present (… comunica che Paolo smarrisce il rapporto)
        participle = verb(item.lexical["verb"]).form("part", 0)
        assert f" ha {participle} " in item.conditions["short_nonisland"].text, item.item_id
        # a startle or a reaction on the spot answers an event as it happens, not a completed one
        assert item.lexical["host"] not in ("sobbalzare", "sussultare", "svegliarsi", "affacciarsi", "indietreggiare"), item.item_id
    for name in ("adjunct_island_conditional", "adjunct_island_temporal"):
        for item in results[name]:
            # a reaction in proportion: no food, drink, clothing or tool as what was harmed
            classes = set(noun(item.lexical["object"]).feature("classes").split(";"))
            assert not classes & {"food", "drink", "clothing", "tool", "plant"}, item.item_id
    for item in results["complex_np_island"]:
        # extraction from the non-island complement is clean: no factive or negative bridge
        assert verb(item.lexical["matrix"]).feature("weak_bridge") != "yes", item.item_id
        # the head cannot be the embedded verb's object, so `la N che X aveva V` has no
        # relative-clause reading (Cosa hai ripetuto la storia che Laura aveva ampliato?)
        assert verb(item.lexical["verb"]).feature("info_object") != "yes", item.item_id
        head = noun(item.lexical["head"])
        assert head.feature("trivial_content") == "yes"
        assert not ({"content", "document", "plan"} & set(head.feature("classes").split(";")))


def test_golden_first_items_of_seed_0(default_build):
    """The redesigned matrices, pinned: an impersonal predicate over the subject island,
    an intransitive event verb that answers the kind of act in its adjunct clause."""
    results, _ = default_build
    texts = lambda name: [results[name][0].conditions[c].text for c in CONDITIONS]  # noqa: E731
    assert texts("subject_island") == [
        "Quale delusione è probabile che la proposta del pittore abbia attenuato?",
        "Quale proposta è probabile che abbia attenuato la delusione del pittore?",
        "Di chi è probabile che la proposta del pittore abbia attenuato la delusione?",
        "Di chi è probabile che la proposta abbia attenuato la delusione del pittore?"]
    assert texts("adjunct_island_conditional")[2:] == [
        "Chi interverrà se Luisa ha ritirato il rapporto?", "Cosa interverrà Giovanni se Luisa ha ritirato?"]
    assert texts("whether_island")[3] == "Cosa si accerta Luisa se Michele ha incendiato?"
    assert texts("adjunct_island_temporal") == [
        "Chi ha annunciato che Luisa aveva rovesciato la pentola?", "Cosa ha annunciato Gianni che Luisa aveva rovesciato?",
        "Chi è fuggito dopo che Luisa aveva rovesciato la pentola?",
        "Cosa è fuggito Gianni dopo che Luisa aveva rovesciato?"]
