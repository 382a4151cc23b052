"""The English templates' filters (grammar/README.md): noun phrases with the right article,
and the verb forms the designs use (base, 3sg present, past, past participle)."""

from __future__ import annotations

from typing import Callable

from generator.filler import Filler
from generator.lexicon import Lexicon

from . import morphology as m


def _form(x: Filler, column: str, rule: Callable[[str], str]) -> str:
    forms = x.entry.forms.get(column)
    return forms[0] if forms else rule(x.entry.lemma)


def plural(x: Filler) -> str:
    return _form(x, "plural", m.plural)


def third(v: Filler) -> str:
    return _form(v, "third", m.third_singular)


def past(v: Filler) -> str:
    return _form(v, "past", m.regular_past)


def participle(v: Filler) -> str:
    forms = v.entry.forms.get("participle")
    return forms[0] if forms else past(v)


def filters(lexicon: Lexicon) -> dict[str, Callable[..., str]]:
    """The filters the English templates call."""

    def np(x: Filler) -> str:
        """`the` + a common noun; a name as it is."""
        return f"the {x.lemma}" if x.entry.table == "nouns" else x.lemma

    def indef(x: Filler) -> str:
        return f"{m.indefinite_article(x.lemma, x.entry.feature('article'))} {x.lemma}"

    def which(x: Filler) -> str:
        return f"which {x.lemma}"

    def base(v: Filler) -> str:
        return v.lemma

    return dict(np=np, indef=indef, which=which, plural=plural, base=base, third=third, past=past,
                participle=participle)


def surface_forms(entry) -> set[str]:
    """Every form of an entry the templates can write."""
    x = Filler(entry)
    forms = {entry.lemma}
    if entry.table == "nouns":
        forms.add(plural(x))
    if entry.table == "verbs":
        forms |= {third(x), past(x), participle(x)}
    return forms
