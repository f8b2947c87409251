"""Modal double-faced cards (CR 712.8, 712.11b–c, 712.12, 712.14, 305, 707.8a, 712.19) beside
transforming ones: which face can be cast, played or put onto the battlefield; mana value in each
zone (each face has its own cost on the stack and battlefield, the front's elsewhere)."""
from __future__ import annotations

from kb.reasoning.cards import colours, is_permanent_card, mana_value, real_card
from kb.reasoning.mdfc.schema import M
from kb.reasoning.registry import implements
from kb.reasoning.requirement import requirement_check


def _chars(st, side, mv=None):
    f = st[side]
    return {"face": side, "name": f["name"], "types": f["types"], "power": f.get("power"),
            "toughness": f.get("toughness"), "loyalty": f.get("loyalty"),
            "mana_value": mana_value(f.get("mana_cost")) if mv is None else mv,
            "colors": colours(f.get("mana_cost"), f.get("color_indicator"))}


@implements("712.8a", "zone other than the battlefield or stack, it has only the characteristics of its front face",
            mechanic=M)
def front_only(st, ctx, **_):
    st["chars"] = _chars(st, "front")
    return f"in the {st['zone']} it has only its front face's characteristics (mana value {st['chars']['mana_value']})"


@implements("712.8f", "only the characteristics of the face that", mechanic=M)
def face_up_only(st, ctx, **_):
    st["chars"] = _chars(st, st["up"])
    return (f"modal, on the {st['zone']}: only the {st['up']} face's characteristics, its own mana cost "
            f"(mana value {st['chars']['mana_value']})")


@implements("712.8d", "front face up, it has only the characteristics of its front face", mechanic=M)
def tdfc_front(st, ctx, **_):
    st["chars"] = _chars(st, "front")
    return "front face up: only the front face's characteristics"


@implements("712.8e", "back face up, it has only the characteristics of its back face",
            "mana value is calculated using the mana cost of its front face", mechanic=M)
def tdfc_back(st, ctx, **_):
    st["chars"] = _chars(st, "back", mana_value(st["front"].get("mana_cost")))
    ctx.apply("202.3b")
    return f"back face up: back face's characteristics; mana value from the front face = {st['chars']['mana_value']}"


@implements("202.3b", "calculated as though it had the mana cost of its front face", mechanic=M)
def mv_front(st, ctx, **_):
    return "the back face of a transforming card uses its front face's mana cost for mana value"


@implements("202.3a", "mana value of an object with no mana cost is 0", mechanic=M)
def mv_zero(st, ctx, **_):
    if st["chars"]["mana_value"] or st[st["chars"]["face"]].get("mana_cost"):
        return None
    return f"the {st['chars']['face']} face has no mana cost: mana value 0"


def characteristics(ctx, st):
    if st["zone"] not in ("battlefield", "stack"):
        ctx.apply("712.8a")
    elif st["modal"]:
        ctx.apply("712.8f")
    elif st["up"] == "front":
        ctx.apply("712.8d")
    else:
        ctx.apply("712.8e")
    if st["modal"] or st["up"] == "front":
        ctx.apply("202.3a")
    return st["chars"]


_requirement = requirement_check(M)


@implements("712.11b", "chooses which face they are casting before putting it onto the stack", mechanic=M)
def choose_face(st, ctx, **_):
    return f"the player chooses to cast the {st['up']} face ({st[st['up']]['name']})"


@implements("712.11c", "Only the face that will be face up on the stack is evaluated", mechanic=M)
def evaluate_face(st, ctx, **_):
    f = st[st["up"]]
    mv = mana_value(f.get("mana_cost"))
    p = st["s"]["prohibition"]
    blocked = {"even-mana-value": mv % 2 == 0, "odd-mana-value": mv % 2 == 1,
               "creature-spells": "creature" in f["types"], "noncreature-spells": "creature" not in f["types"]}.get(p)
    lands = "land" in f["types"]
    st["castable"] = not blocked and not lands
    why = ("a land face can't be cast" if lands else f"the prohibition on {p.replace('-', ' ')} applies" if blocked
           else "nothing stops it")
    return f"only the {st['up']} face is evaluated (mana value {mv}): {why}"


@implements("712.11", "A double-faced spell is cast with its front face up by default", mechanic=M)
def tdfc_cast(st, ctx, **_):
    st["castable"] = st["up"] == "front"
    return "a transforming card is cast front face up" + ("" if st["castable"] else "; its back face can't be cast")


@implements("301.5b", "They don't enter the battlefield attached to a creature", mechanic=M)
def equipment_unattached(st, ctx, **_):
    return "an Equipment resolves and enters like any other artifact: unattached (equip attaches it later)"


@implements("712.13", "same face up that was face up on the stack", mechanic=M)
def resolves_same(st, ctx, **_):
    return f"it resolves and enters the battlefield with the {st['up']} face up"


@implements("712.12", "chooses one of its faces that", "It enters the battlefield with that face up", mechanic=M)
def play_face(st, ctx, **_):
    f = st[st["up"]]
    st["playable_face"] = "land" in f["types"]
    lands = [side for side in ("front", "back") if "land" in st[side]["types"]]
    st["land_faces"] = [st[side]["name"] for side in lands]
    return (f"as a land, a face that's a land is chosen ({', '.join(st[s]['name'] for s in lands) or 'none'}); "
            f"the {st['up']} face {'is' if st['playable_face'] else 'is not'} a land")


@implements("305.1", "Playing a land is a special action", mechanic=M)
def land_special(st, ctx, **_):
    if not st["s"]["main_phase_empty_stack"]:
        st["land_ok"] = False
        return "a land is played only in your main phase with the stack empty"
    return "playing a land is a special action: it doesn't use the stack and can't be responded to"


@implements("305.2b", "can't play a land, for any reason, if the number of lands the player can play", mechanic=M)
def no_more_lands(st, ctx, **_):
    s = st["s"]
    if s["lands_played"] < s["land_plays"]:
        return f"{s['lands_played']} of {s['land_plays']} land plays used: it may be played"
    st["land_ok"] = False
    return f"{s['lands_played']} of {s['land_plays']} land plays already used: it can't be played as a land"


@implements("712.14", "enters the battlefield with its front face up by default", mechanic=M)
def put_front(st, ctx, **_):
    return f"put onto the battlefield from the {st['zone']}: it enters front face up ({st['front']['name']})"


@implements("712.14b", "front face isn't a permanent card, the card stays in its current zone", mechanic=M)
def stays(st, ctx, **_):
    if is_permanent_card(st["front"]["types"]):
        return None
    st["stays"] = True
    return f"its front face isn't a permanent card: it stays in the {st['zone']}"


@implements("701.6a", "A countered spell is put into its owner", mechanic=M)
def countered(st, ctx, **_):
    return "countered: it leaves the stack without resolving and is put into its owner's graveyard"


@implements("712.9", "double-faced cards that are not meld cards can transform", mechanic=M)
def can_transform(st, ctx, **_):
    return "it is a double-faced card on the battlefield: it can transform (a modal one too)"


@implements("712.10", "would transform or convert into is an instant or sorcery card face", "nothing happens",
            mechanic=M)
def into_instant(st, ctx, **_):
    other = "back" if st["up"] == "front" else "front"
    if not {"instant", "sorcery"} & set(st[other]["types"]):
        return None
    st["blocked"] = True
    return f"the face it would transform into ({st[other]['name']}) is an instant or sorcery face: nothing happens"


@implements("712.18", "doesn't become a new object", mechanic=M)
def same(st, ctx, **_):
    return "it is the same object after transforming"


@implements("707.8a", "the resulting token is a double-faced token", "enters the battlefield with its back face up",
            mechanic=M)
def token(st, ctx, **_):
    return f"the token is a double-faced token with both faces and enters with its {st['up']} face up"


@implements("712.19", "either face of a double-faced card but not both", mechanic=M)
def naming(st, ctx, **_):
    return "either face's name may be chosen, not both"


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    st.update(s=sit, front=sit["front"], back=sit["back"], zone=sit["zone"], modal=sit["layout"] == "modal",
              up=sit["face_up"], chars=None, castable=False, land_ok=True, stays=False, blocked=False)
    for side in ("front", "back"):
        real_card(ctx, sit[side]["name"], f"{side}.name")
    q = sit["question"]
    if q == "characteristics":
        chars = characteristics(ctx, st)
        return {"characteristics": chars, "meets_requirement": _requirement(ctx, st, chars)}
    if q == "cast":
        before = characteristics(ctx, st) if sit["zone"] != "stack" else None
        st["up"] = sit["choose"]
        if st["modal"]:
            ctx.apply("712.11b")
            ctx.apply("712.11c")
        else:
            ctx.apply("712.11")
        if not st["castable"]:
            return {"can_cast": False, "mana_value_before": before and before["mana_value"]}
        st["zone"] = "stack"
        on_stack = characteristics(ctx, st)
        ctx.apply("712.13")
        st["zone"] = "battlefield"
        on_bf = characteristics(ctx, st) if is_permanent_card(st[st["up"]]["types"]) else None
        if on_bf is not None and "equipment" in [t.lower() for t in st[st["up"]].get("subtypes") or []]:
            ctx.apply("301.5b")
            on_bf = {**on_bf, "attached": False}
        return {"can_cast": True, "face_on_stack": st["up"], "on_stack": on_stack, "on_battlefield": on_bf,
                "mana_value_before": before and before["mana_value"]}
    if q == "play-land":
        st["up"] = sit["choose"]
        ctx.apply("712.12")
        ctx.apply("305.1")
        ctx.apply("305.2b")
        ok = st["playable_face"] and st["land_ok"] and sit["zone"] == "hand"
        st["zone"] = "battlefield"
        return {"can_play": ok, "uses_stack": False, "face_up": st["up"] if ok else None, "face_choices": st["land_faces"],
                "counts_as_land_play": ok, "characteristics": characteristics(ctx, st) if ok else None}
    if q == "put-onto-battlefield":
        # where it is now, before it moves (what an effect that finds it there sees)
        before = characteristics(ctx, st) if sit["zone"] not in ("battlefield", "stack") else None
        if st["modal"] and ctx.apply("712.14b"):
            return {"enters": False, "zone": sit["zone"], "characteristics_before": before}
        ctx.apply("712.14")
        st.update(zone="battlefield", up="front")
        return {"enters": True, "face_up": "front", "may_choose_face": False, "characteristics_before": before,
                "characteristics": characteristics(ctx, st)}
    if q == "countered":
        ctx.apply("701.6a")
        st["zone"] = "graveyard"
        return {"zone_after": "graveyard", "characteristics": characteristics(ctx, st)}
    if q == "transform":
        ctx.apply("712.9")
        if ctx.apply("712.10"):
            return {"transforms": False, "face_up": st["up"]}
        st["up"] = "back" if st["up"] == "front" else "front"
        ctx.apply("712.18")
        return {"transforms": True, "face_up": st["up"], "same_object": True, "characteristics": characteristics(ctx, st)}
    if q == "token-copy":
        ctx.apply("707.8a")
        st["zone"] = "battlefield"
        return {"token_is_double_faced": True, "face_up": st["up"], "characteristics": characteristics(ctx, st)}
    ctx.apply("712.19")
    names = [st["front"]["name"], st["back"]["name"]]
    st["zone"] = sit["zone"]
    chars = characteristics(ctx, st)
    return {"may_name_either": True, "may_name_both": False, "valid": sit["chosen_name"] in names,
            "has_chosen_name": chars["name"] == sit["chosen_name"]}
