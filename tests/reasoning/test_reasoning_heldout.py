"""Held-out style questions for the five state-question mechanics, written from the CR 2026-04-17 text.

Each row: an id, the mechanic, a situation filled as a user fills the form, the expected outcome
fields (dotted paths: ``cards.0.manifested``) and the rule numbers an examiner expects the trace to
cite. Quoted CR words next to each row are why the outcome is what it is. None of these repeat a
row of tests/test_reasoning_<mechanic>.py; they are edge cases and combinations.
"""
from __future__ import annotations

import tests.reasoning_fixtures as ROOMS

import pytest

from tests.reasoning_fixtures import MANIFEST_CARDS

# ---------------------------------------------------------------- day / night

DN = "day-night"


def P(name, ability="none", **kw):
    return {"name": name, "ability": ability, **kw}


def S(by="active-player", how="cast"):
    return {"by": by, "how": how}


DAY_NIGHT = [
    # 702.145d "Any time a player controls a permanent with daybound, if it's neither day nor night, it becomes day."
    ("dn: two daybound enter together: day, neither transforms", DN,
     {"event": "permanents-enter", "entering": [P("A", "daybound"), P("B", "daybound")]},
     {"designation": "day", "transformed": [], "changes": ["neither -> day"]}, ["702.145d"]),
    # 731.2a counts spells the active player *cast*; a copy that was cast is a spell cast.
    ("dn: day, only a cast copy: still day", DN,
     {"event": "untap-step", "designation": "day", "previous_turn_spells": [S(how="cast-copy")]},
     {"designation": "day", "spells_counted": 1, "changes": []}, ["731.2", "731.2a"]),
    # 731.2a: one spell by the active player is enough; others' spells don't matter.
    ("dn: day, 1 by active + 3 by others: day", DN,
     {"event": "untap-step", "designation": "day",
      "previous_turn_spells": [S(), S("other-player"), S("other-player"), S("other-player")]},
     {"designation": "day", "spells_counted": 1}, ["731.2a"]),
    # 731.2b + 702.145e "As it becomes day, if this permanent is back face up, transform it" + 731.1a + 503.1a
    ("dn: night, 2 spells, nightbound + 'day/night' trigger", DN,
     {"event": "untap-step", "designation": "night", "previous_turn_spells": [S(), S()],
      "battlefield": [P("Wolf", "nightbound"), P("Sage", day_night_trigger=True)]},
     {"designation": "day", "transformed": ["Wolf"], "changes": ["night -> day"],
      "triggered.0.event": "night becomes day"}, ["731.2b", "702.145e", "731.1a", "502.4", "503.1a"]),
    # 731.2b: two spells of which one is a copy that wasn't cast: only one counts.
    ("dn: night, 2 spells one a non-cast copy + one by other: night", DN,
     {"event": "untap-step", "designation": "night",
      "previous_turn_spells": [S(), S(how="copied-not-cast"), S("other-player")]},
     {"designation": "night", "changes": []}, ["731.2b"]),
    # 731.1 "Other effects can also make it day or night" + 702.145e.
    ("dn: effect makes it day at night: nightbound transforms", DN,
     {"event": "effect", "designation": "night", "becomes": "day", "battlefield": [P("Wolf", "nightbound")]},
     {"designation": "day", "transformed": ["Wolf"], "changes": ["night -> day"]}, ["731.1", "731.1a", "702.145e"]),
    # 731.1a: "day becomes night" is losing the first designation: from neither there is none, no trigger.
    ("dn: effect makes it day from neither: no day/night trigger", DN,
     {"event": "effect", "designation": "neither", "becomes": "day", "battlefield": [P("Sage", day_night_trigger=True)]},
     {"designation": "day", "triggered": []}, ["731.1"]),
    # An effect making it night while it's night changes nothing.
    ("dn: effect makes it night when already night: nothing", DN,
     {"event": "effect", "designation": "night", "becomes": "night", "battlefield": [P("Sage", day_night_trigger=True)]},
     {"designation": "night", "changes": [], "triggered": []}, ["731.1"]),
    # 702.145f "back face up with nightbound and it's day, that player transforms that permanent"
    ("dn: nightbound enters during the day: transforms at once", DN,
     {"event": "permanents-enter", "designation": "day", "entering": [P("Wolf", "nightbound")]},
     {"designation": "day", "transformed": ["Wolf"]}, ["702.145f", "701.27a"]),
    # A non-DFC copy of a daybound face (Clone) still has daybound: 702.145d makes it day.
    ("dn: Clone copying a daybound face at neither: day", DN,
     {"event": "permanents-enter", "entering": [P("Clone", "daybound", double_faced=False)]},
     {"designation": "day", "transformed": []}, ["702.145d"]),
    # 702.145b / 701.27c: as day becomes night the non-DFC copy can't transform: nothing happens.
    ("dn: day->night with a Clone of a daybound face", DN,
     {"event": "untap-step", "designation": "day", "battlefield": [P("Clone", "daybound", double_faced=False),
                                                                     P("Wolf", "daybound")]},
     {"designation": "night", "transformed": ["Wolf"]}, ["731.2a", "702.145b", "701.27c"]),
    # 731.2a team rule: "no player from the previous turn's active team cast a spell"
    ("dn: team, day, a teammate cast 1 spell: day", DN,
     {"event": "untap-step", "designation": "day", "shared_team_turns": True,
      "previous_turn_spells": [S("teammate")]}, {"designation": "day"}, ["731.2a"]),
    # 731.2a without the team option: a teammate isn't the active player.
    ("dn: no team option, 'teammate' spell doesn't count: night", DN,
     {"event": "untap-step", "designation": "day", "previous_turn_spells": [S("teammate")]},
     {"designation": "night"}, ["731.2a"]),
    # 731.1: day stays day when the last daybound permanent leaves.
    # 702.145b "This permanent can't transform except due to its daybound ability" (702.145e for nightbound);
    # a plain double-faced permanent transforms (701.27a); day/night doesn't change.
    ("dn: another effect tries to transform daybound/nightbound permanents", DN,
     {"event": "transform-effect", "designation": "night",
      "battlefield": [P("Wolf", "nightbound"), P("Delver")], "transforming": ["Wolf", "Delver"]},
     {"designation": "night", "transformed": ["Delver"], "changes": []}, ["702.145e", "701.27a"]),
    ("dn: an effect tries to transform a daybound permanent during the day", DN,
     {"event": "transform-effect", "designation": "day", "battlefield": [P("Wolf", "daybound")],
      "transforming": ["Wolf"]}, {"transformed": [], "battlefield": [{"name": "Wolf", "ability": "daybound"}]},
     ["702.145b"]),
    ("dn: last daybound leaves during the day: still day", DN,
     {"event": "permanents-leave", "designation": "day", "battlefield": [P("Wolf", "daybound")], "leaving": ["Wolf"]},
     {"designation": "day", "can_become_neither_again": False}, ["731.1"]),
]

# ---------------------------------------------------------------- double-faced cards

DFC = "double-faced-card"
FRONT = {"name": "Delver of Secrets", "mana_cost": "{U}", "types": "Creature — Human Wizard", "power": 1,
         "toughness": 1}
BACK = {"name": "Insectile Aberration", "mana_cost": "", "types": "Creature — Human Insect", "power": 3,
        "toughness": 2}
MDFC_F = {"name": "Valakut Awakening", "mana_cost": "{2}{R}", "types": "Instant"}
MDFC_B = {"name": "Valakut Stoneforge", "mana_cost": "", "types": "Land"}
XFRONT = {"name": "X Werewolf", "mana_cost": "{X}{G}{G}", "types": "Creature — Human Werewolf", "power": 0,
          "toughness": 0}
INSTANT_BACK = {"name": "Instant Back", "mana_cost": "", "types": "Instant"}


def d(**kw):
    return {"front": FRONT, "back": BACK, **kw}


DFCS = [
    # 712.8a "outside the game or in a zone other than the battlefield or stack ... only ... front face"
    ("dfc: in exile, back face marked up: front only, MV 1", DFC,
     d(question="characteristics", zone="exile", face_up="back"),
     {"characteristics.name": "Delver of Secrets", "characteristics.mana_value": 1}, ["712.8a"]),
    # 712.8e + 202.3e: X is 0 off the stack: back face MV = MV of {X}{G}{G} = 2
    ("dfc: back face up, front cost has X: MV 2", DFC,
     {"front": XFRONT, "back": BACK, "question": "characteristics", "face_up": "back"},
     {"characteristics.mana_value": 2, "characteristics.name": "Insectile Aberration"}, ["712.8e", "202.3b"]),
    # 712.8e "If a permanent is copying the back face ... mana value of that permanent is 0"
    ("dfc: Clone copying a transformed DFC: back chars, MV 0, can't transform", DFC,
     d(question="copy", copy_kind="clone", face_up="back"),
     {"characteristics.name": "Insectile Aberration", "characteristics.mana_value": 0, "can_transform": False},
     ["707.8", "712.8e", "701.27c"]),
    # 707.8a token copy of a front-face-up DFC: double-faced token, front up, MV of front, can transform
    ("dfc: token copy of a front-up DFC", DFC, d(question="copy", copy_kind="token-copy"),
     {"copy_is_double_faced": True, "face_up": "front", "characteristics.mana_value": 1, "can_transform": True},
     ["707.8a", "712.8d"]),
    # 707.8a + 712.10: a token copy whose other face is an instant: transforming does nothing
    ("dfc: token copy, other face an instant: can't transform", DFC,
     {"front": FRONT, "back": INSTANT_BACK, "question": "copy", "copy_kind": "token-copy"},
     {"copy_is_double_faced": True, "can_transform": False}, ["707.8a", "701.27d"]),
    # 712.3 modal DFCs "may have an ability that allows them to transform"; 701.27a DFC permanents transform
    ("dfc: a modal DFC permanent can transform", DFC,
     d(question="transform", layout="modal"), {"transformed": True, "face_up": "back"}, ["701.27a", "712.18"]),
    # 712.14b "modal double-faced card onto the battlefield and its front face isn't a permanent card ... stays"
    ("dfc: MDFC with instant front put onto the battlefield: stays", DFC,
     {"front": MDFC_F, "back": MDFC_B, "layout": "modal", "question": "enter-battlefield"},
     {"enters": False}, ["712.14b"]),
    # 712.13 "same face up that was face up on the stack": cast transformed -> enters transformed
    ("dfc: spell cast transformed resolves back face up", DFC,
     d(question="enter-battlefield", from_zone="stack", face_up="back"),
     {"enters": True, "face_up": "back", "characteristics.mana_value": 1}, ["712.13", "712.8e"]),
    # 712.8f: a modal DFC spell cast as its back face has only the back's characteristics and MV
    ("dfc: MDFC cast as its back face: back MV", DFC,
     {"front": FRONT, "back": dict(BACK, mana_cost="{3}{U}"), "layout": "modal", "question": "cast",
      "zone": "hand", "instruction": "back-face"},
     {"can_cast": True, "face_on_stack": "back", "characteristics.mana_value": 4}, ["712.11b", "712.8f"]),
    # 712.18 + 701.27b: transforming keeps counters/damage/Auras; it's not turning face up or down
    ("dfc: back->front keeps counters, damage and Auras", DFC,
     d(question="transform", face_up="back", counters=3, damage=2, attached=["Rancor"]),
     {"transformed": True, "face_up": "front", "counters": 3, "damage": 2, "attached": ["Rancor"],
      "new_object": False}, ["701.27a", "712.18", "701.27b"]),
    # 712.19 "may choose the name of either face ... but not both": a name of neither face isn't this card
    ("dfc: naming a name that is neither face", DFC,
     d(question="name-a-card", chosen_names=["Delver of Lies"]), {"name_ok": False}, ["712.19"]),
    # 712.15 + 708.2a: a DFC cast face down (effect allows) is a 2/2 nameless spell
    ("dfc: cast face down: 2/2 nameless, MV 0", DFC,
     d(question="cast", zone="hand", instruction="face-down", effect_allows_face_down=True),
     {"can_cast": True, "face_down": True, "characteristics.name": None, "characteristics.mana_value": 0},
     ["712.15", "708.2a"]),
    # 701.27f "does so only if it hasn't transformed or converted since the ability was put onto the stack"
    ("dfc: its own ability tries to transform it after it already transformed", DFC,
     d(question="transform", transform_by="own-ability", transformed_since=True),
     {"transformed": False, "face_up": "front"}, ["701.27f"]),
    ("dfc: its own delayed trigger transforms it (no transform since)", DFC,
     d(question="transform", transform_by="own-delayed-trigger", face_up="back"),
     {"transformed": True, "face_up": "front"}, ["701.27f", "701.27a"]),
    # 712.16: a double-faced permanent can't be turned face down (back face up too)
    ("dfc: turn a transformed DFC face down: nothing happens", DFC,
     d(question="turn-face-down", face_up="back"), {"turned_face_down": False, "face_up": "back"}, ["712.16"]),
]

# ---------------------------------------------------------------- Rooms

RM = "room"
ROOM, NO_TARGET = ROOMS.ROOM, ROOMS.NO_TARGET_ROOM


def r(event, **kw):
    return {"room": kw.pop("room", ROOM), "event": event, **kw}


def unlocks(out):
    return [t["door"] for t in out["triggers"] if t["event"] == "unlock"]


ROOMS = [
    # 116.2m "may pay the mana cost of a locked half ... 'unlock cost' ... special action" (709.5e says the same)
    ("room: unlock action is a special action (116.2m)", RM, r("unlock_action", door="right", mana_pool="{3}{G}{G}"),
     {"legal": True, "unlocked": ["right"], "uses_stack": False}, ["709.5e", "116.2m", "116.1"]),
    # 116.2m / 709.5e "any time they have priority": without priority, no
    ("room: unlock action without priority: illegal", RM,
     r("unlock_action", door="left", timing={"has_priority": False}), {"legal": False, "unlocked": []},
     ["709.5e", "116.2m"]),
    # 709.5e "controls a permanent that has one or more locked halves": fully unlocked -> nothing to unlock
    ("room: unlock action on a fully unlocked Room: illegal", RM,
     r("unlock_action", door="right", unlocked=["left", "right"]), {"legal": False, "unlocked": ["left", "right"]},
     ["709.5e"]),
    # 709.5e coloured cost: {3}{G}{G} can't be paid with five generic-only mana
    ("room: unlock cost needs the colours", RM, r("unlock_action", door="right", mana_pool="{5}"),
     {"legal": False, "unlocked": []}, ["709.5e"]),
    # 709.5b/709.5d: a token copy of a Room with one door unlocked enters with neither door unlocked
    ("room: token copy while one door unlocked: enters locked, no trigger", RM,
     r("token_copy", source_unlocked=["left"]),
     {"unlocked": [], "locked": ["left", "right"], "characteristics_of": [], "triggers": []}, ["709.5b", "709.5d"]),
    # 709.5d: not cast -> no door; Panharmonicon can't add anything as no door is unlocked
    ("room: put onto battlefield with Panharmonicon: nothing triggers", RM,
     r("put_onto_battlefield", enter_trigger_doubler="Panharmonicon"), {"unlocked": [], "triggers": []},
     ["709.5d"]),
    # 707.10 copy keeps the half chosen; 709.5d unlocks it; 709.5h door trigger
    ("room: copy of a left-half spell resolves: left unlocked, trigger", RM, r("spell_copy_resolves", cast_half="left"),
     {"unlocked": ["left"], "characteristics_of": ["Walk-In Closet"]}, ["707.10", "709.5d", "709.5h"]),
    # 709.5f unlock effect from neither; 709.5h trigger once even with Panharmonicon (not an ETB)
    ("room: unlock effect on a Room with nothing unlocked", RM,
     r("unlock_effect", door="right", fully_unlock_triggers=["Dazzling Theater"]),
     {"legal": True, "unlocked": ["right"], "gained": ["right"]}, ["709.5f", "709.5h"]),
    # 709.5i + 603.3d: unlocking the second door with no legal target for its trigger: the door trigger is
    # removed, the Room is still fully unlocked and the 'fully unlock' ability triggers
    ("room: second door unlocked with no legal target: fully unlocked anyway", RM,
     r("unlock_effect", door="right", unlocked=["left"], room=NO_TARGET, fully_unlock_triggers=["Dazzling Theater"]),
     {"unlocked": ["left", "right"], "triggers": [
         {"name": "Forgotten Cellar: when you unlock this door", "door": "right", "times": 1, "put_on_stack": False,
          "event": "unlock"},
         {"name": "Dazzling Theater", "times": 1, "put_on_stack": True, "event": "fully_unlock"}]},
     ["709.5f", "709.5h", "709.5i", "603.3d"]),
    # 709.5c: designations aren't copiable; a locked permanent becoming a copy of a fully unlocked Room stays locked
    ("room: locked permanent becomes a copy of a fully unlocked Room", RM,
     r("becomes_copy", source_unlocked=["left", "right"]), {"unlocked": [], "characteristics_of": []},
     ["709.5b", "709.5c"]),
    # Clone entering as a copy with Panharmonicon: enters with no door unlocked, nothing triggers
    ("room: Clone enters as a copy with Panharmonicon", RM,
     r("enters_as_copy", source_unlocked=["left", "right"], enter_trigger_doubler="Panharmonicon"),
     {"unlocked": [], "triggers": []}, ["709.5b", "709.5d"]),
    # 709.5: a locked half's mana cost doesn't exist: MV counts only unlocked halves (both: combined, 709.4b)
    # 709.3 the half is chosen as it's cast; 709.5d it enters with that half unlocked
    ("room: mana value with only the right door unlocked", RM, r("cast_resolves", cast_half="right"),
     {"mana_value": 5, "characteristics_of": ["Forgotten Cellar"]}, ["709.3", "709.5d", "709.5"]),
    ("room: mana value when fully unlocked", RM, r("unlock_action", door="left", unlocked=["right"]),
     {"mana_value": 8}, ["709.5"]),
    ("room: mana value with no door unlocked", RM, r("put_onto_battlefield"), {"mana_value": 0}, ["709.5"]),
    # 709.5g then 709.5f: a door locked earlier can be unlocked again and triggers again
    ("room: re-unlocking a locked door triggers again", RM, r("unlock_action", door="left", unlocked=["right"]),
     {"legal": True, "unlocked": ["left", "right"], "gained": ["left"]}, ["709.5e", "709.5h"]),
]

# ---------------------------------------------------------------- casting

CA = "cast"
BOLT = {"name": "Lightning Bolt", "mana_cost": "{R}", "types": ["instant"],
        "targets": [{"legal": ["Bear", "opponent"]}]}
BIG = {"name": "Big Spell", "mana_cost": "{3}{R}", "types": ["sorcery"]}
THUNDER = {"name": "Rolling Thunder", "mana_cost": "{X}{R}{R}", "types": ["sorcery"],
           "targets": [{"min": 1, "max": 3, "legal": ["Bear", "Elf", "opponent"]}], "divide": "X"}
CHARM = {"name": "Charm", "mana_cost": "{1}{G}", "types": ["instant"], "modes": 1}
GREEN = {"name": "Green Spell", "mana_cost": "{2}{G}{G}", "types": ["creature"]}

CASTING = [
    # 118.9d + 601.2f: alternative {1}{R} + kicker {2} - {1} reduction = {2}{R}
    ("cast: alternative + additional + reduction", CA,
     {"spell": BIG, "alternative_costs": [{"name": "dash", "mana": "{1}{R}"}],
      "additional_costs": [{"name": "kicker", "mana": "{2}"}],
      "cost_changes": [{"source": "Goblin Electromancer", "kind": "reduction", "mana": "{1}"}], "mana_pool": "{2}{R}"},
     {"legal": True, "total_cost": "{2}{R}"}, ["601.2b", "118.9d", "601.2f", "118.7a", "601.2h"]),
    # 118.7a generic reduction can't touch coloured: {1}{U} - {2} = {U}
    ("cast: generic reduction larger than the generic part", CA,
     {"spell": {"name": "Opt", "mana_cost": "{1}{U}", "types": ["instant"]},
      "cost_changes": [{"source": "x", "kind": "reduction", "mana": "{2}"}], "mana_pool": "{U}"},
     {"legal": True, "total_cost": "{U}"}, ["118.7a", "601.2f"]),
    # 601.2f increases + several reductions: {2}{W} + {1} - {1} - {1} = {1}{W}
    ("cast: one increase and two reductions", CA,
     {"spell": {"name": "W Spell", "mana_cost": "{2}{W}", "types": ["sorcery"]}, "mana_pool": "{1}{W}",
      "cost_changes": [{"source": "Thalia", "kind": "increase", "mana": "{1}"},
                       {"source": "A", "kind": "reduction", "mana": "{1}"},
                       {"source": "B", "kind": "reduction", "mana": "{1}"}]},
     {"legal": True, "total_cost": "{1}{W}"}, ["601.2f", "118.7a"]),
    # 118.7c: {G}{G} off {2}{G}{G} -> {2}; a {G} reduction only takes one G: {2}{G}
    ("cast: coloured reduction within its colour", CA,
     {"spell": GREEN, "cost_changes": [{"source": "x", "kind": "reduction", "mana": "{G}"}], "mana_pool": "{2}{G}"},
     {"legal": True, "total_cost": "{2}{G}"}, ["601.2f"]),
    # 107.3b: cast without paying its mana cost: the only legal X is 0
    ("cast: X spell free, X = 0", CA,
     {"spell": {"name": "Rolling Thunder", "mana_cost": "{X}{R}{R}", "types": ["sorcery"]}, "x": 0,
      "alternative_costs": [{"name": "without paying its mana cost", "mana": ""}]},
     {"legal": True, "total_cost": "{0}"}, ["601.2b", "107.3b", "601.2f"]),
    ("cast: X spell free, X = 3 announced: illegal", CA,
     {"spell": {"name": "Rolling Thunder", "mana_cost": "{X}{R}{R}", "types": ["sorcery"]}, "x": 3,
      "alternative_costs": [{"name": "without paying its mana cost", "mana": ""}]},
     {"legal": False, "failed_step": "601.2b", "spell_zone": "hand"}, ["601.2b", "107.3b", "733.1"]),
    # 601.3 permission from exile (e.g. foretell / adventure) -> legal
    ("cast: from exile with permission", CA,
     {"spell": BOLT, "targets": [["opponent"]], "from_zone": "exile", "permission": True, "mana_pool": "{R}"},
     {"legal": True, "spell_zone": "stack"}, ["601.3", "601.2a"]),
    # 601.3: from the library without permission -> can't begin; nothing rewound
    ("cast: from library without permission", CA,
     {"spell": BOLT, "targets": [["opponent"]], "from_zone": "library", "mana_pool": "{R}"},
     {"legal": False, "began": False, "rewound": False, "spell_zone": "library"}, ["601.3"]),
    # 601.2b: a modal 'choose one' spell with two modes chosen
    ("cast: 'choose one' with two modes", CA,
     {"spell": CHARM, "modes_chosen": ["a", "b"], "mana_pool": "{1}{G}"},
     {"legal": False, "failed_step": "601.2b", "rewound": True}, ["601.2b", "733.1"]),
    # 601.2d: Rolling Thunder X=3 divided 1/1/1 among three targets
    ("cast: divide 3 among 3 targets", CA,
     {"spell": THUNDER, "x": 3, "targets": [["Bear", "Elf", "opponent"]], "division": [1, 1, 1],
      "mana_pool": "{3}{R}{R}"}, {"legal": True, "total_cost": "{3}{R}{R}"}, ["601.2c", "601.2d"]),
    # 601.2d: the division must add up to X
    ("cast: division not adding up", CA,
     {"spell": THUNDER, "x": 3, "targets": [["Bear", "Elf"]], "division": [1, 1], "mana_pool": "{3}{R}{R}"},
     {"legal": False, "failed_step": "601.2d"}, ["601.2d", "733.1"]),
    # 601.3: an odd-MV prohibition stops Bolt (MV 1, no X) before casting begins
    ("cast: odd mana value prohibited, no X", CA,
     {"spell": BOLT, "targets": [["Bear"]], "mana_pool": "{R}",
      "prohibitions": [{"name": "Void Winnower (odd)", "kind": "odd_mana_value"}]},
     {"legal": False, "began": False, "failed_step": "601.3"}, ["601.3"]),
    # 119.4 / 601.2h: paying life equal to the life total is allowed
    ("cast: pay life equal to life total", CA,
     {"spell": BOLT, "targets": [["Bear"]], "mana_pool": "{R}", "life_total": 2,
      "additional_costs": [{"name": "pay 2 life", "life": 2}]}, {"legal": True, "total_life": 2}, ["601.2h"]),
    # 601.2i "whenever you cast" triggers only when the spell becomes cast; Heroic of a non-target doesn't
    ("cast: prowess triggers, heroic of an untargeted creature doesn't", CA,
     {"spell": BOLT, "targets": [["opponent"]], "mana_pool": "{R}",
      "triggers": [{"name": "Prowess", "event": "cast"}, {"name": "Heroic", "event": "becomes_target", "object": "Bear"}]},
     {"legal": True, "triggered": ["Prowess"]}, ["601.2i"]),
    # 118.9a: alternative + alternative (flashback and 'without paying') -> illegal at 601.2b
    ("cast: flashback plus a free-cast alternative", CA,
     {"spell": BOLT, "targets": [["Bear"]], "from_zone": "graveyard", "permission": True,
      "alternative_costs": [{"name": "flashback", "mana": "{R}"}, {"name": "without paying its mana cost", "mana": ""}]},
     {"legal": False, "failed_step": "601.2b", "spell_zone": "graveyard"}, ["118.9a", "601.2b", "733.1"]),
    # 707.10 "a copy of a spell isn't cast": Prowess ('whenever you cast') doesn't trigger
    ("cast: a copy of a spell isn't cast", CA,
     {"spell": BOLT, "copy": "copied", "targets": [["Bear"]], "triggers": [{"name": "Prowess", "event": "cast"}]},
     {"cast": False, "spell_zone": "stack", "triggered": [], "targets": ["Bear"]}, ["707.10"]),
    # 707.12: an effect instructs casting a copy: it follows 601.2a–h then becomes cast; Prowess triggers
    ("cast: casting a copy (707.12) is casting", CA,
     {"spell": BOLT, "copy": "cast-copy", "from_zone": "exile", "targets": [["Bear"]],
      "alternative_costs": [{"name": "without paying its mana cost", "mana": ""}],
      "triggers": [{"name": "Prowess", "event": "cast"}]},
     {"legal": True, "cast": True, "total_cost": "{0}", "triggered": ["Prowess"]}, ["707.12", "601.2i"]),
    # 118.9d: free alternative + kicker {2} -> {2}
    ("cast: free cast plus kicker", CA,
     {"spell": BIG, "alternative_costs": [{"name": "without paying its mana cost", "mana": ""}],
      "additional_costs": [{"name": "kicker", "mana": "{2}"}], "mana_pool": "{2}"},
     {"legal": True, "total_cost": "{2}"}, ["118.9d", "601.2f"]),
]

# ---------------------------------------------------------------- manifest

MF = "manifest"
BEAR, ANGEL = MANIFEST_CARDS["bear"], MANIFEST_CARDS["angel"]
OUTFIT, DELVER = MANIFEST_CARDS["outfitter"], MANIFEST_CARDS["delver"]
ARBOR = {"name": "Dryad Arbor", "types": "Land Creature", "mana_cost": ""}
SORC = {"name": "Lava Axe", "types": "Sorcery", "mana_cost": "{4}{R}"}


def m(question, *cards, **kw):
    return {"question": question, "cards": list(cards), **kw}


MANIFEST = [
    # 701.40a manifesting a land: a 2/2 creature; 701.40b it can't be turned up for a mana cost
    ("mf: manifest a land", MF, m("manifest", {"name": "Forest", "types": "Land", "mana_cost": ""}),
     {"cards.0.manifested": True, "cards.0.characteristics.power": 2, "cards.0.can_turn_face_up_for_mana_cost": False},
     ["701.40a"]),
    # 701.40b "(If ... it doesn't have a mana cost, it can't be turned face up this way.)"
    ("mf: creature card with no mana cost can't turn up", MF, m("turn-face-up", ARBOR),
     {"turned_face_up": False}, ["701.40b"]),
    # 701.40b "This is a special action that doesn't use the stack (see rule 116.2b)"
    ("mf: turning face up is a special action (116.2b)", MF, m("turn-face-up", BEAR),
     {"turned_face_up": True, "uses_stack": False}, ["701.40b", "116.2b", "708.8"]),
    # 701.40c: a manifested morph card may also be turned up for its mana cost
    ("mf: manifested morph card turned up for its mana cost", MF, m("turn-face-up", ANGEL),
     {"turned_face_up": True, "turned_face_up_triggers": True}, ["701.40b", "701.40c"]),
    # 701.40d: a manifested disguise card turned up for its mana cost
    ("mf: manifested disguise card turned up for its mana cost", MF, m("turn-face-up", OUTFIT),
     {"turned_face_up": True}, ["701.40b", "701.40d"]),
    # 702.37e: a creature cast face down with morph is turned up with its morph cost
    ("mf: morph-cast creature turned up with morph", MF,
     m("turn-face-up", ANGEL, how_face_down="cast-with-morph", method="morph"),
     {"turned_face_up": True}, ["702.37e"]),
    # 701.40e + 603.6a: two cards manifested one at a time; each entering triggers 'whenever a creature enters'
    ("mf: two cards, a 'creature enters' ability triggers for each", MF,
     m("manifest", BEAR, SORC, creature_enters_triggers=True),
     {"one_at_a_time": True, "cards.0.creature_enters_triggers": True, "cards.1.creature_enters_triggers": True},
     ["701.40e", "603.6a"]),
    # 701.40f: a face-down card in the library that can't be manifested stays there, not face up
    ("mf: prohibited, card from the library stays face down", MF,
     m("manifest", BEAR, prohibited=True, face_up_in_previous_zone=False),
     {"cards.0.manifested": False, "cards.0.face_up": False}, ["701.40f"]),
    # 701.40g: an effect turning a manifested sorcery face up: revealed, stays face down
    ("mf: effect turns a manifested sorcery face up", MF, m("turn-face-up", SORC, method="effect"),
     {"turned_face_up": False, "revealed": True, "turned_face_up_triggers": False}, ["701.40g"]),
    # 708.9: leaves to the hand: revealed
    ("mf: bounced to the hand: revealed", MF, m("leave-battlefield", BEAR, destination="hand"),
     {"zone": "hand", "revealed": True}, ["708.9"]),
    # 307.4: a flickered manifested sorcery can't return; stays in exile
    ("mf: flicker a manifested sorcery: stays in exile", MF, m("leave-battlefield", SORC, destination="flicker"),
     {"zone": "exile", "returns": False}, ["708.9", "307.4"]),
    # 708.8: turned face up, its ETB ability doesn't trigger; effects still apply
    ("mf: turned face up with an ETB ability and effects on it", MF,
     m("turn-face-up", dict(BEAR, etb_ability=True), continuous_effects=["+1/+1 counter"]),
     {"turned_face_up": True, "etb_triggers": False, "effects_still_apply": True}, ["701.40b", "708.8"]),
    # 712.15 + 701.40b + 712.15a: a manifested DFC with a creature front turned up for the front's mana cost
    ("mf: manifested DFC turned face up: front face", MF, m("turn-face-up", DELVER),
     {"turned_face_up": True, "face": "front", "characteristics.mana_cost": "{U}"}, ["701.40b", "712.15a"]),
    # 712.15a: while face down, a manifested DFC can't transform (asked via the DFC form)
    ("mf: face-down manifested DFC can't transform", DFC,
     d(question="transform", face_down=True), {"transformed": False}, ["712.15a"]),
]

ALL = DAY_NIGHT + DFCS + ROOMS + CASTING + MANIFEST


def _get(out, path):
    for part in path.split("."):
        out = out[int(part)] if isinstance(out, list) else out[part]
    return out


@pytest.mark.parametrize("mechanic,situation,expected,rules", [c[1:] for c in ALL], ids=[c[0] for c in ALL])
def test_heldout(full_kb, mechanic, situation, expected, rules):
    result = full_kb.ask(mechanic, situation)
    out = result["outcome"]
    got = {k: _get(out, k) for k in expected}
    assert got == expected, out
    traced = [s["rule"] for s in result["trace"]]
    assert [x for x in rules if x not in traced] == [], traced


def test_counts_per_mechanic():
    counts = {}
    for row in ALL:
        counts[row[1]] = counts.get(row[1], 0) + 1
    assert all(n >= 10 for n in counts.values()) and len(counts) == 5, counts
