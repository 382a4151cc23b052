"""Italian morphology the templates need: articles with elision and allomorphy, articulated
prepositions, subject-verb agreement, compound tenses with auxiliary selection and
participle agreement, reflexive and resumptive clitics."""

from __future__ import annotations

import unicodedata

VOWELS = set("aeiouàèéìíòóùú")
_LO_ONSETS = ("gn", "ps", "pn", "x", "y", "z")
_PREP_STEMS = {"di": "de", "a": "a", "da": "da", "in": "ne", "su": "su"}
_ARTICLE_TAILS = {"il": "l", "lo": "llo", "l'": "ll'", "la": "lla", "i": "i", "gli": "gli", "le": "lle"}
_CLITICS = {("1", "sg"): "mi", ("2", "sg"): "ti", ("3", "sg"): "si",
            ("1", "pl"): "ci", ("2", "pl"): "vi", ("3", "pl"): "si"}
PERSON_INDEX = {("1", "sg"): 0, ("2", "sg"): 1, ("3", "sg"): 2, ("1", "pl"): 3, ("2", "pl"): 4, ("3", "pl"): 5}


def _initial(word: str) -> str:
    return unicodedata.normalize("NFC", word).lower()


def takes_lo(word: str) -> bool:
    """lo/gli/uno before s+consonant, z, gn, ps, pn, x, y and semivowel i (lo iato)."""
    w = _initial(word)
    if len(w) >= 2 and w[0] == "s" and w[1] not in VOWELS:
        return True
    if len(w) >= 2 and w[0] == "i" and w[1] in VOWELS:
        return True
    return w.startswith(_LO_ONSETS)


def starts_with_vowel(word: str) -> bool:
    w = _initial(word)
    return bool(w) and w[0] in VOWELS and not takes_lo(w)


def definite_article(word: str, gender: str, number: str = "sg", override: str = "") -> str:
    if number == "sg":
        if override:
            return override
        if gender == "f":
            return "l'" if starts_with_vowel(word) else "la"
        if takes_lo(word):
            return "lo"
        return "l'" if starts_with_vowel(word) else "il"
    if gender == "f":
        return "le"
    if override in ("lo", "l'") and number == "pl":
        return "gli"
    return "gli" if takes_lo(word) or starts_with_vowel(word) else "i"


def indefinite_article(word: str, gender: str) -> str:
    if gender == "f":
        return "un'" if starts_with_vowel(word) else "una"
    return "uno" if takes_lo(word) else "un"


def join(article: str, word: str) -> str:
    """An elided form (l', un', dell') attaches to the next word without a space."""
    return f"{article}{word}" if article.endswith("'") else f"{article} {word}"


def articulated(preposition: str, article: str) -> str:
    """di + il -> del, a + l' -> all', su + gli -> sugli, ..."""
    try:
        return _PREP_STEMS[preposition] + _ARTICLE_TAILS[article]
    except KeyError:
        raise ValueError(f"no articulated form for {preposition!r} + {article!r}") from None


def person_index(person: str, number: str) -> int:
    return PERSON_INDEX[(str(person), number)]


def reflexive_clitic(person: str, number: str) -> str:
    return _CLITICS[(str(person), number)]


def agree_participle(participle: str, gender: str, number: str) -> str:
    """Masculine singular -o -> -a, -i, -e (essere compounds agree with the subject)."""
    if not participle.endswith("o"):
        return participle
    stem = participle[:-1]
    if number == "sg":
        return participle if gender != "f" else stem + "a"
    return stem + ("e" if gender == "f" else "i")


_OBJECT_CLITICS = {("m", "sg"): "lo", ("f", "sg"): "la", ("m", "pl"): "li", ("f", "pl"): "le"}


def object_clitic(gender: str, number: str, before: str) -> str:
    """The accusative clitic lo / la / li / le; lo and la elide before a vowel or an h
    (l'ha, l'abbia, l'aveva), li and le never do. Returned with its separator: 'l'' or 'lo '."""
    clitic = _OBJECT_CLITICS[(gender, number)]
    w = _initial(before)
    if number == "sg" and w and (w[0] in VOWELS or w[0] == "h"):
        return "l'"
    return clitic + " "
