"""The English lexicon's tables and columns (documented in lexicon/README.md)."""

from __future__ import annotations

from ..columns import NAMES_TABLE, YES_NO, Column, closed

NOUN_CLASSES = frozenset(
    "human work info device vehicle furniture container structure clothing tool".split())
VERB_ROLES = frozenset("transitive bridge whether_embed noun_embed host work_verb knowledge".split())
# Relations an adjunct clause can bear to its host event: one per connective (connectives.csv).
ADJUNCT_RELATIONS = frozenset("condition when after".split())
# Kinds of act an adjunct host plausibly answers (lexicon/README.md).
EVENT_KINDS = frozenset("destructive contestable chore".split())

TABLES: dict[str, tuple[Column, ...]] = {
    "nouns": (
        Column("lemma", kind="form"),
        Column("plural", required=False, kind="form"),       # empty: the regular plural
        Column("classes", values=NOUN_CLASSES, multi=True),
        Column("article", required=False, values=closed("a", "an")),  # empty: from the spelling
        # authored works (classes=work): argued prose one can rebut or quote, or a work of art
        Column("genre", required=False, values=closed("verbal", "art")),
        # information nouns (classes=info): how the information travels and what one does with it
        Column("spoken", required=False, values=YES_NO),      # one hears it (a rumor, a claim)
        Column("written", required=False, values=YES_NO),     # one reads it (a report, a claim)
        Column("believable", required=False, values=YES_NO),  # one believes, accepts, confirms it
        Column("news", required=False, values=YES_NO),        # one reports, announces, leaks it
        Column("point", required=False, values=YES_NO),       # one notes, stresses, acknowledges it
        Column("zipf", kind="number"),
        Column("note", required=False, kind="text"),
    ),
    "verbs": (
        Column("lemma", kind="form"),
        Column("third", required=False, kind="form"),         # empty: the regular 3sg present
        Column("past", required=False, kind="form"),          # empty: the regular past
        Column("participle", required=False, kind="form"),    # empty: the past
        Column("roles", values=VERB_ROLES, multi=True),
        Column("object", values=closed("obligatory", "optional", "none")),
        Column("subj", required=False, kind="formula"),
        Column("obj", required=False, kind="formula"),
        Column("absolute_use", required=False, values=YES_NO),
        # takes a time noun as its object (ruined last night): not before a time adverb
        Column("time_object", required=False, values=YES_NO),
        Column("stative", required=False, values=YES_NO),
        Column("event_kind", required=False, values=EVENT_KINDS, multi=True),
        Column("adjuncts", required=False, values=ADJUNCT_RELATIONS, multi=True),
        Column("reacts_to", required=False, values=EVENT_KINDS, multi=True),
        Column("if_complement", required=False, values=YES_NO),
        Column("zipf", kind="number"),
        Column("note", required=False, kind="text"),
    ),
    "names": NAMES_TABLE,
    "connectives": (
        Column("lemma", kind="form"),
        Column("type", values=closed("conditional", "temporal")),
        Column("relation", values=ADJUNCT_RELATIONS),
        Column("note", required=False, kind="text"),
    ),
}

# Optional columns every row with a given feature must fill (the slots those rows fill use them).
REQUIRED_WHEN: dict[str, tuple[tuple[str, str, str], ...]] = {
    "verbs": (
        ("absolute_use", "roles", "transitive"), ("stative", "roles", "transitive"),
        ("time_object", "roles", "transitive"),
        ("event_kind", "roles", "transitive"),
        ("adjuncts", "roles", "host"), ("reacts_to", "roles", "host"), ("if_complement", "roles", "host"),
    ),
    "nouns": (*((column, "classes", "info") for column in ("spoken", "written", "believable", "news", "point")),
              ("genre", "classes", "work")),
}

# Features every entry of a table has without a column.
IMPLICIT_FEATURES: dict[str, dict[str, str]] = {
    "nouns": {"person": "3", "number": "sg"},
    "names": {"classes": "human", "person": "3", "number": "sg"},
}
