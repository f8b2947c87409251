"""Turning a face-down permanent face up with a spell or ability on the stack: when it may be done
(117.1c: a special action any time you have priority, so in response; 117.2e: never while a spell
resolves) and what the spell that targets it then does to it (its text, read by kb.reasoning.effects),
face up (708.8: the same permanent, effects still apply) against left face down."""
from __future__ import annotations

from kb.reasoning.effects import read, steps
from kb.reasoning.facedown.schema import M
from kb.reasoning.registry import implements

resolve = steps(M, ("damage", "destroy", "bounce", "exile", "lethal"))


@implements("117.1c", "A player may take some special actions any time they have priority", mechanic=M)
def in_response(st, ctx, **_):
    return ("turning it face up is a special action you may take any time you have priority: with a spell on the "
            "stack, in response to it")


@implements("117.2e", "no player has priority while a spell or ability is resolving", mechanic=M)
def not_while_resolving(st, ctx, **_):
    return "no player has priority while the spell resolves: it can't be turned face up in the middle of it"


@implements("718.4", "In every zone except the stack or the battlefield, and while on the stack or the battlefield "
            "when not cast as a prototyped spell, a prototype card has only its normal characteristics", mechanic=M)
def prototype_normal(st, ctx, **_):
    return (f"it wasn't cast prototyped: it has only its normal mana cost {st['card'].get('mana_cost')}; the "
            f"prototype cost {st['card']['prototype_cost']} isn't its mana cost and can't be paid instead")


def timing(ctx, st) -> dict:
    """When the special action may be taken (asked of a permanent that could be turned face up)."""
    ctx.apply("117.1c")
    ctx.apply("117.2e")
    return {"in_response": bool(st["s"]["has_priority"]), "during_resolution": False}


def incoming(ctx, st, after: dict | None) -> dict | None:
    """What the spell or ability on the stack does to it, face up (``after``) and left face down."""
    effects = read(st["s"]["incoming"], "incoming")
    if not effects:
        return None
    damage = st["s"]["damage"]
    down = resolve(ctx, effects, {"name": "the face-down 2/2", "power": 2, "toughness": 2, "damage": damage,
                                  "abilities": list((st["down"] or {}).get("abilities", []))}, source="the spell", field="incoming")
    if after is None:
        return {"damage_marked": down["damage"], "survives": not down["dies"], "survives_face_down": not down["dies"],
                "saved": False}
    up = resolve(ctx, effects, {"name": after["name"] or "", "power": after["power"], "toughness": after["toughness"],
                                "damage": damage, "abilities": list(after["abilities"])}, source="the spell", field="incoming")
    return {"damage_marked": up["damage"], "survives": not up["dies"], "survives_face_down": not down["dies"],
            "saved": not up["dies"] and down["dies"], "destroyed": up["destroyed"]}
