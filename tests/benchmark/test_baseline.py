"""The unigram-frequency baseline: word log-probabilities, the floor, and DD exactly 0 on an
additive item."""

from __future__ import annotations

import math

from benchmark import baseline
from benchmark.records import SentenceInput
from benchmark.results import build_tables
from benchmark.runner import sentence_inputs
from benchmark.suite import read_suite
from conftest import whether_item, write_suite


def test_word_logprob_and_floor():
    assert baseline.word_logprob("il") > baseline.word_logprob("riscosso") > math.log(baseline.FLOOR)
    assert baseline.word_logprob("Il") == baseline.word_logprob("il")
    assert baseline.word_logprob("zzqxj") == round(math.log(baseline.FLOOR) / baseline.QUANTUM) * baseline.QUANTUM
    assert baseline.word_logprob("?") == baseline.word_logprob("zzqxj")       # punctuation gets the floor
    s = SentenceInput("Chi pensa?", ((0, 3), (4, 9), (9, 10)))
    ts = baseline.score(s)
    assert ts.tokens == ("Chi", "pensa", "?") and ts.starts == (0, 4, 9)


def test_additive_item_dd_is_exactly_zero(tmp_path):
    items = [whether_item("w-1", "l'avvocato", "abbia firmato", "il contratto"),
             whether_item("w-2", "Gianni", "abbia riscosso", "il pagamento")]
    suite = read_suite(write_suite(tmp_path / "add", items))
    inputs = sentence_inputs(suite, False)
    scores = {k: baseline.score(s) for k, s in inputs.items()}
    uni = {k: baseline.sentence_logprob(s) for k, s in inputs.items()}
    tables = build_tables(suite, "unigram.unigram", scores, uni)
    lp_rows = [r for r in tables.item_scores if r.measure == "LP"]
    assert len(lp_rows) == 2
    for r in lp_rows:
        assert r.effects.DD == 0.0
        assert r.LN + r.SI - r.SN - r.LI == 0.0
    assert tables.summary["measures"]["LP"]["whether_island"]["factorial_acc"] == 0.0


def test_baseline_uses_the_suites_language(tmp_path):
    """English words are scored by English frequencies: `the` is frequent in English and
    rare in Italian; the suite's language is read from its manifest."""
    assert baseline.word_logprob("the", "en") > baseline.word_logprob("the", "it") + 3
    from generator.build import BuildRequest, build_suite
    from generator.build import write_suite as write_built
    from generator.paths import GRAMMAR_DIR, LEXICON_DIR
    results, manifest = build_suite(BuildRequest("all", 20, 4, language="en"), LEXICON_DIR, GRAMMAR_DIR)
    write_built(tmp_path / "en", results, manifest)
    suite = read_suite(tmp_path / "en")
    assert suite.language == "en"
    inputs = sentence_inputs(suite, False)
    scores = {k: baseline.score(s, suite.language) for k, s in inputs.items()}
    uni = {k: baseline.sentence_logprob(s, suite.language) for k, s in inputs.items()}
    tables = build_tables(suite, "unigram.unigram", scores, uni)
    rows = [r for r in tables.item_scores if r.measure == "LP"]
    assert len(rows) == 10 * 20 and all(r.effects.DD == 0.0 for r in rows)
    header = tables.licensing_header
    lp = [dict(zip(header, row)) for row in tables.licensing if dict(zip(header, row)).get("measure") == "LP"]
    assert len(lp) == 20 and all(float(row["licensing"]) == 0.0 for row in lp)   # the filler-gap baseline
