import shutil
from pathlib import Path

import pytest

from generator.build import BuildRequest, build_suite
from generator.lexicon import load_lexicon
from generator.paths import GRAMMAR_DIR, LEXICON_DIR


@pytest.fixture(scope="session")
def lexicon():
    return load_lexicon(LEXICON_DIR)


@pytest.fixture(scope="session")
def default_build():
    """The default suite, built once: 1,000 items per paradigm, seed 0."""
    return build_suite(BuildRequest("all", 1000, 0), LEXICON_DIR, GRAMMAR_DIR)


@pytest.fixture()
def lexicon_copy(tmp_path) -> Path:
    """A writable copy of the lexicon, for tests that break it on purpose."""
    target = tmp_path / "lexicon"
    shutil.copytree(LEXICON_DIR / "it", target)
    return target


@pytest.fixture()
def grammar_copy(tmp_path) -> Path:
    target = tmp_path / "grammar"
    shutil.copytree(GRAMMAR_DIR / "it", target)
    return target
