"""What an effect looks for ("instant card with mana value 2 or less", a target) checked against the
characteristics a question type's rules gave a card in its zone: one step, CR 601.2c when targeted,
registered for each question type that asks it."""
from __future__ import annotations

from kb.reasoning.cards import meets
from kb.reasoning.registry import implements


def requirement_check(mechanic: str):
    """Register the 601.2c step for ``mechanic``; returns ``check(ctx, st, chars) -> bool | None``."""

    @implements("601.2c", "appropriate object or player for each target", mechanic=mechanic)
    def target_check(st, ctx, **_):
        c = st["chars"]
        return (f"as a target, what the effect looks for is checked against its characteristics here (types "
                f"{', '.join(c['types']) or 'none'}, mana value {c['mana_value']}): "
                + ("an appropriate object" if st["meets"] else "not an appropriate object"))

    def check(ctx, st, chars) -> bool | None:
        """Whether the characteristics meet what the effect looks for (targeted: 601.2c applies)."""
        st["chars"], st["meets"] = chars, meets(chars, st["s"]["requirement"])
        if st["meets"] is not None and st["s"]["requirement"].get("targeted"):
            ctx.apply("601.2c")
        return st["meets"]

    return check
