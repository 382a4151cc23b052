#!/usr/bin/env bash
# Creates .venv (Python 3.11) and installs the project. Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
stamp=.venv/.isole-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  python -m pip install -q --upgrade pip
  # torch first, pinned: an unpinned torch would pull several GB of CUDA packages.
  python -m pip install -q "torch==2.13.0"
  python -m pip install -q -e ".[dev]"
  touch "$stamp"
fi
