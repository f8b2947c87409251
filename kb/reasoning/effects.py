"""What a spell or ability does to a creature, read from its rules text, and that effect applied.

``read(text)`` turns a rules text (English, or the common Japanese wordings) into its effects in the
order written (608.2c): damage (a number, X, "divided evenly", "if this spell was kicked … instead"),
destroy, return to its owner's hand, exile, set base power and toughness, lose all abilities, +N/+N.
Text it can't read is a SituationError naming the field, never a guess.

``steps(mechanic, kinds)`` registers, for one question type, the rule steps that apply those effects to a
creature and then look at it as the state-based actions do: 608.2c (order), 702.33d (kicked),
120.3e (damage marked), 701.8a (destroy), 702.12b (indestructible), 613.4b (base P/T), 613.1f
(abilities removed), 704.5g (lethal damage). ``resolve(ctx, effects, creature, …)`` runs them.
"""
from __future__ import annotations

import re

from kb.errors import SituationError
from kb.reasoning.registry import implements
from kb.text import normalize

_NUM = r"(\d+|x)"
_EN = [
    ("damage", re.compile(rf"deals? {_NUM} damage( divided evenly, rounded down,)?")),
    ("kicked-damage", re.compile(r"if this spell was kicked, it deals (\d+) damage instead")),
    ("destroy", re.compile(r"\bdestroy (?:target|that|it|enchanted|equipped|all)")),
    ("bounce", re.compile(r"\breturn (?:target|that|it|enchanted)[^.]*? to (?:its|their) owners?'? hands?")),
    ("exile", re.compile(r"\bexile (?:target|that|it|enchanted)")),
    ("set-base", re.compile(r"base power and toughness (\d+)/(\d+)")),
    ("lose-abilities", re.compile(r"loses all abilities")),
    ("pump", re.compile(r"\bgets? ([+-]\d+)/([+-]\d+)")),
]
_JA = [
    ("damage", re.compile(r"(\d+|x)点のダメージを(?:与える|与えた)")),
    ("destroy", re.compile(r"破壊する")),
    ("bounce", re.compile(r"(?:オーナー|持ち主)の手札に戻す")),
    ("exile", re.compile(r"追放する")),
    ("set-base", re.compile(r"基本のパワーとタフネスが(\d+)/(\d+)")),
    ("lose-abilities", re.compile(r"すべての能力を失う")),
    ("pump", re.compile(r"([+-]\d+)/([+-]\d+)の修整を受ける")),
]


def read(text: str, field: str = "effect", strict: bool = True) -> list[dict]:
    """The effects of ``text`` in the order written; [] for an empty text (and, not ``strict``, for a
    text that does none of these things: "Draw a card")."""
    low = normalize(text or "").lower().replace("’", "'")
    if not low.strip():
        return []
    found = []
    for kind, rx in _EN + _JA:
        for m in rx.finditer(low):
            found.append((m.start(), kind, m))
    if not found and not strict:
        return []
    if not found:
        raise SituationError(field, f"can't read what this text does to a creature: {text!r} (damage, destroy, "
                             "return to hand, exile, base power and toughness, loses all abilities, +N/+N)",
                             message_ja=f"「{text}」が何をするのか読めません（ダメージ・破壊・手札に戻す・追放・"
                             "基本のパワーとタフネス・能力を失う・修整）")
    out = []
    for _, kind, m in sorted(found, key=lambda f: f[0]):
        if kind == "damage":
            n = m.group(1)
            out.append({"kind": "damage", "amount": None if n == "x" else int(n),
                        "divided_evenly": bool(m.lastindex and m.lastindex >= 2 and m.group(2))})
        elif kind == "kicked-damage":
            dmg = next((e for e in reversed(out) if e["kind"] == "damage"), None)
            if dmg is not None and dmg.get("kicked_amount") is None and int(m.group(1)) != dmg["amount"]:
                dmg["kicked_amount"] = int(m.group(1))
        elif kind in ("set-base", "pump"):
            out.append({"kind": kind, "power": int(m.group(1)), "toughness": int(m.group(2))})
        else:
            out.append({"kind": kind})
    # "deals 4 damage instead" is part of the kicker sentence, not a second damage event
    return [e for i, e in enumerate(out) if not (e["kind"] == "damage" and i and out[i - 1].get("kicked_amount")
                                                  == e["amount"])]


RULES = {"damage": ("120.3e",), "kicked": ("702.33d",), "destroy": ("701.8a", "702.12b"), "set-base": ("613.4b",),
         "lose-abilities": ("613.1f",), "pump": (), "bounce": (), "exile": (), "lethal": ("704.5g",)}


def steps(mechanic: str, kinds: tuple[str, ...]):
    """Register the steps of the effect ``kinds`` a question type reads (and 608.2c, their order) for
    ``mechanic``; returns ``resolve(ctx, effects, creature, *, kicked, x, targets, source) -> creature``
    (the creature dict gets damage, power, toughness, destroyed, dies). An effect of another kind is
    refused naming the field: this question type has no rule step for it."""
    rules = {"608.2c"} | {r for k in kinds for r in RULES[k]}

    def pin(rule, *words):
        return implements(rule, *words, mechanic=mechanic) if rule in rules else (lambda fn: fn)

    @pin("608.2c", "follows its instructions in the order written")
    def in_order(st, ctx, effects=(), source="", **_):
        return (f"{source or 'the spell'} does, in the order written: "
                + ", then ".join(_say(e) for e in effects))

    @pin("702.33d", "declares the intention to pay any of that spell")
    def kicked_amount(st, ctx, effect=None, **_):
        return f"the spell was kicked: it deals {effect['kicked_amount']} damage instead of {effect['amount']}"

    @pin("120.3e", "causes that much damage to be marked on that creature")
    def mark_damage(st, ctx, creature=None, n=0, how="", **_):
        creature["damage"] += n
        return (f"{n} damage{how} is dealt to {creature['name'] or 'it'}: {creature['damage']} damage marked on it")

    @pin("701.8a", "move it from the battlefield to its owner")
    def destroy(st, ctx, creature=None, **_):
        if creature["indestructible"]:
            ctx.apply("702.12b", using="destroy_ignored")
            return f"the spell would destroy {creature['name'] or 'it'} (move it to its owner's graveyard)"
        creature.update(destroyed=True, dies=True, zone="graveyard")
        return f"{creature['name'] or 'it'} is destroyed: moved from the battlefield to its owner's graveyard"

    @pin("702.12b", "can't be destroyed")
    def destroy_ignored(st, ctx, **_):
        return "it is indestructible: it isn't destroyed"

    @pin("613.4b", "set power and/or toughness to a specific number")
    def set_base(st, ctx, creature=None, effect=None, **_):
        creature.update(power=effect["power"], toughness=effect["toughness"])
        return f"its base power and toughness become {effect['power']}/{effect['toughness']} (layer 7b)"

    @pin("613.1f", "ability-removing effects")
    def lose_abilities(st, ctx, creature=None, **_):
        creature.update(abilities=[], indestructible=False)
        return "it loses all abilities (layer 6), indestructible included"

    @pin("704.5g", "total damage marked on it is greater than or equal to its toughness", "destroyed")
    def lethal_after_effects(st, ctx, creature=None, **_):
        t = creature["toughness"]
        if t is None or t <= 0 or not creature["damage"] or creature.get("zone") != "battlefield":
            return None
        if creature["damage"] < t:
            return f"{creature['damage']} damage is less than its toughness {t}: not lethal, it survives"
        if creature["indestructible"]:
            ctx.apply("702.12b", using="destroy_ignored")  # the rule the survival relies on is cited
            return f"{creature['damage']} damage ≥ toughness {t}, but it is indestructible: it isn't destroyed"
        creature.update(destroyed=True, dies=True, zone="graveyard")
        return (f"{creature['damage']} damage ≥ toughness {t}: lethal damage, it is destroyed as a state-based action "
                "and dies")

    def resolve(ctx, effects, creature, *, kicked=False, x=None, targets=1, source="", field="effect"):
        unread = [e["kind"] for e in effects if e["kind"] not in kinds]  # "lethal" is the 704.5g look after
        if unread:
            raise SituationError(field, f"this question type doesn't apply {', '.join(unread)} effects (it reads: "
                                 f"{', '.join(kinds)})", message_ja="この質問では扱えない効果です: " + "、".join(unread))
        c = {"name": "", "power": None, "toughness": None, "damage": 0, "indestructible": False, "abilities": [],
             "zone": "battlefield", "destroyed": False, "dies": False, **creature}
        c["indestructible"] = c["indestructible"] or any(str(a).lower() == "indestructible" for a in c["abilities"])
        if effects:
            ctx.apply("608.2c", using="in_order", effects=effects, source=source)
        for e in effects:
            if c["zone"] != "battlefield":
                break
            k = e["kind"]
            if k == "damage":
                n = e["amount"] if e["amount"] is not None else (x or 0)
                if kicked and e.get("kicked_amount") is not None and "kicked" in kinds:
                    ctx.apply("702.33d", using="kicked_amount", effect=e)
                    n = e["kicked_amount"]
                how = ""
                if e["divided_evenly"] and targets > 1:
                    n, how = n // targets, f" (its {n} divided evenly, rounded down, among {targets} targets)"
                ctx.apply("120.3e", using="mark_damage", creature=c, n=n, how=how)
            elif k == "destroy":
                ctx.apply("701.8a", using="destroy", creature=c)
            elif k == "set-base":
                ctx.apply("613.4b", using="set_base", creature=c, effect=e)
            elif k == "lose-abilities":
                ctx.apply("613.1f", using="lose_abilities", creature=c)
            elif k == "pump":
                c["power"] = None if c["power"] is None else c["power"] + e["power"]
                c["toughness"] = None if c["toughness"] is None else c["toughness"] + e["toughness"]
            elif k in ("bounce", "exile"):
                c["zone"] = "hand" if k == "bounce" else "exile"
        if "lethal" in kinds:
            ctx.apply("704.5g", using="lethal_after_effects", creature=c)
        return c

    return resolve


def damage_dealt(effects, *, kicked=False, x=None, targets=1) -> int | None:
    """The damage each target is dealt by ``effects`` (None: they deal none); no step of its own —
    the caller's rule (707.10: the copy's X and kicker) and 120.3e's step say why."""
    e = next((e for e in effects if e["kind"] == "damage"), None)
    if e is None:
        return None
    n = e["amount"] if e["amount"] is not None else (x or 0)
    if kicked and e.get("kicked_amount") is not None:
        n = e["kicked_amount"]
    return n // targets if e["divided_evenly"] and targets > 1 else n


def _say(e: dict) -> str:
    k = e["kind"]
    if k == "damage":
        return f"deal {e['amount'] if e['amount'] is not None else 'X'} damage" + (
            " divided evenly" if e["divided_evenly"] else "") + (
            f" ({e['kicked_amount']} if kicked)" if e.get("kicked_amount") is not None else "")
    if k in ("set-base", "pump"):
        return (f"base P/T {e['power']}/{e['toughness']}" if k == "set-base"
                else f"{e['power']:+d}/{e['toughness']:+d}")
    return {"destroy": "destroy it", "bounce": "return it to its owner's hand", "exile": "exile it",
            "lose-abilities": "it loses all abilities"}[k]
