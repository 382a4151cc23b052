"""`gen` from the command line: outputs, messages, exit codes."""

import json

from typer.testing import CliRunner

from generator.cli import app
from generator.paths import GRAMMAR_DIR

runner = CliRunner()


def test_build_writes_a_suite_and_validate_accepts_it(tmp_path):
    out = tmp_path / "suite"
    result = runner.invoke(app, ["build", "--phenomenon", "subject", "--n", "40", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "subject_island.jsonl").exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["paradigms"]["subject_island"]["n_items"] == 40
    result = runner.invoke(app, ["validate", str(out)])
    assert result.exit_code == 0, result.output
    assert "all checks passed" in result.output


def test_validate_reports_a_tampered_item(tmp_path):
    out = tmp_path / "suite"
    assert runner.invoke(app, ["build", "--phenomenon", "whether", "--n", "10", "--out", str(out)]).exit_code == 0
    path = out / "whether_island.jsonl"
    lines = path.read_text().splitlines()
    item = json.loads(lines[0])
    item["conditions"]["long_island"]["text"] += " davvero"
    lines[0] = json.dumps(item, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["validate", str(out)])
    assert result.exit_code == 1
    assert "whether_island-00000" in result.output


def test_too_many_items_is_a_clear_error(tmp_path):
    result = runner.invoke(app, ["build", "--phenomenon", "whether", "--n", "999999999999", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "the maximum is" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x").exists()


def test_unknown_phenomenon(tmp_path):
    result = runner.invoke(app, ["build", "--phenomenon", "parasitic", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "unknown phenomenon 'parasitic'" in result.output


def test_list_shows_paradigms_and_capacity():
    result = runner.invoke(app, ["list", "--language", "it"])
    assert result.exit_code == 0, result.output
    for name in ("whether_island", "complex_np_island", "subject_island", "adjunct_island_temporal"):
        assert name in result.output
    # weak islands are marked, strong ones are not (a row per paradigm, in a pipe never cut)
    rows = {line.split()[1]: line for line in result.output.splitlines() if line.count("│") > 3}
    for weak in ("whether_island", "whether_island_rc", "subject_island", "subject_island_rc"):
        assert "(weak)" in rows[weak], rows[weak]
    for strong in ("complex_np_island", "adjunct_island_conditional_rc", "filler_gap"):
        assert "(weak)" not in rows[strong]


def test_list_shows_both_languages():
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    rows = [line.split("│") for line in result.output.splitlines() if line.count("│") > 3]
    languages = {(cells[1].strip(), cells[2].strip()) for cells in rows}
    for name in ("whether_island", "subject_island_rc", "filler_gap"):
        assert (name, "it") in languages and (name, "en") in languages


def test_build_all_languages_writes_one_suite_each(tmp_path):
    result = runner.invoke(app, ["build", "--language", "all", "--n", "3", "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    for language, name in (("it", "italian_islands"), ("en", "english_islands")):
        manifest = json.loads((tmp_path / name / "manifest.json").read_text())
        assert manifest["language"] == language and len(manifest["paradigms"]) == 11
        assert "--language" not in manifest["command"] or f"--language {language}" in manifest["command"]
    unknown = runner.invoke(app, ["build", "--language", "fr", "--n", "3", "--out", str(tmp_path / "fr")])
    assert unknown.exit_code == 2 and "unknown language 'fr'" in unknown.output and "Traceback" not in unknown.output


def test_a_paradigm_file_must_say_whether_its_island_is_weak_or_strong(tmp_path):
    import shutil
    grammar = tmp_path / "grammar"
    shutil.copytree(GRAMMAR_DIR / "it", grammar)
    path = grammar / "whether_island.yaml"
    path.write_text(path.read_text().replace("strength: weak\n", ""))
    result = runner.invoke(app, ["list", "--grammar", str(grammar)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "whether_island.yaml" in result.output and "strength" in result.output
    path.write_text(path.read_text().replace("label: whether\n", "label: whether\nstrength: fragile\n"))
    assert "'fragile'" in runner.invoke(app, ["list", "--grammar", str(grammar)]).output


def test_validate_missing_folder(tmp_path):
    result = runner.invoke(app, ["validate", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "no such suite folder" in result.output
