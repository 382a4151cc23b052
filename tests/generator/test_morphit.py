"""Every inflected form in the lexicon lemmatizes to its own lemma under the Morph-it table
that spacy-lookups-data ships for Italian, or is a checked exception."""

import gzip
import json
import os
from functools import lru_cache

import spacy_lookups_data

TABLES = ("it_lemma_lookup_noun", "it_lemma_lookup_verb", "it_lemma_lookup_aux", "it_lemma_lookup")


def _repair(key: str) -> str:
    """Some keys of the packaged tables are UTF-8 read as Latin-1 (cittÃ\xa0 for città)."""
    try:
        return key.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return key


@lru_cache(maxsize=1)
def morphit() -> dict[str, set[str]]:
    folder = os.path.join(os.path.dirname(spacy_lookups_data.__file__), "data")
    out: dict[str, set[str]] = {}
    for name in TABLES:
        with gzip.open(os.path.join(folder, f"{name}.json.gz"), "rt", encoding="utf-8") as handle:
            for form, lemma in json.load(handle).items():
                out.setdefault(_repair(form), set()).add(_repair(lemma))
    return out


def morphit_lemma(lemma: str) -> str:
    """Morph-it lists reflexive verbs under the plain infinitive: domandarsi -> domandare,
    opporsi -> opporre (contracted infinitives in -orre, -urre keep their double r)."""
    if not lemma.endswith("rsi"):
        return lemma
    return lemma[:-3] + ("rre" if lemma[-4] in "ou" else "re")


def test_every_form_lemmatizes_to_its_lemma(lexicon):
    table = morphit()
    failures = []
    for name in ("nouns", "verbs"):
        for entry in lexicon.table(name):
            target = morphit_lemma(entry.lemma)
            forms = {f for column in entry.forms.values() for f in column}
            for form in sorted(forms):
                if target in table.get(form, set()) or target in table.get(form.lower(), set()):
                    continue
                if f"{form}\t{entry.lemma}" in lexicon.exceptions:
                    continue
                failures.append(f"{entry.source}: {form} -> {sorted(table.get(form, {'?'}))}, expected {target}")
    assert not failures, "\n".join(failures[:50])


def test_every_predicate_is_a_morphit_lemma(lexicon):
    """Impersonal predicates (è probabile che) are uninflected adjectives: each must be a Morph-it
    lemma (the table lists inflected forms, so the lemma is found among their lemmas)."""
    lemmas = set().union(*morphit().values())
    missing = [f"{e.source}: {e.lemma}" for e in lexicon.table("predicates") if e.lemma not in lemmas]
    assert not missing, missing


def test_exceptions_are_still_needed(lexicon):
    """An exception Morph-it now confirms is stale: delete it from lemma_exceptions.csv."""
    table = morphit()
    stale = [key for key in lexicon.exceptions
             if morphit_lemma(key.split("\t")[1]) in table.get(key.split("\t")[0], set())]
    assert not stale, stale
