"""State-based action questions (CR 704) for the new question types; see questions_new.py."""
from __future__ import annotations

SB = "state-based-actions"


def P(name, **kw):
    return {"name": name, **kw}


SBA = [
    # 704.5g: lethal damage
    ("sb: lethal damage", SB, {"permanents": [P("Grizzly Bears", power=2, toughness=2, damage=2)]},
     {"permanents.0.zone": "graveyard", "permanents.0.destroyed": True}, ["704.5g"]),
    # 704.5h: deathtouch damage
    ("sb: deathtouch", SB, {"permanents": [P("Craw Wurm", power=6, toughness=4, damage=1, deathtouch_damage=True)]},
     {"permanents.0.destroyed": True}, ["704.5h"]),
    # 702.12b: indestructible ignores lethal damage
    ("sb: indestructible", SB, {"permanents": [P("Golem", power=3, toughness=3, damage=5, indestructible=True)]},
     {"permanents.0.survives": True}, ["702.12b"]),
    # 704.5f: toughness 0: indestructible doesn't help
    ("sb: zero toughness", SB, {"permanents": [P("Savannah Lions", power=0, toughness=0, indestructible=True)]},
     {"permanents.0.zone": "graveyard", "permanents.0.destroyed": False}, ["704.5f"]),
    # 701.19a: regeneration replaces lethal-damage destruction
    ("sb: regeneration", SB, {"permanents": [P("Drudge Skeletons", power=1, toughness=1, damage=2,
                                              regeneration_shield=True)]},
     {"permanents.0.survives": True, "permanents.0.tapped": True, "permanents.0.damage": 0}, ["701.19a", "704.5g"]),
    # 704.5f: regeneration can't replace 0 toughness
    ("sb: regeneration vs 0 toughness", SB, {"permanents": [P("Drudge Skeletons", power=0, toughness=0,
                                                            regeneration_shield=True)]},
     {"permanents.0.survives": False}, ["704.5f"]),
    # 704.5j: legend rule; the opponent's copy is unaffected
    ("sb: legend rule", SB, {"permanents": [P("Urza", supertypes=["legendary"], power=2, toughness=4),
                                            P("Urza", supertypes=["legendary"], power=2, toughness=4, indestructible=True),
                                            P("Urza", controller="opponent", supertypes=["legendary"], power=2,
                                              toughness=4)]},
     {"permanents.0.survives": True, "permanents.1.zone": "graveyard", "permanents.2.survives": True}, ["704.5j"]),
    # 708.2: face-down permanents have no name: no legend rule
    ("sb: face-down legends", SB, {"permanents": [P("", supertypes=["legendary"], face_down=True, power=2, toughness=2),
                                                  P("", supertypes=["legendary"], face_down=True, power=2, toughness=2)]},
     {"permanents.0.survives": True, "permanents.1.survives": True}, ["704.5j", "708.2"]),
    # 704.5j + 707.2: a Clone copying a legend
    ("sb: Clone of a legend", SB, {"permanents": [P("Mishra", supertypes=["legendary"], power=3, toughness=5),
                                                  P("Mishra", supertypes=["legendary"], power=3, toughness=5,
                                                    copy_of="Mishra")], "legend_keep": "Mishra"},
     {"permanents.1.zone": "graveyard"}, ["704.5j", "707.2"]),
    # 120.3c + 704.5i + 712.21: 3 damage to melded Urza with 3 loyalty
    ("sb: melded planeswalker", SB, {"permanents": [P("Urza, Planeswalker", types=["planeswalker"], loyalty=3,
                                                      damage_dealt_to_planeswalker=3, cards=2)]},
     {"permanents.0.loyalty": 0, "permanents.0.zone": "graveyard", "permanents.0.cards": 2},
     ["120.3c", "704.5i", "712.21"]),
    # 704.5q: counters cancel
    ("sb: counters", SB, {"permanents": [P("Grizzly Bears", power=2, toughness=2, plus1_counters=2, minus1_counters=3)]},
     {"permanents.0.plus1_counters": 0, "permanents.0.minus1_counters": 1, "permanents.0.toughness": 1}, ["704.5q"]),
    # 704.3 + 704.5f: a 0/0 with a +1/+1 and a -1/-1 counter dies in the same check
    ("sb: 0/0 with both counters", SB, {"permanents": [P("Ooze", power=0, toughness=0, plus1_counters=1,
                                                         minus1_counters=1)]},
     {"permanents.0.zone": "graveyard"}, ["704.3", "704.5f"]),
    # 704.5d + 111.7: a token that died ceases to exist at the next check
    ("sb: token dies", SB, {"permanents": [P("Soldier", power=1, toughness=1, damage=1, token=True)]},
     {"permanents.0.zone": "ceased to exist", "checks_with_actions": 2}, ["704.5d", "111.7"]),
    # 704.5m: the Aura goes in the next check
    ("sb: Aura after the creature dies", SB,
     {"permanents": [P("Savannah Lions", power=3, toughness=3, damage=3),
                     P("Holy Strength", types=["enchantment"], attachment="aura", attached_to="Savannah Lions")]},
     {"permanents.1.zone": "graveyard", "checks_with_actions": 2}, ["704.5m", "704.3"]),
    # 704.5m + 702.16c: protection makes an Aura fall off
    ("sb: protection", SB, {"permanents": [P("Bears", power=4, toughness=3),
                                           P("Unholy Strength", types=["enchantment"], attachment="aura",
                                             attached_to="Bears", attachment_illegal="protection")]},
     {"permanents.1.zone": "graveyard", "permanents.0.survives": True}, ["704.5m", "702.16c"]),
    # 704.5n + 301.5c: Equipment on a noncreature becomes unattached and stays
    ("sb: Equipment unattached", SB, {"permanents": [P("Mishra's Foundry", types=["land"]),
                                                     P("Sword", types=["artifact"], attachment="equipment",
                                                       attached_to="Mishra's Foundry", attachment_illegal="not-a-creature")]},
     {"permanents.1.zone": "battlefield", "permanents.1.attached_to": None}, ["704.5n", "301.5c"]),
    # 704.5a + 104.4a: both at 0 life: draw
    ("sb: draw", SB, {"players": [{"name": "you", "life": 0}, {"name": "opponent", "life": 0}]},
     {"players.0.loses": True, "players.1.loses": True, "draw": True}, ["704.5a", "104.4a"]),
    # 704.5c: ten poison counters
    ("sb: poison", SB, {"players": [{"name": "opponent", "life": 12, "poison": 10}]}, {"players.0.loses": True},
     ["704.5c"]),
    # 704.5b: drew from an empty library
    ("sb: empty library", SB, {"players": [{"name": "you", "life": 3, "drew_from_empty_library": True}]},
     {"players.0.loses": True}, ["704.5b"]),
    # 514.2: "all damage marked on permanents ... is removed and all 'until end of turn' ... effects end" at once, then
    # 514.3a the checks: a 2/2 with 3 damage and Giant Growth's +3/+3 survives the cleanup step as a 2/2
    ("sb: cleanup removes damage as the pump ends", SB,
     {"step": "cleanup", "players": [P("you", hand=9)],
      "permanents": [P("Grizzly Bears", power=2, toughness=2, damage=3,
                       bonuses=[{"source": "Giant Growth", "power": 3, "toughness": 3, "until_end_of_turn": True}])]},
     {"permanents.0.survives": True, "permanents.0.damage": 0, "permanents.0.toughness": 2, "discards.you": 2},
     ["514.1", "514.2", "514.3a"]),
    # 702.79a: persist returns it with a -1/-1 counter "if it had no -1/-1 counters on it"
    ("sb: persist returns", SB, {"permanents": [P("Kitchen Finks", power=3, toughness=2, damage=2, persist=True)]},
     {"permanents.0.zone": "battlefield", "permanents.0.minus1_counters": 1, "permanents.0.returned": "persist"},
     ["704.5g", "702.79a"]),
    # 702.93a: undying doesn't return a creature that had a +1/+1 counter
    ("sb: undying with a +1/+1 counter stays dead", SB,
     {"permanents": [P("Young Wolf", power=1, toughness=1, damage=2, plus1_counters=1, undying=True)]},
     {"permanents.0.zone": "graveyard", "permanents.0.returned": None}, ["702.93a"]),
    # 113.7a / 608.2h: a loyalty ability that took its planeswalker to 0 still resolves after it dies
    ("sb: ability on the stack outlives its source", SB,
     {"permanents": [P("Jace Beleren", types=["planeswalker"], loyalty=0)],
      "stack": [{"ability": "-1: Target player draws a card.", "source": "Jace Beleren"}]},
     {"permanents.0.zone": "graveyard", "stack.0.resolves": True, "stack.0.source_left": True},
     ["704.5i", "113.7a", "608.2h"]),
]
