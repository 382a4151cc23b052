"""Import reader for JSONL: one item per line with the four condition keys at top level, a
JSON list of such objects, or {"sentences": [...]} around them (for the file or a line)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from generator.interop.common import InteropError
from generator.interop.import_labels import (DEPENDENCY_KEYS, LABEL_KEYS, NUMBER_KEYS, Group, Normalisations,
                                             compact, condition_key, dependency_from, looks_like_condition)
from generator.suite import CONDITIONS


def json_records(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    """(line, record) for a JSONL file, a JSON list, or {"sentences": [...]} (file or line)."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, list):
        yield from _array_elements(text, text.index("[") + 1)
        return
    if isinstance(whole, dict):
        if isinstance(whole.get("sentences"), list):
            yield from _array_elements(text, re.search(r'"sentences"\s*:\s*\[', text).end())
        else:
            yield 1, whole
        return
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InteropError(f"{path}:{line_no}: not valid JSON ({exc.msg})") from exc
        if isinstance(record, dict) and isinstance(record.get("sentences"), list):
            for inner in record["sentences"]:
                yield line_no, inner
        else:
            yield line_no, record


def _array_elements(text: str, pos: int) -> Iterator[tuple[int, Any]]:
    decoder = json.JSONDecoder()
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return
        record, end = decoder.raw_decode(text, pos)
        yield text.count("\n", 0, pos) + 1, record
        pos = end


def read(path: Path, text: str, norm: Normalisations) -> list[Group]:
    groups = []
    for index, (line_no, record) in enumerate(json_records(path, text), start=1):
        where = f"{path}:{line_no}"
        if not isinstance(record, dict):
            raise InteropError(f"{where}: expected an object with the four condition keys")
        texts: dict[str, str] = {}
        source: dict[str, Any] = {}  # every other key, as written: nothing of the original is lost
        for key, value in record.items():
            condition = condition_key(key)
            if condition is None:
                if looks_like_condition(key, value):
                    raise InteropError(f"{where}: unknown condition key {key!r}: rename it to one of "
                                       f"{', '.join(CONDITIONS)} (or sentence_bad for long_island)")
                if _too_big(value):
                    raise InteropError(f"{where}: {key!r} holds an integer beyond 64 bits, which the suite "
                                       "format cannot store; write it as a string")
                source[key] = value
                continue
            if condition in texts:
                raise InteropError(f"{where}: condition {condition} given twice")
            if isinstance(value, dict):
                value = value.get("text", value.get("sentence"))
            if not isinstance(value, str) or not value.strip():
                raise InteropError(f"{where}: condition key {key!r} has no sentence text")
            texts[condition] = norm.text(value)
        missing = [c for c in CONDITIONS if c not in texts]
        if missing:
            raise InteropError(f"{where}: missing condition {', '.join(missing)}")
        # the keys the importer understands still steer it; they stay in `source` as well
        # all labels, most specific first: `island_subcategory: adjunct_island` with `UID: wh_island`
        # is an adjunct island, `island_subcategory: se` with `UID: adjunct_island` a conditional one
        labels: dict[str, str] = {}  # lower case -> as first written
        for name in LABEL_KEYS:
            for key, value in source.items():
                if compact(key) == name and str(value).strip():
                    labels.setdefault(str(value).strip().lower(), str(value).strip())
        label = " / ".join(labels.values())
        number_key = _first_key(source, NUMBER_KEYS)
        number = str(source[number_key]) if number_key else str(index)
        dependency_key = _first_key(source, DEPENDENCY_KEYS)
        dependency = dependency_from(str(source[dependency_key]) if dependency_key else None, label, path.stem)
        groups.append(Group(where, label, dependency, number, {}, texts=texts, source=source))
    if not groups:
        raise InteropError(f"{path}: no items in this file")
    return groups


def _first_key(source: dict[str, Any], names: tuple[str, ...]) -> str:
    """The key of `source` that is the first of `names` (by letters, case and _ ignored) with a
    non-empty value, or ""."""
    for name in names:
        for key, value in source.items():
            if compact(key) == name and str(value).strip():
                return key
    return ""


def _too_big(value: Any) -> bool:
    """An integer the suite's JSON writer (orjson: 64-bit integers) cannot write, at any depth."""
    if isinstance(value, int):
        return not -(2 ** 63) <= value < 2 ** 64
    if isinstance(value, dict):
        return any(_too_big(v) for v in value.values())
    if isinstance(value, list):
        return any(_too_big(v) for v in value)
    return False
