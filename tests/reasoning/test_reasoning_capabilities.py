"""The engine's capabilities added for issue 13: each question of questions_capabilities.py, and the
effect reader (kb.reasoning.effects) on English and Japanese text, refusing what it can't read."""
from __future__ import annotations

import pytest

from kb.errors import SituationError
from kb.reasoning.catalog import ask, list_mechanics
from kb.reasoning.effects import read
from tests.reasoning.questions_capabilities import ANGEL, CAPABILITIES
from tests.reasoning.questions_new import assert_answer


@pytest.mark.parametrize("mechanic,situation,expected,rules", [c[1:] for c in CAPABILITIES],
                         ids=[c[0] for c in CAPABILITIES])
def test_question(book, mechanic, situation, expected, rules):
    assert_answer(book, mechanic, situation, expected, rules)


def test_reader_english_in_the_order_written():
    kinds = [e["kind"] for e in read("Until end of turn, target creature loses all abilities and becomes a red "
                                     "Weird with base power and toughness 0/1. It deals 2 damage to any target.")]
    assert kinds == ["lose-abilities", "set-base", "damage"]


def test_reader_kicker_is_one_damage_event():
    effects = read("Burst Lightning deals 2 damage to any target. If this spell was kicked, it deals 4 damage instead.")
    assert effects == [{"kind": "damage", "amount": 2, "divided_evenly": False, "kicked_amount": 4}]


def test_reader_japanese():
    assert [e["kind"] for e in read("クリーチャー1体を対象とする。それを破壊する。")] == ["destroy"]
    assert read("稲妻は、クリーチャー1体かプレイヤー1人を対象とし、それに3点のダメージを与える。")[0]["amount"] == 3


def test_unreadable_incoming_text_is_refused_naming_the_field(book):
    with pytest.raises(SituationError) as e:
        ask(book, "face-down", {"question": "turn-face-up", "card": ANGEL, "incoming": "Draw a card."})
    assert e.value.field == "incoming"


def test_an_effect_kind_the_type_has_no_step_for_is_refused(book):
    with pytest.raises(SituationError) as e:
        ask(book, "face-down", {"question": "turn-face-up", "card": ANGEL,
                                "incoming": "Target creature gets +3/+3 until end of turn."})
    assert e.value.field == "incoming" and "pump" in str(e.value)


def test_japanese_incoming_text_answers(book):
    out = ask(book, "face-down", {"question": "表向きにする", "card": ANGEL,
                                  "incoming": "稲妻は、クリーチャー1体を対象とし、それに3点のダメージを与える。"})["outcome"]
    assert out["incoming"]["damage_marked"] == 3 and out["incoming"]["survives"] is True


def test_new_fields_are_listed_with_ja_and_en_labels():
    schemas = {m["key"]: m["schema"]["properties"] for m in list_mechanics()}
    for key, name in (("face-down", "incoming"), ("split-card", "watchers"), ("split-card", "target"),
                      ("meld", "targeted_as")):
        assert schemas[key][name]["title_ja"] and schemas[key][name]["title_en"]


def test_japanese_cast_trigger_is_read_and_an_unreadable_one_refused(book):
    from tests.reasoning.questions_capabilities import FIRE, ICE
    sit = {"question": "cast", "left": FIRE, "right": ICE, "cast_as": "right",
           "watchers": [{"text": "あなたが青の呪文を唱えるたび、カードを1枚引く。"}, {"text": "あなたが赤の呪文を唱えるたび"}]}
    triggers = [t["triggers"] for t in ask(book, "split-card", sit)["outcome"]["cast_triggers"]]
    assert triggers == [True, False]
    with pytest.raises(SituationError) as e:
        ask(book, "split-card", {**sit, "watchers": [{"text": "Flying"}]})
    assert e.value.field == "watchers[0].text"
