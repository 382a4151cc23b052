#!/usr/bin/env bash
# Sets up the environment if needed, then runs the whole test suite (offline, CPU only).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. .venv/bin/activate
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
python -m pytest "$@"
