"""State-based actions (CR 704): each check finds every condition of 704.5 that holds, performs
them all at once as one event (704.3), and checks again until none applies.

State: ``perms`` (the permanents, with their zone and what happened to them), ``players``,
``checks`` (the actions of each check, in order). Destruction can be stopped by indestructible
(702.12b) or replaced by regeneration (701.19a); being put into the graveyard (704.5f, 704.5i,
704.5j) can't.
"""
from __future__ import annotations

from kb.reasoning.registry import implements
from kb.reasoning.sba.schema import M
from kb.reasoning.sba.turn import cleanup_step, returns, stack


def _on(st):
    return [p for p in st["perms"] if p["zone"] == "battlefield" and not p.get("gone")]


def _creature(p):
    return "creature" in p["types"]


def _toughness(p):
    return None if p["toughness"] is None else \
        p["toughness"] + sum(b["toughness"] for b in p["bonuses"]) + p["plus1_counters"] - p["minus1_counters"]


def _power(p):
    return None if p["power"] is None else \
        p["power"] + sum(b["power"] for b in p["bonuses"]) + p["plus1_counters"] - p["minus1_counters"]


@implements("611.3b", "The effect applies at all times that the permanent generating it is on the battlefield",
            mechanic=M)
def source_left(st, ctx, **_):
    """After the actions: a P/T change from another permanent's static ability (an Aura's +2/+1, a
    lord's +1/+1) stops once that permanent has left the battlefield, before the next check."""
    here = {q["name"] for q in st["perms"] if q["zone"] == "battlefield" and not q.get("ceased")}
    done = []
    for p in st["perms"]:
        if p["zone"] != "battlefield" or p.get("ceased"):
            continue  # a card that left keeps the values it last had on the battlefield
        gone = [b for b in p["bonuses"] if b["source"] not in here and not b["until_end_of_turn"]]
        if gone:  # an 'until end of turn' effect of a resolved spell isn't a static ability: it stays (611.2a)
            p["bonuses"] = [b for b in p["bonuses"] if b not in gone]
            done.append(f"{p['name']} no longer gets " + ", ".join(f"{b['power']:+d}/{b['toughness']:+d} from {b['source']}"
                                                                     for b in gone)
                        + f" (it left the battlefield): now {_power(p)}/{_toughness(p)}")
    return "; ".join(done) or None


# ---------------------------------------------------------------- before the check


@implements("120.3c", "Damage dealt to a planeswalker causes that many loyalty counters to be removed", mechanic=M)
def damage_to_planeswalker(st, ctx, perm=None, **_):
    n = perm["damage_dealt_to_planeswalker"]
    perm["loyalty"] = max(0, (perm["loyalty"] or 0) - n)
    return f"{n} damage to {perm['name']} removes {n} loyalty counters: loyalty {perm['loyalty']}"


# ---------------------------------------------------------------- 704.5: the conditions


@implements("704.5a", "0 or less life, that player loses the game", mechanic=M)
def no_life(st, ctx, found=None, **_):
    hit = [p for p in st["players"] if p["life"] <= 0 and not p.get("lost")]
    for p in hit:
        found.append(("lose", p, "704.5a"))
    return f"{', '.join(p['name'] for p in hit)} has 0 or less life: loses the game" if hit else None


@implements("704.5b", "attempted to draw a card from a library with no cards in it", mechanic=M)
def empty_library(st, ctx, found=None, **_):
    hit = [p for p in st["players"] if p["drew_from_empty_library"] and not p.get("lost")]
    for p in hit:
        found.append(("lose", p, "704.5b"))
    return (f"{', '.join(p['name'] for p in hit)} tried to draw from an empty library since the last check: "
            "loses the game (life doesn't matter)") if hit else None


@implements("704.5c", "ten or more poison counters", mechanic=M)
def poison(st, ctx, found=None, **_):
    hit = [p for p in st["players"] if p["poison"] >= 10 and not p.get("lost")]
    for p in hit:
        found.append(("lose", p, "704.5c"))
    return (f"{', '.join(p['name'] for p in hit)} has ten or more poison counters: loses the game "
            "(whatever their life total)") if hit else None


@implements("704.5d", "If a token is in a zone other than the battlefield, it ceases to exist", mechanic=M)
def token_elsewhere(st, ctx, found=None, **_):
    hit = [p for p in st["perms"] if p["token"] and p["zone"] != "battlefield" and not p.get("ceased")]
    for p in hit:
        found.append(("cease", p, "704.5d"))
    if hit:
        ctx.apply("111.7")
        ctx.apply("111.8", perms=hit)
    return f"token(s) {', '.join(p['name'] for p in hit)} outside the battlefield cease to exist" if hit else None


@implements("111.7", "applicable triggered abilities will trigger before the token ceases to exist", mechanic=M)
def token_note(st, ctx, **_):
    return "a token that left the battlefield still triggered 'dies' / leaves abilities before it ceased to exist"


@implements("111.8", "can't move to another zone or come back onto the battlefield", mechanic=M)
def token_stuck(st, ctx, perms=(), **_):
    for p in perms:
        p["stuck"] = True
    return (f"{', '.join(p['name'] for p in perms)} left the battlefield: it stays in the {perms[0]['zone']} and can't "
            "move again (so it can't be cast or put onto the battlefield) until it ceases to exist")


@implements("704.5f", "toughness 0 or less", "Regeneration can't replace this event", mechanic=M)
def zero_toughness(st, ctx, found=None, **_):
    hit = [p for p in _on(st) if _creature(p) and _toughness(p) is not None and _toughness(p) <= 0]
    for p in hit:
        found.append(("graveyard", p, "704.5f"))
    return (f"{', '.join(p['name'] for p in hit)} has toughness 0 or less: put into its owner's graveyard "
            "(not destroyed: indestructible and regeneration don't help)") if hit else None


def _destroy(st, ctx, found, p, rule, why):
    if p["indestructible"]:
        ctx.apply("702.12b", perm=p)
        return f"{p['name']} {why} but is indestructible"
    found.append(("destroy", p, rule))
    return f"{p['name']} {why}: destroyed"


@implements("704.5g", "total damage marked on it is greater than or equal to its toughness", "destroyed", mechanic=M)
def lethal_damage(st, ctx, found=None, **_):
    hit = [p for p in _on(st) if _creature(p) and (_toughness(p) or 0) > 0 and p["damage"] >= _toughness(p)]
    return "; ".join(_destroy(st, ctx, found, p, "704.5g", f"has lethal damage ({p['damage']} ≥ {_toughness(p)})")
                     for p in hit) or None


@implements("704.5h", "damage by a source with deathtouch since the last time state-based actions were checked",
            mechanic=M)
def deathtouch(st, ctx, found=None, **_):
    hit = [p for p in _on(st) if _creature(p) and (_toughness(p) or 0) > 0 and p["deathtouch_damage"]
           and not any(a[1] is p for a in found)]
    return "; ".join(_destroy(st, ctx, found, p, "704.5h", "was dealt damage by a deathtouch source") for p in hit) or None


@implements("702.12b", "ignore the state-based action that checks for lethal damage", mechanic=M)
def indestructible(st, ctx, perm=None, **_):
    return f"{perm['name']} is indestructible: it isn't destroyed by lethal damage or deathtouch"


@implements("704.5i", "If a planeswalker has loyalty 0", mechanic=M)
def no_loyalty(st, ctx, found=None, **_):
    hit = [p for p in _on(st) if "planeswalker" in p["types"] and p["loyalty"] is not None and p["loyalty"] <= 0]
    for p in hit:
        found.append(("graveyard", p, "704.5i"))
    return f"{', '.join(p['name'] for p in hit)} has loyalty 0: put into its owner's graveyard" if hit else None


@implements("708.2", "have no characteristics other than those listed", mechanic=M)
def face_down_nameless(st, ctx, perms=None, **_):
    return f"{len(perms)} face-down permanent(s) have no name, so the legend rule can't see them as the same name"


@implements("707.2", "copiable values", mechanic=M)
def copies_name(st, ctx, perms=None, **_):
    return ", ".join(f"{p['name']} (a copy of {p['copy_of']})" for p in perms) + \
        " has the copied name and supertype: it counts for the legend rule"


@implements("704.5j", "legendary permanents with the same name are controlled by the same player",
            "legend rule", mechanic=M)
def legend_rule(st, ctx, found=None, **_):
    groups: dict = {}
    # a face-down permanent has no name or supertypes (708.2), whatever card it is: it is never in a group
    hidden = [p for p in _on(st) if p["face_down"] or ("legendary" in p["supertypes"] and not p["name"])]
    legends = [p for p in _on(st) if "legendary" in p["supertypes"] and p not in hidden]
    if hidden:
        ctx.apply("708.2", perms=hidden)
    copies = [p for p in legends if p["copy_of"] and p not in hidden]
    if copies:
        ctx.apply("707.2", perms=copies)
    for p in legends:
        if p not in hidden:
            groups.setdefault((p["controller"], p["name"]), []).append(p)
    did = []
    for (who, name), ps in groups.items():
        # what the first check does to each controller's legends (later checks see what it left)
        mine = st["legend"].setdefault(who, {"keep": 0, "put_into_graveyard": 0, "chooses": False, "affected": False}) \
            if st["round"] == 1 else {}
        mine["keep"] = mine.get("keep", 0) + 1
        if len(ps) < 2:
            continue
        mine.update(put_into_graveyard=mine.get("put_into_graveyard", 0) + len(ps) - 1, chooses=True, affected=True)
        keep = next((p for p in ps if st["keep"] and st["keep"] in (p["name"], p.get("label"))), ps[0])
        for p in ps:
            if p is not keep:
                found.append(("graveyard", p, "704.5j"))
        did.append(f"{who} controls {len(ps)} legendary {name}: keeps one, {len(ps) - 1} put into the graveyard "
                   "(not destroyed: indestructible doesn't help)")
    if not did and len(legends) + len(hidden) > 1:
        return "no player controls two legendary permanents with the same name: the legend rule doesn't apply"
    return "; ".join(did) or None


@implements("704.5m", "Aura is attached to an illegal object or player, or is not attached", mechanic=M)
def illegal_aura(st, ctx, found=None, **_):
    on = {p["name"] for p in _on(st)}
    did = []
    for p in _on(st):
        if p["attachment"] != "aura":
            continue
        why = ("not attached to anything" if not p["attached_to"] else
               f"{p['attached_to']} is no longer on the battlefield" if p["attached_to"] not in on and not
               any(q["name"] == p["attached_to"] for q in st["players"]) else
               "attached illegally" if p["attachment_illegal"] != "legal" else None)
        if why:
            if p["attachment_illegal"] == "protection":
                ctx.apply("702.16c")
            found.append(("graveyard", p, "704.5m"))
            did.append(f"Aura {p['name']}: {why}; put into its owner's graveyard")
    return "; ".join(did) or None


@implements("702.16c", "can't be enchanted by Auras that have the stated quality", mechanic=M)
def protection(st, ctx, **_):
    return "a permanent with protection can't be enchanted by Auras with that quality"


@implements("704.5n", "Equipment or Fortification is attached to an illegal permanent", "remains on the battlefield",
            mechanic=M)
def illegal_equipment(st, ctx, found=None, **_):
    did = []
    for p in _on(st):
        if p["attachment"] in ("equipment", "fortification") and p["attached_to"] and p["attachment_illegal"] != "legal":
            found.append(("unattach", p, "704.5n"))
            if p["attachment"] == "equipment":
                ctx.apply("301.5c")
            did.append(f"{p['name']} is attached illegally: it becomes unattached and stays on the battlefield")
    return "; ".join(did) or None


@implements("301.5c", "becomes unattached from that permanent but remains on the battlefield", mechanic=M)
def equipment_rule(st, ctx, **_):
    return "an Equipment can equip only a creature (and not itself or while it is a creature)"


@implements("704.5q", "N +1/+1 and N -1/-1 counters are removed from it", mechanic=M)
def counters_cancel(st, ctx, found=None, **_):
    hit = [p for p in _on(st) if p["plus1_counters"] and p["minus1_counters"]]
    for p in hit:
        found.append(("counters", p, "704.5q"))
    return "; ".join(f"{p['name']}: {min(p['plus1_counters'], p['minus1_counters'])} +1/+1 and -1/-1 counters "
                     "are removed" for p in hit) or None


CONDITIONS = ("704.5a", "704.5b", "704.5c", "704.5d", "704.5f", "704.5g", "704.5h", "704.5i", "704.5j", "704.5m",
              "704.5n", "704.5q")


# ---------------------------------------------------------------- performing them


@implements("704.3", "performs all applicable state-based actions simultaneously as a single event",
            "the check is repeated", mechanic=M)
def one_event(st, ctx, found=None, **_):
    if not found:
        return f"check {st['round']}: no state-based action applies; the checks end"
    return f"check {st['round']}: {len(found)} state-based action(s) performed at once, as one event; check again"


@implements("701.19a", "remove all damage marked on it and its controller taps it", mechanic=M)
def regenerate(st, ctx, perm=None, **_):
    perm.update(damage=0, tapped=True, deathtouch_damage=False, regeneration_shield=False, regenerated=True)
    return f"{perm['name']}'s regeneration shield replaces the destruction: damage removed, tapped"


@implements("712.21", "one permanent leaves the battlefield and two cards are put into the appropriate zone",
            mechanic=M)
def melded_leaves(st, ctx, perm=None, **_):
    return f"{perm['name']} is one permanent represented by {perm['cards']} cards: all of them go to the graveyard"


@implements("700.4", "The term dies means", "is put into a graveyard from the battlefield", mechanic=M)
def dies(st, ctx, perm=None, **_):
    perm["died"] = True
    return (f"{perm['name'] or 'the face-down permanent'} dies (put into a graveyard from the battlefield)"
            + (": 'whenever a creature dies' abilities trigger" if _creature(perm) else ""))


@implements("104.4a", "If all the players remaining in a game lose simultaneously, the game is a draw", mechanic=M)
def draw(st, ctx, **_):
    st["draw"] = True
    return "every remaining player lost at the same time: the game is a draw"


def _perform(ctx, st, found):
    for kind, p, rule in found:
        p.setdefault("by", rule)
        if kind == "lose":
            p["lost"] = True
        elif kind == "cease":
            p["ceased"] = True
        elif kind == "counters":
            n = min(p["plus1_counters"], p["minus1_counters"])
            p["plus1_counters"] -= n
            p["minus1_counters"] -= n
        elif kind == "unattach":
            p["attached_to"] = ""
        elif kind == "destroy" and p["regeneration_shield"]:
            ctx.apply("701.19a", perm=p)
            p.pop("by")
        else:  # destroy or put into the graveyard: it leaves the battlefield
            p["died_with"] = {"plus1_counters": p["plus1_counters"], "minus1_counters": p["minus1_counters"]}
            p["zone"] = "graveyard"
            p["destroyed"] = kind == "destroy"
            ctx.apply("700.4", perm=p)
            if p["cards"] > 1:
                ctx.apply("712.21", perm=p)
            if p["token"]:
                p["ceases_next_check"] = True


def _check_until_done(ctx, st) -> None:
    while st["round"] < 10:
        st["round"] += 1
        found: list = []
        for rule in CONDITIONS:
            ctx.apply(rule, found=found)
        ctx.apply("704.3", found=found)
        if not found:
            break
        st["checks"].append([f"{p['name'] or 'face-down permanent'}: {rule}" for _, p, rule in found])
        _perform(ctx, st, found)
        ctx.apply("611.3b")


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    st.update(perms=[dict(p) for p in sit["permanents"]], players=[dict(p) for p in sit["players"]],
              keep=sit["legend_keep"], round=0, checks=[], draw=False, legend={})
    for p in st["perms"]:
        if p["damage_dealt_to_planeswalker"] and "planeswalker" in p["types"]:
            ctx.apply("120.3c", perm=p)
    if sit["step"] == "cleanup":
        cleanup_step(ctx, st)
    _check_until_done(ctx, st)
    if returns(ctx, st):  # persist/undying resolved: the returned permanents are checked again
        _check_until_done(ctx, st)
    on_stack = stack(ctx, st, sit)
    left = [p for p in st["perms"] if p.get("by") and p["zone"] != "battlefield" and p["by"] != "704.5d"]
    # only destruction (704.5g, 704.5h) is what indestructible ignores (702.12b) and regeneration replaces (701.19a)
    saved_by = (any(p.get("destroyed") for p in left) if left else None)
    lost = [p["name"] for p in st["players"] if p.get("lost")]
    if st["players"] and len(lost) == len(st["players"]) and len(lost) > 1:
        ctx.apply("104.4a")
    return {
        "checks_with_actions": len(st["checks"]), "checks": st["checks"], "legend_rule": st["legend"] or None,
        "all_in_one_check": len(st["checks"]) == 1 if st["checks"] else None,
        "indestructible_helps": saved_by, "regeneration_helps": saved_by,
        "permanents": [{"name": p["name"] or None, "zone": "ceased to exist" if p.get("ceased") else p["zone"],
                        "destroyed": bool(p.get("destroyed")), "by": p.get("by"), "survives": p["zone"] == "battlefield"
                        and not p.get("ceased"), "power": _power(p), "toughness": _toughness(p),
                        "plus1_counters": p["plus1_counters"], "minus1_counters": p["minus1_counters"],
                        "damage": p["damage"], "tapped": bool(p.get("tapped")), "attached_to": p["attached_to"] or None,
                        "loyalty": p["loyalty"], "cards": p["cards"], "dies": bool(p.get("died")),
                        "ceased_to_exist": bool(p.get("ceased")), "zone_before_check": sit["permanents"][i]["zone"],
                        "can_be_cast": False if p.get("stuck") else None,
                        "returned": p.get("returned"), "bonuses": [b["source"] for b in p["bonuses"]],
                        "objects_left": 0 if p["zone"] == "battlefield" and not p.get("ceased") else 1}
                       for i, p in enumerate(st["perms"])],
        # a loss by 704.5b/704.5c doesn't look at life at all: only 704.5a does
        "players": [{"name": p["name"], "loses": bool(p.get("lost")), "by": p.get("by"),
                     "life_matters": (p.get("by") == "704.5a") if p.get("lost") else None} for p in st["players"]],
        "draw": st["draw"], "stack": on_stack,
        "discards": {p["name"]: p.get("discards", 0) for p in st["players"]} if sit["step"] == "cleanup" else None,
    }
