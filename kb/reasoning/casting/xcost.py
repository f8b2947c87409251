"""Casting rules outside 601 proper: the value of X when a spell is cast without paying a cost that
includes X (CR 107.3b), and copies of spells — copied, not cast (707.10), or cast (707.12).

Kept apart from casting.py (which walks 601.2a–i) so that module stays short; casting.announce
applies 107.3b during 601.2b, where the value of X is announced; casting.solve applies the others.
"""
from __future__ import annotations

from kb.reasoning.registry import implements

KEY = "cast"


def x_in(cost: str | None) -> bool:
    return "{X}" in (cost or "")


@implements("107.3b", "paying neither its mana cost nor an alternative cost that includes X",
            "the only legal choice for X is 0", mechanic=KEY)
def x_is_zero(state, ctx):
    s = state["s"]
    alts = s["alternative_costs"]
    if not (x_in(s["spell"].get("mana_cost")) and alts) or x_in(alts[0].get("mana")):
        return None
    if s["x"] not in (None, 0):
        state["failed"] = {"step": "601.2b", "reason": f"X = {s['x']} announced, but the only legal choice is 0"}
        return (f"its mana cost has {{X}} and {alts[0]['name']} doesn't include X: the only legal X is 0, "
                f"not {s['x']}")
    state["x_zero"] = True
    return f"its mana cost has {{X}} and {alts[0]['name']} doesn't include X: X is 0"


# ------------------------------------------------------------------ copies of spells (707.10, 707.12)


@implements("707.10", "a copy of a spell isn't cast", "all decisions made for it", mechanic=KEY)
def copy_not_cast(state, ctx):
    s = state["s"]
    if s["copy"] != "copied":
        return None
    state["zone"] = "stack"
    state["targets"] = [t for group in s["targets"] for t in group]
    return (f"a copy of {s['spell']['name']} is put onto the stack with the original's decisions; it isn't cast, "
            "so no casting steps happen and 'whenever you cast' abilities don't trigger")


@implements("707.12", "follows the rules for casting spells", "then the copy becomes cast", mechanic=KEY)
def cast_a_copy(state, ctx):
    if state["s"]["copy"] != "cast-copy":
        return None
    return ("an effect instructs casting a copy: it is created where the object is and cast by steps 601.2a–h, "
            "then it becomes cast ('whenever you cast' abilities trigger)")
