"""The amelioration effect: what rescues an island.

For every island paradigm whose matched sets cross item-matched factors (`gen build --vary
filler --vary gap`: the same lexical item with a bare or D-linked filler, an ordinary gap or
a resumptive clitic), each cell of those factors is compared with the reference cell, where
every factor is at its first level in alphabetical order (bare, gap: the convention of
`summary.variant_differences`). The comparison is paired over the matched sets that hold
both cells, with a percentile bootstrap over sets. A negative difference in mean DD means the
change shrinks the island effect: it ameliorates the island.

Islands are listed from weak to strong (`suite_format.island_rank`), the wh and relative-clause
paradigms of one island side by side.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from suite_format import ParadigmInfo, island_rank

from ..factorial import DD_TOLERANCE  # DD within rounding of 0 is not > 0 (one definition for all)
from .bootstrap import Estimate, bootstrap_means, rng_for
from .document import Block, Heading, Table, Text
from .load import TABLE_MEASURES, Run
from .tables import num, with_ci

Cell = tuple[tuple[str, str], ...]  # (factor, level) for every item-matched factor, factors sorted
STATS = ("reference_acc", "level_acc", "diff_acc", "reference_DD", "level_DD", "diff_DD")
CSV = "tables/amelioration.csv"


@dataclass(frozen=True)
class Amelioration:
    """One non-reference cell against the reference cell, over the matched sets holding both:
    DD > 0 (percent; the difference in points) and mean DD at each, and their differences."""

    run: str
    measure: str
    info: ParadigmInfo
    reference: Cell
    cell: Cell
    n_sets: int
    reference_acc: Estimate
    level_acc: Estimate
    diff_acc: Estimate
    reference_DD: Estimate
    level_DD: Estimate
    diff_DD: Estimate

    @property
    def changed(self) -> Cell:
        """The factors not at their reference level."""
        return tuple(fl for fl, ref in zip(self.cell, self.reference) if fl != ref)

    @property
    def contrast(self) -> str:
        """'filler=dlinked', 'gap=resumptive', 'filler=dlinked × gap=resumptive'."""
        return " × ".join(f"{f}={lv}" for f, lv in self.changed)

    @property
    def island(self) -> str:
        """'whether (weak), wh'."""
        return f"{self.info.marked_label}, {self.info.dependency}"

    def order(self) -> tuple:
        """Islands weak to strong; within one, single factors before their crossing."""
        return island_rank(self.info), len(self.changed), self.changed


def matched_factors(items: pd.DataFrame, columns: list[str]) -> list[str]:
    """The variant columns whose level changes within some matched set: the item-matched
    factors. A factor drawn per item (mood) is constant within a set and is left out."""
    out = []
    for column in columns:
        known = items[["matched_set", column]].dropna()
        if known.groupby("matched_set")[column].nunique().gt(1).any():
            out.append(column)
    return out


def run_ameliorations(run: Run, n_resamples: int, seed: int) -> list[Amelioration]:
    """Every measure of the report tables x island paradigm x non-reference cell, in table order."""
    return [row for measure in TABLE_MEASURES if measure in set(run.items["measure"])
            for row in measure_ameliorations(run, measure, n_resamples, seed)]


def measure_ameliorations(run: Run, measure: str, n_resamples: int, seed: int) -> list[Amelioration]:
    """One measure's rows, islands weak to strong."""
    items = run.measure_items(measure)
    out = []
    for paradigm in run.paradigms:
        info = run.info_of(paradigm)
        if info.design != "island":
            continue  # the filler-gap design has no island effect to rescue
        sub = items[items["paradigm"] == paradigm]
        factors = matched_factors(sub, run.variant_columns)
        if factors:
            out += _contrasts(run, measure, info, sub, factors, n_resamples, seed)
    return sorted(out, key=Amelioration.order)


def _contrasts(run: Run, measure: str, info: ParadigmInfo, sub: pd.DataFrame, factors: list[str],
               n_resamples: int, seed: int) -> list[Amelioration]:
    by_cell = dd_by_cell(sub, factors)
    reference = tuple((f.removeprefix("variant."), min(sub[f].dropna().astype(str))) for f in factors)
    if reference not in by_cell:
        return []
    out = []
    for cell in (c for c in by_cell if c != reference):
        values = _paired(by_cell[reference], by_cell[cell])
        if len(values) == 0:
            continue  # no set holds both cells: no row
        label = " ".join(f"{f}={lv}" for f, lv in cell)
        rng = rng_for(seed, run.name, measure, info.name, "amelioration", label)
        estimates = bootstrap_means(values, n_resamples, rng).estimates()
        out.append(Amelioration(run.name, measure, info, reference, cell, len(values), *estimates))
    return out


def dd_by_cell(sub: pd.DataFrame, factors: list[str]) -> dict[Cell, pd.Series]:
    """Per cell, the DD of each matched set that holds it (indexed by set). A set with two
    items in one cell cannot say which to pair, so it leaves that cell."""
    sub = sub.dropna(subset=factors)
    names = [f.removeprefix("variant.") for f in factors]
    keys = [tuple(zip(names, levels)) for levels in zip(*(sub[f].astype(str) for f in factors))]
    out = {}
    for cell in sorted(set(keys)):
        dd = sub.loc[[k == cell for k in keys]].set_index("matched_set")["DD"].astype(float)
        out[cell] = dd[~dd.index.duplicated(keep=False)]
    return out


def _paired(reference: pd.Series, level: pd.Series) -> np.ndarray:
    """Sets x (reference DD > 0, level DD > 0, difference, reference DD, level DD, difference)."""
    both = reference.index.intersection(level.index).sort_values()
    ref, lev = reference.loc[both].to_numpy(), level.loc[both].to_numpy()
    ref_pos, lev_pos = (ref > DD_TOLERANCE) * 100.0, (lev > DD_TOLERANCE) * 100.0
    return np.column_stack([ref_pos, lev_pos, lev_pos - ref_pos, ref, lev, lev - ref])


def amelioration_frame(rows: list[Amelioration]) -> pd.DataFrame:
    """Tidy table: one row per run x measure x island x contrast, value / lo / hi per statistic."""
    records = []
    for r in rows:
        rec = {"run": r.run, "measure": r.measure, "paradigm": r.info.name, "island": r.info.label,
               "dependency": r.info.dependency, "strength": r.info.strength or "", "contrast": r.contrast,
               "reference": ", ".join(f"{f}={lv}" for f, lv in r.reference), "n_sets": r.n_sets}
        for name in STATS:
            est = getattr(r, name)
            rec[name], rec[f"{name}_lo"], rec[f"{name}_hi"] = est.value, est.lo, est.hi
        records.append(rec)
    return pd.DataFrame.from_records(records)


CAPTION = ("Each cell of the item-matched factors against the reference cell, where every factor is at "
           "its first level alphabetically (filler=bare, gap=gap), on the same matched sets (built with "
           "`gen build --vary filler --vary gap`): DD > 0 % and mean DD at the reference and at the level, "
           "and level − reference with a 95% paired percentile bootstrap interval over sets. The crossed "
           "row changes both factors at once. A negative Δ mean DD means the change shrinks the island "
           "effect (amelioration). Islands from weak to strong.")


def amelioration_table(rows: list[Amelioration]) -> Table:
    columns = ("island", "contrast", "matched sets", "DD > 0 % at reference", "DD > 0 % at level",
               "Δ DD > 0 (points) [95% CI]", "mean DD at reference", "mean DD at level", "Δ mean DD [95% CI]")
    body = tuple((r.island, r.contrast, str(r.n_sets), num(r.reference_acc.value, 1), num(r.level_acc.value, 1),
                  with_ci(r.diff_acc), num(r.reference_DD.value), num(r.level_DD.value), with_ci(r.diff_DD, 2))
                 for r in rows)
    return Table(columns, body, CSV)


def amelioration_blocks(run: Run, rows: list[Amelioration]) -> list[Block]:
    """The report section of one run: the caption, then one table per measure."""
    if not rows:
        return []
    blocks: list[Block] = [Heading("Amelioration: what rescues an island", 3), Text(CAPTION)]
    for measure, group in itertools.groupby(rows, key=lambda r: r.measure):
        blocks += [Text(f"{run.measure_label(measure)}:"), amelioration_table(list(group))]
    return blocks
