"""What both import formats share: condition and island-type labels as the literature writes
them, mapped to ours, and the normalisation of sentence text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generator.interop.common import InteropError
from generator.words import words

PARADIGMS = ("whether_island", "complex_np_island", "subject_island",
             "adjunct_island_conditional", "adjunct_island_temporal")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'"})
META_KEYS = {"islandtype", "island", "type", "paradigm", "phenomenon", "item", "itemid",
             "itemnumber", "id", "number", "n", "clausetype", "dependency", "notes", "note",
             "comment", "comments", "source"}
_TEMPORAL = {"dopo", "prima", "quando", "mentre", "appena", "finché"}


@dataclass
class Normalisations:
    curly_apostrophes: int = 0
    violation_marks: int = 0
    whitespace: int = 0

    def text(self, raw: str) -> str:
        out = raw.translate(_APOSTROPHES)
        self.curly_apostrophes += sum(raw.count(c) for c in "’‘ʼ`")
        out = out.strip()
        if out.startswith("*"):
            out = out.lstrip("*").strip()
            self.violation_marks += 1
        collapsed = " ".join(out.split())
        self.whitespace += collapsed != out
        return collapsed


@dataclass
class Group:
    where: str  # "file:line" of its first sentence, for messages
    label: str  # island type as written
    dependency: str
    number: str
    variant: dict[str, str]
    texts: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def compact(value: Any) -> str:
    return re.sub(r"[^a-z]", "", str(value).lower())


def condition_key(key: str) -> str | None:
    """The condition a key or value names, e.g. 'Short NonIsland' -> short_nonisland."""
    letters = compact(key)
    if letters == "sentencebad":
        return "long_island"
    match = re.fullmatch(r"(short|long)(nonisland|island)|(nonisland|island)(short|long)", letters)
    if not match:
        return None
    length = match.group(1) or match.group(4)
    structure = match.group(2) or match.group(3)
    return f"{length}_{structure}"


def looks_like_condition(key: str) -> bool:
    letters = compact(key)
    return letters not in META_KEYS and any(w in letters for w in ("short", "long", "island", "sentence"))


def paradigm_for(label: str, texts: dict[str, str], where: str) -> str:
    """Our paradigm name for an island type written in the literature's materials."""
    tokens = set(re.split(r"[^a-z]+", label.lower())) - {""}
    compact_label = "_".join(t for t in re.split(r"[^a-z]+", label.lower()) if t)
    if compact_label in PARADIGMS:
        return compact_label
    if tokens & {"whether", "se"}:
        return "whether_island"
    if tokens & {"complex", "cnp", "np"}:
        return "complex_np_island"
    if tokens & {"subject", "subj", "soggetto"}:
        return "subject_island"
    if tokens & {"adjunct", "aggiunto"}:
        if tokens & {"temporal", "temporale", "time", "when", "after", "before"}:
            return "adjunct_island_temporal"
        if tokens & {"conditional", "condizionale", "if"}:
            return "adjunct_island_conditional"
        island_words = {w.lower() for w in words(texts.get("long_island", "")) + words(texts.get("short_island", ""))}
        if island_words & _TEMPORAL:
            return "adjunct_island_temporal"
        if "se" in island_words:
            return "adjunct_island_conditional"
        raise InteropError(f"{where}: adjunct island {label!r}: cannot tell conditional (se) from temporal "
                           "(dopo che, prima che, quando, mentre); pass --paradigm")
    if tokens & {"wh", "whisland"}:
        return "whether_island"
    raise InteropError(f"{where}: unknown island type {label!r} (expected whether/wh, complex NP, subject, "
                       "adjunct); pass --paradigm")


def dependency_of(label: str) -> str:
    tokens = set(re.split(r"[^a-z]+", str(label).lower()))
    return "rc" if tokens & {"rc", "relative", "relativa", "relativo"} else "wh"


def paradigm_name(base: str, dependency: str) -> str:
    return base if dependency == "wh" else f"{base}_{dependency}"
