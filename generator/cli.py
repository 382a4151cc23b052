"""The `gen` command: build, list and validate suites. Export and import commands live in
`generator.interop.commands` and register themselves here."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    help="Generate controlled island-effect test suites (Italian, English).",
    no_args_is_help=True,
    add_completion=False,
)

_COMMAND_MODULES = (
    "generator.commands",          # gen build, gen list, gen validate
    "generator.interop.commands",  # gen export, gen import
    "generator.review_cli",        # gen review
)

for _name in _COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as exc:  # a command group not built yet
        if exc.name != _name:
            raise
        continue
    _module.register(app)
