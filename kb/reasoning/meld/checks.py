"""Ruling checks for the official meld rulings (The Brothers' War, 2022-10-14; MTGJSON set BRO).

Each restates a ruling's own situation and claim; the engine computes the outcome from the rule
logic and only compares (see kb.reasoning.rulings.RulingCheck). The cards are BRO's real pair.
"""
from __future__ import annotations

from kb.reasoning.rulings import RulingCheck

M = "meld"
MISHRA = {"name": "Mishra, Claimed by Gix", "mana_cost": "{2}{B}{R}", "types": ["creature"], "power": 3,
          "toughness": 5, "melds_with": "Phyrexian Dragon Engine", "melds_into": "Mishra, Lost to Phyrexia"}
ENGINE = {"name": "Phyrexian Dragon Engine", "mana_cost": "{3}", "types": ["artifact", "creature"], "power": 2,
          "toughness": 2, "melds_with": "Mishra, Claimed by Gix", "melds_into": "Mishra, Lost to Phyrexia"}
LOST = {"name": "Mishra, Lost to Phyrexia", "types": ["artifact", "creature"], "power": 9, "toughness": 9,
        "color_indicator": ["B", "R"]}


def _q(question, **kw):
    return {"question": question, "cards": [MISHRA, ENGINE], "melded": LOST, **kw}


CHECKS = [
    # "If the melded creature dies, both cards are put into your graveyard."
    RulingCheck("If the melded creature dies, both cards are put into your graveyard", M, _q("leaves"),
                lambda o: o["cards_moved"] == 2 and o["objects_left"] == 1, "dies: one permanent, both cards to the graveyard"),
    # "… return together as one new object … Counters, Auras, Equipment … don't affect the melded permanent."
    RulingCheck("return together as one new object with no relation to either", M,
                _q("meld", cards=[dict(MISHRA, plus1_counters=2, attached=["Holy Strength"]), ENGINE]),
                lambda o: o["melded"] and o["plus1_counters"] == 0 and o["attached"] == [],
                "melding makes a new object: counters and Auras don't carry over"),
    # "Only two cards belonging to the same meld pair can be melded. Tokens … can't be melded."
    RulingCheck("Only two cards belonging to the same meld pair can be melded", M,
                _q("meld", cards=[MISHRA, dict(ENGINE, token=True)]), lambda o: not o["melded"],
                "a token can't be melded"),
    # "… If an effect instructs you to meld cards that can't be melded, those cards remain in exile."
    RulingCheck("those cards remain in exile", M, _q("meld", cards=[MISHRA, dict(ENGINE, token=True)]),
                lambda o: not o["melded"] and o["zone"] == "exile", "cards that can't be melded stay in exile"),
    # "While a meld card is in any zone other than the battlefield, it has only the characteristics of its front face."
    RulingCheck("While a meld card is in any zone other than the battlefield, it has only the characteristics", M,
                _q("characteristics", zone="graveyard"),
                lambda o: o["characteristics"]["name"] == MISHRA["name"] and o["characteristics"]["mana_value"] == 4,
                "off the battlefield: the front face only"),
    # "While a melded permanent is on the battlefield, it has only the characteristics of its combined back face."
    RulingCheck("While a melded permanent is on the battlefield, it has only the characteristics of its combined", M,
                _q("characteristics"), lambda o: o["characteristics"]["name"] == LOST["name"],
                "melded: the combined back face only"),
    # "The mana value of a melded permanent is the sum of the mana values of its front faces. A creature that
    #  becomes a copy of a melded permanent has only the characteristics of that combined back face, and its mana value is 0."
    RulingCheck("The mana value of a melded permanent is the sum of the mana values of its front faces", M,
                _q("characteristics"), lambda o: o["characteristics"]["mana_value"] == 7, "mana value 4 + 3 = 7"),
    RulingCheck("becomes a copy of a melded permanent has only the characteristics of that combined back face", M,
                _q("copy"), lambda o: o["copy"]["name"] == LOST["name"] and o["copy"]["mana_value"] == 0,
                "a copy of a melded permanent: back face, mana value 0"),
    # "A player prompted to name a card may name the combined back face …"
    RulingCheck("may name the combined back face", M, _q("name-a-card", chosen_name=LOST["name"]),
                lambda o: o["may_name_combined_back_face"] and o["valid"], "the combined back face may be named"),
    # "If an effect moves a melded permanent to a new zone and then affects “that card,” it affects both cards."
    RulingCheck("If an effect moves a melded permanent to a new zone and then affects", M, _q("flicker"),
                lambda o: len(o["returned"]) == 2 and not o["melded_after_return"], "'that card' finds both cards"),
    # "Mishra, Lost to Phyrexia enters the battlefield tapped and attacking, but since it wasn't declared as an
    #  attacker, no abilities that trigger when a creature attacks will trigger."
    RulingCheck("since it wasn’t declared as an attacker, no abilities that trigger when a creature attacks", M,
                _q("meld", enters_attacking=True), lambda o: o["attack_triggers"] == 0 and o["enter_triggers"] == 1,
                "enters attacking: no attack triggers, one enters trigger"),
]
