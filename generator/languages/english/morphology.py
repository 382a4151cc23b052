"""English morphology the templates need: a/an, noun plurals, the third person singular,
the past and the past participle (regular rules; the lexicon lists irregular forms)."""

from __future__ import annotations

VOWELS = set("aeiou")
# Words whose first letter misleads: a vowel letter read as a consonant sound (a university,
# a one-off), a silent h (an hour). The lexicon can also say `article=a|an` for any noun.
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "one", "once", "ewe", "ur")
_SILENT_H = ("hour", "honest", "honou", "honor", "heir")


def indefinite_article(word: str, override: str = "") -> str:
    if override:
        return override
    w = word.lower()
    if w.startswith(_SILENT_H):
        return "an"
    if w[:1] in VOWELS and not w.startswith(_CONSONANT_SOUND):
        return "an"
    return "a"


def _sibilant(word: str) -> bool:
    return word.endswith(("s", "x", "z", "ch", "sh"))


def _consonant_y(word: str) -> bool:
    return len(word) > 1 and word[-1] == "y" and word[-2] not in VOWELS


def plural(noun: str) -> str:
    """box -> boxes, lorry -> lorries, radio -> radios (nouns in -o with -es are listed)."""
    if _sibilant(noun):
        return noun + "es"
    if _consonant_y(noun):
        return noun[:-1] + "ies"
    return noun + "s"


def _head_and_particle(verb: str) -> tuple[str, str]:
    """A phrasal verb inflects its first word: find out -> finds out."""
    head, _, rest = verb.partition(" ")
    return head, (" " + rest if rest else "")


def third_singular(verb: str) -> str:
    head, rest = _head_and_particle(verb)
    if head == "have":
        return "has" + rest
    if head == "be":
        return "is" + rest
    if _sibilant(head) or head.endswith("o"):
        return head + "es" + rest
    if _consonant_y(head):
        return head[:-1] + "ies" + rest
    return head + "s" + rest


def _doubles(word: str) -> bool:
    """A one-syllable verb ending in consonant-vowel-consonant doubles it: stop -> stopped
    (not w, x or y: fix -> fixed). Longer verbs that double (regret) are listed."""
    if len(word) < 3 or word[-1] in VOWELS or word[-1] in "wxy":
        return False
    if word[-2] not in VOWELS or word[-3] in VOWELS:
        return False
    return sum(1 for a, b in zip(" " + word, word) if b in VOWELS and a not in VOWELS) == 1


def regular_past(verb: str) -> str:
    head, rest = _head_and_particle(verb)
    if head.endswith("e"):
        return head + "d" + rest
    if _consonant_y(head):
        return head[:-1] + "ied" + rest
    if _doubles(head):
        return head + head[-1] + "ed" + rest
    return head + "ed" + rest
