"""`python -m benchmark` is `bench` (launchers such as `torchrun -m benchmark run` need a module)."""

from benchmark.cli import app

app(prog_name="bench")
