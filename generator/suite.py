"""The generator's side of the suite format: the shared records and reader (suite_format)
plus what only a writer needs, atomic file writes."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable

from suite_format import (FORMAT_VERSION, ISLAND, REGION_NAMES, Item, Region, Sentence, Suite,  # noqa: F401
                          SuiteFormatError, dumps_item, dumps_items, read_items, read_suite)

CONDITIONS = ISLAND.conditions  # the island design's conditions, the default paradigms' layout


def paradigm_files(suite_dir: Path) -> list[Path]:
    return sorted(p for p in Path(suite_dir).glob("*.jsonl"))


def atomic_write_text(path: Path, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: never a half-written file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_items(path: Path, items: Iterable[Item]) -> None:
    atomic_write_text(path, dumps_items(items))
