"""Copies (CR 707): copiable values and what isn't copied, copies of copies and of face-down,
double-faced, prototyped and Room permanents, copy-effect exceptions, and copies of spells."""
from __future__ import annotations

import re

from kb.reasoning.cards import colours, mana_value, real_card
from kb.reasoning.copies.spelltext import mana as copied_mana_abilities, original_after, spell_damage
from kb.reasoning.copies.exceptions import apply_exception_text, entering
from kb.reasoning.copies.schema import M
from kb.reasoning.copies.spells import cast_copies
from kb.reasoning.registry import implements


def _values(o) -> dict:
    return {"name": o.get("name"), "mana_cost": o.get("mana_cost"), "types": list(o.get("types") or []),
            "subtypes": list(o.get("subtypes") or []), "supertypes": list(o.get("supertypes") or []),
            "power": o.get("power"), "toughness": o.get("toughness"), "loyalty": o.get("loyalty"),
            "abilities": list(o.get("abilities") or []), "color_indicator": list(o.get("color_indicator") or [])}


@implements("707.2", "copiable values", "Other effects (including type-changing and text-changing effects), status, "
            "counters, and stickers are not copied", mechanic=M)
def copiable(st, ctx, **_):
    o = st["o"]
    st["v"] = _values(o)
    left = (["status (tapped)"] if o["tapped"] else []) + ([f"{o['plus1_counters']} +1/+1 counters"]
                                                            if o["plus1_counters"] else [])
    left += [f"Aura/Equipment {a}" for a in o["attached"]] + [f"effect '{e}'" for e in o["other_effects"]]
    return ("copies the printed values (name, mana cost, colour, types, rules text, P/T, loyalty)"
            + ("; not copied: " + ", ".join(left) if left else ""))


@implements("707.2a", "A copy acquires the color of the object it", mechanic=M)
def colour_and_abilities(st, ctx, **_):
    return "colour comes from the copied mana cost or colour indicator; abilities from its rules text"


@implements("707.3", "Objects that copy the object will use the new copiable values", mechanic=M)
def copy_of_copy(st, ctx, **_):
    inner = st["o"]["is_copy_of"]
    st["v"] = _values(inner)
    gained, typed = len(st["v"]["abilities"]), list(st["v"]["types"])
    for e in st["o"]["copy_exceptions"]:
        if _exception(st, e) == "retains":
            ctx.apply("707.9c", using="retains", exception=e)
    if len(st["v"]["abilities"]) > gained:
        ctx.apply("707.9a", using="gained_by_original")
    if st["v"]["types"] != typed:
        ctx.apply("707.9b", using="modified_by_original", added=[t for t in st["v"]["types"] if t not in typed])
    return (f"the original is itself a copy of {inner.get('name')}: the copy gets those copied values"
            + (", with the original copy effect's exceptions (" + "; ".join(st["o"]["copy_exceptions"]) + ")"
               if st["o"]["copy_exceptions"] else ""))


def _exception(st, text_):
    """An exception as a person writes it: 'is blue', 'is an artifact in addition', '+ability'."""
    t = text_.lower()
    v = st["v"]
    for colour, letter in (("white", "W"), ("blue", "U"), ("black", "B"), ("red", "R"), ("green", "G")):
        if re.search(rf"\bis {colour}\b", t):
            v["color_indicator"], v["mana_cost_colours_ignored"] = [letter], True
    for typ in ("artifact", "enchantment", "creature", "land"):
        if re.search(rf"\b{typ}\b", t) and "in addition" in t and typ not in v["types"]:
            v["types"].append(typ)
    m = re.search(r"has [\"“](.+?)[\"”]", text_)
    if m:
        v["abilities"].append(m.group(1))
    if re.search(r"(doesn't|does not|don't) copy [^.\"“]*\bcolou?r", t):
        # the copier keeps its own colour (707.9c): that of its own mana cost or colour indicator
        own = st["o"]
        v["color_indicator"] = colours(own.get("mana_cost"), own.get("color_indicator"))
        v["mana_cost_colours_ignored"] = True
        return "retains"
    return None


@implements("707.9a", "gain an ability as part of the copying process", mechanic=M)
def gains(st, ctx, **_):
    st["v"]["abilities"] += st["e"]["gains"]
    return "the copy gains " + ", ".join(st["e"]["gains"]) + " as part of copying: part of its copiable values"


@implements("707.9a", "gain an ability as part of the copying process", mechanic=M)
def gained_by_original(st, ctx, **_):
    return "the ability the original's own copy effect gave it is part of its copiable values: copied too"


@implements("707.9b", "The final set of values for that characteristic becomes part of the copiable values", mechanic=M)
def modified_by_original(st, ctx, added=(), **_):
    return ("the original's own copy effect made it " + ", ".join(added) + " as well: that final set of types is "
            "part of its copiable values, so it is copied")


@implements("707.9c", "don't copy certain characteristics and the affected objects instead retain their original values",
            mechanic=M)
def retains(st, ctx, exception="", **_):
    return (f"the original's own copy effect doesn't copy colour ({exception}): it kept its own colour, "
            f"{'/'.join(st['v']['color_indicator']) or 'colourless'}, and that is what is copied")


@implements("707.9b", "modify a characteristic as part of the copying process", mechanic=M)
def modifies(st, ctx, **_):
    e, v = st["e"], st["v"]
    for t in e["add_types"]:
        if t not in v["types"]:
            v["types"].append(t)
    if e["set_power"] is not None:
        v["power"] = e["set_power"]
    if e["set_toughness"] is not None:
        v["toughness"] = e["set_toughness"]
    return "the copy effect modifies " + ", ".join(
        (["types (+" + ", ".join(e["add_types"]) + ")"] if e["add_types"] else [])
        + ([f"P/T to {v['power']}/{v['toughness']}"] if e["set_power"] is not None else [])) + ": part of its copiable values"


@implements("707.9c", "they don't copy certain characteristics", mechanic=M)
def keeps(st, ctx, **_):
    st["v"]["name"] = st["copier_name"]
    return "the copy effect doesn't copy the name: the copy keeps its own"


@implements("707.9d", "any characteristic-defining ability", "is not copied", mechanic=M)
def no_cda(st, ctx, **_):
    st["v"]["abilities"] = [a for a in st["v"]["abilities"] if "power and toughness" not in a.lower()]
    st["v"]["cda_copied"] = False
    return "the effect sets P/T, so the original's characteristic-defining ability for P/T isn't copied"


@implements("708.2", "Any listed characteristics are the copiable values", mechanic=M)
def face_down(st, ctx, **_):
    st["v"] = {"name": None, "mana_cost": None, "types": ["creature"], "subtypes": [], "supertypes": [], "power": 2,
               "toughness": 2, "loyalty": None, "abilities": [], "color_indicator": []}
    return "a face-down permanent's copiable values are those of the face-down 2/2: the copy is a face-up nameless 2/2"


@implements("707.8", "use the copiable values of the face that", mechanic=M)
def dfc_face(st, ctx, **_):
    return f"a double-faced permanent: the copy uses the face that's up ({st['o']['face_up']})"


@implements("707.8a", "the resulting token is a double-faced token", mechanic=M)
def dfc_token(st, ctx, **_):
    return "a token copy of a double-faced permanent is a double-faced token, entering with the same face up"


@implements("202.3b", "the mana value of the copy is 0", mechanic=M)
def back_mv(st, ctx, **_):
    st["mv"] = 0
    return "a copy of a back face has mana value 0"


@implements("712.8e", "copying the back face of a nonmodal double-faced permanent", "the mana value of that permanent is 0",
            mechanic=M)
def back_face_copy(st, ctx, **_):
    st["mv"] = 0
    return "it copies the back face of a nonmodal double-faced permanent: the copy's mana value is 0"


@implements("712.8f", "modal double-faced permanent is on the battlefield, it has only the characteristics of the face",
            mechanic=M)
def modal_back_copy(st, ctx, **_):
    return "a modal double-faced permanent's back face has its own mana cost: the copy's mana value comes from it"


@implements("712.9", "Only permanents represented by double-faced tokens and double-faced cards",
            "can transform or convert", mechanic=M)
def transform_copy(st, ctx, token=False, **_):
    st["can_transform"] = token or bool(st["s"]["copier_double_faced"])
    return ("the copy is a double-faced token: it can transform" if token else
            "the copy is represented by a double-faced card: it can transform" if st["can_transform"] else
            "the copy is represented by a card that isn't double-faced: it can't transform")


@implements("603.4", "if [condition]", "The ability triggers only if it is; otherwise it does nothing", mechanic=M)
def intervening_if(st, ctx, **_):
    return ("the copied enters ability has an intervening 'if you cast it' clause: the token copies weren't cast, "
            "so it doesn't trigger for them")


@implements("709.5", "it doesn't have the name, mana cost, or rules text of this object's left half", mechanic=M)
def room_locked(st, ctx, **_):
    locked = [d for d in ("left", "right") if d not in st["unlocked"]]
    return ("a door without its unlocked designation has no name, mana cost or rules text: "
            + (", ".join(locked) + " locked" if locked else "both unlocked"))


@implements("718.3d", "the copy has the alternative power, toughness, and mana cost characteristics", mechanic=M)
def prototype(st, ctx, **_):
    return "the original was a prototyped spell: the copy has the prototype's P/T and mana cost"


@implements("709.5d", "neither half was cast as a spell, it enters with neither unlocked designation", mechanic=M)
def room(st, ctx, **_):
    return "the token copy of the Room entered without either half cast: both doors are locked"


@implements("709.5b", "existence of each half", "copiable values", mechanic=M)
def room_halves(st, ctx, **_):
    return "both halves exist in the copy; the unlocked designations aren't copiable values"


@implements("707.6", "choices that have been made for that permanent", "get to make any", mechanic=M)
def choices(st, ctx, **_):
    return (f"the original's choice ('{st['o']['as_enters_choice']}') isn't copied; the copy's controller makes it anew"
            + (f": {st['s']['copier_choice']}" if st["s"]["copier_choice"] else ""))


@implements("707.5", "any enters-the-battlefield triggered abilities of the copy will have a chance to trigger",
            mechanic=M)
def etb(st, ctx, **_):
    return "it becomes a copy as it enters, so the copied enters abilities trigger"


def _permanent(ctx, st, token):
    o = st["o"]
    if o["face_down"]:
        ctx.apply("708.2")
        ctx.apply("707.2", using="copy_sees")  # copiable values "as modified by ... its face-down status"
    elif o["is_copy_of"].get("name"):
        ctx.apply("707.2")
        ctx.apply("707.3")
    else:
        ctx.apply("707.2")
    ctx.apply("707.2a")
    e = st["e"]
    if e["gains"]:
        ctx.apply("707.9a", using="gains")
    if e["add_types"] or e["set_power"] is not None:
        ctx.apply("707.9b", using="modifies")
        if e["original_has_cda"]:
            ctx.apply("707.9d")
    if e["keep_name"]:
        ctx.apply("707.9c", using="keeps")
    apply_exception_text(ctx, st)
    st["mv"] = mana_value(st["v"]["mana_cost"])
    can_transform = None
    if o["double_faced"]:
        ctx.apply("707.8a" if token else "707.8")
        if o["face_up"] == "back" and o["modal_dfc"]:
            ctx.apply("712.8f")
        elif o["face_up"] == "back":
            ctx.apply("202.3b")
            ctx.apply("712.8e")
        ctx.apply("712.9", token=token)
        can_transform = st["can_transform"]
    if o["prototyped"]:
        ctx.apply("718.3d")
    room = bool(o["room_unlocked"]) or "room" in " ".join(o.get("subtypes") or []).lower()
    unlocked: list = []  # the designations aren't copiable (709.5b); a token's halves weren't cast (709.5d)
    if room:
        ctx.apply("709.5b")
        if token:
            ctx.apply("709.5d")
        st["unlocked"] = unlocked
        ctx.apply("709.5")
        if not unlocked:  # neither door's mana cost: the combined cost of none (202.3a)
            st["mv"] = 0
    if o["as_enters_choice"]:
        ctx.apply("707.6")
    enters = entering(ctx, st, token)
    etb = bool(o["etb_ability"])
    if etb and token and o["etb_if_cast"]:
        ctx.apply("603.4")
        etb = False
    elif etb:
        ctx.apply("707.5")
    v = st["v"]
    return {"name": v["name"], "types": v["types"], "subtypes": v["subtypes"], "power": v["power"],
            "toughness": v["toughness"], "abilities": v["abilities"], "mana_value": st["mv"],
            "supertypes": v["supertypes"],
            "colors": colours(None if v.get("mana_cost_colours_ignored") else v["mana_cost"], v["color_indicator"]),
            "tapped": enters["tapped"], "plus1_counters": enters["counters"].get("+1/+1", 0), "counters": enters["counters"],
            "attached": [], "face_up": True,
            "double_faced": bool(o["double_faced"] and token), "face": o["face_up"] if o["double_faced"] else None,
            "can_turn_face_up": False if o["face_down"] else None, "etb_triggers": etb, "can_transform": can_transform,
            "has_cda": bool(e["original_has_cda"]) and v.get("cda_copied", True) is not False,
            "has_both_halves": True if room else None,
            "copies_choice": False if o["as_enters_choice"] else None,
            "choice_by": st["s"]["copier_controller"] if o["as_enters_choice"] else None,
            "unlocked": unlocked if room else None, "tokens": st["s"]["copies"] if token else 0,
            "mana_abilities": copied_mana_abilities(ctx, "" if o["face_down"] or o["is_copy_of"].get("name") else o["text"]),
            "original_after": None if token or o["face_down"] else
            original_after(ctx, o, v["name"], st["s"]["other_creatures_named"])}


@implements("707.10", "a copy of a spell isn't cast", "all decisions made for it", mechanic=M)
def spell_copy(st, ctx, **_):
    o = st["o"]
    made = [f"modes {', '.join(o['modes'])}"] if o["modes"] else []
    made += [f"X = {o['x']}"] if o["x"] is not None else []
    made += ["kicked"] if o["kicked"] else []
    made += [f"targets {', '.join(o['targets'])}"] if o["targets"] else []
    return "the copy is put on the stack, not cast; it copies " + (", ".join(made) or "the spell's decisions")


@implements("707.10", "controlled by the player under whose control it was put on the stack", mechanic=M)
def spell_controller(st, ctx, **_):
    return f"the copy is controlled (and owned) by the player who put it on the stack: {st['s']['copier_controller']}"


@implements("700.2g", "copies the mode(s) chosen for it", "can't choose a different mode", mechanic=M)
def modes(st, ctx, **_):
    return "the copy has the same modes; its controller can't choose different ones"


@implements("707.10c", "may leave any number of the targets unchanged", "the new targets must be legal", mechanic=M)
def new_targets(st, ctx, **_):
    return ("new targets may be chosen (any may stay the same)" +
            (f": {', '.join(st['s']['new_targets'])}" if st["s"]["new_targets"] else ""))


@implements("707.12", "follows steps 601.2a", "then the copy becomes cast", mechanic=M)
def cast_copy(st, ctx, **_):
    return "casting a copy follows 601.2a–h and then the copy becomes cast ('whenever you cast' triggers)"


@implements("704.5e", "If a copy of a spell is in a zone other than the stack, it ceases to exist", mechanic=M)
def copy_ceases(st, ctx, **_):
    return "a state-based action: the copy, once it has left the stack, ceases to exist (it never reaches a graveyard)"


@implements("707.10a", "If a copy of a spell is in a zone other than the stack, it ceases to exist", mechanic=M)
def ceases(st, ctx, **_):
    return "once the copy leaves the stack it ceases to exist (a state-based action): it never stays in the graveyard"


@implements("707.10f", "ceases being a copy of a spell and becomes a token permanent", mechanic=M)
def becomes_token(st, ctx, **_):
    ctx.apply("111.13")
    return "the copy of a permanent spell becomes a token permanent as it resolves"


@implements("111.13", "not \"created\" for the purposes of any replacement effects or triggered abilities", mechanic=M)
def not_created(st, ctx, **_):
    return "that token wasn't 'created': 'whenever a token is created' doesn't trigger"


def _spell(ctx, st, cast):
    o = st["o"]
    if cast:
        ctx.apply("707.12")
        return {"copy_is_cast": True, "cast_triggers": True, **(cast_copies(ctx, st) or {})}
    ctx.apply("707.10")
    ctx.apply("707.10", using="spell_controller")
    if o["modes"]:
        ctx.apply("700.2g")
    if st["s"]["may_choose_new_targets"]:
        ctx.apply("707.10c")
    targets = st["s"]["new_targets"] or o["targets"]
    st["v"] = _values(o)
    apply_exception_text(ctx, st)
    v = st["v"]
    two_faced = bool(o["double_faced"] and o["permanent_spell"] and not o["modal_dfc"])
    if two_faced:
        ctx.apply("707.10g")
    return {"double_faced": two_faced, "face": o["face_up"] if two_faced else None,
            "resolves_into": ("double-faced token" if two_faced else "token") if o["permanent_spell"] else None,"damage_per_target": spell_damage(ctx, o, targets),
            "copy_is_cast": False, "cast_triggers": False, "modes": o["modes"], "x": o["x"], "kicked": o["kicked"],
            "targets": st["s"]["new_targets"] or o["targets"], "may_change_modes": False,
            "controller": st["s"]["copier_controller"], "may_change_targets": bool(st["s"]["may_choose_new_targets"]),
            "colors": colours(None if v.get("mana_cost_colours_ignored") else o.get("mana_cost"), v["color_indicator"]),
            "mana_value": mana_value(o.get("mana_cost"), o["x"] or 0)}


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    st.update(s=sit, o=sit["original"], e=sit["exception"], v=None, mv=0, copier_name=sit["copier_name"] or None)
    real_card(ctx, sit["original"]["name"], "original.name")
    q = sit["question"]
    if q in ("permanent", "token"):
        return _permanent(ctx, st, q == "token")
    if q in ("spell", "cast-copy"):
        return _spell(ctx, st, q == "cast-copy")
    if sit["original"]["permanent_spell"]:
        two_faced = bool(sit["original"]["double_faced"]) and not sit["original"]["modal_dfc"]
        if two_faced:
            ctx.apply("707.10g")
        ctx.apply("707.10f")
        return {"becomes": "token", "token_name": sit["original"]["name"], "counts_as_created": False,
                "in_graveyard_after": False, "double_faced": two_faced,
                "face": sit["original"]["face_up"] if two_faced else None, "can_transform": True if two_faced else None}
    ctx.apply("707.10a")
    ctx.apply("704.5e")
    return {"becomes": None, "in_graveyard_after": False, "ceases_to_exist": True}
