"""Questions pinning the engine mistakes the held-out set (bench/reasoning_heldout_new.json) showed,
each written from the CR 2026-06-19 text of the rule the fix relies on (same shape as
tests/reasoning/questions_new.py: id, mechanic, situation, expected outcome paths, rules to cite)."""
from __future__ import annotations

from tests.reasoning.questions_new import (BURN, CP, FD, FIRE, ICE, MD, SP, STONES, TURN, URZA, URZA_PW, BEARS,
                                           SERRA, BOLT, cp, fd, md, sp)

GIANT = {"name": "Bonecrusher Giant", "types": ["creature"], "mana_cost": "{2}{R}", "power": 4, "toughness": 3}
STOMP = {"name": "Stomp", "types": ["instant"], "mana_cost": "{1}{R}"}
VESUVAN = {"name": "Vesuvan Doppelganger", "types": ["creature"], "mana_cost": "{3}{U}{U}", "power": 0, "toughness": 0}
COPY_ARTIFACT = {"name": "Copy Artifact", "types": ["enchantment"], "mana_cost": "{1}{U}"}
JUGGERNAUT = {"name": "Juggernaut", "types": ["artifact", "creature"], "mana_cost": "{4}", "power": 5, "toughness": 3}


def adv(question, **kw):
    return sp(question, GIANT, STOMP, layout="adventure", **kw)


FIXES = [
    # 117.1a: a noninstant spell only in its caster's main phase with an empty stack; 715.3d: the
    # permission to cast the exiled adventurer doesn't change that (the flag was ignored before)
    ("fix: Bonecrusher Giant from adventure exile on the opponent's turn", SP,
     adv("cast", zone="exile", cast_as="creature", was_adventure=True, own_turn_main_phase=False),
     {"can_cast": False, "mana_value_before": 3}, ["715.3d", "117.1a", "715.4"]),
    ("fix: Bonecrusher Giant from adventure exile in your main phase", SP,
     adv("cast", zone="exile", cast_as="creature", was_adventure=True),
     {"can_cast": True, "on_stack.names": ["Bonecrusher Giant"]}, ["715.3d", "715.4"]),
    # 715.3d: "It can't be cast as an Adventure this way"
    ("fix: Stomp again from adventure exile", SP,
     adv("cast", zone="exile", cast_as="adventure", was_adventure=True), {"can_cast": False}, ["715.3d"]),
    # 117.1a: an instant any time its caster has priority
    ("fix: Fire on the opponent's turn", SP, sp("cast", FIRE, ICE, cast_as="left", own_turn_main_phase=False),
     {"can_cast": True}, ["709.3a"]),
    # 715.3d exiles an Adventure only "as it resolves": a countered one goes to the graveyard
    ("fix: Stomp countered", SP, adv("countered", zone="hand", cast_as="adventure"),
     {"zone_after": "graveyard", "may_cast_creature_later": False}, ["701.6a", "715.3d"]),
    # 707.10 + 709.4d: a fused spell already on the stack is copied fused (it was cast from the
    # hand; the copy isn't cast, so 702.102a's "from their hand" isn't checked again)
    ("fix: copy of a fused Turn // Burn on the stack", SP,
     sp("copy", TURN, BURN, layout="fuse", zone="stack", cast_as="fused"),
     {"copy_is_fused": True, "copy_is_cast": False, "copy.mana_value": 5}, ["707.10", "709.4d"]),
    # 712.5e names the Urza pair; 712.5d the Mishra pair
    ("fix: Urza's pair is the one 712.5e lists", MD, md("pair", (URZA, STONES), URZA_PW),
     {"counterpart": "The Mightstone and Weakstone"}, ["712.5", "712.5e"]),
    ("fix: Mishra's pair is the one 712.5d lists", MD, md("pair"), {"melds_into": "Mishra, Lost to Phyrexia"},
     ["712.5d"]),
    # 708.7: only the ability or rules that made it face down may let it be turned face up
    ("fix: turned face down by an effect, no morph: stays face down", FD,
     fd("turn-face-up", BEARS, via="effect"), {"can_turn_face_up": False, "remains_face_down": True}, ["708.7"]),
    # 707.2 (as modified by its face-down status) + 708.2: a token copy of a face-down permanent
    ("fix: token copy of a manifested Serra Angel", CP, cp("token", dict(SERRA, face_down=True)),
     {"name": None, "power": 2, "can_turn_face_up": False}, ["708.2", "707.2"]),
    # 707.10a refers to 704.5e: the copy of a spell ceases to exist as a state-based action
    ("fix: a copy of Lightning Bolt resolves", CP, cp("copy-resolves", BOLT),
     {"ceases_to_exist": True, "in_graveyard_after": False}, ["707.10a", "704.5e"]),
    # 707.9c + 707.9a + 707.3: Clone copying Vesuvan Doppelganger (a copy of Grizzly Bears that
    # didn't copy colour and gained its upkeep ability) is a blue Grizzly Bears with that ability
    ("fix: Clone copies Vesuvan Doppelganger copying Grizzly Bears", CP,
     cp("permanent", dict(VESUVAN, is_copy_of=BEARS, copy_exceptions=[
         "it doesn't copy that creature's color and it has \"At the beginning of your upkeep, you may have this "
         "creature become a copy of target creature, except it doesn't copy that creature's color and it has "
         "this ability.\""])),
     {"name": "Grizzly Bears", "colors": ["U"], "power": 2}, ["707.3", "707.9c", "707.9a"]),
    # 707.9b: Copy Artifact's "enchantment in addition" is part of its copiable values
    ("fix: Clone copies Copy Artifact copying Juggernaut", CP,
     cp("permanent", dict(COPY_ARTIFACT, is_copy_of=JUGGERNAUT,
                          copy_exceptions=["is an enchantment in addition to its other types"])),
     {"name": "Juggernaut", "types": ["artifact", "creature", "enchantment"]}, ["707.3", "707.9b"]),
]

# 712.5a–g: each pair the CR lists, asked as "which cards meld together"; the answer cites the
# subrule that names the pair (test data copied from the CR 2026-06-19 text of those subrules)
PAIRS = [("712.5a", "Midnight Scavengers", "Graf Rats", "Chittering Host"),
         ("712.5b", "Hanweir Garrison", "Hanweir Battlements", "Hanweir, the Writhing Township"),
         ("712.5c", "Bruna, the Fading Light", "Gisela, the Broken Blade", "Brisela, Voice of Nightmares"),
         ("712.5d", "Phyrexian Dragon Engine", "Mishra, Claimed by Gix", "Mishra, Lost to Phyrexia"),
         ("712.5e", "The Mightstone and Weakstone", "Urza, Lord Protector", "Urza, Planeswalker"),
         ("712.5f", "Argoth, Sanctum of Nature", "Titania, Voice of Gaea", "Titania, Gaea Incarnate"),
         ("712.5g", "Fang, Fearless l’Cie", "Vanille, Cheerful l’Cie", "Ragnarok, Divine Deliverance")]
FIXES += [(f"fix: the {a} pair is named by {rule}", MD,
           {"question": "pair", "cards": [{"name": b, "melds_with": a, "melds_into": into},
                                          {"name": a, "melds_with": b, "melds_into": into}]},
           {"counterpart": a, "melds_into": into}, [rule]) for rule, a, b, into in PAIRS]

# 611.3b: a P/T change from another permanent's static ability lasts only while that permanent is on
# the battlefield; the next check sees the creature without it (the schema could not say this before)
SB = "state-based-actions"
FIXES += [
    ("fix: Lord of Atlantis dies, then the Merfolk it pumped", SB,
     {"permanents": [{"name": "Lord of Atlantis", "power": 2, "toughness": 2, "damage": 2},
                     {"name": "Merfolk of the Pearl Trident", "power": 1, "toughness": 1, "damage": 1,
                      "bonuses": [{"source": "Lord of Atlantis", "power": 1, "toughness": 1}]}]},
     {"checks_with_actions": 2, "permanents.1.zone": "graveyard", "permanents.1.toughness": 1},
     ["704.5g", "611.3b", "704.3"]),
    ("fix: Unholy Strength falls off a creature with protection from black", SB,
     {"permanents": [{"name": "Grizzly Bears", "power": 2, "toughness": 2,
                      "bonuses": [{"source": "Unholy Strength", "power": 2, "toughness": 1}]},
                     {"name": "Unholy Strength", "types": ["enchantment"], "attachment": "aura",
                      "attached_to": "Grizzly Bears", "attachment_illegal": "protection"}]},
     {"permanents.0.power": 2, "permanents.0.toughness": 2, "permanents.0.survives": True,
      "permanents.1.zone": "graveyard"}, ["704.5m", "611.3b"]),
    ("fix: Weakness's -2/-1 with Savannah Lions: 0 toughness, the card keeps its last values", SB,
     {"permanents": [{"name": "Savannah Lions", "power": 2, "toughness": 1,
                      "bonuses": [{"source": "Weakness", "power": -2, "toughness": -1}]},
                     {"name": "Weakness", "types": ["enchantment"], "attachment": "aura",
                      "attached_to": "Savannah Lions"}]},
     {"permanents.0.zone": "graveyard", "permanents.0.toughness": 0}, ["704.5f"]),
]

from tests.reasoning.questions_heldout_more import MORE  # noqa: E402  (kept apart: module size)

FIXES += MORE
