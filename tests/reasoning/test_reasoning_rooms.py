"""Room (CR 709.5) questions, written from the current CR's text and the 部屋 wiki page's rulings.

Each row: a situation, what the rule text says the outcome is, and rules that must be in the trace.
"""
from __future__ import annotations

import tests.reasoning_fixtures as ROOMS

import pytest

from kb.reasoning.catalog import ask
from kb.reasoning.engine import SituationError
from kb.reasoning.rulebook import ParsedRuleBook
from tests.reasoning_fixtures import current_book

ROOM, NO_TARGET = ROOMS.ROOM, ROOMS.NO_TARGET_ROOM


def sit(event, **kw):
    return {"room": kw.pop("room", ROOM), "event": event, **kw}


def door_triggers(out):
    return [(t["door"], t["times"], t["put_on_stack"]) for t in out["triggers"] if t["event"] == "unlock"]


CASES = [
    ("cast left half: left unlocked as it enters (709.5d)", sit("cast_resolves", cast_half="left"),
     {"unlocked": ["left"], "locked": ["right"], "characteristics_of": ["Walk-In Closet"]}, ["709.5d", "709.5"]),
    ("cast right half", sit("cast_resolves", cast_half="right"),
     {"unlocked": ["right"], "characteristics_of": ["Forgotten Cellar"]}, ["709.5d"]),
    ("entering without being cast: no door unlocked, no name", sit("put_onto_battlefield", unlocked=["left"]),
     {"unlocked": [], "characteristics_of": [], "triggers": []}, ["709.5d", "709.5"]),
    ("token copy of a fully unlocked Room enters locked", sit("token_copy", source_unlocked=["left", "right"]),
     {"unlocked": [], "locked": ["left", "right"], "triggers": []}, ["709.5b", "709.5d"]),
    ("permanent entering as a copy enters locked", sit("enters_as_copy", source_unlocked=["left"]),
     {"unlocked": []}, ["709.5b", "709.5d"]),
    ("existing permanent becoming a copy keeps its own designations",
     sit("becomes_copy", unlocked=["right"], source_unlocked=["left"]),
     {"unlocked": ["right"], "characteristics_of": ["Forgotten Cellar"], "triggers": []}, ["709.5b", "709.5c"]),
    ("copy of a Room spell keeps the half cast and enters with it unlocked", sit("spell_copy_resolves", cast_half="right"),
     {"unlocked": ["right"], "gained": ["right"]}, ["707.10", "608.3f", "709.5d"]),
    ("unlock special action at sorcery timing", sit("unlock_action", door="right", mana_pool="{3}{G}{G}"),
     {"legal": True, "unlocked": ["right"], "uses_stack": False}, ["709.5e", "116.1", "116.3", "709.5h"]),
    ("unlock action not during a main phase", sit("unlock_action", door="left", timing={"main_phase": False}),
     {"legal": False, "unlocked": [], "triggers": []}, ["709.5e"]),
    ("unlock action with a non-empty stack", sit("unlock_action", door="left", timing={"stack_empty": False}),
     {"legal": False}, ["709.5e"]),
    ("unlock action on the opponent's turn", sit("unlock_action", door="left", timing={"own_turn": False}),
     {"legal": False}, ["709.5e"]),
    ("unlock action on a Room you don't control", sit("unlock_action", door="left", controls=False),
     {"legal": False}, ["709.5e"]),
    ("unlock action on an already unlocked door", sit("unlock_action", door="left", unlocked=["left"]),
     {"legal": False, "unlocked": ["left"]}, ["709.5e"]),
    ("unlock cost can't be paid", sit("unlock_action", door="right", mana_pool="{G}{G}"),
     {"legal": False, "unlocked": []}, ["709.5e"]),
    ("unlock effect chooses a locked half", sit("unlock_effect", door="right", unlocked=["left"]),
     {"legal": True, "unlocked": ["left", "right"], "uses_stack": None}, ["709.5f", "709.5h", "709.5i"]),
    ("unlock effect can't choose an unlocked half", sit("unlock_effect", door="left", unlocked=["left"]),
     {"legal": False, "unlocked": ["left"]}, ["709.5f"]),
    ("unlock effect on a fully unlocked Room: nothing happens", sit("unlock_effect", door="left", unlocked=["left", "right"]),
     {"nothing_happens": True, "gained": [], "triggers": []}, ["709.5f"]),
    ("lock effect removes the designation", sit("lock_effect", door="left", unlocked=["left", "right"]),
     {"unlocked": ["right"], "characteristics_of": ["Forgotten Cellar"], "triggers": []}, ["709.5g", "709.5"]),
    ("lock effect can't choose a locked half", sit("lock_effect", door="left", unlocked=["right"]),
     {"legal": False, "unlocked": ["right"]}, ["709.5g"]),
    ("lock with nothing unlocked", sit("lock_effect", door="left"), {"nothing_happens": True}, ["709.5g"]),
]


@pytest.mark.parametrize("situation,expected,rules", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_room(book, situation, expected, rules):
    result = ask(book, "room", situation)
    out = result["outcome"]
    assert {k: out[k] for k in expected} == expected
    traced = [s["rule"] for s in result["trace"]]
    assert [r for r in rules if r not in traced] == []


@pytest.mark.parametrize("situation,expected,rules", [
    # 709.5h: triggers whether unlocked while entering or after
    (sit("cast_resolves", cast_half="left"), [("left", 1, True)], ["709.5h"]),
    (sit("unlock_action", door="left"), [("left", 1, True)], ["709.5h"]),
    # Panharmonicon-like effects apply to triggers caused by entering (603.2d, 603.6a), not unlocking
    (sit("cast_resolves", cast_half="left", enter_trigger_doubler="Panharmonicon"), [("left", 1, True)],
     ["709.5h", "603.2d", "603.6a"]),
    # 603.3d: no legal target -> the trigger is removed; the door is still unlocked
    (sit("unlock_action", door="right", room=NO_TARGET), [("right", 1, False)], ["709.5h", "603.3d"]),
    (sit("cast_resolves", cast_half="right", room=NO_TARGET), [("right", 1, False)], ["603.3d"]),
    (sit("unlock_action", door="right"), [("right", 1, True)], ["709.5h"]),
    # locking then unlocking again triggers again; locking never triggers
    (sit("lock_effect", door="left", unlocked=["left"]), [], ["709.5g"]),
    (sit("token_copy", source_unlocked=["left"]), [], ["709.5d"]),
])
def test_door_triggers(book, situation, expected, rules):
    result = ask(book, "room", situation)
    assert door_triggers(result["outcome"]) == expected
    assert [r for r in rules if r not in [s["rule"] for s in result["trace"]]] == []


@pytest.mark.parametrize("situation,fires", [
    (sit("unlock_action", door="right", unlocked=["left"]), True),   # had one, gets the other
    (sit("unlock_effect", door="left", unlocked=["right"]), True),
    (sit("unlock_action", door="right"), False),                     # only one door now
    (sit("cast_resolves", cast_half="left"), False),
    (sit("unlock_effect", door="left", unlocked=["left", "right"]), False),  # already fully unlocked
])
def test_fully_unlock(book, situation, fires):
    result = ask(book, "room", situation | {"fully_unlock_triggers": ["Dazzling Theater"]})
    names = [t["name"] for t in result["outcome"]["triggers"] if t["event"] == "fully_unlock"]
    assert names == (["Dazzling Theater"] if fires else [])
    assert ("709.5i" in [s["rule"] for s in result["trace"]]) is fires


@pytest.mark.parametrize("situation,field", [
    ({"event": "cast_resolves"}, "room"),
    (sit("open_door"), "event"),
    (sit("unlock_action", door="middle"), "door"),
    (sit("unlock_action", unlocked=["top"]), "unlocked[0]"),
    (sit("unlock_action", timing={"upkeep": True}), "timing.upkeep"),
    (sit("unlock_action", mana_pool="3 green"), "mana_pool"),
    ({"room": {"left": ROOM["left"]}, "event": "cast_resolves"}, "room.right"),
])
def test_bad_situation_names_field(book, situation, field):
    with pytest.raises(SituationError) as e:
        ask(book, "room", situation)
    assert e.value.field == field


def test_wiki_rulings_are_classified_by_computing_them(book):
    from kb.reasoning.rooms.checks import CHECKS
    seen = set()
    for check in CHECKS:
        res = ask(book, "room", check.situation)
        agree = {r["id"] for r in res["rulings"]["agree"]}
        other = {r["id"] for r in res["rulings"]["disagree"] + res["rulings"]["superseded"]}
        ids = {r.id for r in book.rulings("room") if check.fingerprint in r.text}
        assert len(ids) == 1, check.fingerprint
        assert ids <= agree and not ids & other, check.fingerprint
        seen |= ids
    if isinstance(book, ParsedRuleBook):  # one seed line per claim; the KB keeps a paragraph as one ruling
        assert len(seen) == len(CHECKS)


def test_every_ruling_bullet_has_a_check():
    """About the seed file itself: every bullet line of the 部屋 page is checked by some claim."""
    from kb.reasoning.rooms.checks import CHECKS
    bullets = [r for r in current_book().rulings("room") if r.text.startswith("•") or r.text[:2] in ("1.", "2.")]
    bullets = [r for r in bullets if "ダスクモーン" not in r.text and "Blogatog" not in r.text
               and "Matt Tabak" not in r.text and "Mark Rosewater" not in r.text and "サブタイプ" not in r.text
               and "テキスト検索" not in r.text and r.text not in ("• エンチャント・タイプ", "• エンチャント", "• ルーリング")]
    unchecked = [r.text[:40] for r in bullets if not any(c.fingerprint in r.text for c in CHECKS)]
    assert unchecked == []


def test_japanese_labels_use_cr_terms():
    from kb.reasoning.rooms.schema import SCHEMA
    labels = repr(SCHEMA)
    for term in ("部屋", "ドア", "開放", "閉鎖", "完全に開放", "特別な処理"):
        assert term in labels
