"""A copy of a face-down permanent (CR 707.2, 708.2): its copiable values are the face-down
characteristics the way of being face down lists — for disguise (702.168b) and cloak (701.58a)
they include ward {2}, so the face-up copy has ward {2} too — and the rule that says that effect,
ward included, ends once the permanent is turned face up some other way than its own procedure."""
from __future__ import annotations

from kb.reasoning.facedown.schema import M
from kb.reasoning.registry import implements


@implements("702.168b", "2/2 face-down creature card with ward {2}",
            "These values are the copiable values of that object's characteristics", mechanic=M)
def disguise_copiable(st, ctx, **_):
    return "the disguised permanent's face-down values, ward {2} included, are its copiable values: the copy has ward {2}"


@implements("708.2", "Any listed characteristics are the copiable values", mechanic=M)
def listed_copiable(st, ctx, **_):
    listed = ", ".join(st["down"]["abilities"]) or "no abilities"
    return f"the characteristics its face-down status lists are its copiable values: a face-up nameless 2/2 with {listed}"


def copy_of_face_down(ctx, st, chars: dict) -> dict:
    if st["via"] == "disguise":
        ctx.apply("702.168b", using="disguise_copiable")
    ctx.apply("708.2", using="listed_copiable")
    ctx.apply("707.2")
    return {"copy": dict(chars), "copy_face_up": True, "copy_can_turn_face_up": False,
            "copy_has_ward": any(a.startswith("ward") for a in chars["abilities"])}


@implements("702.168b", "The disguise effect applies to the face-down object wherever it is",
            "it ends when the permanent is turned face up", mechanic=M)
def disguise_ends(st, ctx, **_):
    return "the disguise effect (the face-down 2/2 with ward {2}) ends as it is turned face up: it no longer has that ward"


@implements("701.58a", "The effect defining its characteristics works while the card is face down and ends when it",
            mechanic=M)
def cloak_ends(st, ctx, **_):
    return "the cloak effect (the face-down 2/2 with ward {2}) ends as it is turned face up: it no longer has that ward"


def ward_ends(ctx, st) -> None:
    """Turned face up other than by its disguise procedure (which says so itself, 702.168d): the rule
    of the way it was face down says its ward {2} ends."""
    if st["via"] == "disguise":
        ctx.apply("702.168b", using="disguise_ends")
    elif st["via"] == "cloak":
        ctx.apply("701.58a", using="cloak_ends")
