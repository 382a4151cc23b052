"""Fixture suites for the interop tests: small, realistic Italian items built by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.suite import CONDITIONS, Item, Region, Sentence, write_items
from generator.words import condition_residual, word_spans

SUBJECTS = ["Gianni", "Luisa", "il medico", "l'avvocata"]
EVENTS = [("abbia riscosso", "il pagamento"), ("abbia firmato", "il contratto"),
          ("abbia spedito", "la lettera"), ("abbia venduto", "la casa")]


def sentence(pieces: list[tuple[str, str]], grammatical: bool = True) -> Sentence:
    """Text and regions from (region, text) pieces: one space between pieces, none before
    punctuation, and an empty piece (a gap) sits at the end of the text so far."""
    text, regions = "", []
    for name, piece in pieces:
        if piece and text and piece not in ("?", "."):
            text += " "
        start = len(text)
        text += piece
        regions.append(Region(name, start, len(text)))
    return Sentence(text, grammatical, tuple(regions), tuple(word_spans(text)))


def item(item_id: str, paradigm: str, conditions: dict[str, list[tuple[str, str]]], **variant: str) -> Item:
    sentences = {c: sentence(conditions[c], c != "long_island") for c in CONDITIONS}
    res = condition_residual({c: s.text for c, s in sentences.items()})
    return Item(item_id, paradigm, "wh", dict(variant), {}, not res, sentences, residual=tuple(res))


def whether_item(n: int) -> Item:
    subject = SUBJECTS[n % 4]
    verb, obj = EVENTS[(n // 4 + n) % 4]
    matrix_subject = ["Maria", "Paolo"][n % 2]
    return item(f"whether_island-{n:05d}", "whether_island", {
        "short_nonisland": [("filler", "Chi"), ("matrix", "pensa"), ("complementizer", "che"),
                            ("subject", subject), ("verb", verb), ("object", obj), ("end", "?")],
        "long_nonisland": [("filler", "Cosa"), ("matrix", f"pensa {matrix_subject}"), ("complementizer", "che"),
                           ("subject", subject), ("verb", verb), ("gap", ""), ("end", "?")],
        "short_island": [("filler", "Chi"), ("matrix", "si domanda"), ("complementizer", "se"),
                         ("subject", subject), ("verb", verb), ("object", obj), ("end", "?")],
        "long_island": [("filler", "Cosa"), ("matrix", f"si domanda {matrix_subject}"), ("complementizer", "se"),
                        ("subject", subject), ("verb", verb), ("gap", ""), ("end", "?")],
    }, subject_type="name" if n % 4 < 2 else "common_noun")


def complex_np_item(n: int) -> Item:
    verb = ["smentito", "confermato", "riferito", "diffuso"][n % 4]
    head = ["la voce", "la notizia", "l'ipotesi", "l'affermazione"][n % 4]
    return item(f"complex_np_island-{n:05d}", "complex_np_island", {
        "short_nonisland": [("filler", "Chi"), ("matrix", f"ha {verb}"), ("complementizer", "che"),
                            ("subject", "l'agenzia"), ("verb", "avesse diffuso"), ("object", "il comunicato"), ("end", "?")],
        "long_nonisland": [("filler", "Cosa"), ("matrix", f"hai {verb}"), ("complementizer", "che"),
                           ("subject", "l'agenzia"), ("verb", "avesse diffuso"), ("gap", ""), ("end", "?")],
        "short_island": [("filler", "Chi"), ("matrix", f"ha {verb}"), ("island_head", head), ("complementizer", "che"),
                         ("subject", "l'agenzia"), ("verb", "avesse diffuso"), ("object", "il comunicato"), ("end", "?")],
        "long_island": [("filler", "Cosa"), ("matrix", f"hai {verb}"), ("island_head", head), ("complementizer", "che"),
                        ("subject", "l'agenzia"), ("verb", "avesse diffuso"), ("gap", ""), ("end", "?")],
    }, filler="bare")


def subject_item(n: int) -> Item:
    noun = ["direttore", "sindaco", "ministro", "presidente"][n % 4]
    return item(f"subject_island-{n:05d}", "subject_island", {
        "short_nonisland": [("filler", "Chi"), ("matrix", "pensi"), ("complementizer", "che"),
                            ("subject", f"il {noun}"), ("verb", "abbia criticato"), ("gap", ""), ("end", "?")],
        "long_nonisland": [("filler", "Chi"), ("matrix", "pensi"), ("complementizer", "che"), ("gap", ""),
                           ("verb", "abbia criticato"), ("object", f"il {noun}"), ("end", "?")],
        "short_island": [("filler", "Di chi"), ("matrix", "pensi"), ("complementizer", "che"),
                         ("subject", f"l'articolo del {noun}"), ("verb", "abbia causato"),
                         ("object", "l'irritazione"), ("gap", ""), ("end", "?")],
        "long_island": [("filler", "Di chi"), ("matrix", "pensi"), ("complementizer", "che"), ("subject", "l'articolo"),
                        ("gap", ""), ("verb", "abbia causato"), ("object", f"l'irritazione del {noun}"), ("end", "?")],
    })


def write_suite(root: Path, paradigms: dict[str, list[Item]], manifest: dict | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, items in paradigms.items():
        write_items(root / f"{name}.jsonl", items)
    if manifest is not None:
        (root / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return root


MANIFEST = {
    "generator_version": "0.1.0",
    "seed": 13,
    "command": "gen build --suite fixture --seed 13",
    "files": {"lexicon/nouns.csv": "a" * 64, "lexicon/names.csv": "b" * 64, "grammar/whether_island.yaml": "c" * 64},
    "paradigms": {},
}


@pytest.fixture
def suite_dir(tmp_path: Path) -> Path:
    return write_suite(tmp_path / "fixture_suite", {
        "whether_island": [whether_item(n) for n in range(8)],
        "complex_np_island": [complex_np_item(n) for n in range(4)],
        "subject_island": [subject_item(n) for n in range(4)],
    }, MANIFEST)
