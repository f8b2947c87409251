"""Rooms (CR 709.5): split permanents with a shared type line, their doors and unlocked designations.

The situation is one event happening to one Room: it enters (cast, put onto the battlefield, as a
copy), a door is unlocked (special action or effect) or locked, or an existing permanent becomes a
copy of a Room. ``solve`` computes the designations afterwards, the characteristics that exist,
and which triggered abilities trigger and whether they reach the stack.
"""
from __future__ import annotations

from kb.reasoning.registry import implements
from kb.reasoning.casting.mana import _can_pay, parse_mana, show_mana

KEY = "room"
DOORS = ("left", "right")
ENTERS = ("cast_resolves", "put_onto_battlefield", "enters_as_copy", "token_copy", "spell_copy_resolves")


def _other(door: str) -> str:
    return "right" if door == "left" else "left"


def _fail(state: dict, rule: str, reason: str) -> str:
    state["failed"] = {"rule": rule, "reason": reason}
    return f"not allowed: {reason}"


def _give(state: dict, doors) -> None:
    for d in doors:
        if d not in state["unlocked"]:
            state["unlocked"].append(d)
            state["gained"].append(d)


# ------------------------------------------------------------------ entering the battlefield


@implements("709.3", "chooses which half of a split card they are casting before putting it onto the stack",
            mechanic=KEY)
def half_chosen(state, ctx):
    half = state["half_cast"]
    return f"the {half} half ({state['s']['room'][half]['name']}) was the one chosen as the Room spell was cast"


@implements("707.10", "all decisions made for it", "a copy of a spell isn't cast", mechanic=KEY)
def copy_spell(state, ctx):
    # The choice of which half was cast (709.3) is a decision made for the spell: the copy keeps it.
    state["half_cast"] = state["s"]["cast_half"]
    return f"the copy keeps the decisions made for the original, including that its {state['half_cast']} half was cast"


@implements("608.3f", "become a token permanent", mechanic=KEY)
def copy_becomes_token(state, ctx):
    return "the resolving copy of the Room spell becomes a token permanent"


@implements("709.5b", "existence of each half", "copiable values", mechanic=KEY)
def copy_halves(state, ctx):
    # Copiable values are the halves and the shared type line's abilities; designations are not among them.
    src = state["s"]["source_unlocked"]
    return ("the copy has both halves and the shared type line's abilities, but not the original's unlocked "
            f"designations ({', '.join(src) or 'none'}); its locked halves can be unlocked later")


@implements("709.5d", "as it enters the battlefield", "neither half was cast", mechanic=KEY)
def enter_designations(state, ctx):
    half = state["half_cast"]
    if half:
        _give(state, [half])
        return f"enters with the {half} half unlocked because that half was cast as a spell"
    return "enters with neither unlocked designation because neither half was cast as a spell"


@implements("709.5c", "designations that a permanent on the battlefield can have", mechanic=KEY)
def keeps_own(state, ctx):
    return (f"designations belong to the permanent, not its copiable values: it keeps "
            f"{', '.join(state['unlocked']) or 'none'} unlocked")


# ------------------------------------------------------------------ unlocking and locking


def _timing_missing(s: dict) -> list[str]:
    t = s["timing"]
    return [k for k, ok in (("their own turn", t["own_turn"]), ("a main phase", t["main_phase"]),
                            ("an empty stack", t["stack_empty"]), ("priority", t["has_priority"])) if not ok]


@implements("709.5e", "special action", "the stack is empty during a main phase of their turn", mechanic=KEY)
def unlock_action(state, ctx):
    s, door = state["s"], state["s"]["door"]
    if not s["controls"]:
        return _fail(state, "709.5e", "only the Room's controller may unlock it")
    if door in state["unlocked"]:
        return _fail(state, "709.5e", f"the {door} half is already unlocked")
    missing = _timing_missing(s)
    if missing:
        return _fail(state, "709.5e", "needs " + ", ".join(missing))
    cost = s["room"][door].get("mana_cost") or ""
    if s["mana_pool"] is not None and not _can_pay(parse_mana(s["mana_pool"]), parse_mana(cost)):
        return _fail(state, "709.5e", f"the unlock cost {cost} can't be paid from {s['mana_pool']}")
    _give(state, [door])
    return f"pays the unlock cost {show_mana(parse_mana(cost))} and the {door} half becomes unlocked"


@implements("116.2m", "locked halves", "unlock cost",
            "any time they have priority and the stack is empty during a main phase of their turn", mechanic=KEY)
def listed_special_action(state, ctx):
    # The list of special actions (116.2) names paying an unlock cost; its timing is the same as 709.5e's.
    s = state["s"]
    missing = _timing_missing(s)
    locked = [d for d in DOORS if d not in state["before"]]
    if not locked:
        return "paying an unlock cost is special action 116.2m, but the Room has no locked half to unlock"
    return ("paying an unlock cost is special action 116.2m, taken any time its controller has priority and "
            "the stack is empty during a main phase of their turn"
            + (f"; here it lacks {', '.join(missing)}" if missing else ""))


@implements("116.1", "don't use the stack", mechanic=KEY)
def no_stack(state, ctx):
    state["uses_stack"] = False
    return "a special action: it doesn't use the stack, so no player can respond to it"


@implements("116.3", "receives priority afterward", mechanic=KEY)
def priority_after(state, ctx):
    return "the player who unlocked receives priority afterward"


@implements("709.5f", "chooses a locked half", mechanic=KEY)
def unlock_effect(state, ctx):
    locked = [d for d in DOORS if d not in state["unlocked"]]
    if not locked:
        state["nothing"] = True
        return "both halves are already unlocked: there is no locked half to choose, nothing happens"
    door = state["s"]["door"]
    if door not in locked:
        return _fail(state, "709.5f", f"the {door} half is unlocked and can't be chosen; choose {locked[0]}")
    _give(state, [door])
    return f"chooses the locked {door} half; it becomes unlocked"


@implements("709.5g", "chooses an unlocked half", "loses the appropriate unlocked designation", mechanic=KEY)
def lock_effect(state, ctx):
    door = state["s"]["door"]
    if not state["unlocked"]:
        state["nothing"] = True
        return "no half is unlocked: there is nothing to lock"
    if door not in state["unlocked"]:
        return _fail(state, "709.5g", f"the {door} half is locked already and can't be chosen")
    state["unlocked"].remove(door)
    return f"the {door} half loses its unlocked designation (it can be unlocked again later)"


# ------------------------------------------------------------------ characteristics and triggers


@implements("709.5", "doesn't have the name, mana cost, or rules text", mechanic=KEY)
def characteristics(state, ctx):
    room = state["s"]["room"]
    state["has"] = [d for d in DOORS if d in state["unlocked"]]
    names = [room[d]["name"] for d in state["has"]]
    # Only the unlocked halves' mana costs exist; with both, the costs are combined (709.4b).
    state["mana_value"] = sum(sum(parse_mana(room[d].get("mana_cost") or "").values()) for d in state["has"])
    return ("it has the name, mana cost and rules text of " + " and ".join(names)
            + f" (mana value {state['mana_value']})" if names
            else "with no unlocked half it has no name, no mana cost and no rules text (a nameless Room "
                 "enchantment, mana value 0)")


@implements("709.5h", "given the appropriate unlocked designation",
            "regardless of whether it was given that designation while entering", mechanic=KEY)
def door_triggers(state, ctx):
    room, did = state["s"]["room"], []
    for d in state["gained"]:
        if room[d].get("unlock_trigger"):
            state["triggers"].append({"name": f"{room[d]['name']}: when you unlock this door", "door": d,
                                      "times": 1, "put_on_stack": True, "event": "unlock"})
            did.append(f"{room[d]['name']}'s unlock ability triggers")
    return "; ".join(did) or None


@implements("603.6a", "trigger when a permanent enters the battlefield", mechanic=KEY)
def not_an_etb(state, ctx, names):
    return (f"{', '.join(names)} triggers on a door being unlocked, not on a permanent entering: it is not an "
            "enters-the-battlefield ability")


@implements("603.2d", "triggers additional times", mechanic=KEY)
def doubler(state, ctx):
    effect = state["s"]["enter_trigger_doubler"]
    etb = [t for t in state["triggers"] if t["event"] == "enters"]
    unlock = [t["name"] for t in state["triggers"] if t["event"] == "unlock"]
    if unlock:
        ctx.apply("603.6a", names=unlock)
    for t in etb:
        t["times"] += 1
    return (f"{effect} adds a trigger only for abilities triggered by a permanent entering; "
            f"{len(unlock)} unlock trigger(s) still trigger once")


@implements("709.5i", "has one of the two unlocked designations and gets the other", mechanic=KEY)
def fully_unlocked(state, ctx):
    before, s = state["before"], state["s"]
    if not (len(state["unlocked"]) == 2 and len(before) < 2 and state["gained"]):
        return None
    for name in s["fully_unlock_triggers"]:
        state["triggers"].append({"name": name, "times": 1, "put_on_stack": True, "event": "fully_unlock"})
    return ("the Room becomes fully unlocked" + (f"; {', '.join(s['fully_unlock_triggers'])} triggers"
                                                 if s["fully_unlock_triggers"] else ""))


@implements("603.3d", "no legal choices can be made", "simply removed from the stack", mechanic=KEY)
def no_targets(state, ctx):
    room, did = state["s"]["room"], []
    for t in state["triggers"]:
        door = room.get(t.get("door") or "", {})
        if door.get("trigger_targets", 0) > door.get("legal_targets", 0):
            t["put_on_stack"] = False
            did.append(f"{t['name']} has too few legal targets and is removed from the stack")
    return "; ".join(did) or None


# ------------------------------------------------------------------ solve


def solve(s: dict, ctx) -> dict:
    st = ctx.state
    start = [] if s["event"] in ENTERS else list(dict.fromkeys(s["unlocked"]))
    st.update(s=s, unlocked=list(start), before=list(start), gained=[], failed=None, nothing=False,
              half_cast=None, triggers=[], uses_stack=None, has=[])
    ev = s["event"]
    if ev == "cast_resolves":
        st["half_cast"] = s["cast_half"]
    elif ev == "spell_copy_resolves":
        ctx.apply("707.10")
        ctx.apply("608.3f")
    elif ev in ("enters_as_copy", "token_copy", "becomes_copy"):
        ctx.apply("709.5b")
    if ev in ENTERS:
        ctx.apply("709.5d")  # decides the case; 709.3 says where the half it unlocks came from
        if ev == "cast_resolves":
            ctx.apply("709.3")
    elif ev == "becomes_copy":
        ctx.apply("709.5c")
    else:
        ctx.apply({"unlock_action": "709.5e", "unlock_effect": "709.5f", "lock_effect": "709.5g"}[ev])
        if ev == "unlock_action":
            ctx.apply("116.2m")
        if ev == "unlock_action" and not st["failed"]:
            ctx.apply("116.1")
            ctx.apply("116.3")
    ctx.apply("709.5")
    if not st["failed"]:
        ctx.apply("709.5h")
        ctx.apply("709.5i")
        if s["enter_trigger_doubler"] and ev in ENTERS:
            ctx.apply("603.2d")
        ctx.apply("603.3d")
    return {
        "legal": st["failed"] is None,
        "reason": st["failed"] and st["failed"]["reason"],
        "nothing_happens": st["nothing"],
        "unlocked": [d for d in DOORS if d in st["unlocked"]],
        "locked": [d for d in DOORS if d not in st["unlocked"]],
        "gained": st["gained"],
        "characteristics_of": [s["room"][d]["name"] for d in st["has"]],
        "mana_value": st.get("mana_value", 0),
        "uses_stack": st["uses_stack"],
        "triggers": st["triggers"],
        # 709.5e: the unlock cost is the mana cost of the locked half
        "unlock_cost": (s["room"][s["door"]].get("mana_cost") or None) if ev == "unlock_action" else None,
    }
