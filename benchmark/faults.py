"""Named pause points for crash-safety tests: with `ISOLE_PAUSE_AT=NAME:SECONDS` the process
sleeps at point NAME, so a test can kill it at exactly that moment; `NAME@N:SECONDS` pauses
the N-th time the point is reached. Points: `suite-write` and `suite-swap` (gen build),
`cache-commit`, `final-write` and `final-swap` (bench run). Without the variable this does
nothing. `pid_alive` tells whether the writer of a leftover temporary folder is gone.

The generator has its own copy (generator/faults.py): the two halves meet only through the
suite format, never by importing each other."""

from __future__ import annotations

import os
import sys
import time
from collections import Counter

_reached: Counter = Counter()


def pause(name: str) -> None:
    spec = os.environ.get("ISOLE_PAUSE_AT")
    if not spec:
        return
    point, _, seconds = spec.partition(":")
    point, _, nth = point.partition("@")
    if point != name:
        return
    _reached[name] += 1
    if _reached[name] == int(nth or 1):
        print(f"pause: {name}", file=sys.stderr, flush=True)
        time.sleep(float(seconds or 3600))


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
