"""Copies of spells beyond one plain copy: several copies a player "may cast", each chosen on its
own (707.12a), and a copy of a double-faced permanent spell, which is double-faced too and resolves
into a double-faced token with the same face up (707.10g)."""
from __future__ import annotations

from kb.errors import SituationError
from kb.reasoning.copies.schema import M
from kb.reasoning.registry import implements


@implements("707.12a", "creates multiple copies", "choose individually, for each of those objects, whether or not to cast it",
            mechanic=M)
def each_copy(st, ctx, cast=0, n=0, **_):
    return (f"{n} copies the player may cast: the choice is made for each copy on its own — {cast} cast, "
            f"{n - cast} not cast")


@implements("707.10a", "If a copy of a card is in any zone other than the stack or the battlefield, it ceases to exist",
            mechanic=M)
def uncast_cease(st, ctx, n=0, **_):
    return f"the {n} copy(ies) not cast stay where they were made, not on the stack: they cease to exist (a state-based action)"


def cast_copies(ctx, st) -> dict | None:
    """Several copies a player may cast: each one's choice (707.12a); the ones not cast cease to exist."""
    s = st["s"]
    n = s["copies"]
    choices = s["cast_choices"] or ([True] * n if n > 1 else [])
    if not choices:
        return None
    if len(choices) != n:
        raise SituationError("cast_choices", f"one choice per copy: {n} copies, {len(choices)} choices",
                             message_ja=f"コピーの数（{n}）と同じ数だけ選んでください", label_ja="コピーごとに唱えるか")
    cast = sum(1 for c in choices if c)
    ctx.apply("707.12a", cast=cast, n=n)
    if cast < n:
        ctx.apply("707.10a", using="uncast_cease", n=n - cast)
    return {"choice_per_copy": True, "copies_cast": cast, "copies_not_cast": n - cast,
            "not_cast_cease_to_exist": n - cast > 0}


@implements("707.10g", "copy of a double-faced permanent spell", "double-faced permanent spell that has both a front face and a back face",
            "The token that's put onto the battlefield as that spell resolves is a double-faced token", mechanic=M)
def dfc_spell_copy(st, ctx, **_):
    face = st["o"]["face_up"]
    return (f"the copy of the double-faced permanent spell is double-faced too, with its {face} face up; as it resolves "
            f"it becomes a double-faced token with its {face} face up (it can transform)")
