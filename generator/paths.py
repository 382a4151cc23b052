"""Where the project's data folders live (the repository root, next to the packages)."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(os.environ.get("ISOLE_HOME", Path(__file__).resolve().parents[1]))
GRAMMAR_DIR = PROJECT_ROOT / "grammar"
LEXICON_DIR = PROJECT_ROOT / "lexicon"
GENERATED_DIR = PROJECT_ROOT / "generated"


class MissingLanguageFolder(ValueError):
    """A lexicon or grammar folder with neither the language's sub-folder nor its own files."""


def language_folder(root: Path, language: str, what: str, pattern: str) -> Path:
    """The folder of `language` under `root` (lexicon/it, grammar/en), or `root` itself when it
    holds the files directly (a copy of one language's folder, edited by a linguist)."""
    root = Path(root)
    if (root / language).is_dir():
        return root / language
    if root.is_dir() and any(root.glob(pattern)):
        return root
    raise MissingLanguageFolder(f"{root}: no {what} for language {language!r} (expected a folder "
                                f"{root / language} or the {pattern} files themselves in {root})")
