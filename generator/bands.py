"""`--vary zipf_band`: frequency as a confound, varied item-matched.

Every content slot of a paradigm (a noun, verb, name or predicate) is split at the median
Zipf frequency of its candidates into a frequent band (zipf >= median) and a rare band
(zipf < median). The factor is added to the paradigm as an ordinary variant with those two
levels, so a matched set holds the same skeleton (every other variant level the same) drawn
once from the top band of every content slot and once from the bottom band. The thresholds
go into the manifest, and `gen validate` rebuilds the variant from them to re-check items."""

from __future__ import annotations

from dataclasses import replace
from statistics import median

from .formula import parse_formula
from .grammar import Level, Paradigm, Variant
from .lexicon import Lexicon
from .sampler import iter_level_combinations
from .stats import CONTENT_TABLES

FACTOR = "zipf_band"
LEVELS = ("frequent", "rare")


def zipf_thresholds(paradigm: Paradigm, lexicon: Lexicon, fixed: dict[str, str]) -> dict[str, dict]:
    """Per content slot: the median Zipf of its candidates over every level combination the build
    samples (the slot's own formulas; references to other slots are left out), and each band's
    range and size."""
    candidates: dict[str, dict[str, float]] = {}
    for levels in iter_level_combinations(paradigm, fixed):
        for spec in paradigm.slot_specs(levels):
            if spec.table not in CONTENT_TABLES:
                continue
            formulas = [parse_formula(w) for w in spec.where if "{" not in w]
            found = candidates.setdefault(spec.name, {})
            for e in lexicon.table(spec.table):
                if all(f.matches(e.features) for f in formulas):
                    found[f"{spec.table}:{e.lemma}"] = e.zipf
    out: dict[str, dict] = {}
    for slot, found in candidates.items():
        zipfs = sorted(found.values())
        cut = round(median(zipfs), 2) if zipfs else 0.0
        top = [z for z in zipfs if z >= cut]
        bottom = [z for z in zipfs if z < cut]
        if not top or not bottom:
            continue  # one frequency: nothing to split
        out[slot] = {"threshold": cut, "frequent": [top[0], top[-1]], "rare": [bottom[0], bottom[-1]],
                     "candidates": {"frequent": len(top), "rare": len(bottom)}}
    return out


def with_zipf_band(paradigm: Paradigm, thresholds: dict[str, dict]) -> Paradigm:
    """The paradigm with a `zipf_band` variant whose levels restrict every banded slot."""
    frequent = Level("frequent", {}, {s: (f"zipf>={t['threshold']}",) for s, t in thresholds.items()}, {})
    rare = Level("rare", {}, {s: (f"zipf<{t['threshold']}",) for s, t in thresholds.items()}, {})
    variants = {**paradigm.variants, FACTOR: Variant(FACTOR, "frequent", {"frequent": frequent, "rare": rare})}
    return replace(paradigm, variants=variants)
