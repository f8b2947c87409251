"""The value of X when a spell is cast without paying a cost that includes X (CR 107.3b).

Kept apart from casting.py (which walks 601.2a–i) so that module stays short; casting.announce
applies 107.3b during 601.2b, where the value of X is announced.
"""
from __future__ import annotations

from ..registry import implements

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
