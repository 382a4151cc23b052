"""Benchmark: scores test suites with language models and reports island effects."""

__version__ = "0.1.0"
