"""English: the lexicon's columns (lexicon_schema), the morphology (morphology) and the
filters the templates call (templates)."""

from __future__ import annotations

from .. import Language
from ..columns import closed
from . import lexicon_schema as schema


def _filters(lexicon):
    from .templates import filters  # the templates module needs the lexicon's types: loaded late
    return filters(lexicon)


def _surface_forms(entry) -> set[str]:
    from .templates import surface_forms
    return surface_forms(entry)


LANGUAGE = Language(
    code="en", name="english", wordfreq="en",
    tables=schema.TABLES, required_when=schema.REQUIRED_WHEN, implicit_features=schema.IMPLICIT_FEATURES,
    reference_features={"person": closed("1", "2", "3"), "number": closed("sg", "pl")},
    surface_forms=_surface_forms, filters=_filters,
)
