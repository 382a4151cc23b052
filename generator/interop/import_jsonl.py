"""Import reader for JSONL: one item per line with the four condition keys at top level, a
JSON list of such objects, or {"sentences": [...]} around them (for the file or a line)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from generator.interop.common import InteropError
from generator.interop.import_labels import (Group, Normalisations, compact, condition_key, dependency_of,
                                             looks_like_condition)
from generator.suite import CONDITIONS


def _json_records(path: Path, text: str) -> Iterator[tuple[int, Any]]:
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
    for index, (line_no, record) in enumerate(_json_records(path, text), start=1):
        where = f"{path}:{line_no}"
        if not isinstance(record, dict):
            raise InteropError(f"{where}: expected an object with the four condition keys")
        texts: dict[str, str] = {}
        label = dependency = number = None
        for key, value in record.items():
            letters = compact(key)
            condition = condition_key(key)
            if condition is not None:
                if condition in texts:
                    raise InteropError(f"{where}: condition {condition} given twice")
                if isinstance(value, dict):
                    value = value.get("text", value.get("sentence"))
                if not isinstance(value, str) or not value.strip():
                    raise InteropError(f"{where}: condition key {key!r} has no sentence text")
                texts[condition] = norm.text(value)
            elif letters in {"islandtype", "island", "type", "paradigm", "phenomenon"}:
                label = str(value)
            elif letters in {"clausetype", "dependency"}:
                dependency = dependency_of(value)
            elif letters in {"item", "itemid", "itemnumber", "id", "number", "n"}:
                number = str(value)
            elif looks_like_condition(key):
                raise InteropError(f"{where}: unknown condition key {key!r} "
                                   f"(expected {', '.join(CONDITIONS)})")
        missing = [c for c in CONDITIONS if c not in texts]
        if missing:
            raise InteropError(f"{where}: missing condition {', '.join(missing)}")
        group = Group(where, label or "", dependency or dependency_of(label or ""), number or str(index), {})
        group.texts = texts
        groups.append(group)
    if not groups:
        raise InteropError(f"{path}: no items in this file")
    return groups
