"""Where the project's data folders live (the repository root, next to the packages)."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(os.environ.get("ISOLE_HOME", Path(__file__).resolve().parents[1]))
GRAMMAR_DIR = PROJECT_ROOT / "grammar"
LEXICON_DIR = PROJECT_ROOT / "lexicon"
GENERATED_DIR = PROJECT_ROOT / "generated"
