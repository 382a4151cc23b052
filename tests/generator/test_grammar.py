"""Bad paradigm files and templates give one clear message naming the file and key."""

import pytest

from generator.build import BuildRequest, build_suite
from generator.grammar import GrammarError, load_paradigm
from generator.render import TemplateError, assemble
from generator.sampler import UnsatisfiableError


def _rewrite(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_unknown_table(grammar_copy):
    path = grammar_copy / "whether_island.yaml"
    _rewrite(path, "qverb: {table: verbs", "qverb: {table: verb")
    with pytest.raises(GrammarError, match=r"whether_island.yaml: slots.qverb.table: unknown table 'verb'"):
        load_paradigm(path)


def test_reference_to_a_later_slot(grammar_copy):
    path = grammar_copy / "subject_island.yaml"
    _rewrite(path, "{obj_noun.det}", "{possessor.det}")
    with pytest.raises(GrammarError, match=r"slots.subj_noun: refers to 'possessor', which is sampled later"):
        load_paradigm(path)


def test_missing_condition(grammar_copy):
    path = grammar_copy / "whether_island.yaml"
    _rewrite(path, "  long_island: >-", "  long_islnd: >-")
    with pytest.raises(GrammarError, match=r"conditions: the island design needs exactly .*missing \['long_island'\]"):
        load_paradigm(path)


def test_bad_formula_in_slot(grammar_copy):
    path = grammar_copy / "whether_island.yaml"
    _rewrite(path, 'where: "roles=bridge & trivial_content=yes', 'where: "roles bridge & trivial_content=yes')
    with pytest.raises(GrammarError, match=r"slots.bridge.where\[0\]"):
        load_paradigm(path)


def test_template_syntax_error_names_the_condition(grammar_copy, lexicon_copy):
    _rewrite(grammar_copy / "whether_island.yaml", "[filler: chi] [matrix: {{ bridge", "[filler: chi] [matrix: {{{ bridge")
    with pytest.raises(TemplateError, match=r"whether_island.yaml: conditions.short_nonisland: line 1"):
        build_suite(BuildRequest("whether", 5, 0), lexicon_copy, grammar_copy)


def test_undefined_variable_names_the_condition(grammar_copy, lexicon_copy):
    _rewrite(grammar_copy / "whether_island.yaml", "[subject: {{ esubj | np }}] [verb: {{ embedded }}] [object: {{ object | np }}] [end: ?]\n  long_nonisland",
             "[subject: {{ esubjj | np }}] [verb: {{ embedded }}] [object: {{ object | np }}] [end: ?]\n  long_nonisland")
    with pytest.raises(TemplateError, match=r"conditions.short_nonisland: 'esubjj' is undefined"):
        build_suite(BuildRequest("whether", 5, 0), lexicon_copy, grammar_copy)


def test_unsatisfiable_slot_is_found_before_sampling(grammar_copy, lexicon_copy):
    _rewrite(grammar_copy / "whether_island.yaml", 'qverb: {table: verbs, where: "roles=se_embed & trivial_content=yes"}',
             'qverb: {table: verbs, where: "roles=se_embed & roles=emotive & object=obligatory"}')
    with pytest.raises(UnsatisfiableError, match=r"slot 'qverb'.*no verbs entry satisfies"):
        build_suite(BuildRequest("whether", 5, 0), lexicon_copy, grammar_copy)


def test_unsatisfiable_dependency_names_the_slot(grammar_copy, lexicon_copy):
    # Objects that no transitive verb accepts: every verb loses its objects.
    _rewrite(grammar_copy / "whether_island.yaml",
             'object: {table: nouns, where: "classes!=human & classes!=animal & classes!=institution & scale!=large"}',
             'object: {table: nouns, where: "classes=human"}')
    with pytest.raises(UnsatisfiableError, match=r"slot '(verb|object)'"):
        build_suite(BuildRequest("whether", 5, 0), lexicon_copy, grammar_copy)


def test_extends_merges_slots(grammar_copy):
    paradigm = load_paradigm(grammar_copy / "adjunct_island_temporal.yaml")
    assert paradigm.slots["conn"].where == ("relation=when | relation=after",)
    assert "host" in paradigm.slots and paradigm.phenomenon == "adjunct"


@pytest.mark.parametrize("rendered,message", [
    ("[filler: chi] pensa [end: ?]", "outside a region mark"),
    ("[filer: chi] [end: ?]", "unknown region 'filer'"),
    ("[object:]", "empty sentence"),
])
def test_region_marks_are_checked(rendered, message):
    with pytest.raises(TemplateError, match=message):
        assemble(rendered, "x.yaml")


def test_assemble_joins_elision_and_punctuation():
    text, regions = assemble("[filler: chi] [matrix: pensa] [object: l'] [verb: avvocata] [object:] [end: ?]", "x")
    assert text == "Chi pensa l'avvocata?"
    assert [(r.name, text[r.start:r.end]) for r in regions] == [
        ("filler", "Chi"), ("matrix", "pensa"), ("object", "l'"), ("verb", "avvocata"), ("object", ""), ("end", "?")]
