"""Double-faced cards (CR 712) and transform (CR 701.27), with copies (707.8) and mana value (202.3).

One mechanic key, "double-faced-card", answers transform questions too (question: "transform").
``transform(ctx, perm, flip)`` is shared: day/night and manifest call it, so the same rule logic
(701.27a/c/d, 712.4c, 712.15a, 712.18) decides whether anything turns over.
"""
from __future__ import annotations

import re

from kb.reasoning.registry import implements
from kb.reasoning.dfc.schema import M

_SYMBOL = re.compile(r"\{([^}]*)\}")


def mana_value(cost: str | None, x: int = 0) -> int:
    """202.3: total mana in the cost; X counts as ``x``; hybrid uses its largest part; Phyrexian is 1."""
    total = 0
    for sym in _SYMBOL.findall(cost or ""):
        parts = sym.upper().split("/")
        if "P" in parts:
            total += 1
        elif sym.upper() == "X":
            total += x
        else:
            total += max((int(p) if p.isdigit() else 1) for p in parts)
    return total



# ---------------------------------------------------------------- transform (shared)


def transform(ctx, perm: dict, flip) -> bool:
    """Turn ``perm`` over if the rules let it; ``flip(perm)`` changes the face. False: nothing happens."""
    for rule, blocked in (("712.15a", perm.get("face_down")), ("712.4c", perm.get("layout") == "meld"),
                          ("701.27c", not perm.get("double_faced", True)),
                          ("701.27d", perm.get("other_face_instant_or_sorcery"))):
        if blocked:
            ctx.apply(rule, perm=perm, **({"using": "face_down_no"} if rule == "712.15a" else {}))
            return False
    ctx.apply("701.27a", perm=perm)
    flip(perm)
    ctx.apply("712.18", perm=perm)
    return True


@implements("701.27a", "Only permanents represented by double-faced tokens and double-faced cards can transform",
            mechanic=M)
def turn_over(st, ctx, perm=None, **_):
    return f"{perm.get('name', 'it')} is a double-faced card or token: it turns over to its other face"


@implements("701.27c", "isn't represented by a double-faced token or a double-faced card, nothing happens", mechanic=M)
def not_dfc(st, ctx, perm=None, **_):
    return f"{perm.get('name', 'it')} isn't represented by a double-faced card or token: nothing happens"


@implements("701.27d", "instant or sorcery face nothing happens", mechanic=M)
def to_instant(st, ctx, perm=None, **_):
    return "the face it would transform into is an instant or sorcery face: nothing happens"


@implements("712.4c", "meld cards cannot be transformed", mechanic=M)
def meld_no(st, ctx, perm=None, **_):
    return "meld cards can't transform: the instruction is ignored"


@implements("712.15a", "While face down, a double-faced permanent can't transform", mechanic=M)
def face_down_no(st, ctx, perm=None, **_):
    return "it's face down: a face-down double-faced permanent can't transform"


@implements("712.18", "doesn't become a new object", "continue to apply", mechanic=M)
def same_object(st, ctx, perm=None, **_):
    kept = [f"{k}: {perm[k]}" for k in ("counters", "damage", "attached", "effects") if perm.get(k)]
    return "it is the same object: effects still apply" + (f"; kept {', '.join(kept)}" if kept else "")


@implements("701.27b", "different game actions", "won't trigger when that permanent transforms", mechanic=M)
def not_face_up(st, ctx, **_):
    st["face_up_or_down_triggers"] = False
    return "transforming is not turning face up or down: those triggers don't fire"


# ---------------------------------------------------------------- characteristics


@implements("712.8a", "zone other than the battlefield or stack", "only the characteristics of its front face",
            mechanic=M)
def outside_play(st, ctx, **_):
    if st["zone"] in ("battlefield", "stack"):
        return None
    st["face"] = "front"
    return f"in the {st['zone']} it has only its front face's characteristics"


@implements("712.8c", "front face up while on the stack", "mana value is calculated using the mana cost of its front face",
            mechanic=M)
def on_stack(st, ctx, **_):
    if st["zone"] != "stack" or st["layout"] != "nonmodal":
        return None
    st["face"] = st["face_up"]
    if st["face_up"] == "back":
        st["mana_value"] = 0 if st["copy_of_back_face"] else mana_value(st["front"]["mana_cost"])
        return f"cast transformed: only the back face's characteristics; mana value from the front = {st['mana_value']}"
    return "on the stack front face up: only the front face's characteristics"


@implements("712.8d", "front face up, it has only the characteristics of its front face", mechanic=M)
def front_up(st, ctx, **_):
    if st["zone"] != "battlefield" or st["face_up"] != "front":
        return None
    st["face"] = "front"
    return "front face up: only the front face's characteristics"


@implements("712.8e", "back face up, it has only the characteristics of its back face",
            "mana value is calculated using the mana cost of its front face", mechanic=M)
def back_up(st, ctx, **_):
    if st["zone"] not in ("battlefield", "stack") or st["face_up"] != "back" or st["layout"] != "nonmodal":
        return None
    st["face"] = "back"
    if st["copy_of_back_face"]:
        st["mana_value"] = 0
        return "a copy of a back face: back face characteristics, mana value 0"
    st["mana_value"] = mana_value(st["front"]["mana_cost"])
    return f"back face up: back face characteristics; mana value from the front face's cost = {st['mana_value']}"


@implements("712.8f", "modal double-faced", "only the characteristics of the face that's up", mechanic=M)
def modal_up(st, ctx, **_):
    if st["layout"] != "modal" or st["zone"] not in ("battlefield", "stack"):
        return None
    st["face"] = st["face_up"]
    return f"modal: only the characteristics of the {st['face_up']} face"


@implements("202.3b", "as though it had the mana cost of its front face", "the mana value of the copy is 0", mechanic=M)
def mv_back(st, ctx, **_):
    if st.get("face") != "back" or st["layout"] != "nonmodal":
        return None
    return f"mana value of the back face = {st['mana_value']}"


@implements("202.3", "total amount of mana in its mana cost", mechanic=M)
def mv_total(st, ctx, **_):
    if "mana_value" in st:
        return None
    face = st[st.get("face", "front")]
    st["mana_value"] = mana_value(face.get("mana_cost"))
    return f"mana value = total mana in {face.get('mana_cost') or 'no mana cost'} = {st['mana_value']}"


@implements("708.2a", "2/2 face-down creature with no text, no name, no subtypes, and no mana cost", mechanic=M)
def face_down_chars(st, ctx, **_):
    if not st.get("face_down"):
        return None
    st["characteristics"] = {"name": None, "mana_cost": "", "types": "Creature", "power": 2, "toughness": 2}
    st["mana_value"] = 0
    return "face down: a 2/2 creature with no text, no name, no subtypes and no mana cost"


def characteristics(ctx, st: dict) -> dict:
    if st.get("face_down"):
        ctx.apply("712.15", when="characteristics")
        ctx.apply("708.2a")
        return dict(st["characteristics"], mana_value=0)
    for rule in ("712.8a", "712.8c", "712.8d", "712.8e", "712.8f"):
        if ctx.apply(rule):
            break
    ctx.apply("202.3b")
    ctx.apply("202.3")
    face = st[st.get("face", "front")]
    return {"face": st.get("face", "front"), "name": face["name"], "mana_cost": face.get("mana_cost", ""),
            "types": face.get("types"), "power": face.get("power"), "toughness": face.get("toughness"),
            "mana_value": st["mana_value"]}
