"""`gen review`: blinded sheets (sampling, blinding, determinism) and their scoring
(Wilson intervals, agreement, validation of judgments)."""

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from generator.cli import app
from generator.review import (
    ALLOWED_LABELS, KEY_COLUMNS, MEASURES, POOLED, SEVERITIES, SHEET_COLUMNS, FilledSheet, KeyRow, ReviewError,
    fleiss_kappa, read_filled_sheet, read_key, reader_names, score_sheets, wilson,
)
from generator.suite import CONDITIONS, Item, Sentence, read_suite, write_items

runner = CliRunner()
N_PER_PARADIGM = 12


PARADIGMS = ("adjunct_island_conditional", "adjunct_island_temporal", "complex_np_island",
             "subject_island", "whether_island")


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory) -> Path:
    """A small suite in the suite format: five paradigms, 12 items each, every sentence distinct
    (made by hand: the review reads any suite, and this one does not move with the lexicon)."""
    out = tmp_path_factory.mktemp("suite")
    number = iter(range(10_000))
    for paradigm in PARADIGMS:
        items = [Item(f"{paradigm}-{i:05d}", paradigm, "wh", {}, {}, True, {
            condition: Sentence(f"Frase numero {next(number)}?", condition != "long_island", (), ())
            for condition in CONDITIONS}) for i in range(N_PER_PARADIGM)]
        write_items(out / f"{paradigm}.jsonl", items)
    return out


def write_review(suite_dir: Path, out: Path, *args: str):
    result = runner.invoke(app, ["review", str(suite_dir), "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return result


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


# Sheets written before the graded scale had no severity column; they still score.
LEGACY_COLUMNS = tuple(c for c in SHEET_COLUMNS if c != "severity")


def fill(sheet: Path, target: Path, judge) -> None:
    """A reader: copy the sheet, setting judgment = judge(row) and, on violation rows, a severity."""
    rows = read_csv(sheet)
    for row in rows:
        row["judgment"] = judge(row)
        if row["meant_to_be"] == "violation":
            row["severity"] = hashed_severity(judge(row))
    with open(target, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=SHEET_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def hashed_severity(label: str) -> str:
    return SEVERITIES[hashlib.sha256(label.encode()).digest()[0] % len(SEVERITIES)]


def hashed_label(reader: int):
    """A deterministic reader that uses every label allowed for a row."""
    def judge(row: dict[str, str]) -> str:
        labels = ALLOWED_LABELS[row["meant_to_be"]]
        digest = hashlib.sha256(f"{reader}{row['row_id']}".encode()).digest()
        return labels[digest[0] % len(labels)]
    return judge


# --- Writing the sheet --------------------------------------------------------------------

def test_sheet_is_blinded_and_key_maps_rows_to_the_suite(suite_dir, tmp_path):
    write_review(suite_dir, tmp_path / "sheet.csv", "--n", "5", "--seed", "3")
    sheet, key = read_csv(tmp_path / "sheet.csv"), read_csv(tmp_path / "sheet.key.csv")
    suite = read_suite(suite_dir)
    assert list(sheet[0]) == list(SHEET_COLUMNS) and list(key[0]) == list(KEY_COLUMNS)
    assert len(sheet) == len(key) == 5 * 4 * len(suite.paradigms)
    assert [r["row_id"] for r in sheet] == [r["row_id"] for r in key]
    assert all(r["judgment"] == "" and r["comment"] == "" for r in sheet)
    # The reader sees nothing of where a row comes from.
    text = (tmp_path / "sheet.csv").read_text(encoding="utf-8")
    for word in (*suite.paradigms, *CONDITIONS, "item"):
        assert word not in text
    # Each sampled item contributes its four sentences, as the suite has them.
    items = {i.item_id: i for i in suite.items}
    by_item = Counter(r["item_id"] for r in key)
    assert set(by_item.values()) == {4}
    assert Counter(r["paradigm"] for r in key) == {p: 20 for p in suite.paradigms}
    for row, seen in zip(key, sheet):
        sentence = items[row["item_id"]].conditions[row["condition"]]
        assert row["sentence"] == seen["sentence"] == sentence.text
        assert row["meant_to_be"] == seen["meant_to_be"] == ("grammatical" if sentence.grammatical else "violation")
        severity = "; severity: clearly-bad / degraded / acceptable" if row["meant_to_be"] == "violation" else ""
        assert seen["allowed_labels"] == " / ".join(ALLOWED_LABELS[row["meant_to_be"]]) + severity
    # Shuffled across items and paradigms, not grouped.
    changes = sum(a["paradigm"] != b["paradigm"] for a, b in zip(key, key[1:]))
    assert changes > len(key) / 2


def test_same_seed_same_bytes_other_seed_other_sample(suite_dir, tmp_path):
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        write_review(suite_dir, tmp_path / name / "sheet.csv", "--n", "4", "--seed", seed)
    for file in ("sheet.csv", "sheet.key.csv"):
        assert (tmp_path / "a" / file).read_bytes() == (tmp_path / "b" / file).read_bytes()
        assert (tmp_path / "a" / file).read_bytes() != (tmp_path / "c" / file).read_bytes()
    items = lambda d: {r["item_id"] for r in read_csv(tmp_path / d / "sheet.key.csv")}
    assert items("a") != items("c")


def test_paradigm_restriction_and_limits(suite_dir, tmp_path):
    write_review(suite_dir, tmp_path / "s.csv", "--n", "3", "--paradigm", "subject_island")
    assert {r["paradigm"] for r in read_csv(tmp_path / "s.key.csv")} == {"subject_island"}
    result = runner.invoke(app, ["review", str(suite_dir), "--out", str(tmp_path / "t.csv"), "--n", "13"])
    assert result.exit_code == 2 and "use --n 12 or less" in result.output
    result = runner.invoke(app, ["review", str(suite_dir), "--out", str(tmp_path / "t.csv"), "--paradigm", "x"])
    assert result.exit_code == 2 and "unknown paradigm 'x'" in result.output
    assert not (tmp_path / "t.csv").exists()


def test_an_existing_sheet_is_not_overwritten_without_force(suite_dir, tmp_path):
    write_review(suite_dir, tmp_path / "s.csv", "--n", "2")
    (tmp_path / "s.csv").write_text("judged\n")
    result = runner.invoke(app, ["review", str(suite_dir), "--out", str(tmp_path / "s.csv"), "--n", "2"])
    assert result.exit_code == 2 and "--force" in result.output
    assert (tmp_path / "s.csv").read_text() == "judged\n"
    write_review(suite_dir, tmp_path / "s.csv", "--n", "2", "--force")
    assert len(read_csv(tmp_path / "s.csv")) == 2 * 4 * 5


# --- Scoring ------------------------------------------------------------------------------

@pytest.mark.parametrize("count, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_golden_values(count, n, low, high):
    assert wilson(count, n) == pytest.approx((low, high), abs=5e-5)


def test_round_trip_counts_match_an_independent_count(suite_dir, tmp_path):
    write_review(suite_dir, tmp_path / "sheet.csv", "--n", "6", "--seed", "1")
    sheets = [tmp_path / f"reader{i}.csv" for i in (1, 2, 3)]
    for i, path in enumerate(sheets, start=1):
        fill(tmp_path / "sheet.csv", path, hashed_label(i))
    result = runner.invoke(app, ["review", "--score", *map(str, sheets), "--json", str(tmp_path / "r.json")])
    assert result.exit_code == 0, result.output
    figures = json.loads((tmp_path / "r.json").read_text())

    # The independent count: straight from the key and the readers' rule.
    key = read_csv(tmp_path / "sheet.key.csv")
    expected = Counter()
    for reader in (1, 2, 3):
        judge = hashed_label(reader)
        for row in key:
            label = judge(row)
            for paradigm in (row["paradigm"], "all"):
                for who in (f"reader{reader}", POOLED):
                    expected[paradigm, who, row["meant_to_be"], "n"] += 1
                    expected[paradigm, who, row["meant_to_be"], label] += 1
                    if row["meant_to_be"] == "violation":
                        expected[paradigm, who, "violation", "severity: " + hashed_severity(label)] += 1
    assert len(figures["rates"]) == 6 * 4 * 10  # (5 paradigms + all) x (pooled + 3) x (7 measures + 3 severities)
    for rate in figures["rates"]:
        cell = (rate["paradigm"], rate["reader"], rate["meant_to_be"])
        labels = dict(MEASURES[rate["meant_to_be"]]).get(rate["measure"], (rate["measure"],))
        assert rate["count"] == sum(expected[(*cell, label)] for label in labels)
        assert rate["n"] == expected[(*cell, "n")]
        assert (rate["wilson_low"], rate["wilson_high"]) == pytest.approx(wilson(rate["count"], rate["n"]))
    # Pairwise agreement, counted independently.
    fills = {i: [hashed_label(i)(row) for row in key] for i in (1, 2, 3)}
    for pair in figures["pairwise"]:
        if pair["rows"] == "all":
            a, b = (int(pair[k][-1]) for k in ("reader_a", "reader_b"))
            assert pair["agree"] == sum(x == y for x, y in zip(fills[a], fills[b]))
    # In a pipe the same figures come out as TSV.
    lines = [line.split("\t") for line in result.output.splitlines()]
    rows = {(c[0], c[1], c[2], c[3]): int(c[4]) for c in lines if len(c) == 9 and c[4].isdigit()}
    assert len(rows) == len(figures["rates"])
    for rate in figures["rates"]:
        assert rows[rate["paradigm"], rate["reader"], rate["meant_to_be"], rate["measure"]] == rate["count"]


HAND_KEY = [  # row id, kind
    ("g1", "grammatical"), ("g2", "grammatical"), ("g3", "grammatical"), ("g4", "grammatical"),
    ("v1", "violation"), ("v2", "violation"),
]
HAND_JUDGMENTS = {  # reader -> labels in the order of HAND_KEY
    "anna": ["ok", "ok", "odd-mild", "ok", "ok", "alt-parse-clear"],
    "bruno": ["ok", "ok", "odd-mild", "odd-mild", "ok", "alt-parse-weak"],
    "carla": ["ok", "odd-mild", "odd-mild", "odd-strong", "ok", "alt-parse-clear"],
}


def write_hand_example(folder: Path, graded: dict | None = None) -> list[Path]:
    """The hand-computed example; `graded` (reader -> severities of v1, v2) writes the graded sheet."""
    with open(folder / "hand.key.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(KEY_COLUMNS)
        writer.writerows((rid, "p", f"p-{rid}", "c", kind, f"Frase {rid}.") for rid, kind in HAND_KEY)
    paths = []
    for reader, labels in HAND_JUDGMENTS.items():
        severity = dict(zip(("v1", "v2"), graded[reader])) if graded else None
        with open(folder / f"{reader}.csv", "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(SHEET_COLUMNS if graded else LEGACY_COLUMNS)
            writer.writerows((rid, kind, f"Frase {rid}.", "", label,
                              *((severity.get(rid, ""),) if graded else ()), "")
                             for (rid, kind), label in zip(HAND_KEY, labels))
        paths.append(folder / f"{reader}.csv")
    return paths


def test_agreement_on_a_hand_computed_example(tmp_path):
    paths = write_hand_example(tmp_path)
    key = read_key(tmp_path / "hand.key.csv")
    score = score_sheets(key, [read_filled_sheet(p, key) for p in paths])
    agreement = {(a.paradigm, a.rows): a for a in score.agreement}
    # Grammatical rows: P-bar = (1 + 1/3 + 1 + 0) / 4 = 7/12; label shares 6/12, 5/12, 1/12,
    # so P_e = 62/144 and kappa = (7/12 - 62/144) / (1 - 62/144) = 11/41.
    assert agreement["p", "grammatical"].fleiss_kappa == pytest.approx(11 / 41)
    assert agreement["p", "grammatical"].mean_pairwise == pytest.approx((3 / 4 + 2 / 4 + 2 / 4) / 3)
    # Violation rows: P-bar = (1 + 1/3) / 2 = 2/3; shares 3/6, 2/6, 1/6, P_e = 14/36; kappa = 5/11.
    assert agreement["p", "violation"].fleiss_kappa == pytest.approx(5 / 11)
    assert agreement["p", "violation"].mean_pairwise == pytest.approx((1 / 2 + 2 / 2 + 1 / 2) / 3)
    pairs = {(p.reader_a, p.reader_b, p.rows): p.agree for p in score.pairs}
    assert pairs["anna", "bruno", "grammatical"] == 3 and pairs["anna", "carla", "violation"] == 2
    rates = {(r.reader, r.measure): (r.count, r.n) for r in score.rates if r.paradigm == "all"}
    assert rates[POOLED, "odd-mild"] == (5, 12) and rates["carla", "odd-strong"] == (1, 4)
    assert rates[POOLED, "any-acceptable-parse"] == (3, 6) and rates["bruno", "alt-parse-clear"] == (0, 2)


def test_fleiss_kappa_matches_the_textbook_example():
    # Fleiss (1971) as worked on Wikipedia: 10 subjects, 14 raters, 5 categories, kappa 0.210.
    counts = [(0, 0, 0, 0, 14), (0, 2, 6, 4, 2), (0, 0, 3, 5, 6), (0, 3, 9, 2, 0), (2, 2, 8, 1, 1),
              (7, 7, 0, 0, 0), (3, 2, 6, 3, 0), (2, 5, 3, 2, 2), (6, 5, 2, 1, 0), (0, 2, 2, 3, 7)]
    rows = [[str(c) for c, k in enumerate(row) for _ in range(k)] for row in counts]
    assert fleiss_kappa(rows) == pytest.approx(0.2099, abs=1e-4)
    assert fleiss_kappa([["ok", "ok"], ["ok", "ok"]]) is None  # one label throughout: undefined


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["grammatical", "violation"]),
                          st.lists(st.integers(0, 3), min_size=2, max_size=2)), min_size=1, max_size=30))
def test_pooled_is_the_sum_of_readers_and_kappa_is_one_on_perfect_agreement(rows):
    key = {f"r{i}": KeyRow(f"r{i}", "p", f"p-{i}", "c", kind, "x") for i, (kind, _) in enumerate(rows)}
    sheets = [FilledSheet(Path(f"reader{j}.csv"),
                          {f"r{i}": ALLOWED_LABELS[kind][picks[j]] for i, (kind, picks) in enumerate(rows)})
              for j in range(2)]
    score = score_sheets(key, sheets)
    rates = {(r.paradigm, r.reader, r.measure): r for r in score.rates}
    for (paradigm, reader, measure), rate in rates.items():
        assert rate.low <= rate.rate <= rate.high
        if reader == POOLED:
            assert rate.count == sum(rates[paradigm, f"reader{j}", measure].count for j in range(2))
        if measure == "any-acceptable-parse":
            assert rate.count == (rates[paradigm, reader, "alt-parse-clear"].count
                                  + rates[paradigm, reader, "alt-parse-weak"].count)
    same = score_sheets(key, [sheets[0], FilledSheet(Path("copy.csv"), sheets[0].judgments)])
    for a in same.agreement:
        assert a.mean_pairwise == 1.0
        assert a.fleiss_kappa is None or a.fleiss_kappa == pytest.approx(1.0)


# --- Bad sheets ---------------------------------------------------------------------------

def test_bad_judgments_are_reported_by_file_and_line(tmp_path):
    paths = write_hand_example(tmp_path)
    lines = paths[0].read_text().splitlines()
    lines[1] = lines[1].replace(",ok,", ",,")  # g1: empty judgment
    lines[2] = lines[2].replace(",ok,", ",alt-parse-clear,")  # g2: a violation label on a grammatical row
    lines[5] = lines[5].replace("v1,", "zz,")  # a row id not in the key
    paths[0].write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["review", "--score", *map(str, paths)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{paths[0]}:2: row g1 has no judgment (one of: ok, odd-mild, odd-strong, ungrammatical)" in result.output
    assert f"{paths[0]}:3: row g2: 'alt-parse-clear' is not a label for a grammatical row" in result.output
    assert f"{paths[0]}:6: row id 'zz' is not in the key" in result.output
    assert "1 row(s) of the key are missing from the sheet (first: v1)" in result.output
    paths[2].write_text(paths[2].read_text().replace(",odd-strong,", ",,"))  # every sheet is checked
    result = runner.invoke(app, ["review", "--score", *map(str, paths)])
    assert f"{paths[2]}:5: row g4 has no judgment" in result.output and f"{paths[0]}:2:" in result.output


def test_labels_are_read_case_and_space_insensitively_and_duplicates_rejected(tmp_path):
    paths = write_hand_example(tmp_path)
    key = read_key(tmp_path / "hand.key.csv")
    text = paths[1].read_text()
    paths[1].write_text("\ufeff" + text.replace(",odd-mild,", ", Odd-Mild ,"))  # BOM and spreadsheet edits
    assert read_filled_sheet(paths[1], key).judgments["g3"] == "odd-mild"
    with open(paths[1], "w", newline="", encoding="utf-8") as handle:  # as an Italian-locale spreadsheet saves it
        csv.writer(handle, delimiter=";").writerows([LEGACY_COLUMNS, ("g1", "grammatical", "Frase g1; sì.", "", "ok", "")])
    with pytest.raises(ReviewError, match="5 row.s. of the key are missing"):
        read_filled_sheet(paths[1], key)
    paths[2].write_text(text + text.splitlines()[1] + "\n")
    with pytest.raises(ReviewError, match=r"carla.csv:8: row g1 appears twice"):
        read_filled_sheet(paths[2], key)


def test_key_is_found_beside_the_sheets_or_asked_for(tmp_path):
    paths = write_hand_example(tmp_path)
    assert runner.invoke(app, ["review", "--score", *map(str, paths)]).exit_code == 0
    (tmp_path / "other.key.csv").write_text((tmp_path / "hand.key.csv").read_text())
    result = runner.invoke(app, ["review", "--score", *map(str, paths)])
    assert result.exit_code == 2 and "pass the right one with --key" in result.output
    result = runner.invoke(app, ["review", "--score", *map(str, paths), "--key", str(tmp_path / "other.key.csv")])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["review", "--score", str(paths[0]), "--key", str(tmp_path / "nope.csv")])
    assert result.exit_code == 2 and "nope.csv: no such file" in result.output


def test_one_sheet_scores_without_agreement(tmp_path):
    paths = write_hand_example(tmp_path)
    result = runner.invoke(app, ["review", "--score", str(paths[0])])
    assert result.exit_code == 0, result.output
    assert "all\tanna\tgrammatical\todd-mild\t1\t4\t25.0\t" in result.output
    assert "agreement: needs two or more sheets" in result.output


def test_unreadable_sheets_and_misuse_are_one_line_errors(suite_dir, tmp_path):
    paths = write_hand_example(tmp_path)
    paths[0].write_bytes("row_id,judgment\ng1,perché no\n".encode("latin-1"))
    result = runner.invoke(app, ["review", "--score", *map(str, paths)])
    assert result.exit_code == 2 and f"{paths[0]}: not UTF-8 text" in result.output
    paths[0].write_text("id,judgment\ng1,ok\n")
    result = runner.invoke(app, ["review", "--score", *map(str, paths)])
    assert result.exit_code == 2 and f"{paths[0]}:1: the header lacks the column(s) row_id" in result.output
    for args, message in (
        (["review", str(suite_dir)], "--out sheet.csv"),
        (["review", str(paths[1])], "add --score"),
        (["review", "--score", str(suite_dir)], "is a folder"),
        (["review", str(suite_dir), "--out", str(tmp_path / "sheet.txt")], "ending in .csv"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_readers_are_named_after_their_sheets_with_folders_only_where_needed(tmp_path):
    assert reader_names([Path("a/anna.csv"), Path("b/bruno.csv")]) == ("anna", "bruno")
    assert reader_names([Path("r1/sheet.csv"), Path("r2/sheet.csv")]) == ("r1/sheet", "r2/sheet")
    with pytest.raises(ReviewError, match="given twice"):
        reader_names([tmp_path / "x.csv", tmp_path / "." / "x.csv"])


# --- The graded scale and samples by level --------------------------------------------------

GRADED = {  # reader -> severity of v1, v2 (HAND_KEY's violation rows)
    "anna": ["clearly-bad", "acceptable"],
    "bruno": ["clearly-bad", "degraded"],
    "carla": ["degraded", "acceptable"],
}


def write_graded_example(folder: Path) -> list[Path]:
    return write_hand_example(folder, GRADED)


def test_severity_rates_and_agreement_on_a_hand_computed_example(tmp_path):
    paths = write_graded_example(tmp_path)
    key = read_key(tmp_path / "hand.key.csv")
    score = score_sheets(key, [read_filled_sheet(p, key) for p in paths])
    rates = {(r.reader, r.measure): (r.count, r.n) for r in score.rates if r.paradigm == "all"}
    assert rates[POOLED, "severity: clearly-bad"] == (2, 6)
    assert rates[POOLED, "severity: degraded"] == (2, 6)
    assert rates[POOLED, "severity: acceptable"] == (2, 6)
    assert rates["carla", "severity: acceptable"] == (1, 2)
    # v1: clearly-bad x2, degraded; v2: acceptable x2, degraded. P-bar = 1/3; shares 1/3 each,
    # P_e = 1/3, so kappa = 0; pairwise: anna-bruno 1/2, anna-carla 1/2, bruno-carla 0.
    agreement = {(a.paradigm, a.rows): a for a in score.agreement}
    assert agreement["p", "severity"].fleiss_kappa == pytest.approx(0.0)
    assert agreement["p", "severity"].mean_pairwise == pytest.approx((1 / 2 + 1 / 2 + 0) / 3)
    # The labels' figures are those of the same sheets without the scale.
    legacy = score_sheets(key, [read_filled_sheet(p, key) for p in write_hand_example(tmp_path)])
    assert [r for r in score.rates if not r.measure.startswith("severity")] == list(legacy.rates)


def test_a_violation_row_without_a_severity_is_named_by_file_and_line(tmp_path):
    paths = write_graded_example(tmp_path)
    paths[0].write_text(paths[0].read_text().replace(",clearly-bad,", ",,").replace(",acceptable,", ",very bad,"))
    result = runner.invoke(app, ["review", "--score", *map(str, paths)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{paths[0]}:6: row v1: severity ''; a violation row says how bad it is" in result.output
    assert f"{paths[0]}:7: row v2: severity 'very bad'" in result.output


@pytest.fixture(scope="module")
def varied_suite_dir(tmp_path_factory) -> Path:
    """Matched sets over two crossed factors, as `gen build --vary filler --vary gap` writes
    them: the short rows are the same sentence at every level of a set."""
    out = tmp_path_factory.mktemp("varied")
    items = []
    for k in range(6):
        for filler in ("bare", "dlinked"):
            for gap in ("gap", "resumptive"):
                text = {"short_nonisland": f"Corta {k}?", "short_island": f"Corta isola {k}?",
                        "long_nonisland": f"Lunga {k} {filler} {gap}?", "long_island": f"Isola {k} {filler} {gap}?"}
                items.append(Item(f"whether_island-{k:05d}-{filler}-{gap}", "whether_island", "wh",
                                  {"filler": filler, "gap": gap, "mood": "indicative"}, {}, True,
                                  {c: Sentence(text[c], c != "long_island", (), ()) for c in CONDITIONS},
                                  matched_set=f"whether_island-{k:05d}"))
    write_items(out / "whether_island.jsonl", items)
    (out / "manifest.json").write_text(json.dumps({"format_version": 2, "vary": ["filler", "gap"]}))
    return out


def test_a_varied_suite_is_sampled_by_matched_set_and_scored_per_level(varied_suite_dir, tmp_path):
    write_review(varied_suite_dir, tmp_path / "sheet.csv", "--n", "3", "--seed", "5")
    sheet, key = read_csv(tmp_path / "sheet.csv"), read_csv(tmp_path / "sheet.key.csv")
    assert list(key[0]) == [*KEY_COLUMNS, "level"]
    # 3 sets x 4 levels x 4 conditions in the key; the sheet has each sentence once (2 short
    # rows + 4 levels x 2 long rows per set).
    assert len(key) == 3 * 4 * 4 and len(sheet) == 3 * (2 + 4 * 2)
    assert len({r["sentence"] for r in sheet}) == len(sheet)
    assert Counter(r["level"] for r in key) == {f"filler={f} gap={g}": 12 for f in ("bare", "dlinked")
                                               for g in ("gap", "resumptive")}
    assert len({r["item_id"].rsplit("-", 2)[0] for r in key}) == 3  # whole sets, never parts
    sheets = [tmp_path / f"reader{i}.csv" for i in (1, 2)]
    for i, path in enumerate(sheets, start=1):
        fill(tmp_path / "sheet.csv", path, hashed_label(i))
    parsed_key = read_key(tmp_path / "sheet.key.csv")
    score = score_sheets(parsed_key, [read_filled_sheet(p, parsed_key) for p in sheets])
    groups = {r.paradigm for r in score.rates}
    assert groups == {"all", *(f"whether_island [filler={f} gap={g}]" for f in ("bare", "dlinked")
                               for g in ("gap", "resumptive"))}
    n_violations = {r.paradigm: r.n for r in score.rates if r.reader == POOLED and r.measure == "severity: degraded"}
    assert n_violations["whether_island [filler=dlinked gap=resumptive]"] == 3 * 2  # 3 items, 2 readers
    # A shared short sentence gets one judgment, counted at every level it belongs to.
    judged = read_filled_sheet(sheets[0], parsed_key).judgments
    short = [r for r in parsed_key.rows if r.condition == "short_nonisland"]
    assert len({r.row_id for r in short}) == 3 and len(short) == 12 and all(r.row_id in judged for r in short)


def test_a_cell_over_the_csv_limit_is_a_message_not_a_traceback(tmp_path):
    paths = write_hand_example(tmp_path)
    paths[1].write_text(paths[1].read_text() + "g9,grammatical," + "x" * 200_000 + ",,ok,\n")
    result = runner.invoke(app, ["review", "--score", *map(str, paths)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{paths[1]}:" in result.output and "not a readable CSV row" in result.output
