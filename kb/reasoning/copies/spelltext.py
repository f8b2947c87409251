"""What a copy's rules text does: the damage a copy of a spell deals with the decisions it copied
(707.10: X, kicker, the number of targets), read by kb.reasoning.effects; and which copied abilities
are mana abilities (605.1a)."""
from __future__ import annotations

import re

from kb.reasoning.copies.schema import M
from kb.reasoning.effects import read, steps
from kb.reasoning.registry import implements

resolve = steps(M, ("damage", "kicked"))
_ACTIVATED = re.compile(r"^\s*([^:\"]+?):\s*(.+)$")


def abilities_of(text: str) -> list[str]:
    """The abilities of a rules text: one per line, or per sentence when it is written on one line."""
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    if len(lines) == 1:
        lines = [p.strip() for p in re.split(r"(?<=[.)])\s+(?=[A-Z{(])", lines[0]) if p.strip()]
    return lines


@implements("605.1a", "doesn't require a target", "could add mana to a player", "it's not a loyalty ability",
            mechanic=M)
def mana_abilities(st, ctx, found=None, **_):
    return ("copied mana abilities (activated, no target, add mana, not loyalty): "
            + "; ".join(f"'{a}'" for a in found))


def mana(ctx, text: str) -> list[str]:
    """The copied abilities that are mana abilities (605.1a), with the step when there are any."""
    found = []
    for a in abilities_of(text):
        m = _ACTIVATED.match(a)
        if not m or re.match(r"^[+−\-]?\d+$", m.group(1).strip()):
            continue  # not an activated ability, or a loyalty ability ([+1]: …)
        effect = m.group(2).lower()
        if re.search(r"\badd\b[^.]*\{", effect) and "target" not in effect:
            found.append(a)
    if found:
        ctx.apply("605.1a", found=found)
    return found


def spell_damage(ctx, o: dict, targets: list) -> int | None:
    """The damage the copy deals to each target, with the decisions it copied (None: it deals none)."""
    effects = [e for e in read(o.get("text") or "", "original.text", strict=False) if e["kind"] == "damage"]
    if not effects:
        return None
    each = resolve(ctx, effects, {"name": "each target"}, kicked=o["kicked"], x=o["x"],
                   targets=max(1, len(targets)), source="the copy")
    return each["damage"]
