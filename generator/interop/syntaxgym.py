"""SyntaxGym test suites: one JSON per paradigm (schema of cpllab/syntaxgym-core).

SyntaxGym numbers regions once per suite, and every condition of every item has the same
regions. Our sentences name their regions, and the conditions of one paradigm do not all
have the same ones (a short sentence has an `object` where a long one has a `gap`). The
region sequence of a suite is therefore the shortest common supersequence of the region
names of all its sentences; a sentence leaves the regions it lacks empty. Gaps are empty
regions. A sentence without regions is one region named `sentence`.

The conditions, in the item design's canonical order, and the predictions come from the
paradigm's design (suite_format/designs.py). Predictions (surprisal, metric "sum"): the
design's interaction, once on the whole sentence and once on the critical region.
- island: the extra surprisal of the long island sentence over what length and structure add
  separately, ((LI) - (SI)) > ((LN) - (SN)), i.e. DD > 0. The critical region is the first
  region after the gap that the long-island sentences fill (where a parser first notices that
  the gap has no licit filler).
- filler_gap: a wh-filler raises surprisal more where no gap follows than where one does,
  ((wh_nogap) - (that_nogap)) > ((wh_gap) - (that_gap)), i.e. licensing > 0 (Wilcox et al.
  2018's wh-licensing interaction, written as one formula). The critical region is the one
  the design names, `spillover` (the words right after the gap)."""

from __future__ import annotations

import re

from generator.interop.common import InteropError, Suite, dump_json, paradigm_design, sentence_regions, violations
from generator.suite import Item
from suite_format import Design

METRIC = "sum"
_ASCII_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def interaction_formula(region: str, design: Design) -> str:
    """The design's interaction > 0 in surprisal: (c3 - c2) > (c1 - c0) over its conditions in
    canonical order (a0,b0) (a1,b0) (a0,b1) (a1,b1), when c3 carries a negative log-probability
    sign (island: ((LI) - (SI)) > ((LN) - (SN))); the mirror (c1 - c0) > (c3 - c2) otherwise
    (filler_gap: ((wh_nogap) - (that_nogap)) > ((wh_gap) - (that_gap)))."""
    c0, c1, c2, c3 = design.conditions
    first, second = ((c3, c2), (c1, c0)) if design.signs[c3] < 0 else ((c1, c0), (c3, c2))
    return (f"(({region};%{first[0]}%) - ({region};%{first[1]}%)) > "
            f"(({region};%{second[0]}%) - ({region};%{second[1]}%))")


def _weight(name: str) -> int:
    return 1 if name == "gap" else 2  # aligning regions with words matters more than aligning gaps


def _scs(a: list[str], b: list[str]) -> tuple[list[str], list[int], list[int]]:
    """A short common supersequence of a and b (from their heaviest common subsequence),
    with the position where each element of a and of b lands."""
    n, m = len(a), len(b)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1])
            if a[i] == b[j]:
                best[i][j] = max(best[i][j], _weight(a[i]) + best[i + 1][j + 1])
    merged: list[str] = []
    map_a: list[int] = []
    map_b: list[int] = []
    i = j = 0
    while i < n or j < m:
        if i < n and j < m and a[i] == b[j] and best[i][j] == _weight(a[i]) + best[i + 1][j + 1]:
            map_a.append(len(merged)); map_b.append(len(merged)); merged.append(a[i]); i += 1; j += 1
        elif j >= m or (i < n and best[i + 1][j] >= best[i][j + 1]):
            map_a.append(len(merged)); merged.append(a[i]); i += 1
        else:
            map_b.append(len(merged)); merged.append(b[j]); j += 1
    return merged, map_a, map_b


def region_layout(items: list[Item]) -> tuple[list[str], dict[tuple[str, ...], list[int]]]:
    """The merged region names and, for each distinct name sequence, its region positions."""
    merged: list[str] = []
    maps: dict[tuple[str, ...], list[int]] = {}
    for item in items:
        for condition in item.layout.conditions:
            names = tuple(name for name, _ in sentence_regions(item.conditions[condition]))
            if names in maps:
                continue
            merged, map_old, map_new = _scs(merged, list(names))
            for key, positions in maps.items():
                maps[key] = [map_old[p] for p in positions]
            maps[names] = map_new
    return merged, maps


def region_meta(merged: list[str]) -> dict[str, str]:
    seen: dict[str, int] = {}
    meta = {}
    for number, name in enumerate(merged, start=1):
        seen[name] = seen.get(name, 0) + 1
        meta[str(number)] = name if seen[name] == 1 else f"{name}_{seen[name]}"
    return meta


def critical_region(merged: list[str], rows: list[dict[str, list[str]]], design: Design) -> int | None:
    """1-based number of the critical region: the region the design names (its first
    occurrence), or, for a design that names none (island), the first region after the gap
    filled in some sentence of a violation condition (long_island)."""
    if design.critical_region is not None:
        return merged.index(design.critical_region) + 1 if design.critical_region in merged else None
    if "gap" not in merged:
        return None
    bad = violations(design)
    start = merged.index("gap") + 1
    for index in range(start, len(merged)):
        if merged[index] != "gap" and any(row[c][index] for row in rows for c in bad):
            return index + 1
    return None


def suite_json(suite_name: str, paradigm: str, items: list[Item]) -> dict:
    design = paradigm_design(paradigm, items)
    conditions = design.conditions
    for condition in conditions:
        if not _ASCII_NAME.match(condition):
            raise InteropError(f"condition name {condition!r} is not ASCII letters, digits, _ or -")
    merged, maps = region_layout(items)
    rows: list[dict[str, list[str]]] = []
    for item in items:
        row = {}
        for condition in conditions:
            regions = sentence_regions(item.conditions[condition])
            contents = [""] * len(merged)
            for position, (_, text) in zip(maps[tuple(n for n, _ in regions)], regions):
                contents[position] = text
            row[condition] = contents
        rows.append(row)
    predictions = [{"type": "formula", "formula": interaction_formula("*", design)}]
    critical = critical_region(merged, rows, design)
    if critical is not None:
        predictions.append({"type": "formula", "formula": interaction_formula(str(critical), design)})
    return {
        "meta": {"name": f"{suite_name}_{paradigm}", "metric": METRIC},
        "region_meta": region_meta(merged),
        "predictions": predictions,
        "items": [
            {
                "item_number": number,
                "conditions": [
                    {"condition_name": condition,
                     "regions": [{"region_number": k, "content": text}
                                 for k, text in enumerate(row[condition], start=1)]}
                    for condition in conditions
                ],
            }
            for number, row in enumerate(rows, start=1)
        ],
    }


def export(suite: Suite) -> dict[str, str]:
    return {f"{paradigm}.json": dump_json(suite_json(suite.name, paradigm, items), indent=1)
            for paradigm, items in suite.paradigms.items()}
