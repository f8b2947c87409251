"""Core engine: validation names the field, pins fail loudly, logic only runs for linked rules,
answers are JSON-ready with citations for every trace rule and ruling."""
from __future__ import annotations

import json

import pytest

from kb.reasoning.catalog import ask, list_mechanics  # registers every question type
from kb.reasoning.engine import Context, SituationError, UnreachableRule, reachable, registered
from kb.reasoning.registry import PinError, all_pins, check_pins
from kb.reasoning.rulebook import ParsedRuleBook
from kb.reasoning.schema import SchemaLabelError, check_labels
from tests.reasoning_fixtures import altered_book

MINE = ("day-night", "double-faced-card", "manifest")


def test_every_pin_holds_in_the_current_edition(book):
    pins = check_pins(book)
    assert len(pins) == len(all_pins()) > 40


def test_altered_rule_text_fails_loudly_naming_the_rule():
    bad = altered_book("731.2a", "If it's day, nothing happens.")
    with pytest.raises(PinError) as e:
        check_pins(bad)
    assert "731.2a" in str(e.value) and bad.edition in str(e.value)
    assert "didn't cast any spells" in str(e.value)


def test_removed_rule_fails_loudly():
    with pytest.raises(PinError, match="712.8e.*not found"):
        check_pins(altered_book("712.8e", None))


def test_ask_on_altered_book_refuses():
    with pytest.raises(PinError):
        ask(altered_book("731.2a", "Nothing."), "day-night", {"event": "game-start"})


@pytest.mark.parametrize("key", MINE)
def test_schema_labels_every_field_and_enum(key):
    listed = {m["key"]: m for m in list_mechanics()}
    schema = listed[key]["schema"]
    check_labels(schema)
    assert schema["$schema"].endswith("2020-12/schema")
    assert listed[key]["name_ja"] and listed[key]["name_en"]


def test_unlabeled_schema_is_refused():
    with pytest.raises(SchemaLabelError, match="title_ja"):
        check_labels({"properties": {"x": {"type": "string", "title_en": "x"}}})


@pytest.mark.parametrize("key,situation,field", [
    ("day-night", {"event": "untap-step", "colour": "blue"}, "colour"),
    ("day-night", {"designation": "day"}, "event"),
    ("day-night", {"event": "dusk"}, "event"),
    ("day-night", {"event": "untap-step", "previous_turn_spells": [{"by": 3}]}, "previous_turn_spells[0].by"),
    ("double-faced-card", {"question": "characteristics"}, "front"),
    ("double-faced-card", {"question": "characteristics", "front": {"name": "A", "power": "two"}}, "front.power"),
    ("manifest", {"question": "manifest", "cards": []}, "cards"),
    ("manifest", {"question": "manifest", "cards": [{"name": "A", "extra": 1}]}, "cards[0].extra"),
])
def test_bad_situation_names_the_field(book, key, situation, field):
    with pytest.raises(SituationError) as e:
        ask(book, key, situation)
    assert e.value.field == field
    assert isinstance(e.value, ValueError)


def test_bad_json_and_unknown_mechanic(book):
    with pytest.raises(SituationError) as e:
        ask(book, "day-night", "{not json")
    assert e.value.field == "$"
    with pytest.raises(SituationError) as e:
        ask(book, "phasing", {})
    assert e.value.field == "mechanic"


def test_situation_as_json_string(book):
    out = ask(book, "day-night", json.dumps({"event": "game-start"}))
    assert out["outcome"]["designation"] == "neither"


def test_answer_is_json_ready_and_cites_every_rule_and_ruling(book):
    out = ask(book, "double-faced-card", {"question": "characteristics", "face_up": "back",
                                          "front": {"name": "A", "mana_cost": "{3}{W}"}, "back": {"name": "B"}})
    json.dumps(out)
    assert out["edition"] == book.edition
    cited = {c.get("rule") for c in out["citations"]} | {c.get("ruling") for c in out["citations"]}
    for step in out["trace"]:
        assert step["rule"] in cited and step["edition"] == book.edition and step["text_en"] and step["did"]
    for group in ("agree", "disagree", "superseded"):
        for r in out["rulings"][group]:
            assert r["id"] in cited and r["locator"] and r["document"]


def test_logic_runs_only_for_rules_reached_by_links(book):
    ctx = Context(book=book, state={}, reachable=frozenset({"731.1"}), mechanic="day-night")
    with pytest.raises(UnreachableRule, match="731.2a"):
        ctx.apply("731.2a")
    reach = reachable(book, registered("manifest"))
    assert "701.40b" in reach and "712.15" in reach  # its own rules and the related DFC rules
    every, stack = set(), [str(n) for n in range(1, 10)]
    while stack:
        n = stack.pop()
        every.add(n)
        stack.extend(book.children(n))
    assert len(reach) < 0.8 * len(every)  # link-following is bounded, not "the whole book"
    if isinstance(book, ParsedRuleBook):
        # The parsed book starts manifest at 701.40/708 only. The KB also starts it at morph
        # (glossary "Face Down" cites 708 and 702.37), whose special action (116.2i) reaches
        # planechase (901.10) and so leaving the game (800.4a) in three hops.
        assert "800.4a" not in reach  # multiplayer rules aren't linked from manifest
