"""Ruling checks for the 2011 Innistrad DFC/transform FAQ (faq-innistrad-dfc-2011).

Why this is not a lookup table of answers: each check restates a ruling's OWN situation and OWN
claim (from its text, quoted in the comment); the engine computes the outcome of that situation
with the current rule logic and only compares. Whether the ruling agrees or is superseded is the
result of that computation, never written here.
"""
from __future__ import annotations

from kb.reasoning.rulings import RulingCheck

M = "double-faced-card"
MOTH = {"name": "Thraben Sentry", "mana_cost": "{3}{W}", "types": "Creature — Human Soldier", "power": 2,
        "toughness": 2}
BACK = {"name": "Thraben Militia", "mana_cost": "", "types": "Creature — Human Soldier", "power": 5,
        "toughness": 4}
CARD = {"front": MOTH, "back": BACK}


def _s(**kw) -> dict:
    return {**CARD, **kw}


CHECKS = [
    # 「背面が表になっている両面パーマネントの点数で見たマナ・コストは０である。」
    RulingCheck("背面が表になっている両面パーマネントの点数で見たマナ・コストは０", M,
                _s(question="characteristics", zone="battlefield", face_up="back"),
                lambda o: o["characteristics"]["mana_value"] == 0, "a transformed permanent has mana value 0"),
    # 「戦場に無い両面カードの点数で見たマナ・コストは、正面の点数で見たマナ・コストである。」
    RulingCheck("戦場に無い両面カードの点数で見たマナ・コストは、正面", M,
                _s(question="characteristics", zone="graveyard"),
                lambda o: o["characteristics"]["mana_value"] == 4, "off the battlefield: the front face's mana value"),
    # 「両面カードが戦場に無い間、それの正面の特性のみが参照される。」
    RulingCheck("両面カードが戦場に無い間、それの正面の特性のみが参照される", M,
                _s(question="characteristics", zone="exile"),
                lambda o: o["characteristics"]["name"] == MOTH["name"], "off the battlefield: front face only"),
    # 711.2a 「戦場以外のあらゆる領域において…正面の特性のみを持つ。」
    RulingCheck("戦場以外のあらゆる領域において、および戦場において正面が表", M,
                _s(question="characteristics", zone="hand"),
                lambda o: o["characteristics"]["name"] == MOTH["name"], "other zones: front face only"),
    # 711.2b 「両面パーマネントの背面が表になっている場合、それは背面の特性のみを持つ。」
    RulingCheck("両面パーマネントの背面が表になっている場合、それは背面の特性のみを持つ", M,
                _s(question="characteristics", zone="battlefield", face_up="back"),
                lambda o: o["characteristics"]["name"] == BACK["name"], "back face up: back face only"),
    # 「両面パーマネントをコピーしたトークンは、両面パーマネントにはならない。」
    RulingCheck("両面パーマネントをコピーしたトークンは、両面パーマネントにはならない", M,
                _s(question="copy", copy_kind="token-copy", face_up="front"),
                lambda o: not o["copy_is_double_faced"] and not o["can_transform"],
                "a token copying a double-faced permanent isn't double-faced and can't transform"),
    # 711.1 「トークンやマジックの裏面を持つカードは変身させられない。」
    RulingCheck("トークンやマジックの裏面を持つカードは変身させられない", M,
                _s(question="transform", represented_by="double-faced-token"),
                lambda o: not o["transformed"], "tokens can't transform"),
    # 711.3 例 「《クローン》自身は両面カードではないため、それは変身できない。」
    RulingCheck("自身は両面カードではないため、それは変身できない", M,
                _s(question="copy", copy_kind="clone", face_up="back"),
                lambda o: not o["can_transform"], "Clone copying a back face can't transform"),
    # 711.3 例 「《先兵の精鋭》のコピーは両面カードであるため、それは変身する。」
    RulingCheck("のコピーは両面カードであるため、それは変身する", M,
                _s(question="copy", copy_kind="becomes-copy"),
                lambda o: o["can_transform"] and o["remains_a_copy"], "a DFC that is a copy still transforms"),
    # 711.4 「両面カードは裏向きに唱えられない。」
    RulingCheck("両面カードは裏向きに唱えられない", M,
                _s(question="cast", instruction="face-down", effect_allows_face_down=True, zone="hand"),
                lambda o: not o["can_cast"], "a double-faced card can't be cast face down"),
    # 「両面カードの裏面は唱えられない。」
    RulingCheck("両面カードの裏面は唱えられない", M,
                _s(question="cast", instruction="back-face", zone="hand"),
                lambda o: not o["can_cast"], "the back face can't be cast"),
    # the same ruling says it of every double-faced card; since modal double-faced cards (2020) a
    # back face can be cast (712.11b): its claim is also run with one, Valki / Tibalt (Kaldheim)
    RulingCheck("両面カードの裏面は唱えられない", "modal-dfc",
                # cast as it goes on the stack: the face chosen (712.11b) decides, nothing before it
                {"question": "cast", "layout": "modal", "choose": "back", "zone": "stack",
                 "front": {"name": "Valki, God of Lies", "types": ["creature"], "mana_cost": "{1}{B}", "power": 2,
                           "toughness": 1},
                 "back": {"name": "Tibalt, Cosmic Impostor", "types": ["planeswalker"], "mana_cost": "{5}{B}{R}",
                          "loyalty": 5}},
                lambda o: not o["can_cast"], "no double-faced card's back face can be cast"),
    # 「両面カードは、つねに正面を表にして戦場に出る。」 — "always": checked where an effect says "transformed".
    RulingCheck("両面カードは、つねに正面を表にして戦場に出る", M,
                _s(question="enter-battlefield", instruction="transformed", from_zone="other", zone="battlefield"),
                lambda o: o.get("face_up") == "front", "a double-faced card always enters front face up"),
    # 711.6 「両面パーマネントは裏向きにできない。…何も起こらない。」
    RulingCheck("両面パーマネントは裏向きにできない", M,
                _s(question="turn-face-down"), lambda o: not o["turned_face_down"],
                "a double-faced permanent can't be turned face down"),
    # 711.7 「…新しいオブジェクトになるわけではない。…効果は…適用され続ける。」
    RulingCheck("それは新しいオブジェクトになるわけではない", M,
                _s(question="transform", effects=["+2/+2 until end of turn"]),
                lambda o: not o["new_object"] and o["effects"] == ["+2/+2 until end of turn"],
                "transforming keeps the object and its effects"),
    # 711.7 例 「《鉄牙》はターン終了時まで＋２/＋２の修整を受け続ける。」
    RulingCheck("ターン終了時まで＋２/＋２の修整を受け続ける", M,
                _s(question="transform", effects=["+2/+2 until end of turn"]),
                lambda o: o["effects"] == ["+2/+2 until end of turn"], "the +2/+2 still applies after transforming"),
    # 711.8 「…いずれか一方の面のカード名を指定できるが、両方は指定できない。」
    RulingCheck("いずれか一方の面のカード名を指定できるが、両方は指定できない", M,
                _s(question="name-a-card", chosen_names=[MOTH["name"], BACK["name"]]),
                lambda o: not o["name_ok"], "naming both faces is not allowed"),
    # 「パーマネントを変身させても、それにつけられているオーラや装備品は影響を受けない。…カウンターは…残る。」
    RulingCheck("それにつけられているオーラや装備品は影響を受けない", M,
                _s(question="transform", attached=["Butcher's Cleaver"], counters=2),
                lambda o: o["attached"] == ["Butcher's Cleaver"] and o["counters"] == 2,
                "Auras, Equipment and counters stay after transforming"),
    # 「両面パーマネントが負っているダメージは、それが変身した後も負ったままである。」
    RulingCheck("両面パーマネントが負っているダメージは、それが変身した後も負ったまま", M,
                _s(question="transform", damage=2), lambda o: o["damage"] == 2, "damage stays after transforming"),
    # 701.25a 「両面カードで表わされるパーマネントのみが変身できる。…何も起こらない。」
    RulingCheck("両面カードで表わされるパーマネントのみが変身できる", M,
                _s(question="transform", represented_by="other"), lambda o: not o["transformed"],
                "transforming a permanent that isn't a double-faced card does nothing"),
    # 701.25c 「パーマネントが裏向きになることで誘発する能力は、パーマネントが変身することでは誘発しない」
    RulingCheck("裏向きになることで誘発する能力は、パーマネントが変身することでは誘発しない", M,
                _s(question="transform"), lambda o: o["turned_face_up_or_down_triggers"] is False,
                "face-down triggers don't fire on transforming"),
]
