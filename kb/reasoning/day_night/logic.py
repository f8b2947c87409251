"""Day and night (CR 731) with daybound / nightbound (CR 702.145).

State: ``designation`` ("neither" | "day" | "night"), ``battlefield`` (permanents: name,
``ability`` daybound|nightbound|none for the face that is up, ``double_faced``, triggers),
``changes`` (designation changes in order) and ``triggered``.
"""
from __future__ import annotations

from kb.reasoning.dfc.logic import transform
from kb.reasoning.registry import implements
from kb.reasoning.day_night.schema import M


def _with(st, ability):
    return [p for p in st["battlefield"] if p["ability"] == ability]


# ---------------------------------------------------------------- 731: the designation


@implements("731.1", "The game starts with neither designation", mechanic=M)
def game_starts_neither(st, ctx, **_):
    if st["event"] != "game-start":
        return None
    st["designation"] = "neither"
    return "the game starts with neither day nor night"


@implements("731.1", "exactly one of those designations from that point forward", mechanic=M)
def never_back_to_neither(st, ctx, **_):
    if st["designation"] == "neither":
        return None
    st["can_become_neither"] = False
    return f"it is {st['designation']}; once day or night, the game never returns to neither"


@implements("731.1", "Other effects can also make it day or night", mechanic=M)
def effect_makes_it(st, ctx, value=None, **_):
    return _become(st, ctx, value, "an effect")


def _become(st, ctx, value, why):
    before = st["designation"]
    if value is None or value == before:
        return None
    st["designation"] = value
    st["changes"].append((before, value))
    if before != "neither":
        ctx.apply("731.1a", before=before, after=value)
    ctx.apply("702.145b" if value == "night" else "702.145e", using="transform_as_it_changes", when=value)
    return f"{why} makes it {value} (was {before})"


@implements("731.1a", "day becomes night", "losing the first designation and gaining the second", mechanic=M)
def day_becomes_night(st, ctx, before=None, after=None, **_):
    if not before:
        return None
    fired = [p["name"] for p in st["battlefield"] if p["day_night_trigger"]]
    for name in fired:
        st["triggered"].append({"source": name, "event": f"{before} becomes {after}"})
    return (f"'{before} becomes {after}': the game lost {before} and gained {after}"
            + (f"; triggers: {', '.join(fired)}" if fired else ""))


@implements("731.2", "second part of the untap step", "checks the previous turn", mechanic=M)
def untap_check(st, ctx, **_):
    return "the untap step checks the previous turn for a day/night change" if st["event"] == "untap-step" else None


def _counted(st):
    """Spells the previous turn's active player (or team) cast; copies not cast don't count."""
    team = st["shared_team_turns"]
    by = {"active-player", "teammate"} if team else {"active-player"}
    return [s for s in st["previous_turn_spells"] if s["by"] in by and s["how"] != "copied-not-cast"]


@implements("707.10", "a copy of a spell isn't cast", mechanic=M)
def copies_not_counted(st, ctx, **_):
    """731.2a/b count spells *cast*; 707.10 is why a copy put on the stack is not one of them."""
    n = sum(1 for s in st["previous_turn_spells"] if s["how"] == "copied-not-cast")
    if not n:
        return None
    return f"{n} copy/copies of a spell were put on the stack, not cast: they aren't counted as spells cast"


@implements("707.12", "then the copy becomes cast", mechanic=M)
def cast_copies_counted(st, ctx, **_):
    n = sum(1 for s in st["previous_turn_spells"] if s["how"] == "cast-copy")
    if not n:
        return None
    return f"{n} copy/copies were cast (an effect instructed casting them): each is a spell cast and counts"


@implements("731.2c", "neither day nor night, this check doesn't happen", mechanic=M)
def no_check_when_neither(st, ctx, **_):
    if st["event"] != "untap-step" or st["designation"] != "neither":
        return None
    st["check_skipped"] = True
    return "it's neither day nor night: the check doesn't happen and it remains neither"


@implements("731.2a", "previous turn's active player didn't cast any spells", "it becomes night", mechanic=M)
def day_to_night(st, ctx, **_):
    if st["event"] != "untap-step" or st["designation"] != "day":
        return None
    n = len(_counted(st))
    if n:
        return f"the previous turn's active player cast {n} spell(s): it stays day"
    return _become(st, ctx, "night", "no spell cast by the previous turn's active player")


@implements("731.2b", "two or more spells", "it becomes day", mechanic=M)
def night_to_day(st, ctx, **_):
    if st["event"] != "untap-step" or st["designation"] != "night":
        return None
    team = st["shared_team_turns"]
    counts = {}
    for s in _counted(st):
        counts[s["by"]] = counts.get(s["by"], 0) + 1
    # Team rule: any one player of the active team cast two or more (not a team total).
    n = max(counts.values(), default=0) if team else counts.get("active-player", 0)
    if n < 2:
        return f"the previous turn's active player cast {n} spell(s), fewer than two: it stays night"
    return _become(st, ctx, "day", f"{n} spells cast by the previous turn's active player")


@implements("502.4", "will be held until the next time a player would receive priority", mechanic=M)
def held_in_untap(st, ctx, **_):
    if st["event"] != "untap-step" or not st["triggered"]:
        return None
    return "no player gets priority in the untap step: the triggered abilities wait"


@implements("503.1a", "triggered during the untap step", "before the active player gets priority", mechanic=M)
def upkeep_puts_triggers(st, ctx, **_):
    if st["event"] != "untap-step" or not st["triggered"]:
        return None
    for t in st["triggered"]:
        t["put_on_stack"] = "as the upkeep step begins, before the active player gets priority"
    return "the triggers go on the stack as the upkeep begins, before the active player gets priority"


@implements("603.3", "the next time a player would receive priority", mechanic=M)
def triggers_next_priority(st, ctx, **_):
    pending = [t for t in st["triggered"] if "put_on_stack" not in t]
    for t in pending:
        t["put_on_stack"] = "the next time a player would receive priority"
    return "the triggered abilities go on the stack the next time a player would receive priority" if pending else None


# ---------------------------------------------------------------- 702.145: daybound and nightbound


@implements("702.145b", "If it is night and this permanent is represented by a double-faced card, it enters transformed",
            mechanic=M)
def enters_transformed_at_night(st, ctx, perm=None, **_):
    if perm is None or perm["ability"] != "daybound" or st["designation"] != "night" or not perm["double_faced"]:
        return None
    perm["ability"] = "nightbound"
    perm["entered_transformed"] = True
    return f"{perm['name']} enters transformed (it's night): nightbound face up"


@implements("702.145b", "As it becomes night, if this permanent is front face up, transform it", mechanic=M)
@implements("702.145e", "As it becomes day, if this permanent is back face up, transform it", mechanic=M)
def transform_as_it_changes(st, ctx, when=None, **_):
    if when is None:
        return None
    return _flip_all(st, ctx, "daybound" if when == "night" else "nightbound", when)


@implements("702.145c", "front face up with daybound and it's night", "transforms that permanent", mechanic=M)
def daybound_at_night(st, ctx, **_):
    return _flip_all(st, ctx, "daybound", "night")


@implements("702.145f", "back face up with nightbound and it's day", "transforms that permanent", mechanic=M)
def nightbound_at_day(st, ctx, **_):
    return _flip_all(st, ctx, "nightbound", "day")


def _flip_all(st, ctx, ability, when):
    if st["designation"] != when:
        return None
    done = []
    for p in _with(st, ability):
        if p.get("transform_failed"):
            continue
        other = "nightbound" if ability == "daybound" else "daybound"
        if transform(ctx, p, lambda q: q.__setitem__("ability", other)):
            st["transformed"].append(p["name"])
            done.append(p["name"])
        else:
            p["transform_failed"] = True  # nothing happens; don't retry (would loop)
            done.append(f"{p['name']} (not double-faced: nothing happens)")
    return f"it's {when}: {ability} permanents transform: {', '.join(done)}" if done else None


@implements("702.145d", "permanent with daybound, if it's neither day nor night, it becomes day", mechanic=M)
def daybound_makes_day(st, ctx, **_):
    if st["designation"] != "neither" or not _with(st, "daybound"):
        return None
    return _become(st, ctx, "day", "a daybound permanent")


@implements("702.145g", "no permanents with daybound on the battlefield, it becomes night", mechanic=M)
def nightbound_makes_night(st, ctx, **_):
    if st["designation"] != "neither" or not _with(st, "nightbound") or _with(st, "daybound"):
        return None
    return _become(st, ctx, "night", "a nightbound permanent with no daybound permanent")


@implements("702.145b", "can't transform except due to its daybound ability", mechanic=M)
@implements("702.145e", "can't transform except due to its nightbound ability", mechanic=M)
def only_by_own_ability(st, ctx, perm=None, bound=None, **_):
    if perm is None or perm["ability"] != bound:
        return None
    perm["transform_refused"] = True
    return f"{perm['name']} has {bound}: it can't transform except due to its {bound} ability; nothing happens"


def _transform_effect(st, ctx, names):
    for p in (p for p in st["battlefield"] if p["name"] in names):
        if p["ability"] in ("daybound", "nightbound"):
            rule = "702.145b" if p["ability"] == "daybound" else "702.145e"
            ctx.apply(rule, using="only_by_own_ability", perm=p, bound=p["ability"])
        elif transform(ctx, p, lambda q: None):
            st["transformed"].append(p["name"])


BOUND = ("702.145d", "702.145g", "702.145c", "702.145f")


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    st.update(event=sit["event"], designation=sit["designation"], shared_team_turns=sit["shared_team_turns"],
              battlefield=[dict(p) for p in sit["battlefield"]], previous_turn_spells=sit["previous_turn_spells"],
              changes=[], triggered=[], transformed=[])
    before = st["designation"]
    ev = sit["event"]
    if ev == "game-start":
        ctx.apply("731.1", using="game_starts_neither")
    elif ev == "permanents-enter":
        for p in sit["entering"]:
            p = dict(p)
            ctx.apply("702.145b", using="enters_transformed_at_night", perm=p)
            st["battlefield"].append(p)
        for p in sit["entering"]:
            if p["becomes_day_on_entry"] and st["designation"] == "neither":
                ctx.apply("731.1", using="effect_makes_it", value="day")
    elif ev == "untap-step":
        ctx.apply("731.2")
        st["designation_checked"] = st["designation"]
        # One check, decided by the designation at its start (a change must not re-trigger 731.2b).
        ctx.apply({"neither": "731.2c", "day": "731.2a", "night": "731.2b"}[st["designation"]])
        if st["designation_checked"] != "neither":  # what was counted, and why copies count or not
            ctx.apply("707.10")
            ctx.apply("707.12")
    elif ev == "effect":
        ctx.apply("731.1", using="effect_makes_it", value=sit["becomes"])
    elif ev == "transform-effect":
        _transform_effect(st, ctx, set(sit["transforming"]))
    elif ev == "permanents-leave":
        st["battlefield"] = [p for p in st["battlefield"] if p["name"] not in set(sit["leaving"])]
    ctx.fixpoint(BOUND)
    if ev == "untap-step":
        ctx.apply("502.4")
        ctx.apply("503.1a")
    ctx.apply("603.3")
    ctx.apply("731.1", using="never_back_to_neither")
    return {"designation_before": before, "designation": st["designation"],
            "changes": [f"{a} -> {b}" for a, b in st["changes"]],
            "can_become_neither_again": st["designation"] == "neither",
            "spells_counted": len(_counted(st)) if ev == "untap-step" else None,
            "transformed": st["transformed"], "triggered": st["triggered"],
            "battlefield": [{"name": p["name"], "ability": p["ability"]} for p in st["battlefield"]]}


# Ruling checks for the MTG Wiki 昼 page: each restates the ruling's own situation and claim; the
