"""Manifest, from CR 701.40 / 708 / 712.15 and the MTG Wiki 予示 page's rulings."""
from __future__ import annotations

import pytest

from kb.reasoning.catalog import ask
from tests.reasoning_fixtures import MANIFEST_CARDS, book_ruling

M = "manifest"
BEAR, ANGEL = MANIFEST_CARDS["bear"], MANIFEST_CARDS["angel"]
DISGUISE, DFC = MANIFEST_CARDS["outfitter"], MANIFEST_CARDS["delver"]
SHOCK = {"name": "Shock", "types": "Instant", "mana_cost": "{R}"}
LAND = {"name": "Forest", "types": "Land", "mana_cost": ""}
DFC_NONCREATURE = {"name": "Search for Azcanta", "types": "Legendary Enchantment", "mana_cost": "{1}{U}",
                   "double_faced": True}


def run(book, question, *cards, **kw):
    return ask(book, M, {"question": question, "cards": list(cards), **kw})


CASES = [
    ("manifest: nameless 2/2", ("manifest", [BEAR], {}),
     lambda o: o["cards"][0]["characteristics"] == {"name": None, "text": None, "subtypes": [], "mana_cost": None,
                                                    "types": "Creature", "power": 2, "toughness": 2, "colors": []},
     ["701.40a"]),
    ("manifest an instant: still a 2/2", ("manifest", [SHOCK], {}),
     lambda o: o["cards"][0]["manifested"] and not o["cards"][0]["can_turn_face_up_for_mana_cost"], ["701.40a"]),
    ("manifest a DFC", ("manifest", [DFC], {}), lambda o: o["cards"][0]["manifested"], ["712.15", "701.40a"]),
    ("several: one at a time", ("manifest", [BEAR, SHOCK, LAND], {}),
     lambda o: o["one_at_a_time"] and len(o["cards"]) == 3, ["701.40e"]),
    ("prohibited: stays, face up", ("manifest", [BEAR], {"prohibited": True, "face_up_in_previous_zone": True}),
     lambda o: o["cards"][0] == {"name": "Grizzly Bears", "manifested": False, "face_up": True}, ["701.40f"]),
    ("own ETB doesn't trigger", ("manifest", [dict(BEAR, etb_ability=True)], {}),
     lambda o: o["cards"][0]["etb_triggers"] is False, ["708.3"]),
    ("'whenever a creature enters' triggers", ("manifest", [BEAR], {"creature_enters_triggers": True}),
     lambda o: o["cards"][0]["creature_enters_triggers"], ["603.6a"]),
    ("turn up: pay mana cost", ("turn-face-up", [BEAR], {}),
     lambda o: o["turned_face_up"] and o["uses_stack"] is False and o["etb_triggers"] is False, ["701.40b", "708.8"]),
    ("turn up: noncreature can't", ("turn-face-up", [LAND], {}), lambda o: not o["turned_face_up"], ["701.40b"]),
    ("turn up: instant can't", ("turn-face-up", [SHOCK], {}), lambda o: not o["turned_face_up"], ["701.40b"]),
    ("turn up: effects ignored", ("turn-face-up", [BEAR], {"continuous_effects": ["it's not a creature"]}),
     lambda o: o["turned_face_up"], ["701.40b"]),
    ("turn up: morph cost", ("turn-face-up", [ANGEL], {"method": "morph"}),
     lambda o: o["turned_face_up"] and o["turned_face_up_triggers"], ["701.40c", "702.37e"]),
    ("turn up: disguise cost", ("turn-face-up", [DISGUISE], {"method": "disguise"}),
     lambda o: o["turned_face_up"], ["701.40d", "702.168d"]),
    ("turn up: morph with no morph cost", ("turn-face-up", [BEAR], {"method": "morph"}),
     lambda o: not o["turned_face_up"], ["702.37e"]),
    ("morph-cast permanent can't use mana cost", ("turn-face-up", [ANGEL], {"how_face_down": "cast-with-morph"}),
     lambda o: not o["turned_face_up"], ["701.40b"]),
    ("effect turns instant up: revealed, stays down", ("turn-face-up", [SHOCK], {"method": "effect"}),
     lambda o: not o["turned_face_up"] and o["revealed"] and not o["turned_face_up_triggers"], ["701.40g"]),
    ("effect turns a land up", ("turn-face-up", [LAND], {"method": "effect"}), lambda o: o["turned_face_up"], []),
    ("DFC turns up front face up", ("turn-face-up", [DFC], {}),
     lambda o: o["turned_face_up"] and o["face"] == "front", ["712.15a"]),
    ("DFC with noncreature front can't", ("turn-face-up", [DFC_NONCREATURE], {}),
     lambda o: not o["turned_face_up"], ["701.40b"]),
    ("leaves: revealed, dies ability doesn't trigger", ("leave-battlefield", [dict(BEAR, dies_ability=True)], {}),
     lambda o: o["revealed"] and not o["dies_triggers"], ["708.9", "603.10a"]),
    ("flicker: returns face up, no payment", ("leave-battlefield", [ANGEL], {"destination": "flicker"}),
     lambda o: o["returns"] and o["face_up"] and not o["turned_face_up_triggers"], ["400.7", "110.5b"]),
    ("flicker an instant: stays in exile", ("leave-battlefield", [SHOCK], {"destination": "flicker"}),
     lambda o: o["zone"] == "exile" and not o["returns"], ["304.4"]),
    ("flicker a DFC: front face up", ("leave-battlefield", [DFC], {"destination": "flicker"}),
     lambda o: o["face"] == "front", ["110.5b"]),
]


@pytest.mark.parametrize("name,args,holds,rules", CASES, ids=[c[0] for c in CASES])
def test_manifest(book, name, args, holds, rules):
    question, cards, kw = args
    out = run(book, question, *cards, **kw)
    assert holds(out["outcome"]), out["outcome"]
    assert set(rules) <= {s["rule"] for s in out["trace"]}


WIKI = [  # the wiki ruling (fingerprint), the situation it describes
    ("文章やカード名やサブタイプやマナ・コストを持たない2/2のクリーチャーとして戦場に出る", ("manifest", [BEAR], {})),
    ("それらのカードは1枚ずつ予示される", ("manifest", [BEAR, SHOCK], {})),
    ("両面カードを予示することも適正である", ("manifest", [DFC], {})),
    ("表がクリーチャー・カードでなかったり", ("turn-face-up", [SHOCK], {})),
    ("第1面がクリーチャー・カードである場合のみ", ("turn-face-up", [DFC], {})),
    ("継続的効果などの特性の変化を無視して", ("turn-face-up", [BEAR], {"continuous_effects": ["not a creature"]})),
    ("インスタント・カードやソーサリー・カードの場合は表向きにはならない", ("turn-face-up", [SHOCK], {"method": "effect"})),
    ("予示ではなく変異の効果によって", ("turn-face-up", [ANGEL], {"method": "morph"})),
    ("逆はできないことに注意", ("turn-face-up", [ANGEL], {"how_face_down": "cast-with-morph"})),
    ("新たに戦場に出るわけではないので", ("turn-face-up", [BEAR], {})),
    ("裏向きのパーマネントが戦場を離れる場合、それの表面を公開", ("leave-battlefield", [BEAR], {})),
    ("表向きで追放され、そのまま戦場に戻ってくる", ("leave-battlefield", [BEAR], {"destination": "flicker"})),
    ("それらは追放領域に残る", ("leave-battlefield", [SHOCK], {"destination": "flicker"})),
    ("裏向きのオブジェクトが戦場に出るのを禁止するルールや効果があれば", ("manifest", [BEAR], {"prohibited": True})),
]


@pytest.mark.parametrize("fingerprint,args", WIKI, ids=[w[0][:16] for w in WIKI])
def test_wiki_rulings_agree(book, fingerprint, args):
    ruling = book_ruling(book, M, "wiki-yoji-manifest", fingerprint)
    question, cards, kw = args
    out = run(book, question, *cards, **kw)
    assert ruling.id in {r["id"] for r in out["rulings"]["agree"]}, [r["text"][:20] for r in out["rulings"]["agree"]]
    assert not out["rulings"]["disagree"]
