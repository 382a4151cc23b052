"""Latin-square lists for a human acceptability experiment (7-point scale).

Items are numbered within each paradigm in file order; item i appears in list L in
condition conditions[(i + L) % 4], the conditions of the item's design in canonical order
(island: short_nonisland, long_nonisland, short_island, long_island; filler_gap:
that_nogap, wh_nogap, that_gap, wh_gap). Each list thus has one condition of every item, and
over any four consecutive lists every item appears in every condition once; within a list
each paradigm's items spread evenly over the four conditions (exactly when its item count
is a multiple of 4). The number of lists must be a multiple of 4 for that balance.
Fillers, when given, go into every list. Each list is shuffled with its own generator
seeded by `<seed>:<list>`, so the same suite, fillers and seed give the same files.

A list CSV has columns list, position, kind (item|filler), paradigm, item_id, condition,
text and an empty `rating` (1 = completely unacceptable ... 7 = completely acceptable).
Ratings come back as one CSV with a `participant` column added to the rows of the list
each participant saw (see benchmark/ratings.py)."""

from __future__ import annotations

import csv
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from generator.interop.common import (InteropError, Suite, clean_spaces, design_conditions, dump_csv, dump_json,
                                      suite_designs)
from suite_format import ISLAND

HEADER = ("list", "position", "kind", "paradigm", "item_id", "condition", "text", "rating")
SCALE = (1, 7)
FILLER = "filler"


@dataclass(frozen=True)
class Trial:
    kind: str
    paradigm: str
    item_id: str
    condition: str
    text: str


def read_fillers(path: Path) -> list[Trial]:
    """Fillers: a CSV with a `text` column (optional `filler_id`), or plain text, one a line."""
    path = Path(path)
    if not path.is_file():
        raise InteropError(f"{path}: fillers file not found")
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    first = lines[0].strip().lower() if lines else ""
    fillers: list[Trial] = []
    if path.suffix.lower() == ".csv" or first.split(",")[0] in ("text", "filler_id"):
        reader = csv.DictReader(lines)
        if "text" not in (reader.fieldnames or []):
            raise InteropError(f"{path}:1: fillers CSV needs a `text` column")
        for line_no, row in enumerate(reader, start=2):
            text = clean_spaces(row.get("text") or "")
            if not text:
                raise InteropError(f"{path}:{line_no}: empty filler text")
            filler_id = (row.get("filler_id") or "").strip() or f"filler-{len(fillers) + 1:03d}"
            fillers.append(Trial(FILLER, FILLER, filler_id, FILLER, text))
    else:
        for line in lines:
            if line.strip():
                fillers.append(Trial(FILLER, FILLER, f"filler-{len(fillers) + 1:03d}", FILLER, clean_spaces(line)))
    duplicates = [k for k, n in Counter(f.item_id for f in fillers).items() if n > 1]
    if duplicates:
        raise InteropError(f"{path}: duplicate filler_id {duplicates[0]!r}")
    if not fillers:
        raise InteropError(f"{path}: no fillers in this file")
    return fillers


def build_lists(suite: Suite, lists: int, seed: int, fillers: list[Trial] = ()) -> list[list[Trial]]:
    if lists < 4 or lists % 4:
        raise InteropError(f"--lists {lists}: must be a positive multiple of 4 "
                           "(one condition per item per list, each condition equally often)")
    out = []
    for number in range(lists):
        trials = [
            Trial("item", paradigm, item.item_id, item.layout.conditions[(index + number) % 4],
                  item.conditions[item.layout.conditions[(index + number) % 4]].text)
            for paradigm, items in suite.paradigms.items()
            for index, item in enumerate(items)
        ]
        trials += list(fillers)
        random.Random(f"{seed}:{number + 1}").shuffle(trials)
        out.append(trials)
    return out


def export(suite: Suite, lists: int = 4, seed: int = 0, fillers: list[Trial] = ()) -> dict[str, str]:
    built = build_lists(suite, lists, seed, fillers)
    designs = suite_designs(suite)
    conditions = design_conditions(designs)  # island only: the four island conditions, as before
    files = {}
    design = {"suite": suite.name, "lists": lists, "seed": seed, "scale": list(SCALE),
              "fillers": len(fillers), "conditions_per_list": []}
    for number, trials in enumerate(built, start=1):
        rows = [(number, position, t.kind, t.paradigm, t.item_id, t.condition, t.text, "")
                for position, t in enumerate(trials, start=1)]
        files[f"list_{number:02d}.csv"] = dump_csv(HEADER, rows)
        counts = Counter(t.condition for t in trials if t.kind == "item")
        design["conditions_per_list"].append({c: counts[c] for c in conditions})
    if designs != (ISLAND,):
        design["designs"] = {d.name: list(d.conditions) for d in designs}
    files["design.json"] = dump_json(design, indent=2)
    readme = _readme(suite, lists, seed, len(fillers))
    if designs != (ISLAND,):
        readme += _designs_note(suite)
    files["README.md"] = readme
    return files


def _designs_note(suite: Suite) -> str:
    """For suites with designs other than the island 2x2: the conditions of each design and its paradigms."""
    lines = ["", "## Conditions", "", "Each paradigm's items rotate through the four conditions of its design:", ""]
    for design in suite_designs(suite):
        paradigms = [p for p, items in suite.paradigms.items() if any(i.design == design.name for i in items)]
        bad = [c for c in design.conditions if not design.grammatical[c]]
        lines.append(f"- {design.name}: {', '.join(design.conditions)} (ungrammatical: {', '.join(bad)}); "
                     f"paradigms: {', '.join(paradigms)}")
    lines += ["", "`bench ratings` reads the island conditions only: it reports the island paradigms of these",
              "lists and leaves the other designs' ratings out of its tables (they still count in each",
              "participant's z-scores; a ratings file with no island condition is refused). Analyse those",
              "yourself, e.g. the filler_gap licensing interaction",
              "z(that_nogap) + z(wh_gap) - z(wh_nogap) - z(that_gap) over the z-scored ratings.", ""]
    return "\n".join(lines)


def _readme(suite: Suite, lists: int, seed: int, n_fillers: int) -> str:
    return f"""# Rating lists for {suite.name}

{lists} Latin-square lists (seed {seed}); each has one condition of every item
({len(suite.items)} items) and {n_fillers} fillers, in its own random order.

Show participants the `text` column, one sentence at a time, with a 7-point scale:
1 = completely unacceptable, 7 = completely acceptable. Give each participant one list,
and the lists to equal numbers of participants.

Return the ratings as one CSV: the rows of the list each participant saw (keep at least
`item_id`, `condition`, and `paradigm` if you can), a `participant` column and the
`rating` filled in. Then:

    bench ratings ratings.csv --run results/<suite>/<run> --out ratings_report/

z-scores every participant's ratings (fillers included) and plots them beside the models.
"""
