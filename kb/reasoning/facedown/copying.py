"""A copy of a face-down permanent (CR 707.2, 708.2): its copiable values are the face-down
characteristics the way of being face down lists — for disguise (702.168b) and cloak (701.58a)
they include ward {2}, so the face-up copy has ward {2} too."""
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
