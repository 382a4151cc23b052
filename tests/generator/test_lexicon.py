"""The lexicon's validation, its size and balance requirements."""

import csv
import re
from collections import Counter

import pytest

from generator.lexicon import LexiconError, load_lexicon


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path, lemma):
    for number, row in enumerate(csv.reader(open(path, encoding="utf-8")), start=1):
        if row and row[0] == lemma:
            return number
    raise AssertionError(lemma)


def test_real_lexicon_loads(lexicon):
    assert {t: len(v) for t, v in lexicon.tables.items()}["nouns"] >= 300


def test_sizes_meet_the_requirements(lexicon):
    verbs = lexicon.table("verbs")
    role = lambda r: [v for v in verbs if v.has("roles", r)]  # noqa: E731
    assert len(lexicon.table("nouns")) >= 300
    assert len(role("transitive")) >= 120
    assert len(role("bridge")) >= 30
    assert len(role("se_embed")) >= 25
    assert len(role("emotive")) >= 25
    assert len([n for n in lexicon.table("nouns") if n.has("classes", "info")]) >= 30
    names = lexicon.table("names")
    assert len(names) >= 40
    genders = Counter(n.feature("gender") for n in names)
    assert genders["m"] == genders["f"]


def test_unknown_feature_value_names_file_line_and_column(lexicon_copy):
    path = lexicon_copy / "nouns.csv"
    line = _line_of(path, "abete")
    _edit(path, "abete,m,abeti,plant", "abete,m,abeti,plnt")
    with pytest.raises(LexiconError, match=rf"nouns.csv:{line}: column classes: unknown value\(s\) 'plnt'"):
        load_lexicon(lexicon_copy)


def _set_cell(path, pick_row, column: str, value) -> int:
    """Rewrite one cell of a lexicon CSV; returns the 1-based line of the row changed.
    `pick_row(row)` chooses the first data row to change; `value(old)` gives the new cell."""
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    col = rows[0].index(column)
    index = next(i for i, r in enumerate(rows) if i and pick_row(r[col]))
    rows[index][col] = value(rows[index][col])
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    return index + 1


def test_malformed_formula_is_reported(lexicon_copy):
    line = _set_cell(lexicon_copy / "verbs.csv", bool, "subj", lambda old: "classes=human &")
    with pytest.raises(LexiconError, match=rf"verbs.csv:{line}: column subj: .*not feature=value"):
        load_lexicon(lexicon_copy)


def test_unknown_feature_in_formula_is_reported(lexicon_copy):
    line = _set_cell(lexicon_copy / "verbs.csv", bool, "subj", lambda old: "colour=red")
    with pytest.raises(LexiconError, match=rf"verbs.csv:{line}: column subj: unknown feature 'colour'"):
        load_lexicon(lexicon_copy)


def test_missing_form_is_reported(lexicon_copy):
    line = _set_cell(lexicon_copy / "verbs.csv", bool, "pres_subj", lambda old: "|".join(old.split("|")[:5]))
    with pytest.raises(LexiconError, match=rf"verbs.csv:{line}: column pres_subj: .* must list six forms"):
        load_lexicon(lexicon_copy)


def test_duplicate_lemma_is_reported(lexicon_copy):
    path = lexicon_copy / "names.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines + [lines[1]]) + "\n", encoding="utf-8")
    lemma = lines[1].split(",")[0]
    with pytest.raises(LexiconError, match=rf"names.csv:{len(lines) + 1}: column lemma: duplicate lemma '{lemma}' \(first on line 2\)"):
        load_lexicon(lexicon_copy)


def test_every_problem_is_listed_at_once(lexicon_copy):
    _edit(lexicon_copy / "nouns.csv", "abete,m,abeti,plant", "abete,x,abeti,plnt")
    with pytest.raises(LexiconError) as info:
        load_lexicon(lexicon_copy)
    assert len(re.findall(r"nouns.csv:\d+: column (gender|classes)", str(info.value))) == 2


def test_missing_table_is_reported(lexicon_copy):
    (lexicon_copy / "connectives.csv").unlink()
    with pytest.raises(LexiconError, match="connectives.csv: missing"):
        load_lexicon(lexicon_copy)


def test_derived_article_feature(lexicon):
    dets = {n.lemma: n.feature("det") for n in lexicon.table("nouns")}
    assert dets.get("abete") == "l'"
    assert all(d in {"il", "lo", "la", "l'"} for d in dets.values())
