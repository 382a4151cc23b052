"""Write an output folder all at once: build it in a temporary sibling, then rename it into
place, so a failed report never leaves a half-written folder behind."""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pandas as pd


@contextmanager
def atomic_folder(target: Path):
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
        target.rename(old / target.name)
    tmp.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """CSV with six significant digits, stable across machines and BLAS builds."""
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, float_format="%.6g", lineterminator="\n")


def safe_name(text: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in text)
