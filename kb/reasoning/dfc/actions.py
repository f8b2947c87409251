"""Double-faced cards: casting, entering, copying, turning face down, naming (CR 712.11-712.19, 707.8)."""
from __future__ import annotations

from kb.reasoning.cards import real_card, type_words
from kb.reasoning.registry import implements
from kb.reasoning.dfc.logic import characteristics, transform
from kb.reasoning.dfc.schema import M
from kb.errors import SituationError


def _instant_or_sorcery(face: dict) -> bool:
    return bool({"instant", "sorcery"} & type_words((face or {}).get("types", ""), "types"))


# ---------------------------------------------------------------- casting


@implements("712.11", "cast with its front face up by default", mechanic=M)
def cast_front(st, ctx, **_):
    if st["instruction"] == "normal" or (st["instruction"] == "back-face" and st["layout"] == "nonmodal"):
        st["face_up"] = "front"
        if st["instruction"] == "back-face":
            st["can_cast"] = False
            return "a double-faced spell is cast front face up: its back face can't be chosen to cast"
        return "cast with its front face up"
    return None


@implements("712.11a", "cast as a spell \"transformed\"", "put on the stack with its back face up", mechanic=M)
def cast_transformed(st, ctx, **_):
    if st["instruction"] != "transformed":
        return None
    st["face_up"] = "back"
    return "cast transformed (an effect allows it): on the stack with its back face up"


@implements("712.11b", "chooses which face they are casting", mechanic=M)
def cast_modal(st, ctx, **_):
    if st["layout"] != "modal" or st["instruction"] not in ("normal", "back-face"):
        return None
    st["face_up"] = "back" if st["instruction"] == "back-face" else "front"
    return f"modal double-faced card: the player chooses to cast its {st['face_up']} face"


@implements("712.15", "cast a double-faced card as a face-down creature spell",
            "characteristics given to it by the rule or effect", mechanic=M)
def face_down_dfc(st, ctx, when=None, **_):
    if when == "characteristics":
        return "a face-down double-faced card has the characteristics the face-down rule or effect gives it"
    if st["instruction"] != "face-down":
        return None
    if st["question"] == "cast" and not st["effect_allows_face_down"]:
        return None
    st["face_down"] = True
    return ("an effect lets it be cast face down: it's a face-down spell with the characteristics that effect gives"
            if st["question"] == "cast" else "it enters face down with the characteristics the effect gives")


@implements("702.37d", "You can't normally cast a card face down", mechanic=M)
def no_face_down_cast(st, ctx, **_):
    st["can_cast"] = False
    return "no ability or effect allows casting it face down: it can't be cast face down"


def _cast(ctx, st):
    st["can_cast"] = True
    if st["instruction"] == "face-down":
        if not (ctx.apply("712.15")):
            ctx.apply("702.37d")
            return {"can_cast": False}
    elif st["layout"] == "modal":
        ctx.apply("712.11b")
    elif not ctx.apply("712.11a"):
        ctx.apply("712.11")
    if not st["can_cast"]:
        return {"can_cast": False}
    st["zone"] = "stack"
    return {"can_cast": True, "face_on_stack": None if st.get("face_down") else st["face_up"],
            "face_down": bool(st.get("face_down")), "characteristics": characteristics(ctx, st)}


# ---------------------------------------------------------------- entering the battlefield


@implements("712.13", "same face up that was face up on the stack", mechanic=M)
def enter_from_stack(st, ctx, **_):
    return f"it resolves from the stack and enters with the face that was up on the stack ({st['face_up']})"


@implements("712.13a", "instant or sorcery face", "put into its owner's graveyard", mechanic=M)
def enter_transformed_instant(st, ctx, **_):
    if not _instant_or_sorcery(st["back"]):
        return None
    st["zone"] = "graveyard"
    return "its back face is an instant or sorcery face: it doesn't enter; it goes to the graveyard"


@implements("712.14", "from a zone other than the stack enters the battlefield with its front face up", mechanic=M)
def enter_front(st, ctx, **_):
    st["face_up"] = "front"
    where = "another zone" if st["origin"] == "other" else f"the {st['origin']}"
    return f"put onto the battlefield from {where} (not the stack): it enters front face up"


@implements("712.14a", "onto the battlefield \"transformed\"", "enters the battlefield with its back face up",
            mechanic=M)
def enter_back(st, ctx, **_):
    if st["represented_by"] == "other":
        st["zone"] = st["origin"]
        return "not a double-faced card: put onto the battlefield transformed, it stays in its current zone"
    st["face_up"] = "back"
    return "put onto the battlefield transformed: it enters back face up"


@implements("712.14b", "front face isn't a permanent card, the card stays in its current zone", mechanic=M)
def modal_nonpermanent(st, ctx, **_):
    if st["layout"] != "modal" or not _instant_or_sorcery(st["front"]):
        return None
    st["zone"] = st["origin"]
    return "a modal card whose front face isn't a permanent card stays in its current zone"


def _origin(st) -> str:
    """Where the card enters from: ``from_zone``, else the zone it is in now (``zone`` is always the
    card's zone before the event; a card entering the battlefield is somewhere else first)."""
    given, now = st["from_zone"], st["zone"]
    if given != "other" and now not in ("battlefield", given):
        raise SituationError("from_zone", f"the card is in the {now} but would enter from the {given}",
                             message_ja="「領域」と「どこから戦場に出るか」が食い違っています")
    return given if given != "other" else (now if now != "battlefield" else "other")


def _enter(ctx, st):
    st["origin"] = _origin(st)
    st["zone"] = "battlefield"  # where it goes; rules below send it back to its origin when it can't
    if st["instruction"] == "face-down":
        ctx.apply("712.15")
    elif st["origin"] == "stack":
        ctx.apply("712.13")
        if st["instruction"] == "transformed" and not ctx.apply("712.13a"):
            st["face_up"] = "back"
    elif not ctx.apply("712.14b"):
        if st["instruction"] == "transformed":
            ctx.apply("712.14a")
        else:
            ctx.apply("712.14")
    if st["zone"] != "battlefield":
        return {"enters": False, "zone": st["zone"], "from_zone": st["origin"]}
    return {"enters": True, "from_zone": st["origin"], "face_up": None if st.get("face_down") else st["face_up"],
            "face_down": bool(st.get("face_down")), "characteristics": characteristics(ctx, st)}


# ---------------------------------------------------------------- copies


@implements("707.8", "copiable values of the face that's currently up", mechanic=M)
def copy_current_face(st, ctx, **_):
    return f"the copy uses the copiable values of the face that's up ({st['face_up']})"


@implements("707.8a", "the resulting token is a double-faced token", "enters the battlefield with its back face up",
            mechanic=M)
def token_is_dfc(st, ctx, **_):
    return ("the token is a double-faced token with both faces"
            + ("; it enters back face up" if st["face_up"] == "back" else "; it enters front face up"))


@implements("707.10g", "copy of a double-faced permanent spell", "the copy is also a double-faced permanent spell",
            "If the spell it is a copy of has its back face up, the copy is created with its back face up",
            "The token that's put onto the battlefield as that spell resolves is a double-faced token", mechanic=M)
def spell_copy_is_dfc(st, ctx, **_):
    return (f"a copy of the double-faced spell is a double-faced spell too, {st['face_up']} face up; as it resolves "
            "it becomes a double-faced token (it can transform)")


def _copy(ctx, st):
    kind = st["copy_kind"]
    if st["zone"] == "stack" and st["layout"] == "nonmodal":  # a copy of the spell, not of a permanent (707.10g)
        ctx.apply("707.10g")
        chars = characteristics(ctx, st)
        return {"copy_is_double_faced": True, "face_up": st["face_up"], "characteristics": chars,
                "resolves_into": "double-faced token", "can_transform": True}
    if kind == "becomes-copy":
        perm = {"name": st["front"]["name"], "double_faced": st["represented_by"] != "other",
                "layout": st["layout"], "effects": ["copy effect"] + st["effects"]}
        ok = transform(ctx, perm, lambda p: None)
        return {"copy_is_double_faced": perm["double_faced"], "can_transform": ok,
                "remains_a_copy": ok, "effects_after_transform": perm["effects"]}
    if kind == "token-copy":
        ctx.apply("707.8a")
        double_faced = True
    else:
        ctx.apply("707.8")
        double_faced = False
    st["copy_of_back_face"] = st["face_up"] == "back"
    chars = characteristics(ctx, st)
    perm = {"name": chars["name"], "double_faced": double_faced, "layout": st["layout"],
            "other_face_instant_or_sorcery": _instant_or_sorcery(st["front" if st["face_up"] == "back" else "back"])}
    ok = transform(ctx, perm, lambda p: None)
    return {"copy_is_double_faced": double_faced, "face_up": st["face_up"], "characteristics": chars,
            "can_transform": ok}


# ---------------------------------------------------------------- face down, names, transform


@implements("712.16", "can't be turned face down", "nothing happens", mechanic=M)
def no_face_down(st, ctx, **_):
    return "a double-faced permanent can't be turned face down: nothing happens"


@implements("712.19", "either face of a double-faced card but not both", mechanic=M)
def name_either(st, ctx, **_):
    names = {st["front"]["name"], (st.get("back") or {}).get("name")}
    chosen = st["chosen_names"]
    st["name_ok"] = len(chosen) == 1 and chosen[0] in names
    return (f"a player may name either face ({' / '.join(n for n in names if n)}) but not both: "
            + ("valid" if st["name_ok"] else "not a valid choice"))


@implements("712.9", "Only permanents represented by double-faced tokens and double-faced cards", mechanic=M)
def only_permanents(st, ctx, **_):
    return None if st["zone"] == "battlefield" else f"it's in the {st['zone']}, not a permanent: it can't transform"


@implements("701.27f", "only if it hasn't transformed or converted since the ability was put onto the stack",
            "since that delayed triggered ability was created", mechanic=M)
def transformed_since(st, ctx, **_):
    by = st["transform_by"]
    if by == "other":
        return None
    since = "was put onto the stack" if by == "own-ability" else "was created"
    if st["transformed_since"]:
        return f"it has transformed since its own ability {since}: it doesn't transform"
    return f"it hasn't transformed since its own ability {since}: it may transform"


def _transform(ctx, st):
    if ctx.apply("712.9"):
        return {"transformed": False}
    if ctx.apply("701.27f") and st["transformed_since"]:
        return {"transformed": False, "face_up": st["face_up"]}
    other = "back" if st["face_up"] == "front" else "front"
    perm = {"name": st[st["face_up"]]["name"], "double_faced": st["represented_by"] != "other",
            "face_down": st["face_down"], "layout": st["layout"],
            "other_face_instant_or_sorcery": _instant_or_sorcery(st.get(other)),
            "counters": st["counters"], "damage": st["damage"], "attached": st["attached"], "effects": st["effects"]}
    if not transform(ctx, perm, lambda p: st.__setitem__("face_up", other)):
        return {"transformed": False, "face_up": None if st["face_down"] else st["face_up"]}
    ctx.apply("701.27b")
    return {"transformed": True, "face_up": st["face_up"], "new_object": False, "counters": st["counters"],
            "damage": st["damage"], "attached": st["attached"], "effects": st["effects"],
            "turned_face_up_or_down_triggers": False, "characteristics": characteristics(ctx, st)}


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    st.update(sit)
    st.setdefault("back", {"name": None, "mana_cost": "", "types": ""})
    for side in ("front", "back"):
        real_card(ctx, st[side].get("name"), f"{side}.name")
    q = sit["question"]
    if q == "characteristics":
        return {"characteristics": characteristics(ctx, st)}
    if q == "transform":
        return _transform(ctx, st)
    if q == "copy":
        return _copy(ctx, st)
    if q == "cast":
        return _cast(ctx, st)
    if q == "enter-battlefield":
        return _enter(ctx, st)
    if q == "turn-face-down":
        if st["face_down"]:
            return {"turned_face_down": False}
        ctx.apply("712.16")
        return {"turned_face_down": False, "face_up": st["face_up"]}
    ctx.apply("712.19")
    return {"name_ok": st["name_ok"]}
