"""Face-down spells and permanents (CR 708) and the ways to be face down: morph and megamorph
(702.37), disguise (702.168), cloak (701.58), manifest (701.40) and manifest dread (701.62).

The situation describes the card's real (face-up) side; its face-down characteristics come from
the rule of the way it is face down. Turning face up follows that way's own procedure, or, for a
manifested/cloaked card with morph or disguise, either procedure (701.40c/d, 701.58c/d).
"""
from __future__ import annotations

from kb.reasoning.cards import colours, mana_value, real_card
from kb.errors import SituationError
from kb.reasoning.facedown.copying import copy_of_face_down, ward_ends
from kb.reasoning.facedown.dread import manifest_dread
from kb.reasoning.facedown.rest import look  # noqa: F401  (registers the rest of 708: leaving, looking, turning down)
from kb.reasoning.facedown.respond import incoming, timing
from kb.reasoning.facedown.schema import M
from kb.reasoning.registry import implements

WARD = ("disguise", "cloak")
SPELL_WAYS = ("morph", "megamorph", "disguise")


def _face_down(st, ward: bool) -> dict:
    return {"name": None, "types": ["creature"], "subtypes": [], "power": 2, "toughness": 2, "colors": [],
            "mana_cost": None, "mana_value": 0, "abilities": ["ward {2}"] if ward else []}


# ---------------------------------------------------------------- what it is while face down


@implements("702.37a", "2/2 face-down creature with no text, no name, no subtypes, and no mana cost",
            "by paying {3} rather than paying its mana cost", mechanic=M)
def morph_chars(st, ctx, **_):
    st["down"] = _face_down(st, False)
    return "morph: a 2/2 face-down creature with no text, no name, no subtypes and no mana cost (cast for {3})"


@implements("702.168a", "2/2 face-down creature with ward {2}, no name, no subtypes, and no mana cost", mechanic=M)
def disguise_chars(st, ctx, **_):
    st["down"] = _face_down(st, True)
    return "disguise: a 2/2 face-down creature with ward {2}, no name, no subtypes and no mana cost (cast for {3})"


@implements("701.58a", "2/2 face-down creature card with ward {2}, no name, no subtypes, and no mana cost",
            "ends when it", mechanic=M)
def cloak_chars(st, ctx, **_):
    st["down"] = _face_down(st, True)
    return "cloaked: a 2/2 face-down creature with ward {2}, no name, no subtypes and no mana cost"


@implements("701.40a", "2/2 face-down creature card with no text, no name, no subtypes, and no mana cost", mechanic=M)
def manifest_chars(st, ctx, **_):
    st["down"] = _face_down(st, False)
    return "manifested: a 2/2 face-down creature with no text, no name, no subtypes and no mana cost"


@implements("708.2a", "2/2 face-down creature with no text, no name, no subtypes, and no mana cost", mechanic=M)
def plain_face_down(st, ctx, **_):
    st["down"] = _face_down(st, False)
    return "turned face down by an effect that lists no characteristics: a 2/2 creature with no text, name, subtypes or mana cost"


@implements("202.3a", "mana value of an object with no mana cost is 0", mechanic=M)
def mv_zero(st, ctx, **_):
    return "it has no mana cost: its mana value is 0"


CHARS = {"morph": "702.37a", "megamorph": "702.37a", "disguise": "702.168a", "cloak": "701.58a",
         "manifest": "701.40a", "manifest-dread": "701.40a", "effect": "708.2a"}


def _characteristics(ctx, st) -> dict:
    ctx.apply(CHARS[st["via"]])
    ctx.apply("202.3a")
    return dict(st["down"])


# ---------------------------------------------------------------- casting face down


@implements("702.37c", "To cast a card using its morph ability, turn it face down", mechanic=M)
@implements("702.168b", "To cast a card using its disguise ability, turn the card face down", mechanic=M)
def cast_down(st, ctx, **_):
    return f"turned face down before it is put on the stack, using its {st['via']} ability; it costs {{3}}"


@implements("708.4", "will see only the face-down spell", "prohibitions that would apply to casting an object with "
            "these characteristics", mechanic=M)
def face_down_spell(st, ctx, **_):
    p = st["s"]["prohibition"]
    down = st["down"]
    blocked = {"even-mana-value": down["mana_value"] % 2 == 0, "odd-mana-value": down["mana_value"] % 2 == 1,
               "creature-spells": True, "noncreature-spells": False}.get(p, False)
    st["cast_blocked"] = blocked
    return (f"effects see only the face-down spell (a 2/2 creature spell, mana value {down['mana_value']})"
            + (f": the prohibition on {p.replace('-', ' ')} applies, so it can't be cast face down" if blocked else
               (f": the prohibition on {p.replace('-', ' ')} doesn't apply" if p != "none" else "")))


@implements("601.3", "no rule or effect prohibits that player from casting it", mechanic=M)
def face_up_instead(st, ctx, **_):
    card, p = st["card"], st["s"]["prohibition"]
    mv = mana_value(card.get("mana_cost"))
    st["up_blocked"] = {"even-mana-value": mv % 2 == 0, "odd-mana-value": mv % 2 == 1,
                        "creature-spells": "creature" in card["types"],
                        "noncreature-spells": "creature" not in card["types"]}.get(p, False)
    return (f"cast face up instead, it is {card['name']} (mana value {mv}): the prohibition on "
            f"{p.replace('-', ' ')} {'applies' if st['up_blocked'] else 'does not apply'}")


@implements("702.37d", "You can't normally cast a card face down", mechanic=M)
@implements("702.168c", "You can't normally cast a card face down", mechanic=M)
def needs_ability(st, ctx, **_):
    return "it can't be cast face down: only a morph or disguise ability allows that"


def _cast(ctx, st):
    card, via = st["card"], st["via"]
    if via not in SPELL_WAYS or not card.get({"megamorph": "megamorph_cost"}.get(via, f"{via}_cost")):
        ctx.apply("702.37d" if via != "disguise" else "702.168c")
        return {"can_cast_face_down": False}
    chars = _characteristics(ctx, st)
    ctx.apply("702.37c" if via != "disguise" else "702.168b")
    ctx.apply("708.4")
    face_up_mv = mana_value(card.get("mana_cost"))
    up = None
    if st["s"]["prohibition"] != "none":  # the same card cast face up is a different spell to the prohibition
        ctx.apply("601.3")
        up = not st["up_blocked"]
    return {"can_cast_face_down": not st["cast_blocked"], "cost": "{3}", "characteristics": chars,
            "face_up_mana_value": face_up_mv, "can_cast_face_up": up}


# ---------------------------------------------------------------- turning face up


@implements("117.1", "The player with priority may cast spells, activate abilities, and take special actions",
            mechanic=M)
def needs_priority(st, ctx, **_):
    if st["s"]["has_priority"]:
        return "you have priority, so you may take a special action now (even in response to a spell)"
    st["up"] = False
    return "no player has priority while a spell or ability resolves: it can't be turned face up now"


@implements("116.2b", "Turning a face-down creature face up is a special action", mechanic=M)
def special(st, ctx, **_):
    return "turning it face up is a special action: it doesn't use the stack, so no one can respond to it"


def _pay(st, cost_name, cost):
    st["cost"] = cost
    st["up"] = bool(cost)
    avail = st["s"]["mana_available"]
    if st["up"] and avail is not None and mana_value(avail) < mana_value(cost):
        st["up"] = False
        st["short"] = True


@implements("701.40b", "is a creature card and what that card's mana cost is", "special action", mechanic=M)
@implements("701.58b", "turn a cloaked permanent you control face up", "special action", mechanic=M)
def by_mana_cost(st, ctx, **_):
    card = st["card"]
    ok = "creature" in card["types"] and card.get("mana_cost")
    _pay(st, "mana cost", card.get("mana_cost") if ok else None)
    if card.get("prototype_cost"):
        ctx.apply("718.4")
    if not ok:
        why = "isn't a creature card" if "creature" not in card["types"] else "has no mana cost"
        return f"the card {why}: it can't be turned face up by paying a mana cost"
    return f"show that it is a creature card and pay its mana cost {card['mana_cost']}, then turn it face up"


@implements("702.37e", "show all players what the permanent", "morph cost would be", mechanic=M)
def by_morph(st, ctx, **_):
    card = st["card"]
    cost = card.get("megamorph_cost") or card.get("morph_cost")
    if st["copied"] is not None:
        cost = st["copied"].get("morph_cost")  # 708.10: face up it would be the copied permanent
    _pay(st, "morph cost", cost)
    if not cost:
        return "face up it wouldn't have a morph cost: it can't be turned face up this way"
    return f"show its morph cost {cost}, pay it, and turn it face up; the morph effect ends"


@implements("702.168d", "show all players what the permanent", "disguise cost would be", mechanic=M)
def by_disguise(st, ctx, **_):
    cost = st["card"].get("disguise_cost")
    _pay(st, "disguise cost", cost)
    if not cost:
        return "face up it wouldn't have a disguise cost: it can't be turned face up this way"
    return f"show its disguise cost {cost}, pay it, and turn it face up; the disguise effect (and its ward) ends"


@implements("701.40c", "card with morph is manifested", mechanic=M)
@implements("701.58c", "card with morph is cloaked", mechanic=M)
def either_morph(st, ctx, **_):
    return "it has morph: either its morph cost or its mana cost may be paid to turn it face up"


@implements("701.40d", "card with disguise is manifested", mechanic=M)
@implements("701.58d", "card with disguise is cloaked", mechanic=M)
def either_disguise(st, ctx, **_):
    return "it has disguise: either its disguise cost or its mana cost may be paid to turn it face up"


@implements("701.40g", "represented by an instant or sorcery card would turn face up", "leaves it face down",
            mechanic=M)
@implements("701.58g", "represented by an instant or sorcery card would turn face up", "leaves it face down",
            mechanic=M)
def instant_stays(st, ctx, **_):
    if not {"instant", "sorcery"} & set(st["card"]["types"]):
        return None
    st["up"] = False
    st["revealed"] = True
    return "it is an instant or sorcery card: it is revealed and left face down; face-up triggers don't trigger"


@implements("702.37b", "put a +1/+1 counter on it if its megamorph cost was paid to turn it face up", mechanic=M)
def megamorph(st, ctx, **_):
    st["counters"] += 1
    ctx.apply("708.11")
    return "its megamorph cost was paid: a +1/+1 counter is put on it"


@implements("708.11", "that ability is applied while that permanent is being turned face up", mechanic=M)
def as_turned_up(st, ctx, **_):
    return "the 'as it is turned face up' part applies while it turns face up, not afterwards"


@implements("712.15a", "If it's turned face up, it will have its front face up", mechanic=M)
def dfc_front(st, ctx, **_):
    return "a double-faced card turns face up with its front face up; while face down it couldn't transform"


@implements("708.8", "Any effects that have been applied to the face-down permanent still apply",
            "don't trigger and don't have any effect", mechanic=M)
def after_up(st, ctx, **_):
    return ("its copiable values revert to the card's; effects applied while face down still apply; "
            "its enters-the-battlefield abilities don't trigger")


@implements("708.10", "if it is turned face up, its copiable values become the values it copied", mechanic=M)
def copied_while_down(st, ctx, **_):
    return (f"it is a copy of {st['copied']['name']}, but face down its characteristics stay those of a face-down "
            f"2/2; turned face up it would be {st['copied']['name']}")


def _bonus(st) -> tuple[int, int]:
    p = t = st["counters"]
    for e in st["s"]["effects"]:
        for sign, a, b in __import__("re").findall(r"([+-])(\d+)/[+-](\d+)", e):
            k = 1 if sign == "+" else -1
            p, t = p + k * int(a), t + k * int(b)
    return p, t


def _turn_up(ctx, st):
    card, via, method = st["card"], st["via"], st["s"]["method"]
    if method == "own":
        method = {"morph": "morph", "megamorph": "morph", "disguise": "disguise"}.get(via, "mana-cost")
    if via in ("manifest", "manifest-dread", "cloak"):
        if card.get("morph_cost") or card.get("megamorph_cost"):
            ctx.apply("701.40c" if via != "cloak" else "701.58c")
        if card.get("disguise_cost"):
            ctx.apply("701.40d" if via != "cloak" else "701.58d")
    if st["copied"] is not None:
        ctx.apply("708.10")
    st.update(up=True, cost=None)
    if method == "mana-cost" and via in SPELL_WAYS + ("effect",):
        st["up"] = False
        st["reason"] = "a mana cost turns up only a manifested or cloaked permanent"
        if via == "effect":
            ctx.apply("708.7")
    elif method == "mana-cost":
        ctx.apply("701.40b" if via != "cloak" else "701.58b")
    elif method in ("morph", "megamorph"):
        ctx.apply("702.37e")
    elif method == "disguise":
        ctx.apply("702.168d")
    if method != "effect":
        ctx.apply("117.1")
    # every special action the rules above allow for this permanent (701.40b–d, 701.58b–d, 702.37e, 702.168d)
    manifested = via in ("manifest", "manifest-dread", "cloak") and "creature" in card["types"] and card.get("mana_cost")
    allowed = ([card["mana_cost"]] if manifested else []) + [
        card[k] for k in ("megamorph_cost", "morph_cost", "disguise_cost") if card.get(k)
        and (via in ("manifest", "manifest-dread", "cloak") or k.startswith(via))]
    ctx.apply("701.40g" if via != "cloak" else "701.58g")
    if not st["up"]:
        return {"can_turn_face_up": False, "allowed_costs": allowed, "by_mana_cost": bool(manifested),
                "revealed": st.get("revealed", False), "remains_face_down": True,
                "cost": st["cost"], "reason": st.get("reason") or ("not enough mana" if st.get("short") else None),
                "turned_face_up_triggers": False, "characteristics": dict(st["down"]),
                "effect_turns_it_face_up": not st.get("revealed"), "incoming": incoming(ctx, st, None),
                "can_pay_prototype_cost": False if card.get("prototype_cost") else None}
    if method != "effect":
        ctx.apply("116.2b")
    if method == "megamorph" or (method == "morph" and via == "megamorph" and card.get("megamorph_cost")):
        ctx.apply("702.37b")
    dfc = {}
    if card.get("double_faced"):
        ctx.apply("712.15a")
        dfc = {"face_up_after": "front", "can_transform_while_face_down": False}
    if method != "disguise":
        ward_ends(ctx, st)
    ctx.apply("708.8")
    real = st["copied"] or card
    p, t = _bonus(st)
    after = {"name": real.get("name"), "types": real.get("types"), "power": None if real.get("power") is None else
             real["power"] + p, "toughness": None if real.get("toughness") is None else real["toughness"] + t,
             "abilities": real.get("abilities", []), "mana_value": mana_value(real.get("mana_cost")),
             "colors": colours(real.get("mana_cost"), real.get("color_indicator"))}
    return {**dfc, "can_turn_face_up": True, "cost": st["cost"], "allowed_costs": allowed,
            "by_mana_cost": bool(manifested), "uses_stack": False if method != "effect" else None,
            "can_be_responded_to": False, "after": after, "plus1_counters": st["counters"],
            "effects_still_apply": True, "etb_triggers": False, "ward_after": False,
            "turned_face_up_triggers": bool(real.get("turned_face_up_ability")),
            "survives_damage": after["toughness"] is None or st["s"]["damage"] < after["toughness"],
            "effect_turns_it_face_up": True, "timing": timing(ctx, st) if method != "effect" else None,
            "incoming": incoming(ctx, st, after),
            "can_pay_prototype_cost": False if card.get("prototype_cost") else None}


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    q = sit["question"]
    if "card" not in sit and q != "manifest-dread":  # manifest dread takes its cards from top_cards
        raise SituationError("card", f"required for the question {q!r}: the face-down card (its face-up side)",
                             message_ja="この質問には裏向きのカード（表の面）が必要です", label_ja="裏向きのカード")
    card = dict(sit.get("card") or {})
    real_card(ctx, card.get("name"), "card.name")
    copied = sit["copied"] if sit["copied"].get("name") else None
    if q == "becomes-copy" and copied is None:
        raise SituationError("copied", "required for 'becomes-copy': the permanent it becomes a copy of (with its name)",
                             message_ja="コピー先のパーマネント（名前）が必要です", label_ja="コピー先のパーマネント")
    st.update(s=sit, card=card, via=sit["via"], counters=sit["plus1_counters"], copied=copied, down=None)
    if q == "characteristics":
        return {"characteristics": _characteristics(ctx, st), "face_down": True}
    if q == "cast-face-down":
        return _cast(ctx, st)
    if q == "turn-face-up":
        _characteristics(ctx, st)
        return _turn_up(ctx, st)
    if q == "turn-face-down":
        if sit["face_up_now"] and card.get("double_faced"):
            ctx.apply("712.16")
            return {"turned_face_down": False, "anything_changes": False, "name_after": card["name"]}
        if sit["face_up_now"]:
            ctx.apply("708.2a")
            return {"turned_face_down": True, "characteristics": dict(st["down"])}
        ctx.apply("708.2b")
        return {"turned_face_down": False, "anything_changes": False}
    if q == "leaves":
        destroyed = None
        if sit["from_zone"] == "battlefield" and sit["destination"] == "graveyard" and sit["damage"]:
            destroyed = sit["damage"] >= (st["down"] or _characteristics(ctx, st))["toughness"]
            if destroyed:
                ctx.apply("704.5g", using="lethal")
        spell = sit["from_zone"] == "stack"
        if spell:  # a face-down spell is a spell with the face-down characteristics: "target spell" can target it
            _characteristics(ctx, st)
        ctx.apply("708.9")
        countered = spell and sit["destination"] == "graveyard"
        if countered:
            ctx.apply("701.6a")
        return {"revealed": True, "revealed_to": "all players", "zone": sit["destination"], "destroyed": destroyed,
                "countered": True if countered else None, "can_be_targeted": True if spell else None}
    if q == "look":
        ctx.apply("708.5")
        return {"may_look": st["may_look"], "controller_may_look": st["controller_may_look"]}
    if q == "copy":
        return copy_of_face_down(ctx, st, _characteristics(ctx, st))
    if q == "becomes-copy":
        chars = _characteristics(ctx, st)
        ctx.apply("708.10")
        return {"characteristics": chars, "name_if_turned_face_up": copied and copied["name"],
                "can_turn_face_up_with_morph_cost": bool(copied and copied.get("morph_cost"))}
    return manifest_dread(ctx, st, _characteristics)
