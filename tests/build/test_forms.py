"""The text forms the CR quotes, read from its rules and found in the cards' Oracle text
(kb.build.forms), and the retriever list they feed (kb.search.retrieval ``forms``)."""
from __future__ import annotations

from kb.build.forms import forms_in, matching_text, text_forms
from kb.search.cardnames import CardNames
from kb.search.retrieval import Retriever, rule_links


def _forms(full_kb):
    return text_forms(full_kb.model)


def test_the_forms_are_read_from_the_rules_that_quote_them(full_kb):
    forms = _forms(full_kb)
    by_rule = {f.rule: f for f in forms}
    assert "When/Whenever/At [trigger event], if [condition], [effect]." in by_rule["603.4"].quote
    assert "614.1c" in by_rule and "603.6d" in by_rule and "508.3a" in by_rule
    assert all("[" in f.quote for f in forms)  # a quote without a slot is an example, not a form


def test_an_intervening_if_is_found_and_an_ordinary_trigger_is_not(full_kb):
    forms = _forms(full_kb)
    own = ["Platoon Dispenser"]
    intervening = matching_text("At the beginning of your end step, if you control two or more other creatures, "
                                "draw a card.", own)
    plain = matching_text("At the beginning of your end step, draw a card. If you control an artifact, you gain 1 life.",
                          own)
    assert "603.4" in forms_in(forms, intervening)
    assert "603.4" not in forms_in(forms, plain)


def test_enters_with_is_a_replacement_form_in_old_and_new_oracle_wording(full_kb):
    forms = _forms(full_kb)
    for text in ("Clay Champion enters the battlefield with X +1/+1 counters on it.",
                 "Clay Champion enters with X +1/+1 counters on it."):
        found = forms_in(forms, matching_text(text, ["Clay Champion"]))
        assert "614.1c" in found, (text, found)
    # an enters trigger is a triggered ability, not "[This permanent] enters ..." as a replacement
    trigger = forms_in(forms, matching_text("When Clay Champion enters the battlefield, draw a card.", ["Clay Champion"]))
    assert "614.1c" not in trigger and "614.1d" not in trigger


def test_built_cards_carry_their_forms_rarest_first(full_kb):
    cards = full_kb.model.cards
    key = full_kb.model.card_names[next(n for n in full_kb.model.card_names if n.lower() == "platoon dispenser")]
    forms = cards[key]["forms"]
    assert "603.4" in [r for r, _ in forms]
    shares = [share for _, share in forms]
    assert shares == sorted(shares) and all(0 < s <= 1 for s in shares)


def test_a_question_on_an_intervening_if_gets_the_rule_and_its_resolution_check(full_kb):
    names = CardNames(full_kb.model)
    retriever = Retriever(full_kb.search_index, None, names, rule_links(full_kb.model))
    question = ("At the beginning of my end step Platoon Dispenser triggers because I control two other creatures. "
                "In response my opponent Lightning Bolts one of them. Do I still draw?")
    lists, _ = retriever.lists(question)
    assert lists["forms"][:2] == ["603.4", "608.2a"]  # the form, then the rule referring to it
    top = [hit.number for hit in retriever.search(question, limit=10).rules]
    assert "603.4" in top and "608.2a" in top
    off = Retriever(full_kb.search_index, None, names, rule_links(full_kb.model), weights={"forms": 0.0})
    assert "608.2a" not in [hit.number for hit in off.search(question, limit=10).rules]
