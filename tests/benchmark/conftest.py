"""Shared fixtures: tiny models built once per session, hand-written fixture suites, and an
isolated cache directory."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DATA = Path(__file__).parent / "data"
_WORD = re.compile(r"[^\s'’.,;:?!…]+['’]?|['’]|[.,;:?!…]")
PUNCT = set(".,;:?!…")


def word_spans(text: str) -> list[list[int]]:
    return [[m.start(), m.end()] for m in _WORD.finditer(text)]


def sentence(segments: list[tuple[str, str]], grammatical: bool = True) -> dict:
    """A condition from (region name, text) segments: joined by spaces, punctuation attached,
    an empty segment is a zero-width region (a gap)."""
    text, regions = "", []
    for name, seg in segments:
        if seg and text and not set(seg) <= PUNCT:
            text += " "
        start = len(text)
        text += seg
        regions.append({"name": name, "start": start, "end": len(text)})
    return {"text": text, "grammatical": grammatical, "regions": regions, "words": word_spans(text)}


def whether_item(item_id: str, subj: str, verb: str, obj: str, variant: dict | None = None,
                 matched_set: str | None = None) -> dict:
    """An additive whether-island item: SN + LI and LN + SI have the same words."""
    sn = sentence([("filler", "Chi"), ("matrix", "pensa"), ("complementizer", "che"), ("subject", subj),
                   ("verb", verb), ("object", obj), ("end", "?")])
    ln = sentence([("filler", "Cosa"), ("matrix", "pensa"), ("complementizer", "che"), ("subject", subj),
                   ("verb", verb), ("gap", ""), ("end", "?")])
    si = sentence([("filler", "Chi"), ("matrix", "si domanda"), ("island_head", "se"), ("subject", subj),
                   ("verb", verb), ("object", obj), ("end", "?")])
    li = sentence([("filler", "Cosa"), ("matrix", "si domanda"), ("island_head", "se"), ("subject", subj),
                   ("verb", verb), ("gap", ""), ("end", "?")], grammatical=False)
    item = {"item_id": item_id, "paradigm": "whether_island", "dependency": "wh",
            "variant": variant or {"mood": "subjunctive"}, "lexical": {"embedded_subject": subj},
            "additive": True, "residual": []}
    if matched_set:
        item["matched_set"] = matched_set
    item["conditions"] = {"short_nonisland": sn, "long_nonisland": ln, "short_island": si, "long_island": li}
    return item


def adjunct_item(item_id: str, subj: str, obj: str) -> dict:
    """A non-additive adjunct-island item (different matrix material across conditions)."""
    sn = sentence([("filler", "Chi"), ("matrix", "dice che"), ("subject", subj), ("verb", "ha letto"),
                   ("object", obj), ("end", "?")])
    ln = sentence([("filler", "Cosa"), ("matrix", "dice che"), ("subject", subj), ("verb", "ha letto"),
                   ("gap", ""), ("end", "?")])
    si = sentence([("filler", "Chi"), ("matrix", "è partito dopo che"), ("subject", subj), ("verb", "ha letto"),
                   ("object", obj), ("end", "?")])
    li = sentence([("filler", "Cosa"), ("matrix", "è partito dopo che"), ("subject", subj), ("verb", "ha letto"),
                   ("gap", ""), ("end", "?")], grammatical=False)
    return {"item_id": item_id, "paradigm": "adjunct_island", "dependency": "wh", "variant": {},
            "lexical": {}, "additive": False, "residual": ["+dice", "-partito"],
            "conditions": {"short_nonisland": sn, "long_nonisland": ln, "short_island": si, "long_island": li}}


def write_suite(folder: Path, items: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    by_paradigm: dict[str, list[dict]] = {}
    for it in items:
        by_paradigm.setdefault(it["paradigm"], []).append(it)
    for paradigm, its in by_paradigm.items():
        (folder / f"{paradigm}.jsonl").write_text(
            "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in its), encoding="utf-8")
    (folder / "manifest.json").write_text("{}\n", encoding="utf-8")
    return folder


FIXTURE_ITEMS = [
    whether_item("whether_island-00001", "Gianni", "abbia riscosso", "il pagamento",
                 {"mood": "subjunctive", "subject_type": "name"}, "ms-1"),
    whether_item("whether_island-00002", "l'avvocato", "abbia firmato", "il contratto",
                 {"mood": "subjunctive", "subject_type": "np"}, "ms-1"),
    whether_item("whether_island-00003", "Maria", "ha letto", "la lettera", {"mood": "indicative"}),
    adjunct_item("adjunct_island-00001", "Luca", "il libro"),
    adjunct_item("adjunct_island-00002", "la nonna", "la relazione"),
]


@pytest.fixture(scope="session", autouse=True)
def isolated_cache(tmp_path_factory):
    os.environ["ISOLE_CACHE_DIR"] = str(tmp_path_factory.mktemp("isole_cache"))
    yield


@pytest.fixture(scope="session")
def fixture_suite(tmp_path_factory) -> Path:
    return write_suite(tmp_path_factory.mktemp("suites") / "fixture_suite", FIXTURE_ITEMS)


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory) -> dict[str, Path]:
    """Tiny BERT, RoBERTa and GPT-2 built on the fly (tokenizers trained now)."""
    import bench_tiny
    return bench_tiny.build(tmp_path_factory.mktemp("tiny"))


@pytest.fixture(scope="session")
def committed_tiny() -> dict[str, Path]:
    """The committed copies (the minicons golden values were computed on these)."""
    return {name: DATA / "tiny" / name for name in ("bert", "roberta", "gpt2")}


@pytest.fixture(scope="session")
def loaded(tiny_models):
    from benchmark import loading
    return {name: loading.load(str(path), "cpu", "fp32", log=lambda *a: None) for name, path in tiny_models.items()}
