"""Known-correct Italian forms, including the awkward cases of article allomorphy."""

import pytest

from generator.languages.italian import morphology as m

DEFINITE = [
    # word, gender, number, article
    ("libro", "m", "sg", "il"), ("libri", "m", "pl", "i"),
    ("studente", "m", "sg", "lo"), ("studenti", "m", "pl", "gli"),
    ("zaino", "m", "sg", "lo"), ("zaini", "m", "pl", "gli"),
    ("gnomo", "m", "sg", "lo"), ("gnomi", "m", "pl", "gli"),
    ("psicologo", "m", "sg", "lo"), ("psicologi", "m", "pl", "gli"),
    ("pneumatico", "m", "sg", "lo"), ("xilofono", "m", "sg", "lo"), ("yogurt", "m", "sg", "lo"),
    ("iato", "m", "sg", "lo"),
    ("albero", "m", "sg", "l'"), ("alberi", "m", "pl", "gli"),
    ("uomo", "m", "sg", "l'"), ("uomini", "m", "pl", "gli"),
    ("sindaco", "m", "sg", "il"), ("scontrino", "m", "sg", "lo"),
    ("sbaglio", "m", "sg", "lo"), ("spazio", "m", "sg", "lo"),
    ("sale", "m", "sg", "il"), ("suono", "m", "sg", "il"),
    ("casa", "f", "sg", "la"), ("case", "f", "pl", "le"),
    ("amica", "f", "sg", "l'"), ("amiche", "f", "pl", "le"),
    ("isola", "f", "sg", "l'"), ("università", "f", "sg", "l'"),
    ("zia", "f", "sg", "la"), ("stella", "f", "sg", "la"),
]


@pytest.mark.parametrize("word,gender,number,expected", DEFINITE)
def test_definite_article(word, gender, number, expected):
    assert m.definite_article(word, gender, number) == expected


def test_article_override_wins_in_the_singular():
    assert m.definite_article("hotel", "m", "sg", "l'") == "l'"
    assert m.definite_article("whisky", "m", "sg", "il") == "il"


INDEFINITE = [("libro", "m", "un"), ("albero", "m", "un"), ("studente", "m", "uno"), ("zaino", "m", "uno"),
              ("gnomo", "m", "uno"), ("psicologo", "m", "uno"), ("casa", "f", "una"), ("amica", "f", "un'"),
              ("stella", "f", "una"), ("idea", "f", "un'")]


@pytest.mark.parametrize("word,gender,expected", INDEFINITE)
def test_indefinite_article(word, gender, expected):
    assert m.indefinite_article(word, gender) == expected


ARTICULATED = [
    ("di", "il", "del"), ("di", "lo", "dello"), ("di", "l'", "dell'"), ("di", "la", "della"),
    ("di", "i", "dei"), ("di", "gli", "degli"), ("di", "le", "delle"),
    ("a", "il", "al"), ("a", "lo", "allo"), ("a", "l'", "all'"), ("a", "gli", "agli"), ("a", "le", "alle"),
    ("da", "il", "dal"), ("da", "gli", "dagli"), ("in", "il", "nel"), ("in", "la", "nella"),
    ("in", "gli", "negli"), ("su", "il", "sul"), ("su", "l'", "sull'"), ("su", "i", "sui"),
]


@pytest.mark.parametrize("prep,article,expected", ARTICULATED)
def test_articulated_prepositions(prep, article, expected):
    assert m.articulated(prep, article) == expected


def test_elided_forms_attach_without_a_space():
    assert m.join("l'", "avvocata") == "l'avvocata"
    assert m.join("dell'", "avvocato") == "dell'avvocato"
    assert m.join("un'", "amica") == "un'amica"
    assert m.join("lo", "zaino") == "lo zaino"


@pytest.mark.parametrize("part,gender,number,expected", [
    ("arrabbiato", "m", "sg", "arrabbiato"), ("arrabbiato", "f", "sg", "arrabbiata"),
    ("arrabbiato", "m", "pl", "arrabbiati"), ("arrabbiato", "f", "pl", "arrabbiate"),
    ("partito", "f", "sg", "partita"),
])
def test_participle_agreement(part, gender, number, expected):
    assert m.agree_participle(part, gender, number) == expected


def test_reflexive_clitics_by_person():
    assert [m.reflexive_clitic(p, n) for p, n in
            [("1", "sg"), ("2", "sg"), ("3", "sg"), ("1", "pl"), ("2", "pl"), ("3", "pl")]] == \
        ["mi", "ti", "si", "ci", "vi", "si"]


def test_unknown_articulated_combination_is_an_error():
    with pytest.raises(ValueError):
        m.articulated("per", "il")


RESUMPTIVE = [  # gender, number, the form it precedes, clitic with its separator
    ("m", "sg", "ha", "l'"), ("f", "sg", "abbia", "l'"), ("m", "sg", "aveva", "l'"), ("f", "sg", "hanno", "l'"),
    ("m", "sg", "ripara", "lo "), ("f", "sg", "ripara", "la "),
    ("m", "pl", "hanno", "li "), ("f", "pl", "avevano", "le "), ("f", "pl", "riparano", "le "),
]


@pytest.mark.parametrize("gender,number,before,expected", RESUMPTIVE)
def test_resumptive_clitics_elide_in_the_singular_only(gender, number, before, expected):
    assert m.object_clitic(gender, number, before) == expected


def test_resumptive_perfect_agrees_with_its_antecedent_under_avere():
    """The template filters: the clitic before the auxiliary, the participle agreeing with it
    (l'ha riparata), bare `cosa` masculine singular, a simple tense with a full clitic."""
    from generator.lexicon import load_lexicon
    from generator.paths import LEXICON_DIR
    from generator.render import Filler, TemplateError, make_environment

    lexicon = load_lexicon(LEXICON_DIR)
    env = make_environment(lexicon)
    verb = Filler(lexicon.entry("verbs", "riparare"))
    radio, monitor = Filler(lexicon.entry("nouns", "radio")), Filler(lexicon.entry("nouns", "monitor"))
    marta = Filler(lexicon.entry("names", "Marta"))

    def render(template: str, **scope) -> str:
        return env.from_string(template).render(v=verb, s=marta, **scope)

    assert render("{{ v | perfect('pres_ind', s, o) }}", o=radio) == "l'ha riparata"
    assert render("{{ v | perfect('pres_subj', s, o) }}", o=monitor) == "l'abbia riparato"
    assert render("{{ v | perfect('impf_ind', s, 'msg') }}") == "l'aveva riparato"
    assert render("{{ v | perfect('pres_ind', '3pl', 'fpl') }}") == "le hanno riparate"
    assert render("{{ v | verb('pres_ind', s, o) }}", o=radio) == "la ripara"
    assert render("{{ v | perfect('pres_ind', s) }}") == "ha riparato"  # no antecedent: no clitic
    with pytest.raises(Exception, match="a resumptive clitic agrees with a slot or a code"):
        render("{{ v | perfect('pres_ind', s, 'cosa') }}")
    reflexive = Filler(lexicon.entry("verbs", "domandarsi"))
    with pytest.raises(TemplateError, match="transitive verb with avere"):
        env.from_string("{{ v | perfect('pres_ind', s, 'msg') }}").render(v=reflexive, s=marta)
