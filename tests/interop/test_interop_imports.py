"""Imports of hand-written suites (the literature's JSONL and long-format CSV)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.interop.common import InteropError, load_suite, write_tree
from generator.interop.importers import condition_key, import_file
from generator.suite import CONDITIONS, read_items
from suite_format.schema import validate_suite_folder

runner = CliRunner()

WHETHER = {  # the 2016 materials' design: 3sg short rows, 2sg long rows (not additive)
    "short_nonisland": "Chi pensa che Gianni abbia riscosso il pagamento?",
    "long_nonisland": "Cosa pensi che Gianni abbia riscosso?",
    "short_island": "Chi si domanda se Gianni abbia riscosso il pagamento?",
    "long_island": "Cosa ti domandi se Gianni abbia riscosso?",
}
ADDITIVE = {
    "Short_NonIsland": "Chi pensa che Gianni abbia riscosso il pagamento?",
    "long nonisland": "Cosa pensa Maria che Gianni abbia riscosso?",
    "SHORT-ISLAND": "Chi si domanda se Gianni abbia riscosso il pagamento?",
    "sentence_bad": "*Cosa si domanda Maria se Gianni abbia riscosso?",
}
ADJUNCT = {
    "short_nonisland": "Chi pensa che l’avvocato abbia dimenticato il documento in ufficio?",
    "long_nonisland": "Cosa pensi che l’avvocato abbia dimenticato in ufficio?",
    "short_island": "Chi si arrabbia se l’avvocato dimentica il documento in ufficio?",
    "long_island": "Cosa ti arrabbi se l’avvocato dimentica in ufficio?",
}
TEMPORAL = {
    "short_nonisland": "Chi dice che Luisa abbia letto il libro?",
    "long_nonisland": "Cosa dice Maria che Luisa abbia letto?",
    "short_island": "Chi esce dopo che Luisa ha letto il libro?",
    "long_island": "Cosa esce Maria dopo che Luisa ha letto?",
}


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def imported(tmp_path: Path, source: Path, *args: str) -> Path:
    out = tmp_path / "imported"
    result = runner.invoke(app, ["import", str(source), "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    assert validate_suite_folder(out) == []
    return out


def valid(files: dict[str, str], folder: Path) -> dict[str, str]:
    """`files` of import_file, after checking them against the schema as a suite folder."""
    write_tree(folder, files)
    assert validate_suite_folder(folder) == []
    return files


def test_condition_keys_are_normalised():
    assert condition_key("Short_NonIsland") == "short_nonisland"
    assert condition_key(" long island ") == "long_island"
    assert condition_key("non-island short") == "short_nonisland"
    assert condition_key("sentence_bad") == "long_island"
    assert condition_key("short_islands") is None


def test_jsonl_lines_with_odd_keys_and_curly_apostrophes(tmp_path):
    lines = [dict(WHETHER, island_type="whether", item=1), dict(ADDITIVE, island_type="wh island", item=2),
             dict(ADJUNCT, island_type="adjunct", item=1), dict(TEMPORAL, island_type="Adjunct island", item=7)]
    source = write(tmp_path / "materials.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines))
    out = imported(tmp_path, source)
    suite = load_suite(out)
    assert sorted(suite.paradigms) == ["adjunct_island_conditional", "adjunct_island_temporal", "whether_island"]
    whether = {i.item_id: i for i in suite.paradigms["whether_island"]}
    assert set(whether) == {"whether_island-00001", "whether_island-00002"}
    assert not whether["whether_island-00001"].additive
    assert set(whether["whether_island-00001"].residual) == {"+pensa", "-pensi", "+ti", "-si", "+domandi", "-domanda"}
    second = whether["whether_island-00002"]
    assert second.additive and second.residual == ()
    assert second.conditions["long_island"].text == "Cosa si domanda Maria se Gianni abbia riscosso?"  # `*` dropped
    assert [c.grammatical for c in second.conditions.values()] == [True, True, True, False]
    adjunct = suite.paradigms["adjunct_island_conditional"][0]
    assert "’" not in adjunct.conditions["short_nonisland"].text
    assert adjunct.conditions["short_nonisland"].word_strings[3:5] == ["l'", "avvocato"]
    assert all(s.regions == () for i in suite.items for s in i.conditions.values())
    assert suite.paradigms["adjunct_island_temporal"][0].item_id == "adjunct_island_temporal-00007"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["imported"]["source_file"] == "materials.jsonl"
    assert manifest["imported"]["format"] == "jsonl"
    assert manifest["imported"]["normalised"]["curly_apostrophes_to_straight"] == 4
    assert "not inferred" in manifest["imported"]["regions"]


def test_jsonl_wrapped_in_sentences_and_island_type_from_file_name(tmp_path):
    whole = write(tmp_path / "wh_complex_np.json", json.dumps({"sentences": [
        {"short_nonisland": "Chi ha smentito che l'agenzia avesse diffuso la notizia?",
         "long_nonisland": "Cosa hai smentito che l'agenzia avesse diffuso?",
         "short_island": "Chi ha smentito la voce che l'agenzia avesse diffuso la notizia?",
         "sentence_bad": "Cosa hai smentito la voce che l'agenzia avesse diffuso?"}]}, indent=2))
    suite = load_suite(imported(tmp_path, whole))
    assert list(suite.paradigms) == ["complex_np_island"]
    assert suite.items[0].additive
    per_line = write(tmp_path / "x.jsonl", json.dumps({"sentences": [WHETHER, WHETHER]}) + "\n")
    files = valid(import_file(per_line, paradigm="whether_island"), tmp_path / "per_line")
    assert len(files["whether_island.jsonl"].splitlines()) == 2


def test_jsonl_errors_name_file_and_line(tmp_path):
    bad_key = write(tmp_path / "bad.jsonl", json.dumps(dict(WHETHER, island_type="whether")) + "\n"
                    + json.dumps(dict(WHETHER, island_type="whether", short_islands="x")) + "\n")
    result = runner.invoke(app, ["import", str(bad_key), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "bad.jsonl:2" in result.output and "short_islands" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "o").exists()
    missing = write(tmp_path / "missing.jsonl", json.dumps({"island_type": "subject", "short_nonisland": "Chi?"}) + "\n")
    with pytest.raises(InteropError, match=r"missing.jsonl:1: missing condition long_nonisland"):
        import_file(missing)
    unknown = write(tmp_path / "u.jsonl", json.dumps(dict(WHETHER, island_type="coordinate structure")) + "\n")
    with pytest.raises(InteropError, match=r"u.jsonl:1: unknown island type"):
        import_file(unknown)
    broken = write(tmp_path / "broken.jsonl", json.dumps(WHETHER) + "\n{not json\n")
    with pytest.raises(InteropError, match=r"broken.jsonl:2: not valid JSON"):
        import_file(broken, paradigm="whether_island")


SPROUSE_CSV = """Island Type;Clause type;Condition 1;Condition 2;item number;sentence
Whether island;WH;Short;non-island;1;Chi pensa che Gianni abbia riscosso il pagamento?
Whether island;WH;Long;non-island;1;Cosa pensi che Gianni abbia riscosso?
Whether island;WH;Short;Island;1;Chi si domanda se Gianni abbia riscosso il pagamento?
Whether island;WH;Long;Island;1;Cosa ti domandi se Gianni abbia riscosso?
Complex NP;RC;Short;non-island;1;Ecco il giornalista che ha smentito che l’agenzia avesse diffuso la notizia.
Complex NP;RC;Long;non-island;1;Ecco la notizia che hai smentito che l’agenzia avesse diffuso.
Complex NP;RC;Island;Short;1;Ecco il giornalista che ha smentito la voce che l’agenzia avesse diffuso la notizia.
Complex NP;RC;Island;Long;1;Ecco la notizia che hai smentito la voce che l’agenzia avesse diffuso.
"""


def test_csv_semicolon_with_header(tmp_path):
    out = imported(tmp_path, write(tmp_path / "materials.csv", SPROUSE_CSV))
    suite = load_suite(out)
    assert sorted(suite.paradigms) == ["complex_np_island_rc", "whether_island"]
    rc = suite.paradigms["complex_np_island_rc"][0]
    assert rc.dependency == "rc" and rc.additive
    assert rc.conditions["long_island"].text == "Ecco la notizia che hai smentito la voce che l'agenzia avesse diffuso."
    assert not suite.paradigms["whether_island"][0].additive
    items = list(read_items(out / "whether_island.jsonl"))  # what bench reads
    assert items[0].conditions["short_island"].words


def test_csv_comma_without_header_and_quoted_commas(tmp_path):
    rows = [("subject", "declarative", cond.split("_")[0], cond.split("_")[1], "3", text)
            for cond, text in {
                "short_nonisland": "Chi pensi che il direttore abbia criticato?",
                "long_nonisland": "Chi pensi che abbia criticato il direttore?",
                "short_island": "Di chi pensi che l'articolo del direttore abbia causato l'irritazione?",
                "long_island": "Di chi pensi, alla fine, che l'articolo abbia causato l'irritazione del direttore?",
            }.items()]
    text = "".join(",".join(f'"{c}"' if "," in c else c for c in row) + "\n" for row in rows)
    suite = load_suite(imported(tmp_path, write(tmp_path / "m.csv", text)))
    item = suite.paradigms["subject_island"][0]
    assert item.variant == {"clause_type": "declarative"}
    assert item.item_id == "subject_island-00003-declarative"
    assert item.conditions["long_island"].text.startswith("Di chi pensi, alla fine,")


def test_csv_errors_name_file_and_line(tmp_path):
    bad_value = SPROUSE_CSV.replace("Long;Island;1;Cosa ti", "Lungissimo;Island;1;Cosa ti")
    result = runner.invoke(app, ["import", str(write(tmp_path / "a.csv", bad_value)), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "a.csv:5" in result.output and "Lungissimo" in result.output
    twice = SPROUSE_CSV.replace("Short;Island;1;Chi si", "Short;non-island;1;Chi si")
    with pytest.raises(InteropError, match=r"b.csv:4: item 1 has short_nonisland twice \(also line 2\)"):
        import_file(write(tmp_path / "b.csv", twice))
    lacking = "\n".join(SPROUSE_CSV.splitlines()[:4]) + "\n"
    with pytest.raises(InteropError, match=r"c.csv:2: item 1 \(Whether island\) lacks long_island"):
        import_file(write(tmp_path / "c.csv", lacking))
    with pytest.raises(InteropError, match=r"d.csv:1: cannot tell the separator"):
        import_file(write(tmp_path / "d.csv", "just one column\nand another\n"))


def test_import_is_deterministic(tmp_path):
    source = write(tmp_path / "materials.csv", SPROUSE_CSV)
    assert valid(import_file(source), tmp_path / "first") == import_file(source)
    assert set(import_file(source)) == {"whether_island.jsonl", "complex_np_island_rc.jsonl", "manifest.json"}
    for name, text in import_file(source).items():
        if name.endswith(".jsonl"):
            for line in text.splitlines():
                assert list(json.loads(line)["conditions"]) == list(CONDITIONS)
