"""What every exporter and importer shares: the suite as read from disk, the error type,
deterministic serialisation helpers and the all-or-nothing write of an output folder."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from generator.suite import Item, Sentence, Suite, SuiteFormatError, read_suite  # Suite: re-exported
from suite_format import DESIGNS, ISLAND, Design

WHOLE_SENTENCE = "sentence"  # region name used in exports for a sentence that has no regions


class InteropError(ValueError):
    """Bad input for an export or import; the message names the file (and line)."""


def load_suite(suite_dir: Path) -> Suite:
    """The suite folder, with format problems reported as InteropError (file and line)."""
    try:
        return read_suite(suite_dir)
    except SuiteFormatError as exc:
        raise InteropError(str(exc)) from None


# ---- designs (exports) -------------------------------------------------------------------
# Exporters read conditions, grammaticality, minimal pairs, factors and levels from each
# item's design (suite_format/designs.py), never from the island's condition names.

def suite_designs(suite: Suite) -> tuple[Design, ...]:
    """The designs of the suite's items, in the order of suite_format.DESIGNS (island first);
    the island design alone for a suite without items."""
    present = {item.design for item in suite.items}
    return tuple(d for d in DESIGNS.values() if d.name in present) or (ISLAND,)


def paradigm_design(paradigm: str, items: Sequence[Item]) -> Design:
    """The one design of a paradigm's items (formats that lay out a paradigm as one table need it)."""
    names = sorted({item.design for item in items})
    if len(names) > 1:
        raise InteropError(f"paradigm {paradigm}: its items have different designs ({', '.join(names)}); "
                           "this export needs one design per paradigm")
    return items[0].layout if items else ISLAND


def design_conditions(designs: Iterable[Design]) -> tuple[str, ...]:
    """The conditions of `designs`, each design's in its canonical order, without repeats."""
    out: list[str] = []
    for design in designs:
        out += [c for c in design.conditions if c not in out]
    return tuple(out)


def design_factors(designs: Iterable[Design]) -> tuple[str, ...]:
    """The factor names of `designs` (island: length, structure; filler_gap: filler, gap), without repeats."""
    out: list[str] = []
    for design in designs:
        out += [name for name, _ in design.factors if name not in out]
    return tuple(out)


def violations(design: Design) -> tuple[str, ...]:
    """The design's ungrammatical conditions, in canonical order."""
    return tuple(c for c in design.conditions if not design.grammatical[c])


def sentence_regions(sentence: Sentence) -> list[tuple[str, str]]:
    """(name, text) of each region, text with spaces collapsed; a sentence without regions
    is one region named `sentence`."""
    if not sentence.regions:
        return [(WHOLE_SENTENCE, clean_spaces(sentence.text))]
    return [(r.name, clean_spaces(sentence.text[r.start:r.end])) for r in sentence.regions]


def clean_spaces(text: str) -> str:
    return " ".join(text.split())


def dump_json(data: Any, indent: int | None = None) -> str:
    if indent is None:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"


def dump_jsonl(records: Iterable[Mapping[str, Any]]) -> str:
    return "".join(dump_json(r) + "\n" for r in records)


def dump_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return buffer.getvalue()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def manifest_file_hashes(manifest: Mapping[str, Any]) -> dict[str, str]:
    """The manifest's `files` entry flattened to {relative path: sha256}, sorted."""
    out: dict[str, str] = {}

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                walk(f"{prefix}/{key}" if prefix else str(key), value)
        elif isinstance(node, list):
            for entry in node:
                if isinstance(entry, Mapping) and "path" in entry and "sha256" in entry:
                    out[str(entry["path"])] = str(entry["sha256"])
        elif isinstance(node, str):
            out[prefix] = node

    walk("", manifest.get("files", {}))
    return dict(sorted(out.items()))


def lexicon_hash(manifest: Mapping[str, Any]) -> tuple[str | None, dict[str, str]]:
    """One sha256 over the lexicon files' hashes (`path sha256` lines, sorted), and those files."""
    files = {p: h for p, h in manifest_file_hashes(manifest).items() if "lexicon" in p}
    if not files:
        return None, {}
    text = "".join(f"{p} {h}\n" for p, h in files.items())
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), files


def write_tree(out: Path, files: Mapping[str, str | bytes], force: bool = False) -> None:
    """Write `files` ({relative path: content}) as the folder `out`, all or nothing: they are
    written to a temporary folder beside `out`, which then takes its place."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InteropError(f"{out}: exists and is not a folder")
    if out.exists() and any(out.iterdir()) and not force:
        raise InteropError(f"{out}: folder exists and is not empty; pass --force to replace it")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp"))
    os.chmod(tmp, 0o755)  # mkdtemp makes it private; the output is an ordinary folder
    old: Path | None = None
    try:
        for rel, content in sorted(files.items()):
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                with open(path, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(content)
        if out.exists():
            old = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".old"))
            os.replace(out, old / "previous")
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and (old / "previous").exists() and not out.exists():
            os.replace(old / "previous", out)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
