"""Italian: the lexicon's columns (lexicon_schema), the morphology (morphology) and the
filters the templates call (templates)."""

from __future__ import annotations

from .. import Language
from ..columns import closed
from . import lexicon_schema as schema
from .morphology import agree_participle, definite_article


def _derived_features(table: str, forms, cells) -> dict:
    """The singular definite article of a noun, as a feature: slots can be asked to share it."""
    if table != "nouns":
        return {}
    gender = "f" if cells.get("gender") == "f" else "m"
    return {"det": frozenset([definite_article(forms["lemma"][0], gender, "sg", cells.get("article", ""))])}


def _surface_forms(entry) -> set[str]:
    """Every form of an entry, with the four agreeing forms of a participle."""
    forms = {f for column in entry.forms.values() for f in column}
    if "part" in entry.forms:
        forms |= {agree_participle(entry.form("part"), g, n) for g in "mf" for n in ("sg", "pl")}
    return forms


def _filters(lexicon):
    from .templates import filters  # the templates module needs the lexicon's types: loaded late
    return filters(lexicon)


LANGUAGE = Language(
    code="it", name="italian", wordfreq="it",
    tables=schema.TABLES, required_when=schema.REQUIRED_WHEN, implicit_features=schema.IMPLICIT_FEATURES,
    reference_features={"person": closed("1", "2", "3"), "number": closed("sg", "pl"),
                        "det": closed("il", "lo", "la", "l'")},
    derived_features=_derived_features, surface_forms=_surface_forms, filters=_filters,
)
