"""Languages: each is data (lexicon/<code>/, grammar/<code>/) plus one package here that
says what the engine cannot know from the data: the lexicon's columns, the morphology the
templates call as filters, and the word list of the syntax-blind baseline.

A third language is a folder under lexicon/ and grammar/ and a package here registered in
`LANGUAGES`; nothing else in the engine names a language."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .columns import Column

if TYPE_CHECKING:
    from generator.lexicon import Entry, Lexicon

# code -> the package that defines it (generator/languages/<package>/__init__.py: LANGUAGE)
LANGUAGES: dict[str, str] = {"it": "italian", "en": "english"}
DEFAULT_LANGUAGE = "it"
ALL = "all"


class UnknownLanguage(ValueError):
    """A language code with no package."""


@dataclass(frozen=True)
class Language:
    code: str                     # it, en: the folder under lexicon/ and grammar/
    name: str                     # italian, english: the suite names begin with it
    wordfreq: str                 # wordfreq's code for the unigram baseline and the Zipf column
    tables: Mapping[str, tuple[Column, ...]]
    filters: Callable[["Lexicon"], dict[str, Callable[..., Any]]]  # the templates' morphology
    surface_forms: Callable[["Entry"], set[str]]                    # every form of an entry (balance stats)
    required_when: Mapping[str, tuple[tuple[str, str, str], ...]] = field(default_factory=dict)
    implicit_features: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # features a restriction may name that are not columns (person, number, det…), with their values
    reference_features: Mapping[str, frozenset[str] | None] = field(default_factory=dict)
    derived_features: Callable[[str, Mapping[str, tuple[str, ...]], Mapping[str, str]], dict] = \
        lambda table, forms, cells: {}


def get_language(code: str) -> Language:
    if code not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {code!r}; choose one of: {', '.join(LANGUAGES)}")
    return importlib.import_module(f"{__name__}.{LANGUAGES[code]}").LANGUAGE


def language_codes(choice: str, grammar_root=None) -> list[str]:
    """`--language it|en|all` as the codes to build, in registry order. `all` is every language
    the grammar folder has a sub-folder for (a folder of one language's paradigm files, a
    linguist's copy, is the default language's)."""
    if choice == ALL:
        if grammar_root is None:
            return list(LANGUAGES)
        from pathlib import Path
        present = [code for code in LANGUAGES if (Path(grammar_root) / code).is_dir()]
        return present or [DEFAULT_LANGUAGE]
    get_language(choice)
    return [choice]
