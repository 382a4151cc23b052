"""Item designs: the layouts a suite may use (docs/suite-format.md): the 2x2 factorial designs
of the generated suites and the minimal pair of imported BLiMP files.

A design names its conditions, its factors and the level of each factor in each condition, which conditions are grammatical, and the interaction contrast: the signed sum
of the four scores that is positive when a model shows the effect the design measures.
Both halves read designs from here, so a new design is one entry below plus its paradigms."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Design:
    name: str
    title: str
    conditions: tuple[str, ...]                 # 2x2: (a0,b0) (a1,b0) (a0,b1) (a1,b1); a pair: (good, bad)
    abbrev: dict[str, str]                      # condition -> short column name (SN, WG, ...)
    factors: tuple[tuple[str, tuple[str, str]], ...]  # two factors (2x2) or one (a pair)
    grammatical: dict[str, bool]
    signs: dict[str, int]                       # interaction = sum(sign * log-prob) > 0 expected
    effect: str                                 # the interaction's name in tables (DD, licensing)
    minimal_pairs: tuple[tuple[str, str], ...]  # (should score higher, should score lower)
    critical_region: str | None = None          # region where the literature reads the effect

    def levels(self, condition: str) -> dict[str, str]:
        """The level of each factor in `condition`, e.g. {'length': 'long', 'structure': 'island'}."""
        k = self.conditions.index(condition)
        if len(self.factors) == 1:
            (f1, l1), = self.factors
            return {f1: l1[k]}
        (f1, l1), (f2, l2) = self.factors
        return {f1: l1[k % 2], f2: l2[k // 2]}

    def contrast(self, scores: dict[str, float]) -> float:
        """The interaction: sum of sign * score, added in a fixed order (bit-reproducible)."""
        return sum(self.signs[c] * scores[c] for c in self.conditions)

    def sides(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(negative-sign conditions, positive-sign conditions), each in canonical order: an item
        is additive when the word multisets of the two sides are equal."""
        neg = tuple(c for c in self.conditions if self.signs[c] < 0)
        pos = tuple(c for c in self.conditions if self.signs[c] > 0)
        return neg, pos  # type: ignore[return-value]


ISLAND = Design(
    name="island",
    title="island 2x2: dependency length x island structure",
    conditions=("short_nonisland", "long_nonisland", "short_island", "long_island"),
    abbrev={"short_nonisland": "SN", "long_nonisland": "LN", "short_island": "SI", "long_island": "LI"},
    factors=(("length", ("short", "long")), ("structure", ("nonisland", "island"))),
    grammatical={"short_nonisland": True, "long_nonisland": True, "short_island": True, "long_island": False},
    # DD = (SN - LN) - (SI - LI) in surprisal = S(LN) + S(SI) - S(SN) - S(LI) in log-probability
    signs={"short_nonisland": -1, "long_nonisland": 1, "short_island": 1, "long_island": -1},
    effect="DD",
    minimal_pairs=(("short_nonisland", "long_island"), ("long_nonisland", "long_island"),
                   ("short_island", "long_island")),
)

FILLER_GAP = Design(
    name="filler_gap",
    title="filler-gap 2x2: wh-filler x gap (wh-licensing, Wilcox et al. 2018)",
    conditions=("that_nogap", "wh_nogap", "that_gap", "wh_gap"),
    abbrev={"that_nogap": "TN", "wh_nogap": "WN", "that_gap": "TG", "wh_gap": "WG"},
    factors=(("filler", ("that", "wh")), ("gap", ("nogap", "gap"))),
    grammatical={"that_nogap": True, "wh_nogap": False, "that_gap": False, "wh_gap": True},
    # licensing = [LP(wh_gap) - LP(that_gap)] - [LP(wh_nogap) - LP(that_nogap)]: a filler makes
    # a gap likelier and a filled object less likely
    signs={"that_nogap": 1, "wh_nogap": -1, "that_gap": -1, "wh_gap": 1},
    effect="licensing",
    minimal_pairs=(("that_nogap", "that_gap"), ("wh_gap", "wh_nogap")),
    critical_region="spillover",
)

MINIMAL_PAIR = Design(
    name="minimal_pair",
    title="minimal pair: a grammatical sentence against its ungrammatical twin (BLiMP's files)",
    conditions=("good", "bad"),
    abbrev={"good": "good", "bad": "bad"},
    factors=(("grammaticality", ("good", "bad")),),
    grammatical={"good": True, "bad": False},
    signs={"good": 1, "bad": -1},           # LP(good) - LP(bad) > 0: the pair is scored right
    effect="pair",
    minimal_pairs=(("good", "bad"),),
)

DESIGNS: dict[str, Design] = {d.name: d for d in (ISLAND, FILLER_GAP, MINIMAL_PAIR)}
DEFAULT_DESIGN = ISLAND.name  # items of format version 1 carry no design: they are island items


def design_named(name: str) -> Design:
    try:
        return DESIGNS[name]
    except KeyError:
        raise KeyError(f"unknown design {name!r} (known: {', '.join(DESIGNS)})") from None
