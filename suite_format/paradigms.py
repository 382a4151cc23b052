"""What a paradigm is, in the words tables and figures use: its island's short label, its
dependency and whether the island is weak or strong (docs/suite-format.md, manifest).

The generator writes one `ParadigmInfo` per paradigm into the manifest, `bench run` copies it
into run.json, and the report lays out tables and figures from it. Suites and runs written
before the manifest carried it get the same fields guessed from the paradigm's name."""

from __future__ import annotations

from dataclasses import asdict, dataclass

STRENGTHS = ("weak", "strong")
# Column order of tables and figures: the islands from weak to strong, the baseline apart.
ISLAND_ORDER = ("whether", "subject", "complex NP", "adjunct (conditional)", "adjunct (temporal)")
_LEGACY_LABELS = {
    "whether_island": "whether", "complex_np_island": "complex NP", "subject_island": "subject",
    "adjunct_island_conditional": "adjunct (conditional)", "adjunct_island_temporal": "adjunct (temporal)",
    "filler_gap": "filler-gap",
}


@dataclass(frozen=True)
class ParadigmInfo:
    name: str
    label: str                 # the island, as a column title: "whether", "complex NP"
    dependency: str            # wh | rc
    design: str                # island | filler_gap
    strength: str | None       # weak | strong; None for a design that is not an island
    title: str = ""

    @property
    def marked_label(self) -> str:
        """The label with the weak-island mark tables and figures use: 'whether (weak)'."""
        return f"{self.label} (weak)" if self.strength == "weak" else self.label

    def to_json(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "name"}

    @staticmethod
    def from_json(name: str, data: dict | None) -> "ParadigmInfo":
        """From a manifest or run.json entry; missing fields are guessed from the name."""
        guess = ParadigmInfo.guess(name)
        data = data or {}
        strength = data.get("strength", guess.strength)
        return ParadigmInfo(
            name=name,
            label=str(data.get("label") or guess.label),
            dependency=str(data.get("dependency") or guess.dependency),
            design=str(data.get("design") or guess.design),
            strength=strength if strength in STRENGTHS else None,
            title=str(data.get("title") or guess.title),
        )

    @staticmethod
    def guess(name: str) -> "ParadigmInfo":
        rc = name.endswith("_rc")
        base = name.removesuffix("_rc")
        label = _LEGACY_LABELS.get(base, base.replace("_island", "").replace("_", " "))
        design = "filler_gap" if base == "filler_gap" else "island"
        return ParadigmInfo(name, label, "rc" if rc else "wh", design, None, name.replace("_", " "))


def island_rank(info: ParadigmInfo) -> tuple:
    """Sort key: weak islands first, then the usual island order, wh before rc, then the name."""
    strength = {"weak": 0, "strong": 1}.get(info.strength or "", 2)
    known = ISLAND_ORDER.index(info.label) if info.label in ISLAND_ORDER else len(ISLAND_ORDER)
    dependency = {"wh": 0, "rc": 1}.get(info.dependency, 2)  # a question before its relative clause
    return (info.design != "island", strength, known, info.label, dependency, info.name)
