"""Ruling checks for "cast": each claim of the casting blog (seed blog-cr-601-casting, which quotes
601 as numbered c. 2012) as a situation plus what the text says happens. The engine computes the
outcome and compares; nothing here is an answer."""
from __future__ import annotations

from kb.reasoning.rulings import RulingCheck

SHOCK = {"name": "Shock", "mana_cost": "{R}", "types": ["instant"], "targets": [{"legal": ["Bear", "opponent"]}]}
GROWTH = {"name": "Giant Growth", "mana_cost": "{G}", "types": ["instant"], "targets": [{"legal": ["Bear"]}]}
FURY = {"name": "Aurelia's Fury", "mana_cost": "{X}{R}{W}", "types": ["instant"], "divide": "X",
        "targets": [{"min": 1, "max": 3, "legal": ["Bear", "Elf", "opponent"]}]}
DEEP = {"name": "Deep Analysis", "mana_cost": "{3}{U}", "types": ["sorcery"]}
FLING = {"name": "Fling", "mana_cost": "{1}{R}", "types": ["instant"], "targets": [{"legal": ["opponent"]}]}
NONCREATURE = ["instant", "sorcery", "artifact", "enchantment", "planeswalker", "battle"]

shock = {"spell": SHOCK, "targets": [["opponent"]], "mana_pool": "{R}"}
growth = {"spell": GROWTH, "targets": [["Bear"]], "mana_pool": "{G}"}
fury_2_0 = {"spell": FURY, "x": 2, "targets": [["Bear", "Elf"]], "division": [2, 0], "mana_pool": "{2}{R}{W}"}
flashback_omniscience = {"spell": DEEP, "from_zone": "graveyard", "permission": True, "mana_pool": "{1}{U}",
                         "alternative_costs": [{"name": "flashback", "mana": "{1}{U}", "life": 3},
                                               {"name": "Omniscience", "mana": ""}]}
fling = {"spell": FLING, "targets": [["opponent"]], "mana_pool": "{1}{R}",
         "additional_costs": [{"name": "Fling", "other": "sacrifice a creature"}]}
thalia_in_response = growth | {"cost_changes": [{"source": "Thalia", "kind": "increase", "mana": "{1}",
                                                 "timing": "after_cast"}]}
arbor_elf = {"spell": GROWTH, "targets": [["Bear"]], "mana_sources": [
    {"name": "Arbor Elf", "produces": "{G}", "mana_ability": False}]}
prowess = growth | {"triggers": [{"name": "Prowess", "event": "cast"},
                                 {"name": "Heroic", "event": "becomes_target", "object": "Bear"}]}


def failed_at(step):
    return lambda o: not o["legal"] and o["failed_step"] == step and o["rewound"]


C = "cast"
CHECKS = [
    RulingCheck("ゲームは呪文を唱え始める前まで巻き戻される", C, shock | {"mana_pool": ""},
                lambda o: not o["legal"] and o["rewound"] and o["spell_zone"] == "hand",
                "a step that can't be completed makes the casting illegal and the game rewinds"),
    RulingCheck("元の領域からスタックへと動かされ", C, shock,
                lambda o: "601.2a" in o["steps_done"] and o["spell_zone"] == "stack",
                "the card moves from its zone to the top of the stack"),
    RulingCheck("①唱えることを宣言したカードやカードのコピー", C, shock, lambda o: o["spell_zone"] == "stack",
                "the announced card goes to the top of the stack"),
    RulingCheck("単一の呪文に対し、複数の代替法で唱えたり", C, flashback_omniscience, failed_at("601.2b"),
                "two alternative costs can't be applied to one spell"),
    RulingCheck("《全知》がある状態でもフラッシュバックで唱える呪文は", C, flashback_omniscience, failed_at("601.2b"),
                "with Omniscience, a flashback spell still pays the flashback cost (one alternative cost)"),
    RulingCheck("③代替コストの宣言", C, flashback_omniscience | {"alternative_costs": [
        {"name": "flashback", "mana": "{1}{U}", "life": 3}]},
        lambda o: o["legal"] and o["total_cost"] == "{1}{U}" and o["total_life"] == 3,
        "an announced alternative cost (flashback) is paid instead of the mana cost"),
    RulingCheck("追加コストの宣言（《投げ飛ばし》", C, fling, lambda o: o["legal"] and o["total_cost"] == "{1}{R}",
                "sacrificing a creature for Fling is an additional cost paid with the mana cost"),
    RulingCheck("Xの値の宣言", C, {"spell": {"name": "Sphinx's Revelation", "mana_cost": "{X}{W}{U}{U}",
                                          "types": ["instant"]}, "x": 3, "mana_pool": "{3}{W}{U}{U}"},
                lambda o: o["legal"] and o["total_cost"] == "{3}{W}{U}{U}", "X is announced and becomes part of the cost"),
    RulingCheck("同じ「target」の語で示される中で", C, {"spell": FURY, "x": 2, "targets": [["Bear", "Bear"]],
                                                   "division": [1, 1], "mana_pool": "{2}{R}{W}"},
                failed_at("601.2c"), "the same object can't be chosen twice for one instance of 'target'"),
    RulingCheck("その各個の対象に、最低限", C, fury_2_0, failed_at("601.2d"), "each target gets at least one"),
    RulingCheck("X=2の《オレリアの憤怒》", C, fury_2_0, failed_at("601.2d"),
                "Aurelia's Fury with X=2 can't divide 2 and 0 between two creatures"),
    RulingCheck("⑤　複数の対象にそれぞれ別の影響", C, fury_2_0 | {"division": [1, 1]},
                lambda o: o["legal"], "the division among targets is announced while casting"),
    RulingCheck("{0}未満に減少することはない", C, {"spell": {"name": "Ornithopter", "mana_cost": "{2}",
                                                         "types": ["artifact"]},
                                                "cost_changes": [{"source": "reducer", "kind": "reduction",
                                                                  "mana": "{3}"}]},
                lambda o: o["legal"] and o["total_cost"] == "{0}", "a cost reduced below nothing is {0}"),
    RulingCheck("通常のマナ・コストor代替コスト+追加コスト", C, fling | {"cost_changes": [
        {"source": "Thalia", "kind": "increase", "mana": "{1}"}, {"source": "reducer", "kind": "reduction",
                                                                   "mana": "{1}"}]},
        lambda o: o["total_cost"] == "{1}{R}", "total = mana or alternative cost + additional + increases - reductions"),
    RulingCheck("マナ能力はコストを支払う前に起動する必要がある", C, shock | {"mana_pool": "", "mana_sources": [
        {"name": "Mountain", "produces": "{R}"}]}, lambda o: o["legal"],
        "mana abilities are activated during casting, before paying"),
    RulingCheck("の起動型能力はマナ能力ではないので", C, arbor_elf, failed_at("601.2h"),
                "a non-mana ability can't make mana during casting; it must be used before"),
    RulingCheck("一部分だけ支払うことは許されない", C, fling | {"mana_pool": "{R}"}, failed_at("601.2h"),
                "partial payment isn't allowed"),
    RulingCheck("⑧　⑥で決めた総コストをすべて支払う", C, fling | {"mana_pool": "{R}"}, failed_at("601.2h"),
                "the whole total cost is paid"),
    RulingCheck("あるいはスタックに置かれたことによる誘発型能力は、この時点で誘発する", C, prowess,
                lambda o: o["legal"] and "Prowess" in o["triggered"], "cast triggers trigger once the spell is cast"),
    RulingCheck("⑨呪文を唱えたときや呪文の対象になったとき", C, prowess,
                lambda o: {"Prowess", "Heroic"} <= set(o["triggered"]),
                "cast and becomes-target triggers go on the stack after casting"),
    RulingCheck("⑨　誘発型能力がスタックに乗る", C, prowess, lambda o: "Prowess" in o["triggered"],
                "triggered abilities go on the stack after casting"),
    RulingCheck("601.4 コストを変える呪文を唱えても", C, thalia_in_response,
                lambda o: o["legal"] and o["total_cost"] == "{G}", "a cost changer cast later doesn't affect the spell"),
    RulingCheck("瞬速化した《スレイベンの守護者、サリア》", C, thalia_in_response,
                lambda o: o["legal"] and o["total_cost"] == "{G}", "Giant Growth still costs {G} after Thalia arrives"),
    RulingCheck("唱えることが禁止されている呪文を唱え始めることはできない", C, growth | {"prohibitions": [
        {"name": "can't cast noncreature spells", "kind": "card_type", "types": NONCREATURE}]},
        lambda o: not o["began"] and o["failed_step"] == "601.3", "a prohibited spell can't begin to be cast"),
    RulingCheck("クリーチャー以外の呪文を唱えさせなくする", C, growth | {"prohibitions": [
        {"name": "Aurelia's Fury", "kind": "card_type", "types": NONCREATURE, "timing": "after_cast"}]},
        lambda o: o["legal"], "a prohibition arriving after the spell is cast doesn't undo it"),
]
