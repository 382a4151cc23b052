"""Synthetic run folders shared by the report tests (see benchmark/report/synthetic.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.report.api import write_report
from benchmark.report.load import load_run
from benchmark.report.synthetic import SyntheticSpec, write_synthetic_suite

N_ITEMS = 60
BOOT = 200


@pytest.fixture(scope="session")
def suite(tmp_path_factory) -> Path:
    """results/<suite>/ with a causal run, a masked run and the unigram baseline."""
    root = tmp_path_factory.mktemp("results") / "synthetic"
    write_synthetic_suite(root, SyntheticSpec(items_per_paradigm=N_ITEMS))
    write_synthetic_suite(root, SyntheticSpec(items_per_paradigm=N_ITEMS, model="tiny_bert",
                                              scorer="pll-word-l2r", seed=1))
    return root


@pytest.fixture(scope="session")
def causal(suite):
    return load_run(suite / "tiny_gpt.lp")


@pytest.fixture(scope="session")
def masked(suite):
    return load_run(suite / "tiny_bert.pll-word-l2r")


@pytest.fixture(scope="session")
def baseline(suite):
    return load_run(suite / "unigram.unigram")


@pytest.fixture(scope="session")
def report(suite, tmp_path_factory) -> Path:
    """One full report of the causal run (baseline found next to it), reused by many tests."""
    out = tmp_path_factory.mktemp("report") / "report"
    return write_report([suite / "tiny_gpt.lp"], out_dir=out, n_extreme=1, n_resamples=BOOT)
