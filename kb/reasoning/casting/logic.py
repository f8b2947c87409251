"""Casting a spell (CR 601): the ordered steps 601.2a–i, costs (118), rewinding (733).

The situation describes one proposed casting: the spell, where it is cast from, the choices
announced and the resources at hand. ``solve`` walks the steps in CR order; a step that cannot be
complied with marks the casting illegal and 733.1 rewinds it. Every value in the outcome is
computed by the functions below, each registered for the rule it implements.
"""
from __future__ import annotations

from collections import Counter

from kb.reasoning.engine import SituationError
from kb.reasoning.registry import implements
import kb.reasoning.casting.xcost  # noqa: F401  (registers 107.3b, applied in 601.2b)
from kb.reasoning.casting.mana import COLOURS, _can_pay, mana_value, parse_mana, show_mana  # noqa: F401

KEY = "cast"
STEPS = ("601.2a", "601.2b", "601.2c", "601.2d", "601.2e", "601.2f", "601.2g", "601.2h", "601.2i")

# ------------------------------------------------------------------ helpers


def _fail(state: dict, step: str, reason: str) -> str:
    state["failed"] = {"step": step, "reason": reason}
    return f"cannot comply: {reason}"


def _prohibits(p: dict, spell: dict, x: int | None) -> bool:
    """Does prohibition ``p`` forbid this spell, with X as announced (None: not chosen yet)?"""
    if p["kind"] == "all_spells":
        return True
    if p["kind"] == "card_type":
        return bool(set(p.get("types", [])) & set(spell.get("types", [])))
    parity = mana_value(spell.get("mana_cost"), x or 0) % 2
    return parity == (0 if p["kind"] == "even_mana_value" else 1)


def _x_can_change(spell: dict) -> bool:
    return "{X}" in (spell.get("mana_cost") or "")


# ------------------------------------------------------------------ 601.3: may the player begin?


@implements("601.3", "allows that player to cast it", "prohibits", mechanic=KEY)
def may_begin(state, ctx):
    s = state["s"]
    if s["from_zone"] != "hand" and not s["permission"]:
        return _fail(state, "601.3", f"no rule or effect allows casting it from the {s['from_zone']}")
    for p in s["prohibitions"]:
        if p["timing"] == "before_casting" and _prohibits(p, s["spell"], None):
            if p["kind"] != "card_type" and _x_can_change(s["spell"]) and ctx.apply("601.3a", p=p):
                continue
            return _fail(state, "601.3", f"prohibited: {p['name']}")
    return "the player is allowed to begin casting the spell"


@implements("601.3a", "may consider any choices", "ignoring the effect", mechanic=KEY)
def prohibition_choices(state, ctx, p):
    return f"{p['name']} could stop applying depending on X, so casting may begin"


# ------------------------------------------------------------------ 601.2a–e: proposal


@implements("601.2a", "moves that card", "topmost object on the stack", mechanic=KEY)
def to_stack(state, ctx):
    state["zone"] = "stack"
    return f"{state['s']['spell']['name']} moves from the {state['s']['from_zone']} to the top of the stack"


@implements("601.2b", "announces the mode choice", "announces the value of that variable", mechanic=KEY)
def announce(state, ctx):
    s, did = state["s"], []
    modes = s["spell"].get("modes", 0)
    if modes and not 1 <= len(s["modes_chosen"]) <= modes:
        return _fail(state, "601.2b", "a modal spell needs its mode choice announced")
    if s["modes_chosen"]:
        did.append(f"modes {', '.join(s['modes_chosen'])}")
    ctx.apply("118.9a")
    if state["failed"]:
        return f"cannot comply: {state['failed']['reason']}"
    alts = s["alternative_costs"]
    if alts:
        did.append(f"alternative cost {alts[0]['name']}")
    if s["additional_costs"]:
        ctx.apply("118.8a")
        did.append("additional costs " + ", ".join(a["name"] for a in s["additional_costs"]))
    if _x_can_change(s["spell"]) and alts and ctx.apply("107.3b"):
        if state["failed"]:
            return f"cannot comply: {state['failed']['reason']}"
        did.append("X = 0")
    elif _x_can_change(s["spell"]) and (not alts or "{X}" in (alts[0].get("mana") or "")):
        if s["x"] is None:
            return _fail(state, "601.2b", "the value of X must be announced")
        did.append(f"X = {s['x']}")
    return "announces " + ("; ".join(did) or "no choices")


@implements("118.9a", "Only one alternative cost", mechanic=KEY)
def one_alternative(state, ctx):
    alts = state["s"]["alternative_costs"]
    if len(alts) > 1:
        return _fail(state, "601.2b", "two alternative costs (" + " and ".join(a["name"] for a in alts)
                     + ") can't be applied to one spell")
    return f"{len(alts)} alternative cost announced; at most one may be"


@implements("118.8a", "Any number of additional costs", mechanic=KEY)
def any_additional(state, ctx):
    return f"{len(state['s']['additional_costs'])} additional cost(s) announced; any number may be"


def _chosen(s: dict) -> set[str]:
    return {c["name"] for c in s["alternative_costs"] + s["additional_costs"]} | set(s["modes_chosen"])


@implements("601.2c", "for each target the spell requires",
            "same target can't be chosen multiple times", mechanic=KEY)
def choose_targets(state, ctx):
    s, did = state["s"], []
    groups = s["spell"].get("targets", [])
    if len(s["targets"]) != len(groups):
        raise SituationError("targets", f"give one list of chosen targets per 'target' word ({len(groups)})")
    for i, (g, chosen) in enumerate(zip(groups, s["targets"])):
        if g.get("only_if") and g["only_if"] not in _chosen(s):
            did.append(f"target {i + 1} not required ({g['only_if']} not chosen)")
            continue
        lo, hi = g.get("min", 1), g.get("max", g.get("min", 1))
        if not lo <= len(chosen) <= hi:
            return _fail(state, "601.2c", f"target {i + 1} needs {lo}–{hi} targets, {len(chosen)} chosen")
        if len(set(chosen)) != len(chosen):
            return _fail(state, "601.2c", f"the same object chosen twice for one instance of 'target' ({i + 1})")
        bad = [c for c in chosen if c not in g.get("legal", [])]
        if bad:
            return _fail(state, "601.2c", f"{', '.join(bad)} is not a legal target for target {i + 1}")
        state["targets"] += chosen
        did.append(f"target {i + 1}: {', '.join(chosen)}")
    for t in s["triggers"]:
        if t["event"] == "becomes_target" and t.get("object") in state["targets"]:
            state["pending"].append(t["name"])
            did.append(f"{t['name']} triggers now and waits until casting finishes")
    return "; ".join(did) if did else "the spell has no targets: no targets are chosen"


@implements("601.2d", "announces the division", "at least one", mechanic=KEY)
def divide(state, ctx):
    s, amount = state["s"], state["s"]["spell"].get("divide")
    if amount is None:
        return "the spell divides nothing among targets: no division is announced"
    amount = s["x"] if amount == "X" else int(amount)
    d = s["division"]
    if len(d) != len(state["targets"]) or sum(d) != amount:
        return _fail(state, "601.2d", f"the division {d} must split {amount} among {len(state['targets'])} targets")
    if min(d, default=1) < 1:
        return _fail(state, "601.2d", "each target must receive at least one")
    return f"divides {amount} as {d}"


@implements("601.2e", "can legally be cast", mechanic=KEY)
def check_proposal(state, ctx):
    s = state["s"]
    for p in s["prohibitions"]:
        if p["timing"] in ("before_casting", "during_proposal") and _prohibits(p, s["spell"], s["x"]):
            return _fail(state, "601.2e", f"with the choices made, {p['name']} prohibits the spell")
    late = [p for p in s["prohibitions"] if p["timing"] in ("during_costs", "after_cast")]
    if late:
        ctx.apply("601.6", late=late)
    return "the proposed spell can legally be cast"


@implements("601.6", "doesn't matter", "after the spell has been cast", mechanic=KEY)
def late_prohibition(state, ctx, late):
    return ", ".join(p["name"] for p in late) + " began after the proposal and doesn't affect this spell"


# ------------------------------------------------------------------ 601.2f–h: costs


@implements("601.2f", "total cost", "locked in", "can't be reduced to less than", mechanic=KEY)
def total_cost(state, ctx):
    s, x = state["s"], state["s"]["x"] or 0
    alt = s["alternative_costs"][0] if s["alternative_costs"] else None
    # No mana cost and no alternative cost: the cost is unpayable (fails at 601.2h, not here).
    state["unpayable"] = alt is None and s["spell"].get("mana_cost") is None
    mana = parse_mana(alt.get("mana") if alt else s["spell"].get("mana_cost"), x,
                      "alternative_costs[0].mana" if alt else "spell.mana_cost")
    life = alt.get("life", 0) if alt else 0
    others = [alt["other"]] if alt and alt.get("other") else []
    for a in s["additional_costs"]:
        mana += parse_mana(a.get("mana"), x, "additional_costs")
        life += a.get("life", 0)
        others += [a["other"]] if a.get("other") else []
    changes = [c for c in s["cost_changes"] if c["timing"] == "before_lock"]
    for c in (c for c in changes if c["kind"] == "increase"):
        mana += parse_mana(c["mana"], x, "cost_changes")
    if alt and (s["additional_costs"] or changes):
        ctx.apply("118.9d")
    state["mana"] = mana
    for c in (c for c in changes if c["kind"] == "reduction"):
        reduce_cost(ctx, parse_mana(c["mana"], x, "cost_changes"))
    mana = +state["mana"]
    state["cost"] = {"mana": mana, "life": life, "other": others}
    ignored = [c["source"] for c in s["cost_changes"] if c["timing"] == "after_lock"]
    later = [c["source"] for c in s["cost_changes"] if c["timing"] == "after_cast"]
    if later:
        ctx.apply("601.8", sources=later)
    parts = [show_mana(mana)] + ([f"{life} life"] if life else []) + others
    return ("total cost " + " + ".join(parts) + " locked in"
            + (f"; {', '.join(ignored)} changes it after lock-in and has no effect" if ignored else ""))


def reduce_cost(ctx, by: Counter) -> None:
    """Apply one reduction to ctx.state["mana"]; each rule of 118.7 does its own part."""
    if by["generic"]:
        ctx.apply("118.7a", n=by["generic"])
    for c in COLOURS:
        if by[c]:
            needs = ctx.state["mana"][c]
            ctx.apply("118.7b" if not needs else ("118.7d" if c == "C" else "118.7c"), colour=c, n=by[c])


def _floor(m: Counter) -> None:
    for k in list(m):
        m[k] = max(0, m[k])  # 601.2f: never less than {0}


@implements("118.7a", "only the generic mana component", mechanic=KEY)
def cut_generic(state, ctx, n, colour=None):
    state["mana"]["generic"] -= n
    _floor(state["mana"])
    return f"{{{n}}} less applies only to the generic part"


@implements("118.7b", "reduced by that amount of generic mana", mechanic=KEY)
def cut_missing_colour(state, ctx, colour, n):
    state["mana"]["generic"] -= n
    _floor(state["mana"])
    return f"the cost has no {{{colour}}}, so it is {{{n}}} generic less instead"


def _cut_type(state, colour, n) -> str:
    m = state["mana"]
    excess = max(0, n - m[colour])
    m[colour] -= n
    m["generic"] -= excess
    _floor(m)
    return f"{{{colour}}} part reduced by {n}" + (f"; the difference {{{excess}}} comes off the generic part"
                                                 if excess else "")


@implements("118.7c", "generic mana component is reduced by the difference", mechanic=KEY)
def cut_colour(state, ctx, colour, n):
    return _cut_type(state, colour, n)


@implements("118.7d", "colorless mana component is reduced to nothing", mechanic=KEY)
def cut_colourless(state, ctx, colour, n):
    return _cut_type(state, colour, n)


@implements("118.9d", "applied to that alternative cost", mechanic=KEY)
def onto_alternative(state, ctx):
    return "additional costs and cost changes are applied to the alternative cost"


@implements("601.8", "won't affect spells and abilities that are already on the stack", mechanic=KEY)
def later_changes(state, ctx, sources):
    return ", ".join(sources) + " arrives after the spell is on the stack and doesn't change its cost"


@implements("601.2g", "activate mana abilities", "before costs are paid", mechanic=KEY)
def mana_abilities(state, ctx):
    s = state["s"]
    if not state["cost"]["mana"]:
        return None
    used = [m for m in s["mana_sources"] if m["mana_ability"]]
    for m in used:
        state["pool"] += parse_mana(m["produces"], 0, "mana_sources")
    skipped = [m["name"] for m in s["mana_sources"] if not m["mana_ability"]]
    return (f"activates mana abilities of {', '.join(m['name'] for m in used) or 'nothing'}; pool "
            f"{show_mana(state['pool'])}" + (f"; {', '.join(skipped)} is not a mana ability and can't be "
                                             "activated now" if skipped else ""))


@implements("601.2h", "pays the total cost", "Partial payments are not allowed", mechanic=KEY)
def pay(state, ctx):
    s, cost = state["s"], state["cost"]
    if state.get("unpayable"):
        return _fail(state, "601.2h", "it has no mana cost, and an unpayable cost can't be paid")
    if not _can_pay(state["pool"], cost["mana"]):
        return _fail(state, "601.2h", f"{show_mana(cost['mana'])} can't be paid from {show_mana(state['pool'])}")
    if cost["life"] > s["life_total"]:
        return _fail(state, "601.2h", f"{cost['life']} life can't be paid with {s['life_total']} life")
    missing = [o for o in cost["other"] if o in s["unpayable_costs"]]
    if missing:
        return _fail(state, "601.2h", f"can't pay {', '.join(missing)}")
    return f"pays {show_mana(cost['mana'])}" + "".join(f", {o}" for o in
                                                      ([f"{cost['life']} life"] if cost["life"] else []) + cost["other"])


@implements("601.2i", "becomes cast", "trigger at this time", "they get priority", mechanic=KEY)
def becomes_cast(state, ctx):
    state["cast"] = True
    now = [t["name"] for t in state["s"]["triggers"] if t["event"] == "cast"]
    state["triggered"] = state["pending"] + now
    return ("the spell becomes cast" + (f"; {', '.join(now)} triggers" if now else "")
            + "; its controller gets priority")


# ------------------------------------------------------------------ 733: rewinding


@implements("733.1", "entire action is reversed", "returns to the zone it came from", mechanic=KEY)
def rewind(state, ctx):
    state["zone"] = state["s"]["from_zone"]
    dropped = state["pending"]
    state["pending"], state["triggered"] = [], []
    return (f"the spell returns to the {state['zone']}; payments are cancelled; mana abilities may be "
            "reversed" + (f"; {', '.join(dropped)} doesn't trigger" if dropped else ""))


@implements("733.2", "retains it", mechanic=KEY)
def keep_priority(state, ctx):
    return "the player who had priority keeps it"


# ------------------------------------------------------------------ solve


def solve(s: dict, ctx) -> dict:
    st = ctx.state
    st.update(s=s, zone=s["from_zone"], failed=None, targets=[], pending=[], triggered=[],
              pool=parse_mana(s["mana_pool"], 0, "mana_pool"), cost=None, cast=False, unpayable=False)
    if ctx.apply("707.10"):
        return {"legal": None, "cast": False, "began": False, "failed_step": None, "reason": None, "rewound": False,
                "spell_zone": "stack", "steps_done": [], "total_cost": None, "total_life": None,
                "targets": st["targets"], "triggered": []}
    if ctx.apply("707.12"):
        st["s"] = s = dict(s, permission=True)  # the effect instructs the casting (601.3 allows it)
    ctx.apply("601.3")
    began = st["failed"] is None
    if began:
        ctx.apply("601.2")
        for step in STEPS:
            ctx.apply(step)
            if st["failed"]:
                ctx.apply("733.1")
                ctx.apply("733.2")
                break
    cost = st["cost"]
    return {
        "legal": st["cast"],
        "cast": st["cast"],
        "began": began,
        "failed_step": st["failed"] and st["failed"]["step"],
        "reason": st["failed"] and st["failed"]["reason"],
        "rewound": bool(st["failed"]) and began,
        "spell_zone": st["zone"],
        "steps_done": [r for r in ctx.rules_applied() if r in STEPS],
        "total_cost": cost and ("unpayable" if st["unpayable"] else show_mana(cost["mana"])),
        "total_life": cost and cost["life"],
        "targets": st["targets"],
        "triggered": st["triggered"],
    }


@implements("601.2", "follows the steps listed below, in order", mechanic=KEY)
def in_order(state, ctx):
    return "casting proceeds through 601.2a–i in order; failing a step makes the casting illegal"
