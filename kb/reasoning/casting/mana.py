"""Mana arithmetic for casting (CR 601.2f–h) and Rooms' unlock costs: parse, show, compare.

Plain helpers, no rule logic: casting.py registers the rules that use them.
"""
from __future__ import annotations

import re
from collections import Counter

from kb.reasoning.casting.schema import MANA_PATTERN
from kb.reasoning.engine import SituationError

COLOURS = "WUBRGC"
MANA = MANA_PATTERN


def parse_mana(cost: str | None, x: int = 0, field: str = "cost") -> Counter:
    if cost is None:
        return Counter()
    if not re.fullmatch(MANA, cost):
        raise SituationError(field, f"not a mana cost in {{}} symbols: {cost!r}")
    out: Counter = Counter()
    for sym in re.findall(r"\{([^}]+)\}", cost):
        if sym.isdigit():
            out["generic"] += int(sym)
        elif sym == "X":
            out["generic"] += x
        else:
            out[sym] += 1
    return out


def show_mana(m: Counter) -> str:
    s = (f"{{{m['generic']}}}" if m["generic"] else "") + "".join(f"{{{c}}}" * m[c] for c in COLOURS)
    return s or "{0}"  # 601.2f / 118.7: reduced to nothing is {0}


def mana_value(cost: str | None, x: int) -> int:
    return sum(parse_mana(cost, x).values())


def _can_pay(pool: Counter, need: Counter) -> bool:
    left = Counter(pool)
    for c in COLOURS:
        if left[c] < need[c]:
            return False
        left[c] -= need[c]
    return sum(left.values()) >= need["generic"]
