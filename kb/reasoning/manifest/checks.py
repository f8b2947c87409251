"""Ruling checks for the MTG Wiki 予示 page (wiki-yoji-manifest), including its quoted 701.34 rules
(numbered 701.40 today).

Not a table of answers: each check restates a ruling's own situation and claim; the engine
computes the outcome from the rule logic and only compares (see engine.RulingCheck).
"""
from __future__ import annotations

from kb.reasoning.rulings import RulingCheck

M = "manifest"
BEAR = {"name": "Grizzly Bears", "types": "Creature", "mana_cost": "{1}{G}"}
SHOCK = {"name": "Shock", "types": "Instant", "mana_cost": "{R}"}
HELIOD = {"name": "Heliod, God of the Sun", "types": "Legendary Enchantment Creature", "mana_cost": "{3}{W}"}
MORPH = {"name": "Exalted Angel", "types": "Creature", "mana_cost": "{4}{W}{W}", "morph_cost": "{2}{W}{W}",
         "turned_face_up_ability": True}
DFC = {"name": "Delver of Secrets", "types": "Creature", "mana_cost": "{U}", "double_faced": True}


def _m(*cards, **kw):
    return {"question": "manifest", "cards": list(cards), **kw}


def _up(card, **kw):
    return {"question": "turn-face-up", "cards": [card], **kw}


def _leave(card, **kw):
    return {"question": "leave-battlefield", "cards": [card], **kw}


def _chars(o):
    return o["cards"][0].get("characteristics") or {}


CHECKS = [
    RulingCheck("文章やカード名やサブタイプやマナ・コストを持たない2/2のクリーチャーとして戦場に出る", M, _m(BEAR),
                lambda o: _chars(o).get("power") == 2 and _chars(o).get("name") is None, "a nameless 2/2 creature"),
    RulingCheck("そのパーマネントは、裏向きである限り予示されたパーマネントである", M, _m(BEAR),
                lambda o: o["cards"][0]["manifested"] and _chars(o).get("mana_cost") is None, "a 2/2 manifested permanent"),
    RulingCheck("それらのカードは1枚ずつ予示される", M, _m(BEAR, SHOCK), lambda o: o["one_at_a_time"],
                "several cards are manifested one at a time"),
    RulingCheck("両面カードを予示することも適正である", M, _m(DFC), lambda o: o["cards"][0]["manifested"],
                "a double-faced card can be manifested"),
    RulingCheck("それは無色で能力を持たないクリーチャーである", M, _m(BEAR),
                lambda o: _chars(o).get("colors") == [] and _chars(o).get("text") is None, "colorless, no abilities"),
    RulingCheck("裏向きのオブジェクトが戦場に出るのを禁止するルールや効果があれば、そのカードは予示されない", M,
                _m(BEAR, prohibited=True, face_up_in_previous_zone=True),
                lambda o: not o["cards"][0]["manifested"] and o["cards"][0]["face_up"], "not manifested; stays face up"),
    RulingCheck("表がクリーチャー・カードでなかったり、それがマナ・コストを持たない場合、利用できない", M,
                _up(SHOCK), lambda o: not o["turned_face_up"], "not a creature card: can't pay its cost to turn it up"),
    RulingCheck("あなたは予示されたパーマネントをオモテ向きにしてよい", M, _up(BEAR),
                lambda o: o["turned_face_up"] and o["uses_stack"] is False, "pay the mana cost: special action"),
    RulingCheck("スタックを用いず直ぐに実行される", M, _up(BEAR),
                lambda o: o["turned_face_up"] and o["uses_stack"] is False, "a special action without the stack"),
    RulingCheck("第1面がクリーチャー・カードである場合のみ、この「特別な処理」を行える", M, _up(DFC),
                lambda o: o["turned_face_up"] and o["face"] == "front", "a DFC turns face up front face up"),
    RulingCheck("継続的効果などの特性の変化を無視して、それがクリーチャー・カードであるかを見る", M,
                _up(HELIOD, continuous_effects=["Heliod isn't a creature (devotion to white < 5)"]),
                lambda o: o["turned_face_up"], "continuous effects are ignored: Heliod can be turned face up"),
    RulingCheck("予示されているカードがインスタント・カードやソーサリー・カードの場合は表向きにはならない", M,
                _up(SHOCK, method="effect"), lambda o: not o["turned_face_up"] and o["revealed"],
                "an instant stays face down, revealed"),
    RulingCheck("インスタント・カードまたはソーサリー・カードによって表されている予示されたパーマネント", M,
                _up(SHOCK, method="effect"),
                lambda o: not o["turned_face_up"] and o["turned_face_up_triggers"] is False,
                "an instant stays face down; face-up triggers don't"),
    RulingCheck("予示ではなく変異の効果によって", M, _up(MORPH, method="morph"),
                lambda o: o["turned_face_up"] and o["turned_face_up_triggers"], "morph cost works; morph triggers fire"),
    RulingCheck("変異を持つカードが予示されたなら", M, _up(MORPH, method="morph"),
                lambda o: o["turned_face_up"], "a manifested morph card may use its morph cost"),
    RulingCheck("逆はできないことに注意", M, _up(MORPH, how_face_down="cast-with-morph"),
                lambda o: not o["turned_face_up"], "a morph cast face down can't pay its mana cost to turn up"),
    RulingCheck("新たに戦場に出るわけではないので「戦場に出たとき」の誘発型能力を誘発させる事はなく", M,
                _up(dict(BEAR, etb_ability=True)), lambda o: o["etb_triggers"] is False,
                "turning face up isn't entering: no ETB triggers"),
    RulingCheck("置かれていたカウンター、適用されている継続的効果などは引き続き残る", M, _up(BEAR, counters=True),
                lambda o: o["effects_still_apply"], "counters, Auras and effects stay"),
    RulingCheck("裏向きのパーマネントが戦場を離れる場合、それの表面を公開しなければならない", M,
                _leave(dict(BEAR, dies_ability=True)), lambda o: o["revealed"] and not o["dies_triggers"],
                "revealed as it leaves; its dies ability doesn't trigger"),
    RulingCheck("表向きで追放され、そのまま戦場に戻ってくる", M, _leave(BEAR, destination="flicker"),
                lambda o: o["returns"] and o["face_up"], "flickered: returns face up"),
    RulingCheck("同一のオブジェクトが裏向きから表向きになったのではないため、変異誘発型能力は誘発しない", M,
                _leave(MORPH, destination="flicker"), lambda o: o["turned_face_up_triggers"] is False,
                "flickered: face-up triggers don't trigger"),
    RulingCheck("表がインスタントやソーサリーカードだった場合、それらは追放領域に残る", M,
                _leave(SHOCK, destination="flicker"), lambda o: o["zone"] == "exile", "an instant stays in exile"),
]
