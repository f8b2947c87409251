"""What a copy's rules text does: the damage a copy of a spell deals with the decisions it copied
(707.10: X, kicker, the number of targets), read by kb.reasoning.effects; which copied abilities
are mana abilities (605.1a); and the original's counting P/T ability once the copy is there too
(611.3a: "the number of creatures named …" counts the copy when the copy has that name)."""
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


_COUNT = re.compile(r"power and toughness are each equal to the number of creatures named (.+?) on the battlefield",
                    re.I)


@implements("611.3a", "it applies at any given moment to whatever its text indicates", mechanic=M)
def recount(st, ctx, name="", n=0, others=0, copy_named=False, **_):
    return (f"the original's P/T ability counts creatures named {name} at every moment: itself"
            + (", the copy (it has that name)" if copy_named else "")
            + (f" and {others} other(s)" if others else "") + f": {n}/{n}")


def original_after(ctx, o: dict, copy_name: str | None, others: int) -> dict | None:
    """The original's P/T after the copy has entered, when its own ability counts creatures by name."""
    m = _COUNT.search(o.get("text") or "")
    if not m:
        return None
    name = m.group(1).strip()
    copy_named = (copy_name or "").lower() == name.lower()
    n = (1 if (o.get("name") or "").lower() == name.lower() else 0) + copy_named + others
    ctx.apply("611.3a", name=name, n=n, others=others, copy_named=copy_named)
    return {"power": n, "toughness": n}
