"""What a split card or adventurer spell does once cast: the abilities that trigger on its casting
("whenever you cast a blue spell", "a creature spell that has an Adventure": 601.2i, 603.2, read
against the spell's characteristics on the stack), and what its halves' text does to the creature
they target as it resolves (kb.reasoning.effects; a fused spell left half first, 702.102d)."""
from __future__ import annotations

import re

from kb.errors import SituationError
from kb.reasoning.effects import read, steps
from kb.reasoning.registry import implements
from kb.reasoning.split.schema import M

resolve_on = steps(M, ("damage", "destroy", "set-base", "lose-abilities", "pump", "bounce", "exile", "lethal"))
COLOUR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
TYPE_WORDS = ("artifact", "creature", "enchantment", "instant", "land", "planeswalker", "sorcery", "battle", "kindred")
_CAST = re.compile(r"whenever (?:you|a player|an opponent) casts? (?:a|an|your first) ([a-z, -]*?)\s*spells?"
                   r"( that has an adventure)?")


_CAST_JA = re.compile(r"(?:あなた|プレイヤー|対戦相手)が(.*?)呪文を唱えるたび")
_JA_WORDS = {"白": "white", "青": "blue", "黒": "black", "赤": "red", "緑": "green", "多色": "multicolored",
             "無色": "colorless", "クリーチャーでない": "noncreature", "クリーチャー": "creature", "インスタント": "instant",
             "ソーサリー": "sorcery", "アーティファクト": "artifact", "エンチャント": "enchantment",
             "プレインズウォーカー": "planeswalker", "バトル": "battle", "同族": "kindred"}


def trigger_words(text: str) -> dict | None:
    """The condition of a 'whenever you cast a … spell' ability (「あなたが青の呪文を唱えるたび」),
    or None if it isn't one."""
    low = (text or "").lower().replace("’", "'")
    m, ja = _CAST.search(low), _CAST_JA.search(text or "")
    if not m and not ja:
        return None
    if ja:
        rest, words = ja.group(1), []
        for jw, w in sorted(_JA_WORDS.items(), key=lambda kv: -len(kv[0])):
            if jw in rest:
                words.append(w)
                rest = rest.replace(jw, "")
        return {"colours": [COLOUR_WORDS[w] for w in words if w in COLOUR_WORDS],
                "types": [w for w in words if w in TYPE_WORDS], "not_types": [w[3:] for w in words if w.startswith("non")],
                "multicolored": "multicolored" in words, "colorless": "colorless" in words,
                "adventure": "出来事を持つ" in ja.group(1)}
    words = re.findall(r"[a-z]+", m.group(1))
    return {"colours": [COLOUR_WORDS[w] for w in words if w in COLOUR_WORDS],
            "types": [w for w in words if w in TYPE_WORDS], "not_types": [w[3:] for w in words if w.startswith("non")
                                                                           and w[3:] in TYPE_WORDS],
            "multicolored": "multicolored" in words, "colorless": "colorless" in words,
            "adventure": bool(m.group(2))}


@implements("601.2i", "Any abilities that trigger when a spell is cast or put onto the stack trigger at this time",
            mechanic=M)
def cast_triggers(st, ctx, results=(), **_):
    return "; ".join(f"{r['source'] or 'the ability'} ('{r['text']}'): "
                     + ("the spell matches, it triggers" if r["triggers"] else f"doesn't trigger ({r['why']})")
                     for r in results)


@implements("603.2", "matches a triggered ability's trigger event, that ability automatically triggers", mechanic=M)
def matches(st, ctx, chars=None, **_):
    return (f"the trigger event is checked against the spell as it is on the stack: colours "
            f"{', '.join(chars['colors']) or 'none'}, types {', '.join(chars['types']) or 'none'}")


def watch(ctx, st, chars: dict, has_adventure: bool) -> list[dict]:
    results = []
    for i, w in enumerate(st["s"]["watchers"]):
        cond = trigger_words(w["text"])
        if cond is None:
            raise SituationError(f"watchers[{i}].text", f"not an ability that triggers on casting a spell: {w['text']!r} "
                                 "(e.g. 'Whenever you cast a blue spell')",
                                 message_ja=f"「{w['text']}」は呪文を唱えたときに誘発する能力として読めません"
                                 "（例 あなたが青の呪文を唱えるたび）")
        why = []
        colours, types = set(chars["colors"]), set(chars["types"])
        if cond["colours"] and not set(cond["colours"]) <= colours:
            words = {v: k for k, v in COLOUR_WORDS.items()}
            why.append(f"it isn't {' and '.join(words[c] for c in cond['colours'])}")
        if cond["multicolored"] and len(colours) < 2 or cond["colorless"] and colours:
            why.append("its number of colours doesn't match")
        if cond["types"] and not set(cond["types"]) <= types:
            why.append(f"it isn't a {' '.join(cond['types'])} spell")
        if set(cond["not_types"]) & types:
            why.append(f"it is a {' '.join(cond['not_types'])} spell")
        if cond["adventure"] and not has_adventure:
            why.append("it doesn't have an Adventure")
        results.append({"source": w["source"], "text": w["text"], "triggers": not why, "why": ", ".join(why)})
    if results:
        ctx.apply("603.2", chars=chars)
        ctx.apply("601.2i", results=results)
    return results


def on_target(ctx, st, halves: list[dict]) -> dict | None:
    """The creature the spell's halves target, after they resolve in order (None: no target given)."""
    t = st["s"]["target"]
    if not t.get("name"):
        return None
    effects = [e for h in halves for e in read(h.get("text") or "", "left.text", strict=False)]
    c = resolve_on(ctx, effects, {k: t.get(k) for k in ("name", "power", "toughness", "abilities")},
                   source=" then ".join(h["name"] for h in halves), field="left.text")
    return {"name": c["name"], "power": c["power"], "toughness": c["toughness"], "damage": c["damage"],
            "destroyed": c["destroyed"], "dies": c["dies"], "zone": c["zone"]}
