"""Word splitting, the additive-multiset residual, and the item JSON round trip."""

from hypothesis import given, strategies as st

from generator.render import assemble
from generator.suite import CONDITIONS, Item, Sentence, dumps_item
from generator.words import condition_residual, residual, word_spans, words


def test_words_split_elision_and_punctuation():
    assert words("Di chi pensi che l'articolo dell’avvocata abbia causato l'irritazione?") == [
        "Di", "chi", "pensi", "che", "l'", "articolo", "dell’", "avvocata", "abbia", "causato", "l'",
        "irritazione", "?"]
    assert words("Cosa hai smentito, davvero?") == ["Cosa", "hai", "smentito", ",", "davvero", "?"]


def test_published_design_is_not_additive_and_ours_is():
    ours = {
        "short_nonisland": "Chi pensa che Gianni abbia riscosso il pagamento?",
        "long_nonisland": "Cosa pensa Maria che Gianni abbia riscosso?",
        "short_island": "Chi si domanda se Gianni abbia riscosso il pagamento?",
        "long_island": "Cosa si domanda Maria se Gianni abbia riscosso?",
    }
    assert condition_residual(ours) == []
    published = dict(ours, long_nonisland="Cosa pensi che Gianni abbia riscosso?",
                     long_island="Cosa ti domandi se Gianni abbia riscosso?")
    assert condition_residual(published) == ["+domandi", "+pensa", "+ti", "-domanda", "-pensi", "-si"]


bags = st.lists(st.sampled_from(["chi", "cosa", "pensa", "che", "se", "il", "libro", "?"]), max_size=8)


@given(bags, bags, bags, bags)
def test_residual_is_empty_exactly_when_differences_match(sn, ln, si, li):
    from collections import Counter
    additive = Counter(sn) + Counter(li) == Counter(ln) + Counter(si)
    assert (residual(sn, ln, si, li) == []) == additive


@given(st.lists(st.sampled_from(["filler", "matrix", "subject", "verb", "object", "end"]), min_size=1, max_size=7),
       st.lists(st.sampled_from(["chi", "l'", "avvocata", "pensa", "?", ""]), min_size=7, max_size=7))
def test_regions_and_words_round_trip_through_json(names, contents):
    marks = " ".join(f"[{n}: {c}]" for n, c in zip(names, contents))
    if not any(contents[: len(names)]):
        return
    text, regions = assemble(marks, "x")
    sentence = Sentence(text, True, regions, tuple(word_spans(text)))
    item = Item("p-00000", "p", "wh", {"f": "a"}, {"s": "x"}, True, {c: sentence for c in CONDITIONS})
    again = Item.from_json(__import__("json").loads(dumps_item(item)))
    assert again == item
    for region in regions:
        assert 0 <= region.start <= region.end <= len(text)
    assert "".join(text[a:b] for a, b in sentence.words) == text.replace(" ", "")
