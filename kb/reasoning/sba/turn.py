"""What happens around a state-based action check in the turn: the cleanup step (514.1 discard to
hand size; 514.2 damage removed and "until end of turn" effects end at once; 514.3a then the checks),
permanents that return after dying (persist 702.79a, undying 702.93a; a token can't, 111.8), and
abilities on the stack whose source has left (113.7a: they still resolve, 608.2h: with the source's
last known information — a loyalty ability that took its planeswalker to 0)."""
from __future__ import annotations

from kb.reasoning.registry import implements
from kb.reasoning.sba.schema import M


@implements("514.1", "contains more cards than their maximum hand size", "discard enough cards", mechanic=M)
def discard(st, ctx, **_):
    done = []
    for p in st["players"]:
        extra = max(0, p["hand"] - p["max_hand_size"]) if p["active"] else 0
        p["discards"] = extra
        if extra:
            done.append(f"{p['name']} discards {extra} (hand {p['hand']}, maximum {p['max_hand_size']})")
    return "; ".join(done) or None


@implements("514.2", "all damage marked on permanents (including phased-out permanents) is removed",
            "all \"until end of turn\" and \"this turn\" effects end", "simultaneously", mechanic=M)
def cleanup(st, ctx, **_):
    said = []
    for p in st["perms"]:
        if p["zone"] != "battlefield":
            continue
        ended = [b for b in p["bonuses"] if b["until_end_of_turn"]]
        if p["damage"] or ended or p["deathtouch_damage"]:
            said.append(f"{p['name'] or 'face-down permanent'}: " + ", ".join(
                ([f"{p['damage']} damage removed"] if p["damage"] else [])
                + [f"{b['power']:+d}/{b['toughness']:+d} from {b['source']} ends" for b in ended]))
        p["damage"], p["deathtouch_damage"] = 0, False
        p["bonuses"] = [b for b in p["bonuses"] if not b["until_end_of_turn"]]
    return ("at the same time, damage is removed and 'until end of turn' effects end: " + "; ".join(said)) if said else \
        "damage is removed and 'until end of turn' effects end (none here)"


@implements("514.3a", "the game checks to see if any state-based actions would be performed", mechanic=M)
def then_check(st, ctx, **_):
    return "then the game checks state-based actions (and puts waiting triggers on the stack) before any priority"


def cleanup_step(ctx, st) -> None:
    ctx.apply("514.1")
    ctx.apply("514.2")
    ctx.apply("514.3a")


@implements("702.79a", "When this permanent is put into a graveyard from the battlefield, if it had no -1/-1 counters on it",
            "return it to the battlefield under its owner's control with a -1/-1 counter on it", mechanic=M)
def persist(st, ctx, perm=None, **_):
    return _return(perm, "persist", "minus1_counters")


@implements("702.93a", "When this permanent is put into a graveyard from the battlefield, if it had no +1/+1 counters on it",
            "return it to the battlefield under its owner's control with a +1/+1 counter on it", mechanic=M)
def undying(st, ctx, perm=None, **_):
    return _return(perm, "undying", "plus1_counters")


def _return(p, how, counter):
    if p["died_with"][counter]:
        return f"{p['name']} had a {'-1/-1' if how == 'persist' else '+1/+1'} counter as it died: {how} does nothing"
    if p.get("returned"):
        return f"{p['name']}'s {how} also triggered, but the card is already a new object on the battlefield: nothing"
    p.update(zone="battlefield", returned=how, damage=0, deathtouch_damage=False, plus1_counters=0, minus1_counters=0,
             destroyed=False, regeneration_shield=False, bonuses=[], attached_to="")
    p[counter] = 1
    p.pop("by", None)
    return f"{how}: {p['name']} returns to the battlefield as a new object with a {'-1/-1' if how == 'persist' else '+1/+1'} counter"


def returns(ctx, st) -> bool:
    """Persist/undying of permanents that died in the checks; True when something returned."""
    back = False
    for p in st["perms"]:
        if not p.get("died") or p.get("returned_checked"):
            continue
        p["returned_checked"] = True
        abilities = [a for a in ("persist", "undying") if p[a]]
        if not abilities:
            continue
        if p["token"]:
            ctx.apply("111.8", perms=[p])
            continue
        for a in abilities:
            ctx.apply("702.79a" if a == "persist" else "702.93a", perm=p)
        back = back or bool(p.get("returned"))
    return back


@implements("113.7a", "exists on the stack independently of its source",
            "Destruction or removal of the source after that time won't affect the ability", mechanic=M)
def independent(st, ctx, item=None, **_):
    return (f"'{item['ability']}' is already on the stack: {item['source']} leaving the battlefield doesn't affect it; "
            "it still resolves")


@implements("608.2h", "if it's no longer in that zone", "the effect uses the object's last known information", mechanic=M)
def last_known(st, ctx, item=None, **_):
    return f"where it needs {item['source']}'s information, it uses {item['source']}'s last known information"


def stack(ctx, st, sit) -> list[dict]:
    out = []
    for item in sit["stack"]:
        src = next((p for p in st["perms"] if p["name"] == item["source"]), None)
        left = src is not None and (src["zone"] != "battlefield" or bool(src.get("ceased")))
        if left:
            ctx.apply("113.7a", item=item)
            ctx.apply("608.2h", item=item)
        out.append({"ability": item["ability"], "source": item["source"], "source_left": left, "resolves": True,
                    "uses_last_known_information": left})
    return out
