#!/usr/bin/env bash
# Sets up the environment, generates the default suite and scores it with the offline
# default model (Gemma 3 270M, shipped on PyPI), printing the report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. .venv/bin/activate
gen build --phenomenon all --n 1000 --seed 0
bench run "$@"
