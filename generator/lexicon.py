"""Load and validate the annotated lexicon (lexicon/*.csv, documented in lexicon/README.md).

Every problem is collected and reported together, each naming file, line and column."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from .formula import FeatureValue, Formula, FormulaError, parse_formula
from .languages import DEFAULT_LANGUAGE, Language, get_language
from .languages.columns import Column

class LexiconError(ValueError):
    """Invalid lexicon rows; the message lists every problem with file, line and column."""


@dataclass(frozen=True)
class Entry:
    table: str
    lemma: str
    features: Mapping[str, FeatureValue]
    forms: Mapping[str, tuple[str, ...]]
    formulas: Mapping[str, Formula]
    source: str  # "nouns.csv:12", for messages

    def feature(self, name: str) -> str:
        """The single value of a feature ('' when absent)."""
        value = self.features.get(name)
        if value is None or isinstance(value, float):
            return "" if value is None else str(value)
        return ";".join(sorted(value))

    def has(self, name: str, value: str) -> bool:
        have = self.features.get(name)
        return have is not None and not isinstance(have, float) and value in have

    def form(self, column: str, index: int = 0) -> str:
        return self.forms[column][index]

    @property
    def zipf(self) -> float:
        value = self.features.get("zipf", 0.0)
        return value if isinstance(value, float) else 0.0


@dataclass
class Lexicon:
    tables: dict[str, list[Entry]]
    language: str = DEFAULT_LANGUAGE                          # its code: the templates' filters follow it
    exceptions: dict[str, str] = field(default_factory=dict)  # form -> lemma, checked by hand
    files: dict[str, Path] = field(default_factory=dict)
    matches: dict = field(default_factory=dict, repr=False)   # (table, formula) -> matching indices

    def table(self, name: str) -> list[Entry]:
        return self.tables[name]

    def entry(self, table: str, lemma: str) -> Entry:
        for e in self.tables[table]:
            if e.lemma == lemma:
                return e
        raise KeyError(f"{table}: no lemma {lemma!r}")


def _check_formula(formula: Formula, where: str, errors: list[str], language: Language) -> None:
    """Atoms of a restriction must name features and values that arguments can have."""
    known: dict[str, frozenset[str] | None] = {"zipf": None, **language.reference_features,
                                               "lemma": None}  # any lemma: checked against the tables in load_lexicon
    for table, columns in language.tables.items():
        if table not in ("nouns", "names", "pronouns"):  # the tables arguments come from
            continue
        for c in columns:
            if c.kind == "feature":
                known[c.name] = (known.get(c.name) or frozenset()) | (c.values or frozenset())
    for atom in formula.atoms():
        if atom.feature not in known:
            errors.append(f"{where}: unknown feature {atom.feature!r} (known: {', '.join(sorted(known))})")
        elif atom.feature != "zipf" and known[atom.feature] and atom.value not in known[atom.feature]:
            errors.append(f"{where}: unknown value {atom.value!r} for {atom.feature!r}")


def load_table(path: Path, table: str, errors: list[str], language: Language) -> list[Entry]:
    columns = language.tables[table]
    by_name = {c.name: c for c in columns}
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        try:
            header = next(reader)
        except StopIteration:
            errors.append(f"{path.name}: empty file (expected a header row)")
            return entries
        header = [h.strip() for h in header]
        for h in header:
            if h not in by_name:
                errors.append(f"{path.name}:1: unknown column {h!r} (expected: {', '.join(by_name)})")
        for c in columns:
            if c.required and c.name not in header:
                errors.append(f"{path.name}:1: missing column {c.name!r}")
        for line_no, row in enumerate(reader, start=2):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                errors.append(f"{path.name}:{line_no}: {len(row)} cells, the header has {len(header)}")
                continue
            entry = _parse_row(path.name, line_no, dict(zip(header, (c.strip() for c in row))),
                               table, by_name, errors, language)
            if entry is None:
                continue
            if entry.lemma in seen:
                errors.append(f"{path.name}:{line_no}: column lemma: duplicate lemma {entry.lemma!r} "
                              f"(first on line {seen[entry.lemma]})")
                continue
            seen[entry.lemma] = line_no
            entries.append(entry)
    return entries


def _parse_row(file: str, line_no: int, cells: dict[str, str], table: str,
               columns: dict[str, Column], errors: list[str], language: Language) -> Entry | None:
    features: dict[str, FeatureValue] = {k: frozenset(v.split(";"))
                                         for k, v in language.implicit_features.get(table, {}).items()}
    forms: dict[str, tuple[str, ...]] = {}
    formulas: dict[str, Formula] = {}
    ok = True
    for name, column in columns.items():
        value = cells.get(name, "")
        where = f"{file}:{line_no}: column {name}"
        if not value:
            if column.required and column.kind != "text":
                errors.append(f"{where}: empty (required)")
                ok = False
            continue
        if column.kind == "form":
            forms[name] = (value,)
        elif column.kind == "paradigm":
            persons = tuple(p.strip() for p in value.split("|"))
            if len(persons) != 6 or not all(persons):
                errors.append(f"{where}: {value!r} must list six forms 1sg|2sg|3sg|1pl|2pl|3pl")
                ok = False
            forms[name] = persons
        elif column.kind == "formula":
            try:
                formulas[name] = parse_formula(value)
            except FormulaError as exc:
                errors.append(f"{where}: {exc}")
                ok = False
                continue
            _check_formula(formulas[name], where, errors, language)
        elif column.kind == "number":
            try:
                features[name] = float(value)
            except ValueError:
                errors.append(f"{where}: {value!r} is not a number")
                ok = False
        elif column.kind == "feature":
            values = [v.strip() for v in value.split(";")] if column.multi else [value]
            bad = [v for v in values if column.values is not None and v not in column.values]
            if bad:
                errors.append(f"{where}: unknown value(s) {', '.join(map(repr, bad))} "
                              f"(allowed: {', '.join(sorted(column.values or ()))})")
                ok = False
            features[name] = frozenset(values)
    for column, feature, value in language.required_when.get(table, ()):
        if column not in features and value in features.get(feature, ()):
            allowed = ", ".join(sorted(columns[column].values or ()))
            errors.append(f"{file}:{line_no}: column {column}: empty, but every row with {feature}={value} "
                          f"needs it ({allowed}; see lexicon/README.md)")
            ok = False
    if not ok or "lemma" not in forms:
        return None
    # The lemma as a feature, so a formula can list collocates (obj: lemma=tensione | lemma=dubbio).
    features["lemma"] = frozenset([forms["lemma"][0]])
    features.update(language.derived_features(table, forms, cells))
    return Entry(table, forms["lemma"][0], features, forms, formulas, f"{file}:{line_no}")


def load_exceptions(path: Path, errors: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    if not path.exists():
        return out
    with open(path, encoding="utf-8-sig", newline="") as handle:
        for line_no, row in enumerate(csv.DictReader(handle), start=2):
            form, lemma, reason = ((row.get(k) or "").strip() for k in ("form", "lemma", "reason"))
            if not (form and lemma and reason):
                errors.append(f"{path.name}:{line_no}: form, lemma and reason are all required")
                continue
            out[f"{form}\t{lemma}"] = reason
    return out


def _unreadable_as(path: Path, errors: list[str], empty, read):
    """`read()`, or `empty` with an error naming the file when it is not UTF-8 CSV text."""
    try:
        return read()
    except UnicodeDecodeError as exc:
        errors.append(f"{path.name}: not UTF-8 text (byte {exc.start}); save the file as UTF-8")
    except csv.Error as exc:
        errors.append(f"{path.name}: not a readable CSV file ({exc})")
    except IsADirectoryError:
        errors.append(f"{path.name}: a folder, not a CSV file")
    return empty


def _check_listed_lemmas(tables: dict[str, list[Entry]], errors: list[str]) -> None:
    """A restriction that lists collocates by lemma must name entries that exist: a typo would
    silently leave the verb without that object."""
    known = {e.lemma for entries in tables.values() for e in entries}
    for entries in tables.values():
        for entry in entries:
            for column, formula in entry.formulas.items():
                for atom in formula.atoms():
                    if atom.feature == "lemma" and atom.value not in known:
                        errors.append(f"{entry.source}: column {column}: lemma={atom.value} names no "
                                      f"entry of the lexicon (add it, or fix the spelling)")


def load_lexicon(directory: Path, language: str = DEFAULT_LANGUAGE) -> Lexicon:
    """The lexicon of `language` in `directory`: a folder of CSV tables, or a folder holding one
    such folder per language (lexicon/it, lexicon/en)."""
    from .paths import language_folder
    spec = get_language(language)
    directory = language_folder(Path(directory), language, "lexicon", "*.csv")
    errors: list[str] = []
    tables: dict[str, list[Entry]] = {}
    files: dict[str, Path] = {}
    for table in spec.tables:
        path = directory / f"{table}.csv"
        if not path.exists():
            errors.append(f"{path.name}: missing (every table in lexicon/README.md is required)")
            tables[table] = []
            continue
        files[table] = path
        tables[table] = _unreadable_as(path, errors, [], lambda: load_table(path, table, errors, spec))
    exceptions_path = directory / "lemma_exceptions.csv"
    exceptions = _unreadable_as(exceptions_path, errors, {}, lambda: load_exceptions(exceptions_path, errors))
    if exceptions_path.exists():
        files["lemma_exceptions"] = exceptions_path
    _check_listed_lemmas(tables, errors)
    if errors:
        shown = errors[:40]
        more = f"\n… and {len(errors) - 40} more" if len(errors) > 40 else ""
        raise LexiconError(f"invalid lexicon in {directory}:\n  " + "\n  ".join(shown) + more)
    return Lexicon(tables, language, exceptions, files)
