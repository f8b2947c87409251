"""Questions for what the engine answers since the second held-out pass (bench/reasoning_heldout_new.json
showed the steps it reached without citing, and the keys it had no notion of). Each is written from
the CR 2026-06-19 text of the rule the step relies on; same shape as questions_new.py (id, mechanic,
situation, expected outcome paths, rules the trace must cite)."""
from __future__ import annotations

from tests.reasoning.questions_new import (ANGEL, BEARS, BURN, CP, DELVER, DISGUISED, ENGINE, FD, LOST, MD, MDFC, MISHRA,
                                           SP, STONES, TURN, URZA, URZA_PW, cp, fd, md, mf, sp)
from tests.reasoning.questions_new import BOLT

SB = "state-based-actions"
ESIKA = {"name": "Esika, God of the Tree", "types": ["creature"], "supertypes": ["legendary"], "mana_cost": "{1}{G}{G}",
         "power": 1, "toughness": 4}
BRIDGE = {"name": "The Prismatic Bridge", "types": ["enchantment"], "supertypes": ["legendary"],
          "mana_cost": "{W}{U}{B}{R}{G}"}
BRIGHT = {"name": "Brightclimb Pathway", "types": ["land"], "mana_cost": None}
GRIM = {"name": "Grimclimb Pathway", "types": ["land"], "mana_cost": None}
ABERRATION = {"name": "Insectile Aberration", "types": ["creature"], "mana_cost": None, "color_indicator": ["U"],
              "power": 3, "toughness": 2, "double_faced": True, "face_up": "back", "front_mana_cost": "{U}"}
TIBALT = {"name": "Tibalt, Cosmic Impostor", "types": ["planeswalker"], "mana_cost": "{5}{B}{R}", "loyalty": 5,
          "double_faced": True, "modal_dfc": True, "face_up": "back"}
BATTALION = {"name": "Skitterbeam Battalion", "types": ["artifact", "creature"], "mana_cost": "{3}{R}{R}", "power": 2,
             "toughness": 2, "prototyped": True, "etb_ability": True, "etb_if_cast": True}
POOL = {"name": "Bottomless Pool // Locker Room", "types": ["enchantment"], "subtypes": ["Room"], "mana_cost": None,
        "room_unlocked": ["left"]}
RATS = {"name": "Plague Rats", "types": ["creature"], "mana_cost": "{2}{B}", "power": None, "toughness": None}
BEAST = {"name": "Lovestruck Beast", "types": ["creature"], "mana_cost": "{2}{G}", "power": 5, "toughness": 5}
HEART = {"name": "Heart's Desire", "types": ["sorcery"], "mana_cost": "{G}"}
GIANT = {"name": "Bonecrusher Giant", "types": ["creature"], "mana_cost": "{2}{R}", "power": 4, "toughness": 3}
STOMP = {"name": "Stomp", "types": ["instant"], "mana_cost": "{1}{R}"}

MORE = [
    # 704.5j + 708.2: a face-down permanent has no name or supertype, whatever card it is
    ("more: two face-down legendary cards and the legend rule", SB,
     {"permanents": [{"name": "", "face_down": True, "power": 2, "toughness": 2},
                     {"name": "", "face_down": True, "power": 2, "toughness": 2}]},
     {"permanents.0.survives": True, "permanents.1.survives": True}, ["704.5j", "708.2"]),
    # 712.8a in the graveyard (what an effect finding it there sees), then 712.14 front face up
    ("more: Esika put onto the battlefield from the graveyard", MDFC,
     mf("put-onto-battlefield", ESIKA, BRIDGE, zone="graveyard"),
     {"characteristics_before.types": ["creature"], "may_choose_face": False, "characteristics.name": ESIKA["name"]},
     ["712.8a", "712.14"]),
    # 701.6a: a countered spell goes to its owner's graveyard; 712.8a: there only its front face
    ("more: The Prismatic Bridge countered", MDFC, mf("countered", ESIKA, BRIDGE, zone="stack", face_up="back"),
     {"zone_after": "graveyard", "characteristics.name": ESIKA["name"], "characteristics.mana_value": 3},
     ["701.6a", "712.8a"]),
    # 712.12: a face that's a land is chosen: both faces of a Pathway are lands
    ("more: a Pathway's land faces", MDFC, mf("play-land", BRIGHT, GRIM, choose="front"),
     {"can_play": True, "face_choices": [BRIGHT["name"], GRIM["name"]]}, ["712.12"]),
    # 712.8e/202.3b: copying a nonmodal back face: mana value 0; 712.9: Clone isn't double-faced
    ("more: Clone copies Insectile Aberration", CP, cp("permanent", ABERRATION),
     {"mana_value": 0, "can_transform": False, "name": "Insectile Aberration"}, ["712.8e", "202.3b", "712.9"]),
    # 707.8a + 712.9: a token copy of a double-faced permanent is a double-faced token: it can transform
    ("more: token copy of Insectile Aberration", CP, cp("token", ABERRATION),
     {"can_transform": True, "double_faced": True}, ["707.8a", "712.9"]),
    # 712.8f: a modal DFC's back face has its own mana cost (202.3b's 0 is for nonmodal ones)
    ("more: token copy of Tibalt, Cosmic Impostor", CP, cp("token", TIBALT), {"mana_value": 7}, ["712.8f"]),
    # 603.4: "if you cast it" — token copies weren't cast; 718.3d: the prototype's values are copied
    ("more: token copies of a prototyped Skitterbeam Battalion", CP, cp("token", BATTALION, copies=2),
     {"tokens": 2, "power": 2, "mana_value": 5, "etb_triggers": False}, ["718.3d", "603.4"]),
    # 709.5b + 709.5d + 709.5: the token has both halves, neither door unlocked, so no mana cost
    ("more: token copy of a Room with its left door unlocked", CP, cp("token", POOL),
     {"unlocked": [], "has_both_halves": True, "mana_value": 0}, ["709.5b", "709.5d", "709.5"]),
    # 707.9d: an exception setting P/T: the original's P/T-defining ability isn't copied
    ("more: Quicksilver Gargantuan copies Plague Rats", CP,
     cp("permanent", RATS, exception={"set_power": 7, "set_toughness": 7, "original_has_cda": True}),
     {"power": 7, "toughness": 7, "has_cda": False, "name": "Plague Rats"}, ["707.9b", "707.9d"]),
    ("more: Clone copies Plague Rats (no exception)", CP, cp("permanent", RATS, exception={"original_has_cda": True}),
     {"has_cda": True}, ["707.2"]),
    # 707.10f: the copy of a permanent spell becomes a token with the spell's name; 111.13: not "created"
    ("more: copy of a Grizzly Bears spell resolves", CP, cp("copy-resolves", dict(BEARS, permanent_spell=True)),
     {"becomes": "token", "token_name": "Grizzly Bears", "counts_as_created": False}, ["707.10f", "111.13"]),
    # 702.102c total cost of both halves; 702.102d left half's instructions, then the right's
    ("more: Turn // Burn cast fused", SP, sp("cast", TURN, BURN, layout="fuse", cast_as="fused"),
     {"can_cast": True, "total_cost": "{3}{U}{R}", "resolution_order": ["Turn", "Burn"], "on_stack.mana_value": 5},
     ["702.102c", "702.102d"]),
    # 709.4d: the fused spell evaluated has mana value 5: a "mana value 4 or greater" ban stops it
    ("more: Turn // Burn fused under a mana value 4+ ban", SP,
     sp("cast", TURN, BURN, layout="fuse", cast_as="fused", prohibition="mana-value-4-or-more"),
     {"can_cast": False, "mana_value_evaluated": 5}, ["702.102c", "709.4d"]),
    # 715.2a: cast as the creature, the spell still "has an Adventure"
    ("more: Lovestruck Beast cast as a creature", SP, sp("cast", BEAST, HEART, layout="adventure", cast_as="creature"),
     {"can_cast": True, "has_adventure": True}, ["715.2a"]),
    # 715.5: the Adventure's name may be chosen
    ("more: naming an Adventure", SP, sp("name-a-card", BEAST, HEART, layout="adventure", chosen_name="Heart's Desire"),
     {"may_name_adventure": True}, ["715.5"]),
    # 704.5e: the copy of an Adventure ceases to exist: nothing is exiled to cast the creature from
    ("more: copy of an Adventure leaves nothing to cast later", SP,
     sp("copy", GIANT, STOMP, layout="adventure", zone="stack", cast_as="adventure"),
     {"copy_is_adventure": True, "may_cast_creature_later": False}, ["715.3c", "704.5e"]),
]

HYSTRODON = {"name": "Hystrodon", "types": ["creature"], "mana_cost": "{4}{G}", "power": 3, "toughness": 4,
             "morph_cost": "{1}{G}{G}"}
MORE += [
    # 701.40b + 701.40c: a manifested card with morph: its mana cost or its morph cost
    ("more: manifested Exalted Angel's ways up", FD, fd("turn-face-up", ANGEL, via="manifest"),
     {"allowed_costs": ["{4}{W}{W}", "{2}{W}{W}"], "by_mana_cost": True}, ["701.40b", "701.40c"]),
    # 702.168d: cast with disguise, only its disguise cost turns it up (a mana cost is for manifested cards)
    ("more: a disguised creature isn't turned up for its mana cost", FD, fd("turn-face-up", DISGUISED, via="disguise"),
     {"allowed_costs": ["{3}{G}"], "by_mana_cost": False, "cost": "{3}{G}"}, ["702.168d"]),
    # 712.15a: face down it can't transform; turned up, its front face is up
    ("more: manifested Delver of Secrets turned face up", FD, fd("turn-face-up", DELVER, via="manifest"),
     {"face_up_after": "front", "can_transform_while_face_down": False, "after.name": "Delver of Secrets"},
     ["712.15a", "701.40b"]),
    # 708.4 (face down: mana value 0, even) beside 601.3 (face up: mana value 5, odd)
    ("more: Hystrodon under an even-mana-value ban", FD,
     fd("cast-face-down", HYSTRODON, via="morph", prohibition="even-mana-value"),
     {"can_cast_face_down": False, "can_cast_face_up": True}, ["708.4", "601.3"]),
    # 704.3: one check, one event: a deathtouch trade dies together; 700.4: each dies
    ("more: a deathtouch trade is one event", SB,
     {"permanents": [{"name": "Goring Warplow", "power": 1, "toughness": 1, "damage": 6},
                     {"name": "Craw Wurm", "power": 6, "toughness": 4, "damage": 1, "deathtouch_damage": True}]},
     {"all_in_one_check": True, "permanents.0.dies": True, "permanents.1.dies": True, "indestructible_helps": True},
     ["704.3", "704.5g", "704.5h", "700.4"]),
    # 704.5f: put into the graveyard, not destroyed: neither indestructible nor regeneration would help
    ("more: 0 toughness: indestructible and regeneration don't help", SB,
     {"permanents": [{"name": "Savannah Lions", "power": 0, "toughness": 0, "indestructible": True}]},
     {"indestructible_helps": False, "regeneration_helps": False, "permanents.0.dies": True}, ["704.5f", "700.4"]),
    # 111.7 + 704.5d: a token dies (triggers), then ceases to exist in the next check
    ("more: a dying token ceases to exist", SB,
     {"permanents": [{"name": "Soldier", "power": 1, "toughness": 1, "damage": 1, "token": True}]},
     {"permanents.0.dies": True, "permanents.0.ceased_to_exist": True, "all_in_one_check": False},
     ["704.5g", "700.4", "704.5d", "111.7"]),
    # 712.21: a melded permanent is one object leaving, two cards moving
    ("more: melded Urza, Planeswalker at 0 loyalty", SB,
     {"permanents": [{"name": "Urza, Planeswalker", "types": ["planeswalker"], "loyalty": 0, "cards": 2}]},
     {"permanents.0.objects_left": 1, "permanents.0.cards": 2}, ["704.5i", "712.21"]),
]

MORE += [
    # 712.21e: one object moved, two cards; 700.4: the melded creature dies once
    ("more: melded Mishra dies", MD, md("leaves", destination="graveyard"),
     {"objects_left": 1, "cards_moved": 2, "dies_count": 1}, ["712.21", "712.21e", "700.4"]),
    # 712.21a: put into the library, the owner doesn't reveal the order
    ("more: melded Urza put into the library", MD, md("leaves", (URZA, STONES), URZA_PW, destination="library"),
     {"order_revealed": False, "owner_orders": True, "dies_count": None}, ["712.21a"]),
    # 712.4c: the instruction is ignored; 712.16: nothing happens and nothing changes
    ("more: transform melded Urza", MD, md("transform", (URZA, STONES), URZA_PW),
     {"transforms": False, "anything_changes": False}, ["712.4c"]),
    ("more: turn melded Mishra face down", MD, md("turn-face-down"), {"anything_changes": False}, ["712.16"]),
    # 701.42b/c: a token can't be melded: both stay exiled; 704.5d: the exiled token ceases to exist
    ("more: Mishra and a token Dragon Engine", MD, md("meld", (MISHRA, dict(ENGINE, token=True))),
     {"melded": False, "zone": "exile", "tokens_exist": False}, ["701.42b", "701.42c", "704.5d"]),
    # 707.8 + 712.8g + 707.5: a copy of the melded permanent, with its enters ability triggering
    ("more: Clone copies Mishra, Lost to Phyrexia", MD, md("copy", melded=dict(LOST, etb_ability=True)),
     {"copy.mana_value": 0, "etb_triggers": True}, ["707.8", "712.8g", "707.5"]),
    # 603.4: the meld trigger rechecks its condition; doing nothing, the cards stay on the battlefield
    ("more: meld trigger with one half gone", MD, md("meld-trigger", condition_still_true=False),
     {"does_anything": False, "zone": "battlefield"}, ["603.4"]),
]

AUTOMATON = {"name": "Adaptive Automaton", "types": ["artifact", "creature"], "mana_cost": "{3}", "power": 2,
             "toughness": 2, "as_enters_choice": "Elf", "etb_ability": False}
MORE += [
    # 707.10: the copy isn't cast and is controlled by the player who put it on the stack; 707.10c new targets
    ("more: Fork copies the opponent's Lightning Bolt", CP,
     cp("spell", dict(BOLT, targets=["you"]), may_choose_new_targets=True, copier_controller="you"),
     {"copy_is_cast": False, "controller": "you", "may_change_targets": True}, ["707.10", "707.10c"]),
    # 707.6: the choice isn't copied; the copy's controller makes it
    ("more: Clone copies the opponent's Adaptive Automaton", CP, cp("permanent", AUTOMATON),
     {"copies_choice": False, "choice_by": "you"}, ["707.6"]),
    # 701.62a: "Manifest one of them": an instant may be chosen too
    ("more: manifest dread may pick the instant", FD,
     {"question": "manifest-dread", "card": BOLT, "top_cards": [BOLT, BEARS], "choose": 1},
     {"may_choose_any": True, "manifested": "Lightning Bolt", "to_graveyard": ["Grizzly Bears"]}, ["701.62a"]),
]

MORE += [
    # 708.5: a face-down permanent's controller may look at it; another player may not
    ("more: looking at the opponent's manifested creature", FD,
     fd("look", BEARS, via="manifest", controller="opponent", from_zone="battlefield"),
     {"may_look": False, "controller_may_look": True}, ["708.5"]),
    # 712.8b: a meld card on the stack has only its front face's characteristics
    ("more: Mishra, Claimed by Gix on the stack", MD, md("characteristics", zone="stack", melded_now=False),
     {"uses_back_face": False, "characteristics.mana_value": 4}, ["712.8b"]),
    # 704.5c: ten poison counters lose the game whatever the player's life total
    ("more: ten poison counters at 12 life", SB, {"permanents": [], "players": [{"name": "opponent", "life": 12,
                                                                              "poison": 10}]},
     {"players.0.loses": True, "players.0.life_matters": False}, ["704.5c"]),
]

AWAKENING = {"name": "Valakut Awakening", "types": ["instant"], "mana_cost": "{2}{R}"}
STONEFORGE = {"name": "Valakut Stoneforge", "types": ["land"], "mana_cost": None}
FIRE = {"name": "Fire", "types": ["instant"], "mana_cost": "{1}{R}"}
ICE = {"name": "Ice", "types": ["instant"], "mana_cost": "{1}{U}"}
MORE += [
    # 712.8a: in the hand only the front face (an instant): not a land card, whatever its back face is
    ("more: 'discard a land card' with Valakut Awakening", MDFC,
     mf("characteristics", AWAKENING, STONEFORGE, zone="hand", requirement={"types_any": ["land"]}),
     {"meets_requirement": False, "characteristics.mana_value": 3}, ["712.8a"]),
    # 712.8a + 601.2c: in the graveyard the front face (a sorcery, mana value 7) is what the target check sees
    ("more: target permanent card with mana value 3 or less: Emeria's Call", MDFC,
     mf("characteristics", {"name": "Emeria's Call", "types": ["sorcery"], "mana_cost": "{4}{W}{W}{W}"},
        {"name": "Emeria, Shattered Skyclave", "types": ["land"], "mana_cost": None}, zone="graveyard",
        requirement={"permanent_card": True, "mana_value_max": 3, "targeted": True}),
     {"meets_requirement": False}, ["712.8a", "601.2c"]),
    # 709.4 + 709.4b + 601.2c: in the graveyard Fire // Ice has the combined mana value 4
    ("more: target instant card with mana value 2 or less: Fire // Ice", SP,
     sp("characteristics", FIRE, ICE, zone="graveyard",
        requirement={"types_any": ["instant"], "mana_value_max": 2, "targeted": True}),
     {"meets_requirement": False, "characteristics.mana_value": 4}, ["709.4", "709.4b", "601.2c"]),
    ("more: target instant card: Fire // Ice", SP,
     sp("characteristics", FIRE, ICE, zone="graveyard", requirement={"types_any": ["instant"], "targeted": True}),
     {"meets_requirement": True}, ["709.4", "601.2c"]),
]

DEMON = {"name": "Grinning Demon", "types": ["creature"], "mana_cost": "{2}{B}{B}", "power": 6, "toughness": 6,
         "morph_cost": "{2}{B}{B}"}
MORE += [
    # 704.5g on the face-down 2/2 (702.37a), then 708.9: revealed to all players as it moves
    ("more: face-down Grinning Demon with 2 damage dies", FD,
     fd("leaves", DEMON, via="morph", from_zone="battlefield", destination="graveyard", damage=2),
     {"destroyed": True, "revealed": True, "revealed_to": "all players", "zone": "graveyard"},
     ["702.37a", "704.5g", "708.9"]),
]

DOORS = {"left": {"name": "Bottomless Pool", "mana_cost": "{U}"}, "right": {"name": "Locker Room", "mana_cost": "{4}{U}"}}
MORE += [
    # 709.5e: the unlock cost is the locked half's mana cost, a special action (116.2m); 709.5: both halves' costs
    ("more: unlocking Locker Room", "room", {"room": DOORS, "event": "unlock_action", "door": "right",
                                             "unlocked": ["left"]},
     {"unlock_cost": "{4}{U}", "uses_stack": False, "mana_value": 6}, ["709.5e", "116.2m", "709.5"]),
    # 709.4: off the battlefield a Room is a split card: both halves combined
    ("more: a Room in the hand", SP, sp("characteristics", dict(DOORS["left"], types=["enchantment"]),
                                         dict(DOORS["right"], types=["enchantment"]), zone="hand"),
     {"characteristics.mana_value": 6}, ["709.4"]),
]
