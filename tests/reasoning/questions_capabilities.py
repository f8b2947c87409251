"""Questions for what the engine grew for issue 13 (what a spell does to a creature read from its
text, when a special action may be taken, cast triggers, the legend rule per controller, what
melding leaves behind), written from the CR 2026-06-19 text of each rule (same shape as
tests/reasoning/questions_new.py: id, mechanic, situation, expected outcome paths, rules to cite)."""
from __future__ import annotations

from tests.reasoning.questions_new import ANGEL, CP, FD, MD, SB, SP, STONES, URZA, URZA_PW, cp, fd, md, sp

BOLT_TEXT = "Lightning Bolt deals 3 damage to any target."
TURN = {"name": "Turn", "types": ["instant"], "mana_cost": "{2}{U}", "text": "Until end of turn, target creature "
        "loses all abilities and becomes a red Weird with base power and toughness 0/1."}
BURN = {"name": "Burn", "types": ["instant"], "mana_cost": "{1}{R}", "text": "Burn deals 2 damage to any target."}
FIRE = {"name": "Fire", "types": ["instant"], "mana_cost": "{1}{R}",
        "text": "Fire deals 2 damage divided as you choose among one or two targets."}
ICE = {"name": "Ice", "types": ["instant"], "mana_cost": "{1}{U}", "text": "Tap target permanent. Draw a card."}
HIDE = {"name": "Hide", "types": ["instant"], "mana_cost": "{R}{W}", "text": "Put target artifact or enchantment on "
        "the bottom of its owner's library."}
SEEK = {"name": "Seek", "types": ["instant"], "mana_cost": "{W}{B}", "text": "Destroy target creature."}
GIANT = {"name": "Bonecrusher Giant", "types": ["creature"], "mana_cost": "{2}{R}", "power": 4, "toughness": 3}
STOMP = {"name": "Stomp", "types": ["instant"], "mana_cost": "{1}{R}", "text": "Stomp deals 2 damage to any target."}
PROTO = {"name": "Combat Thresher", "types": ["artifact", "creature"], "mana_cost": "{7}", "power": 3, "toughness": 3,
         "prototype_cost": "{2}{W}"}

CAPABILITIES = [
    # 117.1c "special actions any time they have priority" + 120.3e + 704.5g: face up 4/5 survives 3 damage
    ("cap: morph Angel up in response to Bolt", FD, fd("turn-face-up", ANGEL, incoming=BOLT_TEXT),
     {"timing.in_response": True, "timing.during_resolution": False, "incoming.damage_marked": 3,
      "incoming.survives": True, "incoming.saved": True}, ["117.1c", "117.2e", "116.2b", "608.2c", "120.3e", "704.5g"]),
    # 701.8a: turning it face up doesn't stop "destroy target creature" (the same permanent, 708.8)
    ("cap: morph Angel up in response to a destroy spell", FD,
     fd("turn-face-up", ANGEL, incoming="Destroy target creature."),
     {"incoming.survives": False, "incoming.saved": False, "incoming.destroyed": True}, ["701.8a", "708.8"]),
    # 702.12b: an indestructible face-up side isn't destroyed
    ("cap: manifested indestructible creature up in response to a destroy spell", FD,
     fd("turn-face-up", {"name": "Darksteel Myr", "types": ["artifact", "creature"], "mana_cost": "{3}", "power": 0,
                         "toughness": 1, "abilities": ["indestructible"]}, via="manifest",
        incoming="Destroy target creature."),
     {"incoming.survives": True, "incoming.saved": True}, ["701.40b", "702.12b"]),
    # 117.2e: no priority while resolving: the special action can't be taken then
    ("cap: no turning face up while a spell resolves", FD, fd("turn-face-up", ANGEL, has_priority=False),
     {"can_turn_face_up": False}, ["117.1"]),
    # 718.4: a manifested prototype card has only its normal mana cost
    ("cap: manifested prototype card turns up for its mana cost only", FD,
     fd("turn-face-up", PROTO, via="manifest"),
     {"cost": "{7}", "can_pay_prototype_cost": False, "after.power": 3}, ["701.40b", "718.4"]),
    # 701.6a + 708.9: a countered face-down spell goes to the graveyard, revealed
    ("cap: countered morph spell", FD, fd("leaves", ANGEL, from_zone="stack", destination="graveyard"),
     {"countered": True, "can_be_targeted": True, "revealed": True, "zone": "graveyard"}, ["701.6a", "708.9"]),
    # 707.10 "the value of X" copied + divided evenly among the copy's targets
    ("cap: copy of Fireball X=6 two targets", CP,
     cp("spell", {"name": "Fireball", "types": ["sorcery"], "mana_cost": "{X}{R}", "x": 6, "targets": ["A", "B"],
                  "text": "Fireball deals X damage divided evenly, rounded down, among any number of targets."}),
     {"x": 6, "damage_per_target": 3}, ["707.10", "608.2c", "120.3e"]),
    # 707.10 "additional or alternative costs" + 702.33d: the copy is kicked too
    ("cap: copy of kicked Burst Lightning", CP,
     cp("spell", {"name": "Burst Lightning", "types": ["instant"], "mana_cost": "{R}", "kicked": True,
                  "targets": ["A"], "text": "Kicker {4}. Burst Lightning deals 2 damage to any target. If this spell "
                                            "was kicked, it deals 4 damage instead."}),
     {"kicked": True, "damage_per_target": 4}, ["707.10", "702.33d"]),
    # 605.1a: "{T}: Add {C}{C}." is a mana ability, and it is copied (707.2 rules text)
    ("cap: Clone of Sol Ring has its mana ability", CP,
     cp("permanent", {"name": "Sol Ring", "types": ["artifact"], "mana_cost": "{1}", "text": "{T}: Add {C}{C}."}),
     {"mana_abilities": ["{T}: Add {C}{C}."], "types": ["artifact"]}, ["707.2", "605.1a"]),
    # 611.3a: the original's "number of creatures named Plague Rats" counts a copy named Plague Rats (707.9d: the
    # 7/7 exception means the copy itself has no such ability)
    ("cap: Quicksilver Gargantuan copying Plague Rats makes the original 2/2", CP,
     cp("permanent", {"name": "Plague Rats", "types": ["creature"], "mana_cost": "{2}{B}", "text": "Plague Rats's "
                      "power and toughness are each equal to the number of creatures named Plague Rats on the "
                      "battlefield."}, exception={"set_power": 7, "set_toughness": 7, "original_has_cda": True}),
     {"power": 7, "original_after.power": 2, "original_after.toughness": 2}, ["707.9d", "611.3a"]),
    ("cap: one more Plague Rats elsewhere makes it 3/3", CP,
     cp("permanent", {"name": "Plague Rats", "types": ["creature"], "mana_cost": "{2}{B}", "text": "Plague Rats's "
                      "power and toughness are each equal to the number of creatures named Plague Rats on the "
                      "battlefield."}, other_creatures_named=1),
     {"original_after.power": 3}, ["611.3a"]),
    # 702.102d left then right + 613.1f/613.4b then 120.3e + 704.5g
    ("cap: fused Turn // Burn kills Serra Angel", SP,
     sp("cast", TURN, BURN, layout="fuse", cast_as="fused", target={"name": "Serra Angel", "power": 4, "toughness": 4,
                                                                     "abilities": ["flying", "vigilance"]}),
     {"target_after.dies": True, "target_after.toughness": 1, "resolution_order": ["Turn", "Burn"]},
     ["702.102d", "608.2c", "613.1f", "613.4b", "120.3e", "704.5g"]),
    # Burn alone: 2 damage on a 4/4 isn't lethal (704.5g)
    ("cap: Burn alone doesn't kill Serra Angel", SP,
     sp("cast", TURN, BURN, layout="fuse", cast_as="right", target={"name": "Serra Angel", "power": 4, "toughness": 4}),
     {"target_after.dies": False, "target_after.damage": 2}, ["709.3b", "120.3e", "704.5g"]),
    # 701.8a / 702.12b: Seek on an indestructible creature
    ("cap: Seek on an indestructible creature", SP,
     sp("cast", HIDE, SEEK, cast_as="right", target={"name": "Darksteel Myr", "power": 0, "toughness": 1,
                                                     "abilities": ["indestructible"]}),
     {"target_after.destroyed": False}, ["701.8a", "702.12b"]),
    ("cap: Seek destroys Grizzly Bears", SP, sp("cast", HIDE, SEEK, cast_as="right", target={"name": "Grizzly Bears", "power": 2, "toughness": 2}),
     {"target_after.dies": True}, ["701.8a"]),
    # 601.2i + 603.2 against 709.3b (only Fire exists on the stack: red)
    ("cap: Fire doesn't trigger 'whenever you cast a blue spell'", SP,
     sp("cast", FIRE, ICE, cast_as="left", watchers=[{"text": "Whenever you cast a blue spell, draw a card."},
                                                      {"text": "Whenever you cast an instant spell, scry 1."}]),
     {"cast_triggers.0.triggers": False, "cast_triggers.1.triggers": True}, ["709.3b", "603.2", "601.2i"]),
    # 715.2a "has an Adventure" even cast as the creature; Stomp (as the Adventure) is not a creature spell
    ("cap: Bonecrusher Giant as a creature triggers 'creature spell that has an Adventure'", SP,
     sp("cast", GIANT, STOMP, layout="adventure", cast_as="creature",
        watchers=[{"source": "Edgewall Innkeeper", "text": "Whenever you cast a creature spell that has an Adventure, "
                                                           "draw a card."}]),
     {"cast_triggers.0.triggers": True}, ["715.2a", "601.2i"]),
    ("cap: Stomp as an Adventure doesn't trigger it", SP,
     sp("cast", GIANT, STOMP, layout="adventure", cast_as="adventure",
        watchers=[{"source": "Edgewall Innkeeper", "text": "Whenever you cast a creature spell that has an Adventure, "
                                                           "draw a card."}]),
     {"cast_triggers.0.triggers": False}, ["715.3b", "603.2"]),
    # 709.4a: naming a split card is naming one of its names; it then has the chosen name
    ("cap: name Fire // Ice with no name given", SP, sp("name-a-card", FIRE, ICE),
     {"must_choose_one_of": ["Fire", "Ice"], "has_chosen_name": True, "may_name_both": False}, ["709.4a"]),
    # 704.5j per controller: two of yours, one of the opponent's
    ("cap: legend rule per controller", SB, {"permanents": [
        {"name": "Urza, Lord Protector", "supertypes": ["legendary"], "power": 2, "toughness": 4},
        {"name": "Urza, Lord Protector", "supertypes": ["legendary"], "power": 2, "toughness": 4, "indestructible": True},
        {"name": "Urza, Lord Protector", "supertypes": ["legendary"], "power": 2, "toughness": 4,
         "controller": "opponent"}]},
     {"legend_rule.you.keep": 1, "legend_rule.you.chooses": True, "legend_rule.opponent.affected": False,
      "permanents.2.survives": True}, ["704.5j"]),
    # 111.8 + 704.5d: a bounced token stays in the hand and can't be cast, then ceases to exist
    ("cap: bounced token can't be cast", SB, {"permanents": [{"name": "Construct", "types": ["artifact", "creature"],
                                                              "token": True, "zone": "hand", "power": 2,
                                                              "toughness": 2}]},
     {"permanents.0.can_be_cast": False, "permanents.0.zone_before_check": "hand",
      "permanents.0.ceased_to_exist": True}, ["704.5d", "111.8"]),
    # 400.7 + 704.5m: the Aura on a melding card goes to the graveyard; Equipment stays unattached (301.5c)
    ("cap: meld leaves an Aura and an Equipment behind", MD,
     md("meld", [dict(URZA, attached=["Holy Strength", "Short Sword"], auras=["Holy Strength"]), STONES], URZA_PW),
     {"attachments_after.0.zone": "graveyard", "attachments_after.1.zone": "battlefield"}, ["400.7", "704.5m", "301.5c"]),
    # 701.27g: a melded permanent is never a transformed permanent
    ("cap: melded permanent isn't a legal 'transformed permanent' target", MD,
     md("transform", [URZA, STONES], URZA_PW, targeted_as="transformed-permanent"),
     {"legal_target": False}, ["701.27g"]),
    # 301.5b: a modal DFC's Equipment face enters unattached
    ("cap: Sword of the Realms enters unattached", "modal-dfc",
     {"question": "cast", "choose": "back", "layout": "modal",
      "front": {"name": "Halvar, God of Battle", "types": ["creature"], "mana_cost": "{2}{W}{W}", "power": 4,
                "toughness": 4},
      "back": {"name": "Sword of the Realms", "types": ["artifact"], "subtypes": ["Equipment"], "mana_cost": "{1}{W}"}},
     {"on_battlefield.attached": False, "on_battlefield.mana_value": 2}, ["301.5b", "712.8f"]),
]
