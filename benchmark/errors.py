"""The one exception type the `bench` commands turn into a one-line message (exit code 2)."""

from __future__ import annotations


class BenchError(Exception):
    """An error a person can act on: the message says what went wrong and what to do."""
