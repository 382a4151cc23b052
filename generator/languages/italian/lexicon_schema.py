"""The Italian lexicon's tables and columns (documented in lexicon/README.md)."""

from __future__ import annotations

from ..columns import NAMES_TABLE, YES_NO, Column
from ..columns import closed as _closed

PERSONS = ("1sg", "2sg", "3sg", "1pl", "2pl", "3pl")
PARADIGM_COLUMNS = ("pres_ind", "pres_subj", "impf_ind", "impf_subj", "fut", "cond")

NOUN_CLASSES = frozenset(
    "human animal institution artifact tool device vehicle furniture clothing container food "
    "drink plant money document content info emotion reaction event plan place building abstract relation".split()
)
VERB_ROLES = frozenset("transitive bridge se_embed noun_embed emotive causative host auxiliary".split())
# Relations an adjunct clause can bear to its host event: one per connective (connectives.csv).
ADJUNCT_RELATIONS = frozenset("condition when during after before".split())
# Kinds of everyday act an adjunct-host verb plausibly follows or answers (lexicon/README.md).
EVENT_KINDS = frozenset("disruptive contestable grave public chore".split())


TABLES: dict[str, tuple[Column, ...]] = {
    "nouns": (
        Column("lemma", kind="form"),
        Column("gender", values=_closed("m", "f")),
        Column("plural", kind="form"),
        Column("classes", values=NOUN_CLASSES, multi=True),
        Column("comp_mood", required=False, values=_closed("subj", "ind", "both")),
        Column("info_type", required=False, values=_closed("report", "belief", "feeling")),
        Column("trivial_content", required=False, values=YES_NO),
        Column("count", required=False, values=_closed("count", "mass")),
        Column("valence", required=False, values=_closed("negative", "positive", "neutral")),
        Column("gradable", required=False, values=YES_NO),
        Column("di_theme", required=False, values=YES_NO),
        Column("author", required=False, values=_closed("anyone", "specialist")),
        Column("scale", required=False, values=_closed("large")),
        Column("article", required=False, values=_closed("il", "lo", "la", "l'")),
        Column("zipf", kind="number"),
        Column("note", required=False, kind="text"),
    ),
    "verbs": (
        Column("lemma", kind="form"),
        Column("aux", values=_closed("avere", "essere")),
        Column("roles", values=VERB_ROLES, multi=True),
        Column("object", values=_closed("obligatory", "optional", "none")),
        Column("che_mood", required=False, values=_closed("subj", "ind", "both")),
        Column("subj", required=False, kind="formula"),
        Column("obj", required=False, kind="formula"),
        Column("absolute_use", required=False, values=YES_NO),
        Column("stative", required=False, values=YES_NO),
        Column("event_kind", required=False, values=EVENT_KINDS, multi=True),
        Column("cosa_why", required=False, values=YES_NO),
        Column("se_complement", required=False, values=YES_NO),
        Column("adjuncts", required=False, values=ADJUNCT_RELATIONS, multi=True),
        Column("reacts_to", required=False, values=EVENT_KINDS),
        Column("proleptic_di", required=False, values=YES_NO),
        Column("trivial_content", required=False, values=YES_NO),
        Column("wh_complement", required=False, values=YES_NO),
        Column("weak_bridge", required=False, values=YES_NO),
        Column("info_object", required=False, values=YES_NO),
        Column("prospective", required=False, values=YES_NO),
        Column("part", kind="form"),
        *(Column(name, kind="paradigm") for name in PARADIGM_COLUMNS),
        Column("zipf", kind="number"),
        Column("note", required=False, kind="text"),
    ),
    "names": NAMES_TABLE,
    "pronouns": (
        Column("lemma", kind="form"),
        Column("person", values=_closed("1", "2", "3")),
        Column("number", values=_closed("sg", "pl")),
        Column("gender", values=_closed("m", "f", "mf")),
        Column("note", required=False, kind="text"),
    ),
    "connectives": (
        Column("lemma", kind="form"),
        Column("type", values=_closed("conditional", "temporal")),
        Column("mood", values=_closed("ind", "subj")),
        Column("tense", values=_closed("pres", "perf", "impf", "pluperf")),
        Column("relation", values=ADJUNCT_RELATIONS),
        Column("note", required=False, kind="text"),
    ),
    "predicates": (
        Column("lemma", kind="form"),
        Column("che_mood", values=_closed("subj", "ind")),
        Column("proleptic_di", values=YES_NO),
        Column("reading", required=False, values=_closed("epistemic", "evaluative", "prospective")),
        Column("zipf", kind="number"),
        Column("note", required=False, kind="text"),
    ),
    "wh_words": (
        Column("lemma", kind="form"),
        Column("category", values=_closed("pronoun", "determiner", "pp")),
        Column("animacy", values=_closed("human", "inanimate", "any")),
        Column("note", required=False, kind="text"),
    ),
}

# Columns that are optional in general but required where a row has a feature: the
# property matters only for the slots those rows can fill.
REQUIRED_WHEN: dict[str, tuple[tuple[str, str, str], ...]] = {
    "verbs": (
        ("absolute_use", "roles", "transitive"), ("stative", "roles", "transitive"),
        ("proleptic_di", "roles", "bridge"), ("trivial_content", "roles", "bridge"),
        ("trivial_content", "roles", "se_embed"),
        ("cosa_why", "roles", "host"), ("se_complement", "roles", "host"),
        ("adjuncts", "roles", "host"), ("reacts_to", "roles", "host"),
        ("cosa_why", "roles", "emotive"), ("se_complement", "roles", "emotive"),
    ),
    "nouns": (
        ("count", "classes", "emotion"), ("valence", "count", "count"), ("gradable", "count", "count"),
        ("di_theme", "count", "count"),
        ("trivial_content", "classes", "info"),
    ),
}

# Features every entry of a table has without a column: names and pronouns denote people,
# common nouns and names are third person singular.
IMPLICIT_FEATURES: dict[str, dict[str, str]] = {
    "nouns": {"person": "3", "number": "sg"},
    "names": {"classes": "human", "person": "3", "number": "sg"},
    "pronouns": {"classes": "human"},
}
