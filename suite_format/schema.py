"""JSON Schema validation of suite files (suite_format/schema/*.schema.json).

The schema states the format for other tools; the reader (suite_format.reader) is what both
halves use, and the tests validate every generated and imported suite against the schema so
the two never drift apart."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    """`name`: 'item' or 'manifest'."""
    text = resources.files("suite_format").joinpath("schema", f"{name}.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _messages(name: str, data: Any, where: str) -> list[str]:
    errors = sorted(validator(name).iter_errors(data), key=lambda e: list(e.absolute_path))
    return [f"{where}: {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors]


def validate_suite_folder(folder: Path, max_problems: int = 20) -> list[str]:
    """Schema problems of every item line and of the manifest ('file:line: path: message')."""
    folder = Path(folder)
    problems: list[str] = []
    for path in sorted(folder.glob("*.jsonl")):
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                problems += _messages("item", json.loads(line), f"{path.name}:{line_no}")
            if len(problems) >= max_problems:
                return problems[:max_problems]
    manifest = folder / "manifest.json"
    if manifest.exists():
        problems += _messages("manifest", json.loads(manifest.read_text(encoding="utf-8")), manifest.name)
    else:
        problems.append("manifest.json: missing")
    return problems[:max_problems]
