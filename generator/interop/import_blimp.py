"""Import BLiMP's own minimal-pair files (one JSON object a line: `sentence_good`,
`sentence_bad`, `field`, `linguistics_term`, `UID`, `pairID`, …) as items of the
`minimal_pair` design: two sentences, the good one expected to score higher.

Each `UID` becomes a paradigm (lower-cased, other characters as `_`; the file name when a line
has none), each line an item `<UID>-<pairID>`; every other key is kept as written in the
item's `source`. A pairID used twice for different pairs keeps the published id in `source`
and gets its own (`…-r2`), as in the other importers. The language is guessed from the words'
frequencies in each language the tool has (wordfreq), unless `--language` says it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

from generator.interop.common import InteropError
from generator.interop.import_labels import ItemIds, Normalisations, item_id_for
from generator.suite import Item, Sentence
from generator.words import condition_residual, word_spans, words
from suite_format import MINIMAL_PAIR

GOOD, BAD = "sentence_good", "sentence_bad"
ISLAND_KEYS = ("short_nonisland", "long_nonisland", "short_island")


def is_blimp(records: list[tuple[int, Any]]) -> bool:
    """BLiMP's shape: every record has both sentences and none has an island condition."""
    dicts = [r for _, r in records if isinstance(r, dict)]
    return bool(dicts) and len(dicts) == len(records) and all(GOOD in r and BAD in r for r in dicts) \
        and not any(k.lower().replace(" ", "_") in ISLAND_KEYS for r in dicts for k in r)


def guess_language(texts: Iterable[str], languages: Iterable[str]) -> str:
    """The language whose word frequencies (wordfreq, Zipf) the sentences fit best."""
    from wordfreq import zipf_frequency
    counted = Counter(w.lower() for text in texts for w in words(text) if w.isalpha())
    scores = {code: sum(n * zipf_frequency(w, code) for w, n in counted.items()) for code in languages}
    return max(sorted(scores), key=lambda code: scores[code])


def _clean(text: Any, where: str, key: str, norm: Normalisations) -> str:
    cleaned = norm.text(text) if isinstance(text, str) else ""
    if not cleaned:
        raise InteropError(f"{where}: '{key}' must be a non-empty sentence")
    return cleaned


def _name(value: Any, fallback: str) -> str:
    name = re.sub(r"[^a-z0-9_]+", "_", str(value).strip().lower()).strip("_")
    return name or fallback


def read(path: Path, records: list[tuple[int, Any]], norm: Normalisations, paradigm: str | None,
         language: str, ids: ItemIds) -> dict[str, list[Item]]:
    """Items by paradigm; `ids` gives them their ids and counts the published pairIDs that repeat."""
    by_paradigm: dict[str, list[Item]] = {}
    fallback = _name(path.stem, "blimp")
    for index, (line_no, record) in enumerate(records, start=1):
        where = f"{path}:{line_no}"
        texts = {"good": _clean(record.get(GOOD), where, GOOD, norm), "bad": _clean(record.get(BAD), where, BAD, norm)}
        name = paradigm or _name(record.get("UID", ""), fallback)
        number = str(record.get("pairID", index)).strip() or str(index)
        item_id = ids.claim(item_id_for(name, number), texts, where, "pair", number, name)
        residual = condition_residual(texts, MINIMAL_PAIR)
        item = Item(
            item_id=item_id, paradigm=name, dependency="wh", variant={}, lexical={},
            additive=not residual, residual=tuple(residual), design=MINIMAL_PAIR.name, language=language,
            conditions={c: Sentence(t, MINIMAL_PAIR.grammatical[c], (), tuple(word_spans(t))) for c, t in texts.items()},
            source={k: v for k, v in record.items() if k not in (GOOD, BAD)},
        )
        by_paradigm.setdefault(name, []).append(item)
    if not by_paradigm:
        raise InteropError(f"{path}: no minimal pairs")
    return by_paradigm
