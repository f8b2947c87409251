"""Double-faced cards and transform, from CR 712 / 701.27 / 707.8 / 202.3 and the 2011 Innistrad FAQ.

The three FAQ rulings the current CR overturns must come back as superseded, dated 2011-09-23,
with the overturning rules; the rest of the FAQ's game-behaviour rulings must agree."""
from __future__ import annotations

import pytest

from kb.reasoning.catalog import ask
from tests.reasoning_fixtures import book_ruling

M = "double-faced-card"
FRONT = {"name": "Thraben Sentry", "mana_cost": "{3}{W}", "types": "Creature — Human Soldier", "power": 2,
         "toughness": 2}
BACK = {"name": "Thraben Militia", "mana_cost": "", "types": "Creature — Human Soldier", "power": 5, "toughness": 4}
FAQ = "faq-innistrad-dfc-2011"


def q(**kw):
    return {"front": FRONT, "back": BACK, **kw}


def run(book, situation):
    return ask(book, M, situation)


CASES = [
    ("hand: front only", q(question="characteristics", zone="hand"), "characteristics",
     {"name": "Thraben Sentry", "mana_value": 4}, ["712.8a"]),
    ("graveyard: front only", q(question="characteristics", zone="graveyard", face_up="back"), "characteristics",
     {"face": "front"}, ["712.8a"]),
    ("battlefield front up", q(question="characteristics"), "characteristics",
     {"name": "Thraben Sentry", "power": 2, "mana_value": 4}, ["712.8d", "202.3"]),
    ("battlefield back up: back, MV of front", q(question="characteristics", face_up="back"), "characteristics",
     {"name": "Thraben Militia", "power": 5, "mana_value": 4}, ["712.8e", "202.3b"]),
    ("stack cast transformed: back, MV of front", q(question="characteristics", zone="stack", face_up="back"),
     "characteristics", {"name": "Thraben Militia", "mana_value": 4}, ["712.8c"]),
    ("copy of a back face: MV 0", q(question="characteristics", face_up="back", copy_of_back_face=True),
     "characteristics", {"mana_value": 0}, ["712.8e"]),
    ("modal back face up", q(question="characteristics", layout="modal", face_up="back",
                             back=dict(BACK, mana_cost="{1}{G}")), "characteristics",
     {"name": "Thraben Militia", "mana_value": 2}, ["712.8f"]),
    ("face down DFC: 2/2 nameless", q(question="characteristics", face_down=True), "characteristics",
     {"name": None, "power": 2, "mana_value": 0}, ["712.15", "708.2a"]),
]


@pytest.mark.parametrize("name,situation,key,expected,rules", CASES, ids=[c[0] for c in CASES])
def test_characteristics(book, name, situation, key, expected, rules):
    out = run(book, situation)
    for k, v in expected.items():
        assert out["outcome"][key][k] == v, (k, out["outcome"])
    assert set(rules) <= {s["rule"] for s in out["trace"]}


ACTIONS = [
    ("transform a DFC", q(question="transform", counters=2, damage=1, attached=["Aura"], effects=["+2/+2"]),
     {"transformed": True, "face_up": "back", "counters": 2, "damage": 1, "attached": ["Aura"],
      "effects": ["+2/+2"], "new_object": False}, ["701.27a", "712.18", "701.27b"]),
    ("transform back to front", q(question="transform", face_up="back"), {"transformed": True, "face_up": "front"},
     ["701.27a"]),
    ("double-faced token transforms", q(question="transform", represented_by="double-faced-token"),
     {"transformed": True}, ["701.27a"]),
    ("non-DFC can't transform", q(question="transform", represented_by="other"), {"transformed": False},
     ["701.27c"]),
    ("face-down DFC can't transform", q(question="transform", face_down=True), {"transformed": False}, ["712.15a"]),
    ("meld card can't transform", q(question="transform", layout="meld"), {"transformed": False}, ["712.4c"]),
    ("into an instant face: nothing", q(question="transform", back=dict(BACK, types="Instant")),
     {"transformed": False}, ["701.27d"]),
    ("a card in the graveyard isn't a permanent", q(question="transform", zone="graveyard"),
     {"transformed": False}, ["712.9"]),
    ("token copy of DFC is a DFC token", q(question="copy", copy_kind="token-copy"),
     {"copy_is_double_faced": True, "can_transform": True}, ["707.8a", "701.27a"]),
    ("token copy of transformed DFC: back up, MV 0", q(question="copy", copy_kind="token-copy", face_up="back"),
     {"face_up": "back", "can_transform": True}, ["707.8a", "712.8e"]),
    ("Clone copying a DFC can't transform", q(question="copy", copy_kind="clone", face_up="back"),
     {"copy_is_double_faced": False, "can_transform": False}, ["707.8", "701.27c"]),
    ("DFC under a copy effect still transforms", q(question="copy", copy_kind="becomes-copy"),
     {"can_transform": True, "remains_a_copy": True}, ["701.27a", "712.18"]),
    ("enters from another zone front up", q(question="enter-battlefield"), {"enters": True, "face_up": "front"},
     ["712.14"]),
    ("put onto battlefield transformed", q(question="enter-battlefield", instruction="transformed"),
     {"enters": True, "face_up": "back"}, ["712.14a"]),
    ("non-DFC put transformed stays", q(question="enter-battlefield", instruction="transformed",
                                        represented_by="other"), {"enters": False}, ["712.14a"]),
    ("resolves with the stack face", q(question="enter-battlefield", from_zone="stack", face_up="back"),
     {"enters": True, "face_up": "back"}, ["712.13"]),
    ("enters transformed into a sorcery face: graveyard",
     q(question="enter-battlefield", from_zone="stack", instruction="transformed", back=dict(BACK, types="Sorcery")),
     {"enters": False, "zone": "graveyard"}, ["712.13a"]),
    ("enters face down", q(question="enter-battlefield", instruction="face-down"),
     {"enters": True, "face_down": True}, ["712.15", "708.2a"]),
    ("cast: front up", q(question="cast", zone="hand"), {"can_cast": True, "face_on_stack": "front"}, ["712.11"]),
    ("cast transformed: back up", q(question="cast", zone="hand", instruction="transformed"),
     {"can_cast": True, "face_on_stack": "back"}, ["712.11a", "712.8c"]),
    ("cast back face without permission: no", q(question="cast", zone="hand", instruction="back-face"),
     {"can_cast": False}, ["712.11"]),
    ("modal: choose the back face", q(question="cast", zone="hand", layout="modal", instruction="back-face"),
     {"can_cast": True, "face_on_stack": "back"}, ["712.11b"]),
    ("cast face down with permission", q(question="cast", zone="hand", instruction="face-down",
                                         effect_allows_face_down=True), {"can_cast": True, "face_down": True},
     ["712.15"]),
    ("cast face down without permission", q(question="cast", zone="hand", instruction="face-down"),
     {"can_cast": False}, ["702.37d"]),
    ("turn face down: nothing", q(question="turn-face-down"), {"turned_face_down": False}, ["712.16"]),
    ("name one face", q(question="name-a-card", chosen_names=["Thraben Militia"]), {"name_ok": True}, ["712.19"]),
    ("name both faces", q(question="name-a-card", chosen_names=["Thraben Sentry", "Thraben Militia"]),
     {"name_ok": False}, ["712.19"]),
]


@pytest.mark.parametrize("name,situation,expected,rules", ACTIONS, ids=[c[0] for c in ACTIONS])
def test_actions(book, name, situation, expected, rules):
    out = run(book, situation)
    for k, v in expected.items():
        assert out["outcome"][k] == v, (k, out["outcome"])
    assert set(rules) <= {s["rule"] for s in out["trace"]}


SUPERSEDED = [  # fingerprint of the 2011 ruling, the situation it describes, the rule that overturns it
    ("背面が表になっている両面パーマネントの点数で見たマナ・コストは０", q(question="characteristics", face_up="back"),
     "712.8e"),
    ("両面パーマネントをコピーしたトークンは、両面パーマネントにはならない", q(question="copy", copy_kind="token-copy"),
     "707.8a"),
    ("両面カードは裏向きに唱えられない", q(question="cast", zone="hand", instruction="face-down",
                                       effect_allows_face_down=True), "712.15"),
]


@pytest.mark.parametrize("fingerprint,situation,rule", SUPERSEDED, ids=[s[2] for s in SUPERSEDED])
def test_2011_rulings_superseded(book, fingerprint, situation, rule):
    ruling = book_ruling(book, M, FAQ, fingerprint)
    out = run(book, situation)
    superseded = {r["id"]: r for r in out["rulings"]["superseded"]}
    assert ruling.id in superseded, [r["text"][:30] for r in out["rulings"]["superseded"]]
    got = superseded[ruling.id]
    assert got["date"] == "2011-09-23" and rule in got["superseded_by"]
    assert ruling.id not in {r["id"] for r in out["rulings"]["agree"]}


AGREE = [
    ("戦場に無い両面カードの点数で見たマナ・コストは、正面", q(question="characteristics", zone="graveyard")),
    ("両面カードが戦場に無い間、それの正面の特性のみが参照される", q(question="characteristics", zone="exile")),
    ("自身は両面カードではないため、それは変身できない", q(question="copy", copy_kind="clone", face_up="back")),
    ("のコピーは両面カードであるため、それは変身する", q(question="copy", copy_kind="becomes-copy")),
    ("両面カードの裏面は唱えられない", q(question="cast", zone="hand", instruction="back-face")),
    ("両面パーマネントは裏向きにできない", q(question="turn-face-down")),
    ("それは新しいオブジェクトになるわけではない", q(question="transform", effects=["+2/+2"])),
    ("いずれか一方の面のカード名を指定できるが", q(question="name-a-card", chosen_names=["Thraben Sentry"])),
    ("それにつけられているオーラや装備品は影響を受けない", q(question="transform", attached=["Aura"])),
    ("両面パーマネントが負っているダメージは", q(question="transform", damage=3)),
    ("両面カードで表わされるパーマネントのみが変身できる", q(question="transform", represented_by="other")),
    ("裏向きになることで誘発する能力は", q(question="transform")),
]


@pytest.mark.parametrize("fingerprint,situation", AGREE, ids=[a[0][:16] for a in AGREE])
def test_faq_rulings_that_still_hold_agree(book, fingerprint, situation):
    ruling = book_ruling(book, M, FAQ, fingerprint)
    out = run(book, situation)
    assert ruling.id in {r["id"] for r in out["rulings"]["agree"]}


def test_faq_always_front_up_is_superseded_by_entering_transformed(book):
    ruling = book_ruling(book, M, FAQ, "＊ 両面カードは、つねに正面を表にして戦場に出る")
    out = run(book, q(question="enter-battlefield", instruction="transformed"))
    assert ruling.id in {r["id"] for r in out["rulings"]["superseded"]}


def test_a_copy_of_a_transforming_double_faced_spell_is_double_faced(book):
    """707.10g: "the copy is also a double-faced permanent spell ... The token that's put onto the
    battlefield as that spell resolves is a double-faced token" — not a token copy of a permanent (707.8a)."""
    answer = ask(book, M, {"question": "copy", "zone": "stack", "front": {"name": "Delver of Secrets", "mana_cost": "{U}"},
                           "back": {"name": "Insectile Aberration"}})
    o = answer["outcome"]
    assert o["copy_is_double_faced"] is True and o["face_up"] == "front" and o["can_transform"] is True
    assert o["resolves_into"] == "double-faced token"
    rules = [s["rule"] for s in answer["trace"]]
    assert "707.10g" in rules and "707.8a" not in rules
    assert any(c.get("rule") == "707.10g" for c in answer["citations"])
