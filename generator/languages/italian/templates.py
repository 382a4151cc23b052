"""The Italian templates' filters: articles, articulated prepositions, agreement, compound
tenses with auxiliary selection, reflexive and resumptive clitics (grammar/README.md)."""

from __future__ import annotations

from typing import Callable

from generator.filler import Filler, TemplateError
from generator.lexicon import Lexicon

from . import morphology as m


def _reflexive(v: Filler) -> bool:
    return v.entry.table == "verbs" and v.entry.lemma.endswith("rsi")


def _person(subject: Filler | str) -> tuple[str, str]:
    if isinstance(subject, Filler):
        return subject.person, subject.number
    text = str(subject)
    if len(text) != 3 or text[0] not in "123" or text[1:] not in ("sg", "pl"):
        raise TemplateError(f"a verb's subject is a slot or a person like '3sg', not {text!r}")
    return text[0], text[1:]


def _gender(subject: Filler | str) -> str:
    return subject.gender if isinstance(subject, Filler) else "m"


def _agreement(antecedent: Filler | str) -> tuple[str, str]:
    """Gender and number a resumptive clitic takes from its antecedent: a noun slot, or a
    code for a bare wh-word ('msg': cosa is masculine singular)."""
    if isinstance(antecedent, Filler):
        return antecedent.gender, antecedent.number
    text = str(antecedent)
    if len(text) != 3 or text[0] not in "mf" or text[1:] not in ("sg", "pl"):
        raise TemplateError(f"a resumptive clitic agrees with a slot or a code like 'msg' or 'fpl', not {text!r}")
    return text[0], text[1:]


def filters(lexicon: Lexicon) -> dict[str, Callable[..., str]]:
    """The filters the Italian templates call (grammar/README.md lists them)."""
    auxiliaries = {e.lemma: e for e in lexicon.table("verbs") if e.has("roles", "auxiliary")}

    def noun(x: Filler, number: str = "sg") -> str:
        return x.entry.form("plural") if number == "pl" else x.entry.lemma

    def article(x: Filler, number: str = "sg") -> str:
        return m.definite_article(noun(x, number), x.gender, number, x.entry.feature("article"))

    def det(x: Filler, number: str = "sg") -> str:
        return m.join(article(x, number), noun(x, number))

    def np(x: Filler) -> str:
        """Definite NP for a common noun; the bare form for a name or a pronoun."""
        return det(x) if x.entry.table == "nouns" else x.lemma

    def indef(x: Filler) -> str:
        return m.join(m.indefinite_article(x.lemma, x.gender), x.lemma)

    def prep(x: Filler, preposition: str) -> str:
        if x.entry.table != "nouns":
            return f"{preposition} {x.lemma}"
        return m.join(m.articulated(preposition, article(x)), noun(x))

    def which(x: Filler, number: str = "sg") -> str:
        return f"{'quale' if number == 'sg' else 'quali'} {noun(x, number)}"

    def finite(v: Filler, tense: str, subject: Filler | str, resume: Filler | str | None = None) -> str:
        person, number = _person(subject)
        form = v.entry.forms[tense][m.person_index(person, number)]
        if resume is not None:
            return _with_clitic(v, resume, lambda gender, number_: form)
        return f"{m.reflexive_clitic(person, number)} {form}" if _reflexive(v) else form

    def participle(v: Filler, subject: Filler | str) -> str:
        part = v.entry.form("part")
        if v.entry.feature("aux") == "essere" or _reflexive(v):
            person, number = _person(subject)
            return m.agree_participle(part, _gender(subject), number)
        return part

    def perfect(v: Filler, aux_tense: str, subject: Filler | str, resume: Filler | str | None = None) -> str:
        """Compound tense: auxiliary (avere/essere, as the lexicon says) + participle. With
        `resume`, a resumptive object clitic agreeing with it precedes the auxiliary and the
        participle agrees with the clitic, as Italian wants under avere (l'ha riparata)."""
        aux = Filler(auxiliaries["essere" if _reflexive(v) else v.entry.feature("aux")])
        person, number = _person(subject)
        aux_form = aux.entry.forms[aux_tense][m.person_index(person, number)]
        if resume is not None:
            return _with_clitic(v, resume, lambda gender, number_:
                                f"{aux_form} {m.agree_participle(v.entry.form('part'), gender, number_)}")
        clitic = f"{m.reflexive_clitic(person, number)} " if _reflexive(v) else ""
        return f"{clitic}{aux_form} {participle(v, subject)}"

    def clause_verb(v: Filler, connective: Filler, subject: Filler | str, resume: Filler | str | None = None) -> str:
        """The form a connective's clause needs, from its `mood` (ind, subj) and `tense`
        (pres, impf: simple; perf, pluperf: the auxiliary in the present or the imperfect)."""
        mood, tense = connective.entry.feature("mood"), connective.entry.feature("tense")
        if tense in ("perf", "pluperf"):
            return perfect(v, f"{'pres' if tense == 'perf' else 'impf'}_{mood}", subject, resume)
        return finite(v, f"{tense}_{mood}", subject, resume)

    def _with_clitic(v: Filler, resume: Filler | str, verb_form) -> str:
        """The resumptive clitic (agreeing with `resume`) + the verb form built for that agreement."""
        if _reflexive(v) or v.entry.feature("aux") == "essere":
            raise TemplateError(f"a resumptive clitic needs a transitive verb with avere, not {v.lemma!r}")
        gender, number = _agreement(resume)
        form = verb_form(gender, number)
        return m.object_clitic(gender, number, form) + form  # the clitic carries its own separator

    return dict(noun=noun, article=article, det=det, np=np, indef=indef, prep=prep,
                which=which, verb=finite, participle=participle, perfect=perfect,
                clause_verb=clause_verb)
