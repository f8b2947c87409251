"""Question search on what nobody here wrote (issue 38): the CR's examples as a second index of
situations, cards named but not loaded, and why each rule is listed (kb.search.examples,
kb.search.cardnames, kb.search.why), in the API, the CLI and the /search page."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.search.examples import CRExamples
from server import create_app

QUESTION = ("A creature with deathtouch deals 1 damage to a blocking creature with toughness 5. "
            "Does the blocking creature die?")


@pytest.fixture(scope="module")
def examples(full_kb):
    return CRExamples.from_model(full_kb.model)


def test_a_question_told_like_a_cr_example_brings_the_rule_the_example_is_under(full_kb, examples):
    current = full_kb.model.current("en")
    rule = full_kb.model.rules[("en", current, "702.19b")]  # trample: "A 6/6 green creature with trample..."
    text = rule["examples"][0]["text"].removeprefix("Example: ")
    assert examples.rules(text)[0] == "702.19b"
    ja = [examples.texts[i] for i in range(len(examples)) if examples.keys[i] == ("702.19b", 0) and examples.langs[i] == "ja"]
    assert ja and examples.rules(ja[0])[0] == "702.19b"  # the JA example, carried to today's number


def test_a_hidden_example_is_out_of_the_index_in_both_languages(full_kb, examples):
    """What the leave-one-out bench relies on: an example hidden never answers, EN or JA."""
    current = full_kb.model.current("en")
    single = next(n for n, r in full_kb.model.rules.edition("en", current).items()
                  if len(r["examples"]) == 1 and examples.rules(r["examples"][0]["text"])[:1] == [n])
    text = full_kb.model.rules[("en", current, single)]["examples"][0]["text"]
    examples.hidden = frozenset({(single, 0)})
    try:
        assert all(examples.keys[i] != (single, 0) for i in examples.like(text, len(examples)))
    finally:
        examples.hidden = frozenset()


def test_a_card_known_by_name_only_is_listed_as_not_loaded_and_not_read(full_kb):
    retriever = full_kb.retriever(dense=False)
    found = retriever.search("My opponent controls Tarmogoyf and I cast Lightning Bolt on it. "
                             "What is its toughness when the Bolt resolves?", explain=True)
    by_name = {c.name: c.loaded for c in found.cards}
    assert by_name == {"Tarmogoyf": False, "Lightning Bolt": True}
    lists, _ = retriever.lists("My opponent controls Tarmogoyf and I attack with a creature. What is its toughness?")
    assert not {"cards", "rulings", "card_rules", "forms"} & set(lists)  # nothing read from a card not loaded


def test_one_word_opening_a_sentence_or_a_game_term_is_no_card(full_kb):
    names = full_kb.retriever(dense=False).cards
    assert [c.name for c in names.find("Shock the Tarmogoyf. A creature with Flash enters.")] == ["Tarmogoyf"]


def test_each_rule_says_which_phrase_of_the_question_or_card_led_to_it(full_kb):
    found = full_kb.retriever(dense=False).search(QUESTION, limit=10, explain=True)
    deathtouch = [h for h in found.rules if h.number.startswith("702.2")]
    assert deathtouch, [h.number for h in found.rules]
    assert any(w["from"] == "question" and "deathtouch" in w["phrase"] for w in deathtouch[0].why)
    assert all(h.why for h in found.rules)  # every rule listed says why
    card = full_kb.retriever(dense=False).search(
        "Wing Commando attacks and I cast an instant. Does it get bigger before blockers are declared?", explain=True)
    prowess = next(h for h in card.rules if h.number == "702.108a")
    assert any(w["from"] in ("card", "ruling") and w["card"] == "Wing Commando" and "rowess" in w["phrase"]
               for w in prowess.why), prowess.why


def test_the_api_cli_and_page_say_why(full_kb, full_home, monkeypatch):
    client = create_app({"KB": full_kb, "TESTING": True}).test_client()
    data = client.get("/api/search", query_string={"q": QUESTION}).get_json()
    assert data["rules"] and all(r["why"] and r["citation"]["locator"] for r in data["rules"])
    assert {"via", "from", "phrase"} <= set(data["rules"][0]["why"][0])
    ask = "My opponent controls Tarmogoyf and I cast Lightning Bolt on it. What is its toughness?"
    cards = client.get("/api/search", query_string={"q": ask}).get_json()["cards"]
    assert {c["oracle_name"]: c["text_loaded"] for c in cards} == {"Tarmogoyf": False, "Lightning Bolt": True}
    html = client.get("/search", query_string={"q": ask}, headers={"Accept": "text/html"}).get_data(as_text=True)
    assert 'class="why"' in html and "card-not-loaded" in html
    monkeypatch.setenv("MTG_KB_HOME", str(full_home))
    result = CliRunner().invoke(main, ["search", QUESTION])
    assert result.exit_code == 0 and 'why: question says: "' in result.output and "deathtouch" in result.output
    out = json.loads(CliRunner().invoke(main, ["search", ask, "--json"]).output)
    assert any(c["text_loaded"] is False for c in out["cards"])
