"""The `bench` command. Each group of commands lives in its own module and registers itself
here; those modules import heavy libraries (torch, transformers, matplotlib) only inside the
commands, so `bench --help` starts fast."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    help="Score island test suites (Italian, English) with language models and report island effects.",
    no_args_is_help=True,
    add_completion=False,
)

# Modules that define `register(app)`.
_COMMAND_MODULES = (
    "benchmark.commands",          # bench run, bench models, bench perf
    "benchmark.report.commands",   # bench report, bench compare
    "benchmark.ratings_commands",  # bench ratings
)

for _name in _COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as exc:  # a command group not built yet
        if exc.name != _name:
            raise
        continue
    _module.register(app)
