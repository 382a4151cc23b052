"""The relative-clause (RC) island paradigms (grammar/*_rc.yaml): a small build of each,
re-checked by `gen validate`, additive, with the relativised element missing from the
violation, and the first item of seed 0 pinned."""

import json

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.suite import CONDITIONS, read_suite

runner = CliRunner()

RC_PARADIGMS = {
    "whether_island_rc": "whether",
    "complex_np_island_rc": "complex_np",
    "subject_island_rc": "subject",
    "adjunct_island_conditional_rc": "adjunct",
    "adjunct_island_temporal_rc": "adjunct",
}
N = 40


@pytest.fixture(scope="module")
def rc_suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("rc") / "suite"
    result = runner.invoke(app, ["build", "--dependency", "rc", "--n", str(N), "--seed", "0", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return out, read_suite(out)


def test_each_rc_paradigm_builds_with_dependency_rc(rc_suite):
    out, suite = rc_suite
    assert set(suite.paradigms) == set(RC_PARADIGMS)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for name, phenomenon in RC_PARADIGMS.items():
        items = suite.paradigms[name]
        assert len(items) == N
        assert len({tuple(i.conditions[c].text for c in CONDITIONS) for i in items}) == N
        assert all(i.dependency == "rc" for i in items), name
        stats = manifest["paradigms"][name]
        assert (stats["dependency"], stats["phenomenon"]) == ("rc", phenomenon)


def test_rc_paradigms_are_additive(rc_suite):
    out, suite = rc_suite
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for name, items in suite.paradigms.items():
        assert manifest["paradigms"][name]["additive_share"] == 1.0, name
        assert all(i.additive and not i.residual for i in items), name


def test_validate_finds_no_problem(rc_suite):
    out, _ = rc_suite
    result = runner.invoke(app, ["validate", str(out)])
    assert result.exit_code == 0, result.output
    assert "all checks passed" in result.output


def _region(sentence, name):
    spans = [r for r in sentence.regions if r.name == name]
    assert len(spans) == 1, (sentence.text, name)
    return sentence.text[spans[0].start:spans[0].end]


def test_the_violation_lacks_the_relativised_element(rc_suite):
    _, suite = rc_suite
    for name, items in suite.paradigms.items():
        for item in items:
            li, si, sn = (item.conditions[c] for c in ("long_island", "short_island", "short_nonisland"))
            assert not li.grammatical and all(item.conditions[c].grammatical for c in CONDITIONS[:3])
            for condition in ("long_nonisland", "long_island"):
                assert _region(item.conditions[condition], "gap") == ""
            assert li.text.startswith("Ecco ") and li.text.endswith(".")
            if name == "subject_island_rc":
                # di cui out of the preverbal subject: the subject NP has no possessor of its own
                assert _region(li, "filler").endswith(" di cui")
                gap = next(r for r in li.regions if r.name == "gap")
                before = [r for r in li.regions if r.end <= gap.start and r.name != "gap"][-1]
                assert before.name == "subject" and " di " not in _region(li, "subject")
                assert _region(si, "subject").split()[-2:] == _region(li, "object").split()[-2:]
                continue
            # the head is the embedded verb's object: overt in the short rows, only the
            # relativised head in the long ones; nothing follows the embedded verb but the gap
            head = _region(sn, "object")
            assert _region(li, "filler") == f"Ecco {head} che", item.item_id
            assert li.text.count(head) == 1
            names = [r.name for r in li.regions]
            assert names[-3:] == ["verb", "gap", "end"], names
            assert li.text == f"{li.text[:li.regions[-3].end]}."
            assert _region(si, "object") == head


def test_golden_first_items_of_seed_0(rc_suite):
    _, suite = rc_suite
    texts = lambda name: [suite.paradigms[name][0].conditions[c].text for c in CONDITIONS]  # noqa: E731
    assert texts("whether_island_rc") == [
        "Ecco il pittore che scopre che Luisa ha incendiato il monopattino.",
        "Ecco il monopattino che il pittore scopre che Luisa ha incendiato.",
        "Ecco il pittore che si accerta se Luisa ha incendiato il monopattino.",
        "Ecco il monopattino che il pittore si accerta se Luisa ha incendiato."]
    assert texts("complex_np_island_rc") == [
        "Ecco il pittore che ha segnalato che Luisa aveva inaugurato la villa.",
        "Ecco la villa che il pittore ha segnalato che Luisa aveva inaugurato.",
        "Ecco il pittore che ha segnalato l'indiscrezione che Luisa aveva inaugurato la villa.",
        "Ecco la villa che il pittore ha segnalato l'indiscrezione che Luisa aveva inaugurato."]
    assert texts("subject_island_rc") == [
        "Ecco la sorpresa che è probabile che la denuncia di Giovanni abbia causato.",
        "Ecco la denuncia che è probabile che abbia causato la sorpresa di Giovanni.",
        "Ecco il maestro di cui è probabile che la denuncia di Giovanni abbia causato la sorpresa.",
        "Ecco il maestro di cui è probabile che la denuncia abbia causato la sorpresa di Giovanni."]
    assert texts("adjunct_island_conditional_rc") == [
        "Ecco il maestro che annuncerà che Giovanni ha ritirato il rapporto.",
        "Ecco il rapporto che il maestro annuncerà che Giovanni ha ritirato.",
        "Ecco il maestro che interverrà se Giovanni ha ritirato il rapporto.",
        "Ecco il rapporto che il maestro interverrà se Giovanni ha ritirato."]
    assert texts("adjunct_island_temporal_rc") == [
        "Ecco il maestro che ha annunciato che Giovanni aveva rovesciato la pentola.",
        "Ecco la pentola che il maestro ha annunciato che Giovanni aveva rovesciato.",
        "Ecco il maestro che è fuggito dopo che Giovanni aveva rovesciato la pentola.",
        "Ecco la pentola che il maestro è fuggito dopo che Giovanni aveva rovesciato."]
