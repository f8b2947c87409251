"""Split cards (CR 709.1–709.4), fuse (702.102) and adventurer cards (715): characteristics and
mana value in each zone, casting a half, both halves or the Adventure, exile and casting later,
copies."""
from __future__ import annotations

from kb.reasoning.cards import colours, combine_costs, mana_value, real_card
from kb.reasoning.registry import implements
from kb.reasoning.requirement import requirement_check
from kb.reasoning.split.resolve import on_target, watch
from kb.reasoning.split.schema import M


def _one(h):
    return {"names": [h["name"]], "types": list(h["types"]), "mana_cost": h.get("mana_cost"),
            "mana_value": mana_value(h.get("mana_cost")), "colors": colours(h.get("mana_cost"), h.get("color_indicator")),
            "power": h.get("power"), "toughness": h.get("toughness")}


def _both(st):
    cost = combine_costs(st["left"].get("mana_cost"), st["right"].get("mana_cost"))
    return {"names": [st["left"]["name"], st["right"]["name"]],
            "types": list(dict.fromkeys(st["left"]["types"] + st["right"]["types"])), "mana_cost": cost,
            "mana_value": mana_value(cost), "colors": colours(cost), "power": None, "toughness": None}


@implements("709.4", "In every zone except the stack, the characteristics of a split card are those of its two "
            "halves combined", mechanic=M)
def combined(st, ctx, **_):
    st["chars"] = _both(st)
    ctx.apply("709.4b")
    return f"in the {st['zone']} it has both halves' characteristics combined: {' // '.join(st['chars']['names'])}"


@implements("709.4b", "colors and mana value are determined from its combined mana cost", mechanic=M)
def combined_cost(st, ctx, **_):
    ctx.apply("202.3d")
    return f"combined mana cost {st['chars']['mana_cost']}: mana value {st['chars']['mana_value']}"


@implements("202.3d", "determined from the combined mana costs of its halves", "half that was chosen to be cast",
            mechanic=M)
def mv_rule(st, ctx, **_):
    return f"mana value {st['chars']['mana_value']} (202.3d)"


@implements("709.3", "chooses which half of a split card they are casting", mechanic=M)
def one_half(st, ctx, **_):
    return "without fuse a player casts one half of a split card, chosen before it goes on the stack"


@implements("709.3b", "only the characteristics of the half being cast exist", mechanic=M)
def half_only(st, ctx, **_):
    st["chars"] = _one(st[st["half"]])
    ctx.apply("202.3d")
    return f"on the stack only the {st['half']} half ({st[st['half']]['name']}) exists"


@implements("709.4d", "characteristics of a fused split spell on the stack are also those of its two halves combined",
            mechanic=M)
def fused_chars(st, ctx, **_):
    st["chars"] = _both(st)
    ctx.apply("702.102b")
    ctx.apply("202.3d")
    return f"a fused split spell has both halves' characteristics: {' // '.join(st['chars']['names'])}"


@implements("702.102b", "A fused split spell has the combined characteristics of its two halves", mechanic=M)
def fused_b(st, ctx, **_):
    return "fused: the spell has both halves' combined characteristics"


@implements("715.4", "an adventurer card has only its normal characteristics", mechanic=M)
def adventurer_normal(st, ctx, **_):
    st["chars"] = _one(st["left"])
    return f"it has only its normal characteristics ({st['left']['name']})"


@implements("715.3b", "the spell has only its alternative characteristics", mechanic=M)
def adventure_chars(st, ctx, **_):
    st["chars"] = _one(st["right"])
    return f"on the stack as an Adventure: only the Adventure's characteristics ({st['right']['name']})"


def characteristics(ctx, st):
    adv = st["layout"] == "adventure"
    if adv:
        ctx.apply("715.3b" if st["zone"] == "stack" and st["half"] == "right" else "715.4")
    elif st["zone"] != "stack":
        ctx.apply("709.4")
    elif st["half"] == "both":
        ctx.apply("709.4d")
    else:
        ctx.apply("709.3b")
    return st["chars"]


@implements("702.102a", "If a player casts a split card with fuse from their hand", mechanic=M)
def fuse_from_hand(st, ctx, **_):
    ok = st["s"]["zone"] == "hand"
    st["ok"] = ok
    return "cast from the hand, both halves may be cast (fused)" if ok else \
        f"fuse works only from the hand: from the {st['s']['zone']} only one half can be cast"


@implements("709.3a", "Only the chosen half is evaluated to see if it can be cast", mechanic=M)
@implements("715.3a", "only the alternative characteristics are evaluated", mechanic=M)
def evaluated(st, ctx, **_):
    return _evaluate(st, f"only the {'Adventure' if st['layout'] == 'adventure' else st['half'] + ' half'} is evaluated")


def _evaluate(st, what):
    mv = st["chars"]["mana_value"]
    p = st["s"]["prohibition"]
    blocked = {"even-mana-value": mv % 2 == 0, "odd-mana-value": mv % 2 == 1,
               "mana-value-4-or-more": mv >= 4}.get(p, False)
    st["ok"] = st["ok"] and not blocked
    return f"{what} (mana value {mv})" + (f": prohibited ({p.replace('-', ' ')})" if blocked else "")


@implements("702.102c", "total cost of a fused split spell includes the mana cost of each half", mechanic=M)
def fuse_cost(st, ctx, **_):
    ctx.apply("709.4d")
    _evaluate(st, "the fused spell is evaluated")
    return f"the total cost includes both halves' mana costs: {st['chars']['mana_cost']}"


@implements("715.3", "chooses whether they play the card normally or as an Adventure", mechanic=M)
def adventure_choice(st, ctx, **_):
    return f"the player chooses to cast it {'as an Adventure' if st['half'] == 'right' else 'normally'}"


@implements("715.3d", "its controller exiles it", "It can't be cast as an Adventure this way", mechanic=M)
def adventure_exile(st, ctx, **_):
    if st["s"]["question"] != "resolves":
        return None
    return (f"as the Adventure resolves it is exiled instead; later its controller may cast {st['left']['name']} "
            "from exile, but not the Adventure again")


@implements("715.3d", "Instead of putting a spell that was cast as an Adventure into its owner's graveyard as it resolves",
            mechanic=M)
def adventure_not_exiled(st, ctx, **_):
    return "only an Adventure that resolves is exiled this way; a countered one isn't: no permission to cast it later"


@implements("715.3d", "For as long as that card remains exiled, that player may play it",
            "It can't be cast as an Adventure this way", mechanic=M)
def adventure_from_exile(st, ctx, **_):
    if st["half"] == "right":
        st["ok"] = False
        return "exiled on an Adventure, the card may be cast from exile, but not as an Adventure again"
    return f"exiled on an Adventure, {st['left']['name']} may be cast from exile (the usual timing still applies)"


@implements("117.1a", "A player may cast an instant spell any time they have priority",
            "noninstant spell during their main phase any time they have priority and the stack is empty", mechanic=M)
def timing(st, ctx, **_):
    faces = {"left": [st["left"]], "right": [st["right"]], "both": [st["left"], st["right"]]}[st["half"]]
    if "instant" in st["chars"]["types"] or any("flash" in a.lower() for f in faces for a in f.get("abilities", ())):
        return None  # an instant (or a spell with flash) may be cast any time its caster has priority
    if st["s"]["own_turn_main_phase"]:
        return None
    st["ok"] = False
    return "a noninstant spell can be cast only in its caster's main phase with an empty stack, not now"


@implements("701.6a", "A countered spell is put into its owner", mechanic=M)
def countered(st, ctx, **_):
    return "a countered spell goes to its owner's graveyard (an Adventure isn't exiled: it didn't resolve)"


@implements("702.102d", "follows the instructions of the left half and then follows the instructions of the right",
            mechanic=M)
def fused_order(st, ctx, **_):
    return f"resolving: {st['left']['name']}'s instructions, then {st['right']['name']}'s"


@implements("707.10", "a copy of a spell isn't cast", mechanic=M)
def copy_spell(st, ctx, **_):
    return "the copy is put on the stack, not cast, with the same choices (which half, fused)"


@implements("715.3c", "the copy is also an Adventure", mechanic=M)
def copy_adventure(st, ctx, **_):
    return "a copy of an Adventure is also an Adventure, with only the Adventure's characteristics"


@implements("704.5e", "If a copy of a spell is in a zone other than the stack, it ceases to exist", mechanic=M)
def copy_gone(st, ctx, **_):
    return "the copy ceases to exist once it leaves the stack: there is no card to cast from exile"


@implements("715.2b", "existence and values of these alternative characteristics are part of the object", mechanic=M)
def copy_adventurer(st, ctx, **_):
    return "the Adventure's characteristics are copiable values: the copy also has an Adventure"


@implements("715.2a", "has an Adventure", "even if the object currently doesn't use them", mechanic=M)
def has_adventure(st, ctx, **_):
    return (f"cast as {st['left']['name']}, the spell still \"has an Adventure\" ({st['right']['name']}): "
            "an effect that refers to a spell that has an Adventure sees it")


_requirement = requirement_check(M)


@implements("709.2", "each split card is only one card", mechanic=M)
@implements("715.2c", "each adventurer card is only one card", mechanic=M)
def one_card(st, ctx, **_):
    return "it is one card, not two"


@implements("709.4a", "must choose one of those names and not both", "has the chosen name if one of its names", mechanic=M)
def split_name(st, ctx, **_):
    return "a split card has two names: one may be chosen, not both; the card has the chosen name"


@implements("715.5", "wants to choose an adventurer card", "may do so", mechanic=M)
def adventure_name(st, ctx, **_):
    return "the Adventure's name may be chosen"


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    adv = sit["layout"] == "adventure"
    half = {"left": "left", "right": "right", "fused": "both", "creature": "left", "adventure": "right"}[sit["cast_as"]]
    st.update(s=sit, left=sit["left"], right=sit["right"], layout=sit["layout"], zone=sit["zone"], half=half,
              chars=None, ok=True)
    for side in ("left", "right"):
        real_card(ctx, sit[side]["name"], f"{side}.name")
    q = sit["question"]
    if q == "characteristics":
        chars = characteristics(ctx, st)
        return {"characteristics": chars, "meets_requirement": _requirement(ctx, st, chars)}
    if q == "card-count":
        ctx.apply("715.2c" if adv else "709.2")
        return {"cards": 1}
    if q == "name-a-card":
        if adv:
            ctx.apply("715.5")
        else:
            ctx.apply("709.4a")
        names = [sit["left"]["name"], sit["right"]["name"]]
        has = names if not adv else names[:1]  # outside the stack an adventurer has only its normal name (715.4)
        chosen = sit["chosen_name"]  # none given: the player names this card, so one of its names (709.4a)
        return {"may_name_both": False, "may_name_adventure": True if adv else None,
                "must_choose_one_of": names if not adv else None, "valid": chosen in names if chosen else None,
                "has_chosen_name": chosen in has if chosen else True}
    if q == "copy-permanent":
        ctx.apply("715.2b")
        return {"copy_has_adventure": True, "characteristics": _one(sit["left"])}
    before = None
    already = sit["zone"] == "stack" and q != "cast"  # a spell on the stack: it was cast already
    if sit["zone"] != "stack":
        before = characteristics(ctx, st)["mana_value"]
    st["zone"] = "stack"
    if adv:
        ctx.apply("715.3")
    if adv and sit["was_adventure"] and sit["zone"] == "exile":
        ctx.apply("715.3d", using="adventure_from_exile")
    if already:
        if half == "both" and sit["layout"] != "fuse":
            st["ok"] = False
            ctx.apply("709.3")
        else:
            characteristics(ctx, st)
    elif half == "both":
        if sit["layout"] != "fuse":
            st["ok"] = False
            ctx.apply("709.3")
        else:
            ctx.apply("702.102a")
            if st["ok"]:
                ctx.apply("702.102c")
    else:
        characteristics(ctx, st)
        ctx.apply("715.3a" if adv and half == "right" else "709.3a")
    if st["ok"] and not already:
        ctx.apply("117.1a")
    chars = st["chars"]
    out = {"can_cast": st["ok"], "mana_value_before": before, "on_stack": chars if st["ok"] else None,
           "mana_value_evaluated": chars["mana_value"] if chars else None}
    if st["ok"] and adv and half == "left":
        ctx.apply("715.2a")
        out["has_adventure"] = True
    if q == "cast" and st["ok"]:
        out["cast_triggers"] = watch(ctx, st, chars, bool(adv))
    if q == "cast" and st["ok"] and half == "both":  # what the fused spell will do as it resolves
        ctx.apply("702.102d")
        out |= {"total_cost": chars.get("mana_cost"), "resolution_order": [sit["left"]["name"], sit["right"]["name"]]}
    if q == "cast" and st["ok"]:
        out["target_after"] = on_target(ctx, st, [sit["left"], sit["right"]] if half == "both" else [sit[half]])
    if q == "cast" or not st["ok"]:
        return out
    if q == "resolves":
        if half == "both":
            ctx.apply("702.102d")
        if adv and half == "right":
            ctx.apply("715.3d")
            return out | {"zone_after": "exile", "may_cast_creature_later": True, "may_cast_adventure_later": False}
        return out | {"zone_after": "battlefield" if set(chars["types"]) & {"creature", "artifact", "enchantment"}
                      else "graveyard"}
    if q == "countered":
        ctx.apply("701.6a")
        if adv and half == "right":
            ctx.apply("715.3d", using="adventure_not_exiled")
        return out | {"zone_after": "graveyard", "may_cast_creature_later": False}
    ctx.apply("707.10")
    if half == "both":  # the copy is fused too: it does what both halves say, left first
        ctx.apply("702.102d")
    if adv and half == "right":
        ctx.apply("715.3c")
    ctx.apply("704.5e")
    return out | {"copy_is_cast": False, "copy": chars, "copy_is_fused": half == "both",
                  "copy_is_adventure": adv and half == "right", "copy_remains": False,
                  "follows": [sit["left"]["name"], sit["right"]["name"]] if half == "both" else list(chars["names"]),
                  "may_cast_creature_later": False if adv else None}
