"""Native-speaker review of a suite: blinded review sheets and their scoring (docs/review.md).

A sheet holds a seeded sample of items, every sentence a row, the rows shuffled across
items and paradigms; the reader sees only an opaque row id, the sentence, whether it is
meant to be grammatical or a violation, and the labels allowed for it. Where each row
comes from lives in a key file beside the sheet. Scoring reads the key and several filled
copies of the sheet and computes label rates with Wilson intervals and inter-reader agreement.

Violation rows also ask how bad the sentence is (the graded scale: clearly-bad / degraded /
acceptable), since what rescues an island is a matter of degree. In a suite built with
`--vary`, a sample is of matched sets: every level of a sampled set is in the sheet, each
sentence once, and the figures are given per paradigm and level."""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from .suite import Item, Suite, atomic_write_text

GRAMMATICAL, VIOLATION = "grammatical", "violation"
ALLOWED_LABELS = {
    GRAMMATICAL: ("ok", "odd-mild", "odd-strong", "ungrammatical"),
    VIOLATION: ("ok", "alt-parse-clear", "alt-parse-weak", "second-error"),
}
# What is reported: measure name -> the labels it counts, for each kind of row.
MEASURES = {
    GRAMMATICAL: (("ungrammatical", ("ungrammatical",)),
                  ("odd-strong", ("odd-strong",)),
                  ("odd-mild", ("odd-mild",))),
    VIOLATION: (("alt-parse-clear", ("alt-parse-clear",)),
                ("alt-parse-weak", ("alt-parse-weak",)),
                ("any-acceptable-parse", ("alt-parse-clear", "alt-parse-weak")),
                ("second-error", ("second-error",))),
}
# How bad a violation is, asked beside its label (None: the sheet has no severity column).
SEVERITIES = ("clearly-bad", "degraded", "acceptable")
SEVERITY = "severity"                 # agreement over the graded scale
SEVERITY_PREFIX = "severity: "        # rate names: "severity: degraded"
SHEET_COLUMNS = ("row_id", "meant_to_be", "sentence", "allowed_labels", "judgment", "severity", "comment")
KEY_COLUMNS = ("row_id", "paradigm", "item_id", "condition", "meant_to_be", "sentence")
LEVEL_COLUMN = "level"  # optional in keys written before suites were sampled by level
ALL = "all"


class ReviewError(ValueError):
    """A review sheet or key that cannot be used; the message names file and line and the fix."""


@dataclass(frozen=True)
class KeyRow:
    """One sheet row and where it comes from."""

    row_id: str
    paradigm: str
    item_id: str
    condition: str
    meant_to_be: str  # GRAMMATICAL or VIOLATION
    sentence: str
    level: str = ""   # the item's levels of the varied factors, "filler=dlinked gap=resumptive"

    @property
    def group(self) -> str:
        """What figures are given for: the paradigm, or the paradigm at one level."""
        return f"{self.paradigm} [{self.level}]" if self.level else self.paradigm


# ---------------------------------------------------------------------------------------
# Writing a sheet


def _row_id(seed: int, paradigm: str, item_id: str, condition: str) -> str:
    """Opaque but stable: says nothing about the row's origin, differs between seeds."""
    digest = hashlib.sha256(f"{seed}\t{paradigm}\t{item_id}\t{condition}".encode()).hexdigest()
    return "r" + digest[:10]


def _rng(seed: int, purpose: str) -> random.Random:
    # A string seed is hashed with SHA-512 by `random`: independent of PYTHONHASHSEED.
    return random.Random(f"isole-review\t{seed}\t{purpose}")


def varied_factors(suite: Suite, paradigm: str) -> tuple[str, ...]:
    """The factors the suite crossed item-matched in this paradigm (manifest `vary`)."""
    described = (suite.manifest.get("paradigms") or {}).get(paradigm) or {}
    vary = described.get("vary", suite.manifest.get("vary"))
    return (vary,) if isinstance(vary, str) else tuple(vary or ())


def _matched_sets(items: Sequence[Item]) -> list[tuple[Item, ...]]:
    sets: dict[str, list[Item]] = {}
    for item in items:
        sets.setdefault(item.set_id, []).append(item)
    return [tuple(v) for v in sets.values()]


def sample_rows(suite: Suite, n: int, seed: int, paradigms: Sequence[str] = ()) -> list[KeyRow]:
    """`n` items per paradigm (seeded), all four sentences of each, shuffled across the sample.
    In a suite built with --vary, `n` matched sets: every level of each, so `n` items per
    level; a sentence shared by two levels is one row of the sheet, two rows of the key."""
    chosen = list(paradigms) or sorted(suite.paradigms)
    unknown = [p for p in chosen if p not in suite.paradigms]
    if unknown:
        raise ReviewError(f"unknown paradigm {unknown[0]!r}; this suite has: {', '.join(sorted(suite.paradigms))}")
    if n < 1:
        raise ReviewError(f"--n must be at least 1, not {n}")
    rows: list[KeyRow] = []
    for paradigm in chosen:
        factors = varied_factors(suite, paradigm)
        units = _matched_sets(suite.paradigms[paradigm]) if factors else [(i,) for i in suite.paradigms[paradigm]]
        if n > len(units):
            what = "matched sets" if factors else "items"
            raise ReviewError(f"--n {n} is more than the {len(units)} {what} of {paradigm}; "
                              f"use --n {len(units)} or less")
        ids_of_text: dict[str, str] = {}  # one row id per sentence of the paradigm
        for unit in _rng(seed, paradigm).sample(units, n):
            for item in unit:
                level = " ".join(f"{f}={item.variant.get(f, '')}" for f in factors)
                for condition in item.layout.conditions:
                    sentence = item.conditions[condition]
                    kind = GRAMMATICAL if sentence.grammatical else VIOLATION
                    row_id = ids_of_text.setdefault(sentence.text, _row_id(seed, paradigm, item.item_id, condition))
                    rows.append(KeyRow(row_id, paradigm, item.item_id, condition, kind, sentence.text, level))
    if len({(r.row_id, r.item_id, r.condition) for r in rows}) != len(rows):
        raise ReviewError("two sampled rows share an id (the suite repeats an item id)")
    _rng(seed, "shuffle").shuffle(rows)
    return rows


def _allowed_text(kind: str) -> str:
    labels = " / ".join(ALLOWED_LABELS[kind])
    return f"{labels}; severity: {' / '.join(SEVERITIES)}" if kind == VIOLATION else labels


def key_path_for(sheet: Path) -> Path:
    """sheet.csv -> sheet.key.csv, beside it."""
    return sheet.with_name(sheet.stem + ".key.csv")


def _csv_text(header: Sequence[str], records: Iterable[Sequence[str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(records)
    return buffer.getvalue()


def write_sheet(sheet: Path, rows: Sequence[KeyRow]) -> Path:
    """Write the blinded sheet and its key (both atomically); return the key's path."""
    key = key_path_for(sheet)
    leveled = any(r.level for r in rows)
    atomic_write_text(key, _csv_text(KEY_COLUMNS + ((LEVEL_COLUMN,) if leveled else ()), (
        (r.row_id, r.paradigm, r.item_id, r.condition, r.meant_to_be, r.sentence) + ((r.level,) if leveled else ())
        for r in rows)))
    unique = {r.row_id: r for r in reversed(rows)}  # first occurrence of each sentence, in sheet order
    atomic_write_text(sheet, _csv_text(SHEET_COLUMNS, (
        (r.row_id, r.meant_to_be, r.sentence, _allowed_text(r.meant_to_be), "", "", "")
        for r in rows if unique[r.row_id] is r)))
    for path in (key, sheet):
        os.chmod(path, 0o644)  # temp files are private; a sheet is meant to be copied and shared
    return key


# ---------------------------------------------------------------------------------------
# Reading the key and filled sheets


def _delimiter(text: str, required: Sequence[str]) -> str:
    """Comma, or the semicolon or tab a spreadsheet program used (Italian-locale ones save
    "CSV" with semicolons): the one that splits the header into the required columns."""
    header = text.split("\n", 1)[0]
    for delimiter in (",", ";", "\t"):
        if set(required) <= {cell.strip().strip('"') for cell in header.split(delimiter)}:
            return delimiter
    return ","


def _read_csv(path: Path, required: Sequence[str]) -> list[tuple[int, dict[str, str]]]:
    """(line number, row) pairs; the header must hold the required columns."""
    try:
        # utf-8-sig: spreadsheet programs often save with a byte-order mark.
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ReviewError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReviewError(f"{path} is a folder, not a CSV file") from None
    except UnicodeDecodeError as exc:
        raise ReviewError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); "
                          f"save it as CSV UTF-8") from None
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=_delimiter(text, required))
    try:
        header = [h.strip() for h in (reader.fieldnames or [])]
        missing = [c for c in required if c not in header]
        if missing:
            raise ReviewError(f"{path}:1: the header lacks the column(s) {', '.join(missing)} "
                              f"(expected {', '.join(required)})")
        reader.fieldnames = header
        rows = []
        for row in reader:
            if not any((v or "").strip() for k, v in row.items() if k is not None):
                continue  # a blank line left by a spreadsheet
            rows.append((reader.line_num, {k: (v or "").strip() for k, v in row.items() if k is not None}))
    except csv.Error as exc:  # a cell over the csv module's limit, a stray NUL…
        raise ReviewError(f"{path}:{reader.line_num}: not a readable CSV row ({exc}); save the sheet as CSV UTF-8") from None
    return rows


class Key(dict):
    """Row id -> its key row (the first, where levels of a matched set share a sentence);
    `rows` holds every key row, each level's own."""

    def __init__(self, rows: Sequence[KeyRow], path: Path | None = None):
        super().__init__()
        for row in rows:
            self.setdefault(row.row_id, row)
        self.rows = tuple(rows)
        self.path = path


def key_rows(key: dict[str, KeyRow]) -> tuple[KeyRow, ...]:
    return key.rows if isinstance(key, Key) else tuple(key.values())


def read_key(path: Path) -> Key:
    rows: list[KeyRow] = []
    first: dict[str, KeyRow] = {}
    places: set[tuple[str, str, str]] = set()
    for line, row in _read_csv(path, KEY_COLUMNS):
        if row["meant_to_be"] not in ALLOWED_LABELS:
            raise ReviewError(f"{path}:{line}: meant_to_be is {row['meant_to_be']!r}, "
                              f"expected {GRAMMATICAL} or {VIOLATION}")
        entry = KeyRow(*(row[c] for c in KEY_COLUMNS), level=row.get(LEVEL_COLUMN, ""))
        # An id may recur only for one sentence shared by the levels of a matched set.
        place = (entry.row_id, entry.item_id, entry.condition)
        if place in places or first.setdefault(entry.row_id, entry).sentence != entry.sentence:
            raise ReviewError(f"{path}:{line}: row id {row['row_id']} appears twice")
        places.add(place)
        rows.append(entry)
    if not rows:
        raise ReviewError(f"{path}: the key has no rows")
    return Key(rows, Path(path))


@dataclass(frozen=True)
class FilledSheet:
    path: Path
    judgments: dict[str, str]  # row id -> label
    severities: dict[str, str] | None = None  # violation row id -> severity; None: no severity column


def read_filled_sheet(path: Path, key: dict[str, KeyRow], max_problems: int = 20) -> FilledSheet:
    """Every row of the key judged once with a label allowed for it; else one ReviewError
    listing the problems by file and line."""
    problems: list[str] = []
    judgments: dict[str, str] = {}
    severities: dict[str, str] = {}
    seen: set[str] = set()
    rows = _read_csv(path, ("row_id", "judgment"))
    graded = bool(rows) and "severity" in rows[0][1]  # sheets written before the scale have no column
    for line, row in rows:
        row_id, label = row["row_id"], row["judgment"].lower()
        entry = key.get(row_id)
        severity = row.get("severity", "").lower()
        if graded and entry is not None and entry.meant_to_be == VIOLATION and severity not in SEVERITIES:
            problems.append(f"{path}:{line}: row {row_id}: severity {row.get('severity', '')!r}; a violation row "
                            f"says how bad it is: one of {', '.join(SEVERITIES)}")
        elif graded and entry is not None and entry.meant_to_be == VIOLATION:
            severities[row_id] = severity
        if entry is None:
            where = f" {key.path}" if isinstance(key, Key) and key.path else ""
            problems.append(f"{path}:{line}: row id {row_id!r} is not in the key{where} "
                            f"(a sheet from another sample, or an edited id?)")
        elif row_id in seen:
            problems.append(f"{path}:{line}: row {row_id} appears twice")
        elif not label:
            problems.append(f"{path}:{line}: row {row_id} has no judgment "
                            f"(one of: {', '.join(ALLOWED_LABELS[entry.meant_to_be])})")
        elif label not in ALLOWED_LABELS[entry.meant_to_be]:
            problems.append(f"{path}:{line}: row {row_id}: {row['judgment']!r} is not a label for a "
                            f"{entry.meant_to_be} row; use one of: {', '.join(ALLOWED_LABELS[entry.meant_to_be])}")
        else:
            judgments[row_id] = label
        seen.add(row_id)
    absent = [r for r in key if r not in seen]
    if absent:
        problems.append(f"{path}: {len(absent)} row(s) of the key are missing from the sheet "
                        f"(first: {absent[0]}); every reader judges every row")
    if problems:
        more = f"\n... and {len(problems) - max_problems} more" if len(problems) > max_problems else ""
        raise ReviewError(f"{len(problems)} problem(s) in {path}:\n" + "\n".join(problems[:max_problems]) + more)
    return FilledSheet(Path(path), judgments, severities if graded else None)


def find_key(sheets: Sequence[Path]) -> Path:
    """The key beside the sheets: <sheet>.key.csv, or the only *.key.csv in their folder."""
    for sheet in sheets:
        if key_path_for(sheet).exists():
            return key_path_for(sheet)
    folders = sorted({Path(s).resolve().parent for s in sheets})
    candidates = sorted(k for f in folders for k in f.glob("*.key.csv"))
    if len(candidates) == 1:
        return candidates[0]
    where = ", ".join(str(f) for f in folders)
    if not candidates:
        raise ReviewError(f"no key file (*.key.csv) beside the sheets in {where}; pass it with --key")
    raise ReviewError(f"several key files beside the sheets ({', '.join(c.name for c in candidates)}); "
                      f"pass the right one with --key")


# ---------------------------------------------------------------------------------------
# Scoring: label rates with Wilson intervals, and agreement between readers

POOLED = "pooled"


@dataclass(frozen=True)
class Rate:
    """How many judgments of one kind of row carry the measure's labels, with a Wilson 95% interval."""

    paradigm: str  # a paradigm, or ALL
    reader: str  # a reader, or POOLED (every reader's judgments together)
    meant_to_be: str
    measure: str
    count: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.count / self.n


@dataclass(frozen=True)
class Agreement:
    """Agreement of all readers over one set of rows. Over ALL rows the two label sets share
    only `ok` (nothing to report); the per-kind figures are the ones to read first."""

    paradigm: str
    rows: str  # GRAMMATICAL, VIOLATION or ALL
    n_rows: int
    fleiss_kappa: float | None  # None: undefined (every judgment the same label)
    mean_pairwise: float  # mean over reader pairs of the share of rows they label alike


@dataclass(frozen=True)
class PairAgreement:
    reader_a: str
    reader_b: str
    rows: str
    agree: int
    n: int


@dataclass(frozen=True)
class ReviewScore:
    readers: tuple[str, ...]
    sheets: tuple[Path, ...]
    rates: tuple[Rate, ...]
    agreement: tuple[Agreement, ...]  # empty with fewer than two readers
    pairs: tuple[PairAgreement, ...]


def wilson(count: int, n: int) -> tuple[float, float]:
    """Wilson score 95% interval of count / n."""
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(count, n, alpha=0.05, method="wilson")
    # Exact at the ends (statsmodels leaves rounding error such as 3e-17 for 0 / n).
    return (0.0 if count == 0 else float(low)), (1.0 if count == n else float(high))


def fleiss_kappa(labels_per_row: Sequence[Sequence[str]]) -> float | None:
    """Fleiss' kappa of rows each judged by the same number of readers; None when undefined."""
    import numpy as np
    from statsmodels.stats import inter_rater

    categories = sorted({label for row in labels_per_row for label in row})
    if len(categories) < 2:
        return None  # one label throughout: chance agreement is 1, kappa is 0/0
    codes = np.array([[categories.index(label) for label in row] for row in labels_per_row])
    table, _ = inter_rater.aggregate_raters(codes, n_cat=len(categories))
    return float(inter_rater.fleiss_kappa(table, method="fleiss"))


def reader_names(sheets: Sequence[Path]) -> tuple[str, ...]:
    """The sheets' file names without .csv; where two clash, as many parent folders as it
    takes to tell them apart (r1/sheet, r2/sheet)."""
    parts = [Path(s).resolve().with_suffix("").parts for s in sheets]
    if len(set(parts)) != len(parts):
        raise ReviewError(f"the sheet {next(s for s, p in zip(sheets, parts) if parts.count(p) > 1)} is given twice")
    for depth in range(1, max(len(p) for p in parts) + 1):
        names = ["/".join(p[-depth:]) for p in parts]
        if len(set(names)) == len(names):
            return tuple(names)
    raise AssertionError("distinct paths always have distinct suffixes")


def score_sheets(key: dict[str, KeyRow], sheets: Sequence[FilledSheet]) -> ReviewScore:
    readers = reader_names([s.path for s in sheets])
    every_row = key_rows(key)
    groups = sorted({r.group for r in every_row})
    graded = bool(sheets) and all(sheet.severities is not None for sheet in sheets)

    def rows_of(group: str, kind: str) -> list[KeyRow]:
        return [r for r in every_row if group in (ALL, r.group) and kind in (ALL, r.meant_to_be)]

    def rates_of(group: str, kind: str, measure: str, rows: list[KeyRow], answer) -> list[Rate]:
        per_reader = [sum(answer(sheet, r) for r in rows) for sheet in sheets]
        return [Rate(group, reader, kind, measure, count, n, *wilson(count, n))
                for reader, count, n in ((POOLED, sum(per_reader), len(rows) * len(sheets)),
                                         *((name, c, len(rows)) for name, c in zip(readers, per_reader)))]

    rates = []
    for group in (*groups, ALL):
        for kind, measures in MEASURES.items():
            rows = rows_of(group, kind)
            if not rows:
                continue
            for measure, labels in measures:
                rates += rates_of(group, kind, measure, rows,
                                  lambda sheet, r, labels=labels: sheet.judgments[r.row_id] in labels)
            if kind == VIOLATION and graded:
                for severity in SEVERITIES:
                    rates += rates_of(group, kind, SEVERITY_PREFIX + severity, rows,
                                      lambda sheet, r, severity=severity: sheet.severities[r.row_id] == severity)
    if len(sheets) < 2:
        return ReviewScore(readers, tuple(s.path for s in sheets), tuple(rates), (), ())

    agreement, pairs = [], []
    for group in (*groups, ALL):
        for kind in (GRAMMATICAL, VIOLATION, ALL) + ((SEVERITY,) if graded else ()):
            rows = rows_of(group, VIOLATION if kind == SEVERITY else kind)
            if not rows:
                continue
            answers = (lambda sheet, r: sheet.severities[r.row_id]) if kind == SEVERITY else \
                (lambda sheet, r: sheet.judgments[r.row_id])
            table = [[answers(sheet, r) for sheet in sheets] for r in rows]
            shares = []
            for (i, a), (j, b) in itertools.combinations(enumerate(readers), 2):
                agree = sum(row[i] == row[j] for row in table)
                shares.append(agree / len(rows))
                if group == ALL:
                    pairs.append(PairAgreement(a, b, kind, agree, len(rows)))
            agreement.append(Agreement(group, kind, len(rows), fleiss_kappa(table),
                                       sum(shares) / len(shares)))
    return ReviewScore(readers, tuple(s.path for s in sheets), tuple(rates), tuple(agreement), tuple(pairs))


# ---------------------------------------------------------------------------------------
# Output: rich tables on a terminal, TSV in a pipe, JSON for the record


def _kappa_text(kappa: float | None) -> str:
    return "n/a" if kappa is None else f"{kappa:.3f}"


def render_tsv(score: ReviewScore) -> str:
    lines = ["# label rates: count / n judgments, Wilson 95% interval; reader 'pooled' = all readers",
             "paradigm\treader\tmeant_to_be\tmeasure\tcount\tn\tpercent\twilson_low_pct\twilson_high_pct"]
    lines += [f"{r.paradigm}\t{r.reader}\t{r.meant_to_be}\t{r.measure}\t{r.count}\t{r.n}\t"
              f"{100 * r.rate:.1f}\t{100 * r.low:.1f}\t{100 * r.high:.1f}" for r in score.rates]
    if not score.agreement:
        lines += ["", "# agreement: needs two or more sheets"]
        return "\n".join(lines) + "\n"
    lines += ["", "# agreement between readers: Fleiss' kappa over the labels, mean pairwise percent agreement",
              "paradigm\trows\tn_rows\tfleiss_kappa\tmean_pairwise_pct"]
    lines += [f"{a.paradigm}\t{a.rows}\t{a.n_rows}\t{_kappa_text(a.fleiss_kappa)}\t{100 * a.mean_pairwise:.1f}"
              for a in score.agreement]
    lines += ["", "# pairwise agreement, all paradigms", "reader_a\treader_b\trows\tagree\tn\tpercent"]
    lines += [f"{p.reader_a}\t{p.reader_b}\t{p.rows}\t{p.agree}\t{p.n}\t{100 * p.agree / p.n:.1f}"
              for p in score.pairs]
    return "\n".join(lines) + "\n"


def render_text(score: ReviewScore) -> None:
    """Tables for a terminal: one per paradigm, a row per measure, a column per reader (pooled
    first). Cells fold rather than being cut when the terminal is narrow."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    def table(title: str, *columns: str) -> Table:
        out = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
        for i, name in enumerate(columns):
            out.add_column(name, justify="left" if i == 0 else "right", overflow="fold")
        return out

    console = Console()
    console.print("Label rates: count/n judgments, percent, [Wilson 95% interval]. "
                  "Grammatical rows: ungrammatical, odd-strong, odd-mild; violation rows: the others.")
    readers = (POOLED, *score.readers) if len(score.readers) > 1 else score.readers
    cells = {(r.paradigm, r.measure, r.reader): r for r in score.rates}
    for paradigm in dict.fromkeys(r.paradigm for r in score.rates):
        rates = table(paradigm, "measure", *readers)
        for kind, measures in MEASURES.items():
            graded = [(SEVERITY_PREFIX + v, ()) for v in SEVERITIES] if kind == VIOLATION else []
            present = [m for m, _ in (*measures, *graded) if (paradigm, m, readers[0]) in cells]
            for measure in present:
                rates.add_row(measure, *(
                    f"{r.count}/{r.n} {100 * r.rate:.1f}%\n[{100 * r.low:.1f}–{100 * r.high:.1f}]"
                    for r in (cells[paradigm, measure, reader] for reader in readers)),
                    end_section=measure == present[-1])
        console.print(rates)
    if not score.agreement:
        console.print("agreement: needs two or more sheets")
        return
    agreement = table(f"Agreement between {len(score.readers)} readers "
                      f"(Fleiss' kappa; mean pairwise percent agreement)",
                      "paradigm", "rows", "n rows", "kappa", "pairwise")
    for a in score.agreement:
        agreement.add_row(a.paradigm, a.rows, str(a.n_rows), _kappa_text(a.fleiss_kappa),
                          f"{100 * a.mean_pairwise:.1f}%", end_section=a.rows == ALL)
    console.print(agreement)
    pairs = table("Pairwise agreement, all paradigms", "reader", "reader", "rows", "agree/n", "percent")
    for p in score.pairs:
        pairs.add_row(p.reader_a, p.reader_b, p.rows, f"{p.agree}/{p.n}", f"{100 * p.agree / p.n:.1f}%")
    console.print(pairs)


def score_json(score: ReviewScore, key_path: Path) -> dict:
    return {
        "key": str(key_path),
        "sheets": [str(s) for s in score.sheets],
        "readers": list(score.readers),
        "allowed_labels": {kind: list(labels) for kind, labels in ALLOWED_LABELS.items()},
        "measures": {kind: {m: list(ls) for m, ls in measures} for kind, measures in MEASURES.items()},
        "severities": list(SEVERITIES),
        "rates": [{"paradigm": r.paradigm, "reader": r.reader, "meant_to_be": r.meant_to_be,
                   "measure": r.measure, "count": r.count, "n": r.n, "rate": r.rate,
                   "wilson_low": r.low, "wilson_high": r.high} for r in score.rates],
        "agreement": [{"paradigm": a.paradigm, "rows": a.rows, "n_rows": a.n_rows,
                       "fleiss_kappa": a.fleiss_kappa, "mean_pairwise_agreement": a.mean_pairwise}
                      for a in score.agreement],
        "pairwise": [{"reader_a": p.reader_a, "reader_b": p.reader_b, "rows": p.rows,
                      "agree": p.agree, "n": p.n} for p in score.pairs],
    }


def write_json(path: Path, score: ReviewScore, key_path: Path) -> None:
    import json

    atomic_write_text(path, json.dumps(score_json(score, key_path), indent=1, ensure_ascii=False) + "\n")
