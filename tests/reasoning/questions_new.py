"""Judge-style questions for the six new question types, written from the CR 2026-06-19 text.

Each row: id, question type, situation as a user fills the form, expected outcome fields (dotted
paths) and the rules an answer must cite. The comment above a row is the CR's reason. Real cards
keep their real characteristics. Used by tests/reasoning/test_reasoning_new.py and
bench/bench_reasoning.py (accuracy per type).
"""
from __future__ import annotations

FD, MD, MDFC, CP, SP, SB = "face-down", "meld", "modal-dfc", "copy", "split-card", "state-based-actions"

ANGEL = {"name": "Exalted Angel", "types": ["creature"], "mana_cost": "{4}{W}{W}", "power": 4, "toughness": 5,
         "abilities": ["flying", "lifelink"], "morph_cost": "{2}{W}{W}"}
BEARS = {"name": "Grizzly Bears", "types": ["creature"], "mana_cost": "{1}{G}", "power": 2, "toughness": 2}
BOLT = {"name": "Lightning Bolt", "types": ["instant"], "mana_cost": "{R}"}
SERRA = {"name": "Serra Angel", "types": ["creature"], "mana_cost": "{3}{W}{W}", "power": 4, "toughness": 4,
         "abilities": ["flying", "vigilance"]}
DEN = {"name": "Den Protector", "types": ["creature"], "mana_cost": "{1}{G}", "power": 2, "toughness": 1,
       "megamorph_cost": "{1}{G}", "turned_face_up_ability": True}
DISGUISED = {"name": "(disguise creature)", "types": ["creature"], "mana_cost": "{4}{G}", "power": 5, "toughness": 4,
             "disguise_cost": "{3}{G}"}
DELVER = {"name": "Delver of Secrets", "types": ["creature"], "mana_cost": "{U}", "power": 1, "toughness": 1,
          "double_faced": True}
FOREST = {"name": "Forest", "types": ["land"], "supertypes": ["basic"], "mana_cost": None}


def fd(question, card, **kw):
    return {"question": question, "card": card, **kw}


FACE_DOWN = [
    # 702.37a/708.2a: a morph spell/permanent is a 2/2 with no name, mana value 0 (202.3a)
    ("fd: morph characteristics", FD, fd("characteristics", ANGEL),
     {"characteristics.power": 2, "characteristics.name": None, "characteristics.mana_value": 0}, ["702.37a"]),
    # 702.168a: disguise adds ward {2}
    ("fd: disguise has ward 2", FD, fd("characteristics", DISGUISED, via="disguise"),
     {"characteristics.abilities": ["ward {2}"], "characteristics.toughness": 2}, ["702.168a"]),
    # 701.58a: cloaked permanents also have ward {2}
    ("fd: cloaked has ward 2", FD, fd("characteristics", BEARS, via="cloak"),
     {"characteristics.abilities": ["ward {2}"]}, ["701.58a"]),
    # 701.40b + 116.2b: manifested creature card turned up for its mana cost, special action
    ("fd: manifested Serra Angel turned up", FD, fd("turn-face-up", SERRA, via="manifest", mana_available="{3}{W}{W}"),
     {"can_turn_face_up": True, "uses_stack": False, "cost": "{3}{W}{W}", "after.power": 4}, ["701.40b", "116.2b"]),
    # 701.40g: an instant manifested: revealed, stays face down
    ("fd: manifested instant stays face down", FD, fd("turn-face-up", BOLT, via="manifest", method="effect"),
     {"can_turn_face_up": False, "revealed": True}, ["701.40g"]),
    # 701.40b: a land card can't be turned up for a mana cost
    ("fd: manifested land can't be turned up", FD, fd("turn-face-up", FOREST, via="manifest"),
     {"can_turn_face_up": False}, ["701.40b"]),
    # 701.40c: a manifested morph card may use its morph cost
    ("fd: manifested morph card by morph cost", FD, fd("turn-face-up", ANGEL, via="manifest", method="morph"),
     {"can_turn_face_up": True, "cost": "{2}{W}{W}"}, ["701.40c", "702.37e"]),
    # 702.37e: a morph permanent can't be turned up by paying its mana cost
    ("fd: morph can't be turned up for its mana cost", FD, fd("turn-face-up", ANGEL, method="mana-cost"),
     {"can_turn_face_up": False}, ["117.1"]),
    # 702.37b + 708.11: megamorph puts a +1/+1 counter as it turns face up
    ("fd: megamorph counter", FD, fd("turn-face-up", DEN, via="megamorph"),
     {"plus1_counters": 1, "after.power": 3, "turned_face_up_triggers": True}, ["702.37b", "708.11"]),
    # 708.8: effects applied while face down still apply
    ("fd: Giant Growth still applies", FD, fd("turn-face-up", ANGEL, effects=["+3/+3 until end of turn"]),
     {"after.power": 7, "after.toughness": 8, "effects_still_apply": True}, ["708.8"]),
    # 117.1: no priority while a spell resolves: can't turn up then
    ("fd: not during resolution", FD, fd("turn-face-up", ANGEL, has_priority=False), {"can_turn_face_up": False},
     ["117.1"]),
    # 708.4: casting face down, effects see a mana value 0 spell (even): prohibited
    ("fd: even mana value prohibition sees mana value 0", FD,
     fd("cast-face-down", ANGEL, prohibition="even-mana-value"), {"can_cast_face_down": False, "cost": "{3}"},
     ["708.4", "702.37c"]),
    # 702.168d: disguise turned up by its disguise cost
    ("fd: disguise turned up", FD, fd("turn-face-up", DISGUISED, via="disguise"),
     {"can_turn_face_up": True, "cost": "{3}{G}", "ward_after": False}, ["702.168d"]),
    # 708.2b: a face-down permanent can't be turned face down
    ("fd: already face down", FD, fd("turn-face-down", ANGEL), {"turned_face_down": False}, ["708.2b"]),
    # 712.16: a face-up double-faced permanent can't be turned face down
    ("fd: DFC can't be turned face down", FD, fd("turn-face-down", DELVER, face_up_now=True),
     {"turned_face_down": False}, ["712.16"]),
    # 708.9: revealed as it leaves the battlefield
    ("fd: revealed when it dies", FD, fd("leaves", ANGEL), {"revealed": True, "zone": "graveyard"}, ["708.9"]),
    # 708.9 + 701.6a: a countered face-down spell is revealed and goes to the graveyard
    ("fd: countered face-down spell", FD, fd("leaves", ANGEL, from_zone="stack"), {"revealed": True}, ["708.9", "701.6a"]),
    # 708.5: can't look at an opponent's face-down permanent
    ("fd: can't look at the opponent's", FD, fd("look", BEARS, controller="opponent"), {"may_look": False}, ["708.5"]),
    # 708.2 + 707.2: a Clone of a face-down permanent is a face-up nameless 2/2
    ("fd: Clone copies a face-down creature", FD, fd("copy", ANGEL),
     {"copy.power": 2, "copy.name": None, "copy_can_turn_face_up": False}, ["708.2", "707.2"]),
    # 702.168b: the disguised face-down values, ward {2} included, "are the copiable values": the copy has ward {2}
    ("fd: a copy of a disguised face-down creature has ward {2}", FD, fd("copy", ANGEL, via="disguise"),
     {"copy.power": 2, "copy.abilities": ["ward {2}"], "copy_has_ward": True}, ["702.168b", "708.2", "707.2"]),
    # 708.10: a face-down permanent that becomes a copy stays a 2/2; up it would be the copied permanent
    ("fd: face-down becomes a copy of Bears", FD, fd("becomes-copy", ANGEL, copied=BEARS),
     {"characteristics.power": 2, "name_if_turned_face_up": "Grizzly Bears",
      "can_turn_face_up_with_morph_cost": False}, ["708.10"]),
    # 712.15a: a manifested DFC turns up front face up
    ("fd: manifested Delver turned up", FD, fd("turn-face-up", DELVER, via="manifest"),
     {"can_turn_face_up": True, "after.name": "Delver of Secrets"}, ["712.15a", "701.40b"]),
    # 701.40d: a manifested card with disguise may be turned up for its disguise cost
    ("fd: manifested disguise card by disguise cost", FD, fd("turn-face-up", DISGUISED, via="manifest", method="disguise"),
     {"can_turn_face_up": True, "cost": "{3}{G}"}, ["701.40d", "702.168d"]),
    # 701.58b: a cloaked creature card turned up for its mana cost
    ("fd: cloaked Bears turned up", FD, fd("turn-face-up", BEARS, via="cloak"),
     {"can_turn_face_up": True, "cost": "{1}{G}", "ward_after": False}, ["701.58b", "116.2b"]),
    # 701.58c: a cloaked morph card may use its morph cost
    ("fd: cloaked morph card", FD, fd("turn-face-up", ANGEL, via="cloak", method="morph"),
     {"can_turn_face_up": True, "cost": "{2}{W}{W}"}, ["701.58c"]),
    # 701.58d: a cloaked disguise card may use its disguise cost
    ("fd: cloaked disguise card", FD, fd("turn-face-up", DISGUISED, via="cloak", method="disguise"),
     {"can_turn_face_up": True}, ["701.58d"]),
    # 701.58g: a cloaked instant stays face down
    ("fd: cloaked instant", FD, fd("turn-face-up", BOLT, via="cloak", method="effect"),
     {"can_turn_face_up": False, "revealed": True}, ["701.58g"]),
    # 702.168b: casting with disguise: cost {3}, a 2/2 with ward {2}
    ("fd: cast with disguise", FD, fd("cast-face-down", DISGUISED, via="disguise"),
     {"can_cast_face_down": True, "cost": "{3}", "characteristics.abilities": ["ward {2}"]}, ["702.168b", "708.4"]),
    # 702.37d: no morph ability: can't be cast face down
    ("fd: no morph, no face-down casting", FD, fd("cast-face-down", BEARS), {"can_cast_face_down": False}, ["702.37d"]),
    # 702.168c: no disguise ability: can't be cast face down with disguise
    ("fd: no disguise", FD, fd("cast-face-down", BEARS, via="disguise"), {"can_cast_face_down": False}, ["702.168c"]),
    # 708.2a: an effect turns a face-up creature face down: a 2/2 with no name
    ("fd: turned face down by an effect", FD, fd("turn-face-down", SERRA, via="effect", face_up_now=True),
     {"turned_face_down": True, "characteristics.power": 2, "characteristics.name": None}, ["708.2a"]),
    # 701.62a: manifest dread: one manifested, the other to the graveyard
    ("fd: manifest dread", FD, fd("manifest-dread", BEARS, top_cards=[BOLT, BEARS], choose=1),
     {"manifested": "Lightning Bolt", "to_graveyard": ["Grizzly Bears"], "characteristics.power": 2}, ["701.62a"]),
    # 702.168b: the disguise effect "ends when the permanent is turned face up" (here by an effect): its ward goes
    ("fd: disguised turned up by an effect loses the ward", FD,
     fd("turn-face-up", dict(ANGEL, disguise_cost="{2}{W}"), via="disguise", method="effect"),
     {"can_turn_face_up": True, "ward_after": False}, ["702.168b", "708.8"]),
    # 701.58a: the cloak effect "ends when it's turned face up"
    ("fd: cloaked turned up for its mana cost loses the ward", FD, fd("turn-face-up", ANGEL, via="cloak"),
     {"can_turn_face_up": True, "ward_after": False}, ["701.58b", "701.58a"]),
    # 702.12b: lethal damage on an indestructible creature turned face up in response: it survives, citing 702.12b
    ("fd: indestructible turned up in response survives", FD,
     fd("turn-face-up", {"name": "Darksteel Myr", "types": ["creature"], "mana_cost": "{3}", "morph_cost": "{3}",
                         "power": 0, "toughness": 1, "abilities": ["indestructible"]},
        via="morph", incoming="Shock deals 2 damage to any target."),
     {"can_turn_face_up": True, "incoming.survives": True}, ["702.37e", "704.5g", "702.12b"]),
    # 701.62b: "triggers after the process ... is complete, even if some or all of those actions were impossible"
    ("fd: manifest dread from an empty library still triggers", FD,
     {"question": "manifest-dread", "top_cards": [], "manifest_dread_triggers": 1},
     {"cards_manifested": 0, "to_graveyard": [], "dread_triggers": 1}, ["701.62a", "701.62b"]),
]

MISHRA = {"name": "Mishra, Claimed by Gix", "mana_cost": "{2}{B}{R}", "types": ["creature"], "supertypes": ["legendary"],
          "power": 3, "toughness": 5, "melds_with": "Phyrexian Dragon Engine", "melds_into": "Mishra, Lost to Phyrexia"}
ENGINE = {"name": "Phyrexian Dragon Engine", "mana_cost": "{3}", "types": ["artifact", "creature"], "power": 2,
          "toughness": 2, "melds_with": "Mishra, Claimed by Gix", "melds_into": "Mishra, Lost to Phyrexia"}
LOST = {"name": "Mishra, Lost to Phyrexia", "types": ["artifact", "creature"], "supertypes": ["legendary"],
        "power": 9, "toughness": 9, "color_indicator": ["B", "R"]}
URZA = {"name": "Urza, Lord Protector", "mana_cost": "{1}{W}{U}", "types": ["creature"], "power": 2, "toughness": 4,
        "melds_with": "The Mightstone and Weakstone", "melds_into": "Urza, Planeswalker"}
STONES = {"name": "The Mightstone and Weakstone", "mana_cost": "{5}", "types": ["artifact"],
          "melds_with": "Urza, Lord Protector", "melds_into": "Urza, Planeswalker"}
URZA_PW = {"name": "Urza, Planeswalker", "types": ["planeswalker"], "loyalty": 7, "color_indicator": ["W", "U"]}


def md(question, cards=(MISHRA, ENGINE), melded=LOST, **kw):
    return {"question": question, "cards": list(cards), "melded": melded, **kw}


MELD = [
    # 712.8g + 202.3c: Urza, Planeswalker's mana value is 3 + 5
    ("md: Urza, Planeswalker mana value 8", MD, md("characteristics", (URZA, STONES), URZA_PW),
     {"characteristics.mana_value": 8, "characteristics.loyalty": 7, "characteristics.colors": ["W", "U"]},
     ["712.8g", "202.3c"]),
    # 712.8g: one object, two cards
    ("md: one object of two cards", MD, md("characteristics"), {"characteristics.objects": 1, "characteristics.cards": 2},
     ["712.8g"]),
    # 712.8b: a meld card on the stack has its front face only
    ("md: on the stack, front face", MD, md("characteristics", zone="stack", melded_now=False),
     {"characteristics.name": "Mishra, Claimed by Gix", "characteristics.mana_value": 4}, ["712.8b"]),
    # 712.8a + 712.4b: in the graveyard, front face only
    ("md: The Mightstone and Weakstone in the graveyard", MD, md("characteristics", (STONES,), URZA_PW, zone="graveyard"),
     {"characteristics.mana_value": 5, "characteristics.types": ["artifact"]}, ["712.8a", "712.4b"]),
    # 701.42a + 712.14c + 400.7: melding makes one new object; counters and Auras don't carry over
    ("md: counters don't carry over", MD, md("meld", (dict(URZA, plus1_counters=2, attached=["Holy Strength"]), STONES),
                                              URZA_PW), {"melded": True, "plus1_counters": 0}, ["701.42a", "400.7"]),
    # 508.3a: Mishra, Lost to Phyrexia enters attacking: no attack trigger, one enters trigger
    ("md: enters attacking", MD, md("meld", enters_attacking=True), {"attack_triggers": 0, "enter_triggers": 1},
     ["508.3a", "712.14c"]),
    # 701.42b + 701.42c: a token can't be melded; the cards stay in exile
    ("md: token can't meld", MD, md("meld", (MISHRA, dict(ENGINE, token=True))), {"melded": False, "zone": "exile"},
     ["701.42b", "701.42c"]),
    # 701.42b: cards of different pairs can't be melded
    ("md: wrong pair", MD, md("meld", (MISHRA, STONES)), {"melded": False}, ["701.42b"]),
    # 712.21 + 712.21e: dies: one object, two cards
    ("md: dies", MD, md("leaves"), {"objects_left": 1, "cards_moved": 2}, ["712.21", "712.21e"]),
    # 712.21a: put into the library: owner orders them without revealing
    ("md: to the library", MD, md("leaves", destination="library"), {"owner_orders": True, "zone": "library"},
     ["712.21a"]),
    # 712.21c + 712.14: flickered: both return, front faces up, not melded
    ("md: flicker", MD, md("flicker"), {"permanents_after": 2, "melded_after_return": False, "face_up": "front"},
     ["712.21c", "712.14"]),
    # 712.8d: a meld card on the battlefield, not melded: its front face
    ("md: unmelded on the battlefield", MD, md("characteristics", (ENGINE,), melded_now=False),
     {"characteristics.name": "Phyrexian Dragon Engine", "characteristics.mana_value": 3}, ["712.8d"]),
    # 712.4c: transform instructions are ignored
    ("md: can't transform", MD, md("transform"), {"transforms": False}, ["712.4c"]),
    # 701.27g: a melded permanent isn't a transformed permanent
    ("md: not a transformed permanent", MD, md("transform"), {"is_transformed_permanent": False}, ["701.27g"]),
    # 707.8 + 712.8g: a copy of a melded permanent has mana value 0
    ("md: copy has mana value 0", MD, md("copy"), {"copy.mana_value": 0, "copy.name": "Mishra, Lost to Phyrexia",
                                                    "original_mana_value": 7}, ["707.8", "712.8g"]),
    # 712.16: can't be turned face down
    ("md: can't be turned face down", MD, md("turn-face-down"), {"turned_face_down": False}, ["712.16"]),
    # 712.19: the combined back face may be named
    ("md: name the back face", MD, md("name-a-card", chosen_name="Mishra, Lost to Phyrexia"), {"valid": True},
     ["712.19"]),
    # 712.5 + 701.42b: Urza melds with The Mightstone and Weakstone, not with Phyrexian Dragon Engine
    ("md: pairs", MD, md("pair", (URZA, STONES, ENGINE), URZA_PW, other="Phyrexian Dragon Engine"),
     {"counterpart": "The Mightstone and Weakstone", "can_meld": False}, ["712.5", "701.42b"]),
    # 603.4: the meld trigger's condition fails as it resolves: nothing happens
    ("md: intervening if fails", MD, md("meld-trigger", condition_still_true=False), {"does_anything": False}, ["603.4"]),
]

VALKI = {"name": "Valki, God of Lies", "types": ["creature"], "mana_cost": "{1}{B}", "power": 2, "toughness": 1}
TIBALT = {"name": "Tibalt, Cosmic Impostor", "types": ["planeswalker"], "mana_cost": "{5}{B}{R}", "loyalty": 5}
AWAKEN = {"name": "Valakut Awakening", "types": ["instant"], "mana_cost": "{2}{R}"}
STONEFORGE = {"name": "Valakut Stoneforge", "types": ["land"], "mana_cost": None}
MAMMOTH = {"name": "Kazandu Mammoth", "types": ["creature"], "mana_cost": "{1}{G}{G}", "power": 3, "toughness": 3}
VALLEY = {"name": "Kazandu Valley", "types": ["land"], "mana_cost": None}
INVASION = {"name": "Invasion of Kylem", "types": ["battle"], "mana_cost": "{2}{R}{W}"}
TAG = {"name": "Valor's Reach Tag Team", "types": ["sorcery"], "mana_cost": None}


def mf(question, front, back, **kw):
    return {"question": question, "front": front, "back": back, **kw}


MODAL = [
    # 712.12 + 305.1: play the land face: special action, back face up
    ("mdfc: play Valakut Stoneforge", MDFC, mf("play-land", AWAKEN, STONEFORGE, choose="back"),
     {"can_play": True, "face_up": "back", "uses_stack": False}, ["712.12", "305.1"]),
    # 305.2b: no land play left
    ("mdfc: no land play left", MDFC, mf("play-land", AWAKEN, STONEFORGE, choose="back", lands_played=1),
     {"can_play": False}, ["305.2b"]),
    # 712.12: an instant face can't be played as a land
    ("mdfc: instant face isn't a land", MDFC, mf("play-land", AWAKEN, STONEFORGE, choose="front"),
     {"can_play": False}, ["712.12"]),
    # 712.11b: cast the back face, Tibalt; mana value 7 on the stack and battlefield
    ("mdfc: cast Tibalt", MDFC, mf("cast", VALKI, TIBALT, choose="back"),
     {"can_cast": True, "on_stack.mana_value": 7, "on_battlefield.loyalty": 5, "mana_value_before": 2},
     ["712.11b", "712.8f", "712.13"]),
    # 712.11c: only the chosen face is evaluated: even mana value prohibition stops Valki (2) not Tibalt (7)
    ("mdfc: Void Winnower stops Valki", MDFC, mf("cast", VALKI, TIBALT, choose="front", prohibition="even-mana-value"),
     {"can_cast": False}, ["712.11c"]),
    ("mdfc: Void Winnower doesn't stop Tibalt", MDFC, mf("cast", VALKI, TIBALT, choose="back",
                                                        prohibition="even-mana-value"), {"can_cast": True}, ["712.11c"]),
    # 712.8a: in the hand only the front face: Valakut Awakening isn't a land card
    ("mdfc: in hand it is an instant", MDFC, mf("characteristics", AWAKEN, STONEFORGE),
     {"characteristics.types": ["instant"], "characteristics.mana_value": 3}, ["712.8a"]),
    # 712.8f + 202.3a: Kazandu Valley on the battlefield: a land with mana value 0
    ("mdfc: Kazandu Valley mana value 0", MDFC, mf("characteristics", MAMMOTH, VALLEY, zone="battlefield", face_up="back"),
     {"characteristics.types": ["land"], "characteristics.mana_value": 0}, ["712.8f", "202.3a"]),
    # 712.8a: in the graveyard Emeria's-Call-like front: mana value of the front
    ("mdfc: graveyard front mana value", MDFC, mf("characteristics", VALKI, TIBALT, zone="graveyard"),
     {"characteristics.mana_value": 2, "characteristics.name": "Valki, God of Lies"}, ["712.8a"]),
    # 712.14b: front face not a permanent card: stays where it is
    ("mdfc: Valakut Awakening can't be put onto the battlefield", MDFC,
     mf("put-onto-battlefield", AWAKEN, STONEFORGE, zone="library"), {"enters": False, "zone": "library"}, ["712.14b"]),
    # 712.14: put onto the battlefield: front face up
    ("mdfc: put Valki onto the battlefield", MDFC, mf("put-onto-battlefield", VALKI, TIBALT, zone="graveyard"),
     {"enters": True, "face_up": "front"}, ["712.14"]),
    # 712.9: a modal DFC can transform when instructed
    ("mdfc: transform Kazandu Mammoth", MDFC, mf("transform", MAMMOTH, VALLEY, zone="battlefield"),
     {"transforms": True, "characteristics.name": "Kazandu Valley"}, ["712.9", "712.8f"]),
    # 712.10: transforming into a sorcery face: nothing happens
    ("mdfc: Invasion of Kylem can't transform", MDFC,
     mf("transform", INVASION, TAG, layout="transforming", zone="battlefield"), {"transforms": False}, ["712.10"]),
    # 712.11: a transforming card is cast front face up: its back face can't be chosen
    ("mdfc: transforming back face can't be cast", MDFC,
     mf("cast", {"name": "Delver of Secrets", "types": ["creature"], "mana_cost": "{U}"},
        {"name": "Insectile Aberration", "types": ["creature"], "mana_cost": None}, layout="transforming", choose="back"),
     {"can_cast": False}, ["712.11"]),
    # 712.8d: a transforming card front face up on the battlefield
    ("mdfc: transforming front face up", MDFC,
     mf("characteristics", {"name": "Delver of Secrets", "types": ["creature"], "mana_cost": "{U}", "power": 1,
                            "toughness": 1}, {"name": "Insectile Aberration", "types": ["creature"], "mana_cost": None},
        layout="transforming", zone="battlefield"), {"characteristics.power": 1, "characteristics.mana_value": 1},
     ["712.8d"]),
    # 707.8a: a token copy of the back face up is double-faced, back up
    ("mdfc: token copy of Kazandu Valley", MDFC, mf("token-copy", MAMMOTH, VALLEY, zone="battlefield", face_up="back"),
     {"token_is_double_faced": True, "face_up": "back"}, ["707.8a"]),
    # 712.19 + 712.8a: may name the back face; the card in hand doesn't have it
    ("mdfc: name the back face", MDFC, mf("name-a-card", VALKI, TIBALT, chosen_name="Tibalt, Cosmic Impostor"),
     {"valid": True, "has_chosen_name": False}, ["712.19", "712.8a"]),
    # 712.8e + 202.3b: a transforming back face uses the front's mana cost
    ("mdfc: Insectile Aberration mana value 1", MDFC,
     mf("characteristics", {"name": "Delver of Secrets", "types": ["creature"], "mana_cost": "{U}"},
        {"name": "Insectile Aberration", "types": ["creature"], "mana_cost": None}, layout="transforming",
        zone="battlefield", face_up="back"), {"characteristics.mana_value": 1}, ["712.8e", "202.3b"]),
]

SOL_RING = {"name": "Sol Ring", "types": ["artifact"], "mana_cost": "{1}", "abilities": ["{T}: Add {C}{C}."]}
THRESHER = {"name": "Combat Thresher", "types": ["artifact", "creature"], "mana_cost": "{7}", "power": 3,
            "toughness": 3, "etb_ability": True}


def cp(question, original, **kw):
    return {"question": question, "original": original, **kw}


COPIES = [
    # 707.2: status and counters aren't copied
    ("cp: Clone of tapped Bears with counters", CP, cp("permanent", dict(BEARS, tapped=True, plus1_counters=2)),
     {"tapped": False, "plus1_counters": 0, "power": 2, "mana_value": 2, "colors": ["G"]}, ["707.2"]),
    # 707.2: an animated Sol Ring's animation isn't copied
    ("cp: animated Sol Ring", CP, cp("permanent", dict(SOL_RING, other_effects=["is a 1/1 artifact creature"])),
     {"types": ["artifact"], "power": None}, ["707.2"]),
    # 707.3: a copy of a Clone copying Serra Angel is Serra Angel
    ("cp: copy of a copy", CP, cp("permanent", {"name": "Clone", "types": ["creature"], "mana_cost": "{3}{U}",
                                                "is_copy_of": SERRA}), {"name": "Serra Angel", "power": 4}, ["707.3"]),
    # 707.9b: copy with 'is an artifact in addition'
    ("cp: artifact in addition", CP, cp("permanent", SERRA, exception={"add_types": ["artifact"]}),
     {"types": ["creature", "artifact"], "name": "Serra Angel"}, ["707.9b"]),
    # 707.9a: copy that gains an ability
    ("cp: gains an ability", CP, cp("permanent", BEARS, exception={"gains": ["flying"]}), {"abilities": ["flying"]},
     ["707.9a"]),
    # 707.9d: an effect setting P/T doesn't copy the P/T characteristic-defining ability
    ("cp: set P/T over a CDA", CP, cp("permanent", {"name": "Plague Rats", "types": ["creature"], "mana_cost": "{2}{B}",
                                                    "abilities": ["power and toughness equal to the number of rats"]},
                                      exception={"set_power": 7, "set_toughness": 7, "original_has_cda": True}),
     {"power": 7, "abilities": []}, ["707.9d", "707.9b"]),
    # 708.2: a token copy of a face-down permanent is a face-up 2/2
    ("cp: token copy of a face-down creature", CP,
     cp("token", dict({k: v for k, v in ANGEL.items() if k != "morph_cost"}, face_down=True)),
     {"power": 2, "name": None, "can_turn_face_up": False, "mana_value": 0}, ["708.2"]),
    # 707.8a + 202.3b: token copy of Insectile Aberration: double-faced, back up, mana value 0
    ("cp: token copy of a transformed DFC", CP, cp("token", {"name": "Insectile Aberration", "types": ["creature"],
                                                            "power": 3, "toughness": 2, "double_faced": True,
                                                            "face_up": "back", "color_indicator": ["U"]}),
     {"double_faced": True, "face": "back", "mana_value": 0}, ["707.8a", "202.3b"]),
    # 707.8 + 202.3b: Clone copying a back face: mana value 0
    ("cp: Clone of a back face", CP, cp("permanent", {"name": "Insectile Aberration", "types": ["creature"], "power": 3,
                                                      "toughness": 2, "double_faced": True, "face_up": "back"}),
     {"mana_value": 0, "double_faced": False}, ["707.8", "202.3b"]),
    # 718.3d: copy of a prototyped permanent
    ("cp: prototyped", CP, cp("permanent", {"name": "Combat Thresher", "types": ["artifact", "creature"],
                                            "mana_cost": "{2}{W}", "power": 1, "toughness": 1, "prototyped": True}),
     {"power": 1, "mana_value": 3}, ["718.3d"]),
    # 707.9c: a copy effect that doesn't copy the name: the copy keeps its own
    ("cp: name not copied", CP, cp("permanent", SERRA, exception={"keep_name": True}, copier_name="Vesuvan Doppelganger"),
     {"name": "Vesuvan Doppelganger", "power": 4}, ["707.9c"]),
    # 707.5: enters as a copy: the copied ETB ability triggers
    ("cp: ETB of the copy triggers", CP, cp("permanent", THRESHER), {"etb_triggers": True, "mana_value": 7}, ["707.5"]),
    # 707.6: 'as enters' choices aren't copied
    ("cp: as-enters choice not copied", CP, cp("permanent", dict(BEARS, as_enters_choice="Elves"), copier_choice="Goblins"),
     {"copies_choice": False}, ["707.6"]),
    # 709.5d + 709.5b: token copy of a Room: both halves, both locked
    ("cp: token copy of a Room", CP, cp("token", {"name": "Walk-In Closet // Forgotten Cellar", "types": ["enchantment"],
                                                 "subtypes": ["Room"], "mana_cost": None, "room_unlocked": ["left"]}),
     {"unlocked": [], "mana_value": 0}, ["709.5d", "709.5b"]),
    # 707.10 + 707.10c: copy of Lightning Bolt: not cast, new target allowed
    ("cp: copy Lightning Bolt", CP, cp("spell", dict(BOLT, targets=["Bears"]), may_choose_new_targets=True,
                                       new_targets=["opponent"]),
     {"copy_is_cast": False, "cast_triggers": False, "targets": ["opponent"], "colors": ["R"]}, ["707.10", "707.10c"]),
    # 707.10: X is copied
    ("cp: X copied", CP, cp("spell", {"name": "Fireball", "types": ["sorcery"], "mana_cost": "{X}{R}", "x": 6}),
     {"x": 6}, ["707.10"]),
    # 700.2g: modes copied, can't be changed
    ("cp: modes copied", CP, cp("spell", {"name": "Charm", "types": ["instant"], "mana_cost": "{U}", "modes": ["draw"]}),
     {"modes": ["draw"], "may_change_modes": False}, ["700.2g", "707.10"]),
    # 707.10: kicked is copied
    ("cp: kicked copied", CP, cp("spell", {"name": "Burst Lightning", "types": ["instant"], "mana_cost": "{R}",
                                           "kicked": True}), {"kicked": True}, ["707.10"]),
    # 707.12: casting a copy: it is cast
    ("cp: cast a copy", CP, cp("cast-copy", BOLT), {"copy_is_cast": True, "cast_triggers": True}, ["707.12"]),
    # 707.10a: the resolved copy ceases to exist
    ("cp: copy ceases to exist", CP, cp("copy-resolves", BOLT), {"ceases_to_exist": True}, ["707.10a"]),
    # 707.10f + 111.13: copy of a permanent spell becomes a token, not 'created'
    ("cp: copy of a creature spell", CP, cp("copy-resolves", dict(BEARS, permanent_spell=True)),
     {"becomes": "token", "counts_as_created": False}, ["707.10f", "111.13"]),
    # 707.9b Example: Copy Artifact "except it's an enchantment in addition to its other types" copying Juggernaut:
    # "its types are now artifact, creature, and enchantment" (the exception as printed)
    ("cp: exception as printed adds a type", CP, cp("permanent", {"name": "Juggernaut", "types": ["artifact", "creature"],
                                                                   "mana_cost": "{4}", "power": 5, "toughness": 3},
                                                    exception={"text": "except it's an enchantment in addition to its other types"}),
     {"types": ["artifact", "creature", "enchantment"], "power": 5}, ["707.9b"]),
    # 707.9d Example: Quicksilver Gargantuan "except it's 7/7" copying Tarmogoyf: "It will be 7/7", no CDA
    ("cp: exception as printed sets 7/7", CP, cp("permanent", {"name": "Tarmogoyf", "types": ["creature"], "mana_cost": "{1}{G}",
                                                              "power": 4, "toughness": 5},
                                                 exception={"text": "except it's 7/7", "original_has_cda": True}),
     {"power": 7, "toughness": 7, "has_cda": False}, ["707.9b", "707.9d"]),
    # 707.3 Example: Vesuvan Doppelganger "doesn't copy that creature's color and it has '...'": blue, with the ability
    ("cp: exception keeps its own colour and gains", CP,
     cp("permanent", {"name": "Runeclaw Bear", "types": ["creature"], "mana_cost": "{1}{G}", "power": 2, "toughness": 2},
        copier_mana_cost="{3}{U}{U}", exception={"text": "except it doesn't copy that creature's color and it has "
                                                         "\"At the beginning of your upkeep, you may have this creature "
                                                         "become a copy of target creature.\""}),
     {"colors": ["U"], "name": "Runeclaw Bear", "mana_value": 2}, ["707.9c", "707.9a"]),
    # 707.5 Example: a Clone of Skyshroud Behemoth "will also enter the battlefield tapped with two fade counters"
    ("cp: copied enters-with abilities apply", CP,
     cp("permanent", {"name": "Skyshroud Behemoth", "types": ["creature"], "mana_cost": "{5}{G}{G}", "power": 10,
                      "toughness": 10, "enters_with": [{"kind": "fade", "count": 2}], "enters_tapped": True}),
     {"tapped": True, "counters": {"fade": 2}}, ["707.5", "614.1c"]),
    # 707.10 Example (Fork, "except that the copy is red"): the copy of the green Emerald Charm is red
    ("cp: spell copy exception colour", CP, cp("spell", {"name": "Emerald Charm", "types": ["instant"], "mana_cost": "{G}",
                                                         "modes": ["untap target permanent"]},
                                               exception={"text": "except that the copy is red"}),
     {"colors": ["R"], "modes": ["untap target permanent"], "copy_is_cast": False}, ["707.10", "707.9b"]),
    # 707.12a: "choose individually, for each of those objects, whether or not to cast it"
    ("cp: may cast each copy", CP, cp("cast-copy", {"name": "Opt", "types": ["instant"], "mana_cost": "{U}"},
                                      copies=2, cast_choices=[True, False]),
     {"choice_per_copy": True, "copies_cast": 1, "not_cast_cease_to_exist": True}, ["707.12a", "707.10a"]),
    # 707.10g: a copy of a double-faced permanent spell resolves into a double-faced token
    ("cp: copy of a transforming DFC spell", CP, cp("copy-resolves", {"name": "Delver of Secrets", "types": ["creature"],
                                                                      "mana_cost": "{U}", "permanent_spell": True,
                                                                      "double_faced": True}),
     {"becomes": "token", "double_faced": True, "face": "front"}, ["707.10g", "707.10f"]),
]

FIRE = {"name": "Fire", "types": ["instant"], "mana_cost": "{1}{R}"}
ICE = {"name": "Ice", "types": ["instant"], "mana_cost": "{1}{U}"}
TURN = {"name": "Turn", "types": ["instant"], "mana_cost": "{2}{U}"}
BURN = {"name": "Burn", "types": ["instant"], "mana_cost": "{1}{R}"}
BEAST = {"name": "Lovestruck Beast", "types": ["creature"], "mana_cost": "{2}{G}", "power": 5, "toughness": 5}
HEART = {"name": "Heart's Desire", "types": ["sorcery"], "mana_cost": "{G}"}


def sp(question, left=FIRE, right=ICE, **kw):
    return {"question": question, "left": left, "right": right, **kw}


SPLIT = [
    # 709.4b + 202.3d: Fire // Ice in hand: mana value 4, red and blue
    ("sp: Fire // Ice in hand", SP, sp("characteristics"),
     {"characteristics.mana_value": 4, "characteristics.colors": ["U", "R"]}, ["709.4b", "202.3d"]),
    # 709.3b: on the stack only Fire: mana value 2, red
    ("sp: casting Fire", SP, sp("cast", cast_as="left"), {"on_stack.mana_value": 2, "on_stack.colors": ["R"]},
     ["709.3b", "202.3d"]),
    # 709.3a: a 'mana value 4 or more' prohibition doesn't stop casting Fire
    ("sp: only the half is evaluated", SP, sp("cast", cast_as="left", prohibition="mana-value-4-or-more"),
     {"can_cast": True}, ["709.3a"]),
    # 709.2: one card
    ("sp: one card", SP, sp("card-count"), {"cards": 1}, ["709.2"]),
    # 709.4a: one name, not both
    ("sp: naming", SP, sp("name-a-card", chosen_name="Ice"), {"may_name_both": False, "has_chosen_name": True},
     ["709.4a"]),
    # 702.102c + 709.4d: fused Turn // Burn: total {3}{U}{R}, mana value 5
    ("sp: fused cost", SP, sp("cast", TURN, BURN, layout="fuse", cast_as="fused"),
     {"can_cast": True, "on_stack.mana_value": 5}, ["702.102c", "709.4d"]),
    # 702.102d: fused resolves left then right
    ("sp: fused order", SP, sp("resolves", TURN, BURN, layout="fuse", cast_as="fused"), {"can_cast": True},
     ["702.102d"]),
    # 702.102a: fuse only from the hand
    ("sp: no fuse from the graveyard", SP, sp("cast", TURN, BURN, layout="fuse", cast_as="fused", zone="graveyard"),
     {"can_cast": False}, ["702.102a"]),
    # 709.4d: a fused spell's mana value 5 is prohibited by 'mana value 4 or more'
    ("sp: fused spell evaluated whole", SP, sp("cast", TURN, BURN, layout="fuse", cast_as="fused",
                                                prohibition="mana-value-4-or-more"), {"can_cast": False}, ["709.4d"]),
    # 709.3: without fuse only one half can be cast
    ("sp: no fuse, no both halves", SP, sp("cast", cast_as="fused"), {"can_cast": False}, ["709.3"]),
    # 715.2c: an adventurer card is one card
    ("sp: adventurer is one card", SP, sp("card-count", BEAST, HEART, layout="adventure"), {"cards": 1}, ["715.2c"]),
    # 709.4 + 202.3d: in the graveyard mana value 4
    ("sp: graveyard mana value", SP, sp("characteristics", zone="graveyard"), {"characteristics.mana_value": 4},
     ["709.4b"]),
    # 707.10 + 709.4d: copy of a fused spell is fused
    ("sp: copy fused", SP, sp("copy", TURN, BURN, layout="fuse", cast_as="fused"),
     {"copy_is_fused": True, "copy_is_cast": False}, ["707.10", "709.4d"]),
    # 715.3b + 715.3d: Heart's Desire resolves: exiled, Beast castable later
    ("sp: adventure resolves", SP, sp("resolves", BEAST, HEART, layout="adventure", cast_as="adventure"),
     {"zone_after": "exile", "may_cast_creature_later": True, "may_cast_adventure_later": False,
      "on_stack.mana_value": 1}, ["715.3b", "715.3d"]),
    # 701.6a: a countered Adventure goes to the graveyard
    ("sp: adventure countered", SP, sp("countered", BEAST, HEART, layout="adventure", cast_as="adventure"),
     {"zone_after": "graveyard", "may_cast_creature_later": False}, ["701.6a"]),
    # 715.4: in the hand an adventurer is only the creature
    ("sp: adventurer in hand", SP, sp("characteristics", BEAST, HEART, layout="adventure"),
     {"characteristics.types": ["creature"], "characteristics.mana_value": 3}, ["715.4"]),
    # 715.3c + 704.5e: a copy of an Adventure is an Adventure and ceases to exist
    ("sp: copy an Adventure", SP, sp("copy", BEAST, HEART, layout="adventure", cast_as="adventure"),
     {"copy_is_adventure": True, "copy_remains": False}, ["715.3c", "704.5e"]),
    # 715.2b: a Clone of Lovestruck Beast has the Adventure
    ("sp: copy an adventurer", SP, sp("copy-permanent", BEAST, HEART, layout="adventure"),
     {"copy_has_adventure": True, "characteristics.power": 5}, ["715.2b"]),
    # 715.5: may name the Adventure
    ("sp: name the Adventure", SP, sp("name-a-card", BEAST, HEART, layout="adventure", chosen_name="Heart's Desire"),
     {"valid": True, "has_chosen_name": False}, ["715.5"]),
]


from tests.reasoning.questions_sba import SBA  # noqa: E402  (kept apart: module size)

ALL = FACE_DOWN + MELD + MODAL + COPIES + SPLIT + SBA


def get(out, path):
    for part in path.split("."):
        out = out[int(part)] if isinstance(out, list) else out[part]
    return out


def assert_answer(book, mechanic, situation, expected, rules):
    """One question's answer as a judge checks it: the expected outcome, every rule it must cite in
    the trace, and each step cited with its text of the book's edition."""
    from kb.reasoning.catalog import ask
    result = ask(book, mechanic, situation)
    assert {k: get(result["outcome"], k) for k in expected} == expected, result["outcome"]
    traced = [s["rule"] for s in result["trace"]]
    assert [r for r in rules if r not in traced] == [], traced
    cited = {c.get("rule") for c in result["citations"]}
    assert all(s["rule"] in cited and s["text_en"] and s["edition"] == book.edition for s in result["trace"])
