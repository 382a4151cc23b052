"""`python -m tests.fuzz --cases 5000 --seed 0`: the fuzz campaign over every user input
(docs/reliability.md). Prints per-input counts; exits 1 on any traceback, hang or unclear message."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .campaign import run_campaign, write_summary
from .cases import INPUTS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--cases", type=int, default=5000, help="number of cases (default 5000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the mutations (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="cases run at the same time (default 1)")
    parser.add_argument("--inputs", default=",".join(INPUTS), help=f"comma-separated subset of {','.join(INPUTS)}")
    parser.add_argument("--fresh", type=int, default=6, help="cases also run in a new interpreter (default 6)")
    parser.add_argument("--json", type=Path, default=Path("fuzz-summary.json"), help="where to write the summary")
    parser.add_argument("--keep-failures", type=Path, default=None, help="copy failing cases' folders here")
    args = parser.parse_args(argv)
    inputs = tuple(i.strip() for i in args.inputs.split(",") if i.strip())
    unknown = [i for i in inputs if i not in INPUTS]
    if unknown or args.cases < 1 or args.jobs < 1:
        parser.error(f"--inputs takes {', '.join(INPUTS)}; --cases and --jobs are at least 1")
    summary = run_campaign(args.cases, args.seed, args.jobs, inputs, args.fresh, keep=args.keep_failures)
    print(summary.table())
    print(f"{summary.cases} cases in {summary.seconds:.0f} s: {summary.tracebacks} traceback(s), {summary.hangs} hang(s), "
          f"{len(summary.failures)} failure(s) in all")
    if summary.fresh:
        f = summary.fresh
        print(f"fresh-interpreter check: {f['same_exit_code_and_verdict']}/{f['cases']} cases end the same forked and fresh")
    for failure in summary.failures[:10]:
        print(f"- {failure['verdict']}: {failure['input']} #{failure['number']} ({failure['mutation']}): "
              f"{failure['command']}\n  {failure['output_tail'][-400:].strip()}")
    write_summary(summary, args.json)
    print(f"summary: {args.json}")
    return 1 if summary.failures or (summary.fresh and summary.fresh["mismatches"]) else 0


if __name__ == "__main__":
    sys.exit(main())
