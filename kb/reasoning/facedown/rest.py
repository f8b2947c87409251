"""The rest of face-down objects (CR 708) beyond their characteristics and turning face up: no
way to turn face up (708.7), turning face down (708.2b, 712.16), leaving and being revealed (708.9,
701.6a, lethal damage 704.5g), who may look (708.5) and what a copy sees (707.2). Registered by
importing; kb.reasoning.facedown.logic applies them."""
from __future__ import annotations

from kb.reasoning.facedown.schema import M
from kb.reasoning.registry import implements


@implements("708.7", "The ability or rules that allow a permanent to be face down may also allow the permanent's "
            "controller to turn it face up", mechanic=M)
def no_way_up(st, ctx, **_):
    return ("only the ability or rules that put it face down may let it be turned face up; the effect that turned "
            "it face down gives no way, and without morph or disguise it stays face down")


@implements("704.5g", "total damage marked on it is greater than or equal to its toughness", "destroyed", mechanic=M)
def lethal(st, ctx, **_):
    return (f"face down it is a 2/2 with {st['s']['damage']} damage marked: lethal damage, it is destroyed "
            "(a state-based action) and goes to the graveyard")


@implements("708.2b", "A face-down permanent can't be turned face down", "nothing happens", mechanic=M)
def already_down(st, ctx, **_):
    return "it is already face down: nothing happens and none of its characteristics change"


@implements("712.16", "can't be turned face down", mechanic=M)
def dfc_no(st, ctx, **_):
    return "a double-faced permanent can't be turned face down: nothing happens"


@implements("708.9", "its owner must reveal it to all players as they move it", mechanic=M)
def reveal(st, ctx, **_):
    return f"it moves from the {st['s']['from_zone']} to the {st['s']['destination']}: its owner reveals it to all players"


@implements("701.6a", "A countered spell is put into its owner", mechanic=M)
def countered(st, ctx, **_):
    return "the countered face-down spell is put into its owner's graveyard"


@implements("708.5", "You can't look at face-down cards in any other zone or face-down spells or permanents "
            "controlled by another player", mechanic=M)
def look(st, ctx, **_):
    s = st["s"]
    st["may_look"] = s["controller"] == "you" and s["from_zone"] in ("battlefield", "stack")
    st["controller_may_look"] = s["from_zone"] in ("battlefield", "stack")  # its controller, whoever that is
    return ("you may look at a face-down spell or permanent you control" + (" (even phased out)" if s["phased_out"] else "")
            if st["may_look"] else "you can't look at it: it is controlled by another player or not on the battlefield/stack")


@implements("707.2", "as modified by other copy effects, by its face-down status", mechanic=M)
def copy_sees(st, ctx, **_):
    return "the copy takes the copiable values as modified by the face-down status; it is face up and can't be turned up"


