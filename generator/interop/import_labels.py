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
PLAIN_ADJUNCT = "adjunct_island"  # an adjunct island whose connective is neither `se` nor temporal
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'"})
# Keys (letters only, lower case) that name the island type, most specific first.
LABEL_KEYS = ("paradigm", "islandsubcategory", "subcategory", "islandtype", "island", "type", "phenomenon", "uid")
NUMBER_KEYS = ("item", "itemnumber", "itemid", "pairid", "id", "number", "n")
DEPENDENCY_KEYS = ("clausetype", "dependency")
_TEMPORAL = {"dopo", "prima", "quando", "mentre", "appena", "finché"}
_CLITICS = {"lo", "la", "li", "le", "ne"}  # `se ne va`, `se lo chiede`: the pronoun, not the connective


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
    source: dict[str, Any] = field(default_factory=dict)  # the record's other keys, as written


def item_id_for(paradigm: str, number: str) -> str:
    """`<paradigm>-<number, 5 digits>`, or the published id with other characters as `_`."""
    if number.isdigit():
        return f"{paradigm}-{int(number):05d}"
    return f"{paradigm}-{re.sub(r'[^A-Za-z0-9]+', '_', number)}"


@dataclass
class ItemIds:
    """The ids of one import. A published id used again for another item gives that item its
    own (`…-r2`, `…-r3`; the published one stays in its `source`, and `repeated` counts it);
    the same item twice is refused."""

    seen: dict[str, tuple[str, Any]] = field(default_factory=dict)   # id -> (where, texts)
    repeated: dict[str, list[str]] = field(default_factory=dict)     # paradigm -> published ids

    def claim(self, item_id: str, texts: Any, where: str, what: str, number: str, paradigm: str) -> str:
        if item_id in self.seen:
            first_where, first_texts = self.seen[item_id]
            if first_texts == texts:
                raise InteropError(f"{where}: {what} {number} of {paradigm} appears twice (first at {first_where}); "
                                   "delete one copy")
            self.repeated.setdefault(paradigm, []).append(number)
            count = sum(1 for k in self.seen if k == item_id or k.startswith(f"{item_id}-r")) + 1
            item_id = f"{item_id}-r{count}"
        self.seen[item_id] = (where, texts)
        return item_id


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


def looks_like_condition(key: str, value: Any) -> bool:
    """A key that probably holds a sentence under a misspelt or ambiguous condition name
    (`short_islands`, BLiMP's `sentence_good`): refused rather than kept as metadata, so a
    sentence is never silently dropped. Metadata that merely mentions islands
    (`island_subcategory`, a numeric `long_island_rating`, `sentence_id`) is not."""
    if not isinstance(value, (str, dict)):
        return False
    letters = compact(key)
    has_length = "short" in letters or "long" in letters
    return (has_length and "island" in letters) or letters in {"sentence", "sentencegood", "goodsentence"}


def adjunct_connective(texts: dict[str, str]) -> str | None:
    """The connective that opens the adjunct, read from the island sentences (short island
    first): `se`, a temporal word (`dopo che`, `prima che` as two words), or None."""
    for condition in ("short_island", "long_island"):
        tokens = [w.lower().rstrip("'") for w in words(texts.get(condition, ""))]
        for k, token in enumerate(tokens):
            after = tokens[k + 1] if k + 1 < len(tokens) else ""
            if token == "se" and after not in _CLITICS:
                return "se"
            token = "quando" if token == "quand" else token  # quand'è
            if token in _TEMPORAL:
                return f"{token} che" if after == "che" else token
    return None


def paradigm_for(label: str, texts: dict[str, str], where: str) -> tuple[str, str | None]:
    """Our paradigm name for an island type written in the literature's materials (a BLiMP-style
    UID such as `wh_island` included; several labels joined by " / "), and the connective that
    decided an adjunct island's sub-type (None when the label decided)."""
    # several labels joined by " / " (most specific first): one that is a paradigm name wins
    for part in label.split("/"):
        exact = "_".join(t for t in re.split(r"[^a-z]+", part.lower()) if t)
        if exact in PARADIGMS:
            return exact, None
    tokens = set(re.split(r"[^a-z]+", label.lower())) - {""}
    letters = compact(label)
    # adjunct first: its conditional sub-type may be written `se`, which alone means whether
    named_subtype = tokens & {"temporal", "temporale", "conditional", "condizionale"}
    if tokens & {"adjunct", "aggiunto"} or "adjunct" in letters or named_subtype:
        if tokens & {"temporal", "temporale", "time", "when", "after", "before", "quando", "dopo", "prima"}:
            return "adjunct_island_temporal", None
        if tokens & {"conditional", "condizionale", "if", "se"}:
            return "adjunct_island_conditional", None
        connective = adjunct_connective(texts)
        if connective is None:
            return PLAIN_ADJUNCT, None
        return ("adjunct_island_conditional" if connective == "se" else "adjunct_island_temporal"), connective
    if tokens & {"whether", "se"} or "whether" in letters:
        return "whether_island", None
    if tokens & {"complex", "cnp", "np"} or "complexnp" in letters:
        return "complex_np_island", None
    if tokens & {"subject", "subj", "soggetto"} or "subject" in letters:
        return "subject_island", None
    if tokens & {"wh", "whisland"} or "whisland" in letters:
        return "whether_island", None
    raise InteropError(f"{where}: unknown island type {label!r} (expected whether/wh, complex NP, subject, "
                       "adjunct); pass --paradigm")


def dependency_of(label: str) -> str:
    tokens = set(re.split(r"[^a-z]+", str(label).lower()))
    return "rc" if tokens & {"rc", "relative", "relativa", "relativo"} else "wh"


def dependency_from(explicit: str | None, label: str, file_stem: str) -> str:
    """A `clause_type` / `dependency` value decides; without one, a label or the file name
    that says relative clause (the 2016 files: `rc_whether.json`) makes the item rc."""
    if explicit:
        return dependency_of(explicit)
    return "rc" if "rc" in (dependency_of(label), dependency_of(file_stem)) else "wh"


def paradigm_name(base: str, dependency: str) -> str:
    return base if dependency == "wh" else f"{base}_{dependency}"
