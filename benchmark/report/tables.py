"""Report tables: statistics formatted for people (numbers stay full-precision in the CSVs).

Paradigms are named like the figures name them ('whether (weak), wh') and listed in the
figures' order: wh before rc, islands from weak to strong (`load.layout_key`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TypeVar

import pandas as pd

from suite_format import ParadigmInfo

from .bootstrap import Estimate
from .document import Table
from .load import Run, layout_key, table_label
from .mixed import MixedResult
from .summary import AVERAGE, GroupStats

DASH = "–"
InfoOf = Callable[[str], ParadigmInfo]  # paradigm -> its description, usually Run.info_of
Row = TypeVar("Row")  # anything with a `paradigm` attribute


def pct(est: Estimate) -> str:
    return DASH if math.isnan(est.value) else f"{est.value:.1f}"


def num(value: float, digits: int = 2) -> str:
    return DASH if value is None or math.isnan(value) else f"{value:.{digits}f}"


def ci(est: Estimate, digits: int = 1) -> str:
    if math.isnan(est.lo):
        return DASH
    return f"[{est.lo:.{digits}f}, {est.hi:.{digits}f}]"


def p_value(p: float) -> str:
    if math.isnan(p):
        return DASH
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def row_label(paradigm: str, info: InfoOf) -> str:
    return "**average**" if paradigm == AVERAGE else table_label(info(paradigm))


def in_layout_order(rows: list[Row], info: InfoOf) -> list[Row]:
    """Rows sorted by paradigm in the figures' order, the average last; the order within one
    paradigm (measures, variant levels) is kept."""
    def key(row) -> tuple:
        return (True, ()) if row.paradigm == AVERAGE else (False, layout_key(info(row.paradigm)))
    return sorted(rows, key=key)


def label_columns(frame: pd.DataFrame, runs: Mapping[str, Run]) -> pd.DataFrame:
    """A CSV frame with label, dependency and strength after its paradigm column (blank for the
    average row), each from the run the row belongs to."""
    if "paradigm" not in frame.columns:  # an empty table
        return frame
    infos = [None if p == AVERAGE else runs[r].info_of(p) for r, p in zip(frame["run"], frame["paradigm"])]
    out = frame.copy()
    at = out.columns.get_loc("paradigm") + 1
    for offset, name in enumerate(("label", "dependency", "strength")):
        out.insert(at + offset, name, [(getattr(i, name) or "") if i else "" for i in infos])
    return out


def with_ci(est: Estimate, digits: int = 1) -> str:
    """'96.0 [90.0, 100.0]': the estimate and its 95% bootstrap interval."""
    if math.isnan(est.value):
        return DASH
    return f"{est.value:.{digits}f} {ci(est, digits)}"


def factorial_table(rows: list[GroupStats], baseline: dict[str, GroupStats], csv: str, info: InfoOf) -> Table:
    """Paradigms as rows: DD > 0 accuracy and mean DD with CIs, the baseline alongside."""
    columns = ["island", "n", "DD > 0 % [95% CI]", "mean DD [95% CI]"]
    if baseline:
        columns += ["unigram DD > 0 %", "unigram mean DD"]
    body = []
    for r in in_layout_order(rows, info):
        cells = [row_label(r.paradigm, info), str(r.n), with_ci(r.factorial_acc), with_ci(r.mean_DD, 2)]
        if baseline:
            b = baseline.get(r.paradigm)
            cells += [pct(b.factorial_acc), num(b.mean_DD.value)] if b else [DASH, DASH]
        body.append(tuple(cells))
    return Table(tuple(columns), tuple(body), csv)


def minimal_pair_table(rows: list[GroupStats], csv: str, info: InfoOf) -> Table:
    columns = ("island", "n", "SN > LI %", "LN > LI %", "SI > LI %", "mean %")
    body = tuple(
        (row_label(r.paradigm, info), str(r.n), with_ci(r.mp_SN_LI), with_ci(r.mp_LN_LI),
         with_ci(r.mp_SI_LI), with_ci(r.mp_mean))
        for r in in_layout_order(rows, info))
    return Table(columns, body, csv)


def variant_table(rows: list[GroupStats], csv: str, info: InfoOf) -> Table:
    columns = ("island", "factor", "level", "n", "DD > 0 % [95% CI]", "mean DD [95% CI]",
               "minimal pairs % [95% CI]")
    body = tuple(
        (row_label(r.paradigm, info), r.factor, r.level, str(r.n), with_ci(r.factorial_acc),
         with_ci(r.mean_DD, 2), with_ci(r.mp_mean))
        for r in in_layout_order(rows, info))
    return Table(columns, body, csv)


def mixed_table(results: list[MixedResult], labels: dict[str, str], csv: str, info: InfoOf) -> Table:
    columns = ("island", "measure", "items", "interaction [95% CI]", "p", "converged", "warnings")
    body = tuple(
        (row_label(r.paradigm, info), labels.get(r.measure, r.measure), str(r.n_items),
         DASH if math.isnan(r.estimate) else f"{r.estimate:.2f} [{r.ci_lo:.2f}, {r.ci_hi:.2f}]",
         p_value(r.p_value), "yes" if r.converged else "NO",
         "failed: " + r.error if r.error else str(len(r.warnings)) if r.warnings else "none")
        for r in in_layout_order(results, info))
    return Table(columns, body, csv)


def difference_table(rows, csv: str, info: InfoOf) -> Table:
    """Level − reference level per varied factor, paired over matched sets, with 95% CIs."""
    body = tuple((row_label(r.paradigm, info), r.factor, f"{r.level} − {r.reference}", str(r.n_sets), r.effect,
                  with_ci(r.factorial_acc), with_ci(r.mean_DD, 2)) for r in in_layout_order(rows, info))
    return Table(("paradigm", "factor", "contrast", "matched sets", "effect", "Δ effect > 0 (points) [95% CI]",
                  "Δ mean effect [95% CI]"), body, csv)
