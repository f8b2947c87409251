"""Day and night, written from CR 731 / 702.145 and the MTG Wiki 昼 page's rulings."""
from __future__ import annotations

import pytest

from kb.reasoning.catalog import ask
from tests.reasoning_fixtures import book_ruling

M = "day-night"


def P(name, ability="none", **kw):
    return {"name": name, "ability": ability, **kw}


def S(by="active-player", how="cast"):
    return {"by": by, "how": how}


CASES = [
    # id, situation, expected outcome subset, rules that must be in the trace
    ("start: neither (731.1)", {"event": "game-start"}, {"designation": "neither"}, ["731.1"]),
    ("daybound enters: day (702.145d)", {"event": "permanents-enter", "entering": [P("W", "daybound")]},
     {"designation": "day"}, ["702.145d"]),
    ("nightbound enters: night (702.145g)", {"event": "permanents-enter", "entering": [P("W", "nightbound")]},
     {"designation": "night", "transformed": []}, ["702.145g"]),
    ("both at once: day, nightbound transforms", {"event": "permanents-enter",
                                                  "entering": [P("A", "daybound"), P("B", "nightbound")]},
     {"designation": "day", "transformed": ["B"]}, ["702.145d", "702.145e", "701.27a"]),
    ("daybound enters at night: enters transformed", {"event": "permanents-enter", "designation": "night",
                                                     "entering": [P("W", "daybound")]},
     {"designation": "night", "battlefield": [{"name": "W", "ability": "nightbound"}]}, ["702.145b"]),
    ("non-DFC copy with daybound at night: nothing happens", {"event": "permanents-enter", "designation": "night",
                                                             "entering": [P("Clone", "daybound", double_faced=False)]},
     {"transformed": [], "battlefield": [{"name": "Clone", "ability": "daybound"}]}, ["702.145c", "701.27c"]),
    ("'becomes day' ability", {"event": "permanents-enter", "entering": [P("Sanctifier", becomes_day_on_entry=True)]},
     {"designation": "day"}, ["731.1"]),
    ("day, 0 spells: night", {"event": "untap-step", "designation": "day"},
     {"designation": "night", "changes": ["day -> night"]}, ["731.2", "731.2a", "731.1a"]),
    ("day, 1 spell: stays day", {"event": "untap-step", "designation": "day", "previous_turn_spells": [S()]},
     {"designation": "day", "spells_counted": 1}, ["731.2a"]),
    ("day, only opponents' spells: night", {"event": "untap-step", "designation": "day",
                                            "previous_turn_spells": [S("other-player"), S("other-player")]},
     {"designation": "night", "spells_counted": 0}, ["731.2a"]),
    ("day, only a copy that wasn't cast: night", {"event": "untap-step", "designation": "day",
                                                  "previous_turn_spells": [S(how="copied-not-cast")]},
     {"designation": "night"}, ["731.2a"]),
    ("night, 1 spell: stays night", {"event": "untap-step", "designation": "night", "previous_turn_spells": [S()]},
     {"designation": "night"}, ["731.2b"]),
    ("night, 2 spells: day", {"event": "untap-step", "designation": "night", "previous_turn_spells": [S(), S()]},
     {"designation": "day", "changes": ["night -> day"]}, ["731.2b", "731.1a"]),
    ("night, 1 spell + 1 copy not cast: night", {"event": "untap-step", "designation": "night",
                                                 "previous_turn_spells": [S(), S(how="copied-not-cast")]},
     {"designation": "night"}, ["731.2b"]),
    ("night, a cast copy counts: day", {"event": "untap-step", "designation": "night",
                                        "previous_turn_spells": [S(), S(how="cast-copy")]},
     {"designation": "day"}, ["731.2b"]),
    ("night, 3 spells: day", {"event": "untap-step", "designation": "night", "previous_turn_spells": [S()] * 3},
     {"designation": "day"}, ["731.2b"]),
    ("night, others' spells don't count", {"event": "untap-step", "designation": "night",
                                           "previous_turn_spells": [S("other-player")] * 2},
     {"designation": "night"}, ["731.2b"]),
    ("team: a teammate's 2 spells make day", {"event": "untap-step", "designation": "night", "shared_team_turns": True,
                                              "previous_turn_spells": [S("teammate"), S("teammate")]},
     {"designation": "day"}, ["731.2b"]),
    ("team: 1 + 1 by two players isn't 2 by any player", {"event": "untap-step", "designation": "night",
                                                          "shared_team_turns": True,
                                                          "previous_turn_spells": [S(), S("teammate")]},
     {"designation": "night"}, ["731.2b"]),
    ("neither: no check", {"event": "untap-step", "designation": "neither"},
     {"designation": "neither", "changes": []}, ["731.2c"]),
    ("never back to neither", {"event": "permanents-leave", "designation": "night",
                               "battlefield": [P("W", "nightbound")], "leaving": ["W"]},
     {"designation": "night", "can_become_neither_again": False}, ["731.1"]),
    ("day becomes night: daybound transform", {"event": "untap-step", "designation": "day",
                                               "battlefield": [P("A", "daybound"), P("B", "daybound")]},
     {"designation": "night", "transformed": ["A", "B"]}, ["702.145b", "701.27a", "712.18"]),
    ("night becomes day: nightbound transform", {"event": "untap-step", "designation": "night",
                                                 "previous_turn_spells": [S(), S()],
                                                 "battlefield": [P("A", "nightbound")]},
     {"designation": "day", "transformed": ["A"]}, ["702.145e"]),
    ("effect makes it night: triggers at next priority", {"event": "effect", "designation": "day", "becomes": "night",
                                                          "battlefield": [P("Sage", day_night_trigger=True)]},
     {"designation": "night"}, ["731.1", "731.1a", "603.3"]),
]


@pytest.mark.parametrize("name,situation,expected,rules", CASES, ids=[c[0] for c in CASES])
def test_day_night(book, name, situation, expected, rules):
    out = ask(book, M, situation)
    for k, v in expected.items():
        assert out["outcome"][k] == v, (k, out["outcome"])
    applied = [s["rule"] for s in out["trace"]]
    for r in rules:
        assert r in applied, (r, applied)


def test_first_day_is_not_day_becoming_night_so_no_trigger(book):
    out = ask(book, M, {"event": "permanents-enter", "entering": [P("W", "daybound"),
                                                                 P("Sage", day_night_trigger=True)]})
    assert out["outcome"]["designation"] == "day" and out["outcome"]["triggered"] == []


def test_untap_step_triggers_wait_for_upkeep(book):
    out = ask(book, M, {"event": "untap-step", "designation": "day",
                        "battlefield": [P("Sage", day_night_trigger=True)]})
    (t,) = out["outcome"]["triggered"]
    assert t["event"] == "day becomes night" and "upkeep" in t["put_on_stack"]
    rules = [s["rule"] for s in out["trace"]]
    assert rules.index("502.4") < rules.index("503.1a")


# Each wiki ruling: its own text -> its situation -> computed outcome agrees; the answer lists it.
WIKI = [
    ("ゲームの開始時は昼夜どちらでもない", {"event": "game-start"}, "731.1"),
    ("同時に戦場に出た場合は、昼となる", {"event": "permanents-enter",
                                   "entering": [P("A", "daybound"), P("B", "nightbound")]}, "702.145d"),
    ("夜明を持つパーマネントが先に戦場に出る", {"event": "permanents-enter", "entering": [P("B", "nightbound")]},
     "702.145g"),
    ("直前のターンのアクティブ・プレイヤーがそのターン中に呪文を唱えなかった場合、夜となる",
     {"event": "untap-step", "designation": "day"}, "731.2a"),
    ("2つ以上の呪文を唱えた場合、昼となる", {"event": "untap-step", "designation": "night",
                                   "previous_turn_spells": [S(), S()]}, "731.2b"),
    ("アップキープ・ステップ]]が始まる際に[[スタック]]に置かれる",
     {"event": "untap-step", "designation": "day", "battlefield": [P("Sage", day_night_trigger=True)]}, "503.1a"),
]


@pytest.mark.parametrize("fingerprint,situation,rule", WIKI, ids=[w[0][:20] for w in WIKI])
def test_wiki_rulings_agree(book, fingerprint, situation, rule):
    ruling = book_ruling(book, M, "wiki-hiru-day", fingerprint)
    out = ask(book, M, situation)
    assert rule in [s["rule"] for s in out["trace"]]
    assert ruling.id in [r["id"] for r in out["rulings"]["agree"]]
    assert not out["rulings"]["superseded"] and not out["rulings"]["disagree"]
