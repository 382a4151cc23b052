"""The Italian suites keep their sentences, lexical choices and order whatever fields the
format gains: digests of today's builds, taken before language became a dimension
(golden/italian_build.json: item id, variant, lexical choices, texts and regions)."""

import hashlib
import json
from pathlib import Path

import pytest

from generator.build import BuildRequest, build_suite
from generator.paths import GRAMMAR_DIR, LEXICON_DIR

GOLDEN = json.loads((Path(__file__).parent / "golden" / "italian_build.json").read_text())


def digests(results) -> dict[str, str]:
    out = {}
    for name, items in sorted(results.items()):
        h = hashlib.sha256()
        for i in items:
            h.update(json.dumps([i.item_id, i.variant, i.lexical,
                                 {c: [s.text, [list(r) for r in s.regions]] for c, s in i.conditions.items()}],
                                ensure_ascii=False, sort_keys=True).encode())
            h.update(b"\n")
        out[name] = h.hexdigest()
    return out


def test_default_italian_suite_is_unchanged(default_build):
    results, manifest = default_build
    assert manifest["language"] == "it" and all(i.language == "it" for items in results.values() for i in items)
    assert digests(results) == GOLDEN["default_n1000_seed0"]


@pytest.mark.parametrize("key,request_", [
    ("vary_filler_gap_n40_seed7", BuildRequest("all", 40, 7, vary=("filler", "gap"))),
    ("zipf_band_n20_seed3", BuildRequest("all", 20, 3, vary="zipf_band")),
])
def test_crossed_italian_suites_are_unchanged(key, request_):
    results, _ = build_suite(request_, LEXICON_DIR, GRAMMAR_DIR)
    assert digests(results) == GOLDEN[key]
