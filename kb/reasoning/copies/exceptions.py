"""A copy effect's exception as printed ("…, except it's 7/7", "except it's an enchantment in
addition to its other types", "except the copy is red", "except it doesn't copy that creature's
color and it has '…'"), read into the copy's values (707.9a-c), and what the copied text's
"enters with" replacement abilities do to the copy (707.5, 614.1c).

The exception's words are read, never matched against known cards: a P/T pair, card types or
supertypes "in addition to its other types", a colour the copy "is", a colour it doesn't copy, and
quoted abilities it has. Words it cannot read are refused naming the field (no guess)."""
from __future__ import annotations

import re

from kb.errors import SituationError
from kb.reasoning.cards import COLOURS, SUPERTYPES, TYPES, colours
from kb.reasoning.copies.schema import M
from kb.reasoning.registry import implements

_PT = re.compile(r"\bit'?s (?:an? )?(\d+)/(\d+)\b|\bis (?:an? )?(\d+)/(\d+)\b")
_ADDITION = re.compile(r"\b(?:it'?s|is) (?:an? )?([a-z ,]+?)(?: creature)? in addition to its other types")
_IS_COLOUR = re.compile(r"\b(?:it'?s|is) (white|blue|black|red|green)\b")
_NOT_COLOUR = re.compile(r"(?:doesn'?t|does not|don'?t) copy [^.\"“]*?\bcolou?r")
_HAS = re.compile(r"\bhas [\"“](.+?)[\"”]", re.S)
_COLOUR_WORD = {en: k for k, (_, en) in COLOURS.items()}


def read_exception(text: str, where: str = "exception.text") -> dict:
    """What an exception's words change: {set_power, set_toughness, add_types, add_supertypes, colour,
    keep_own_colour, gains}. Refuses words that name nothing it can read."""
    t = " ".join(text.replace("’", "'").lower().split())
    out: dict = {"add_types": [], "add_supertypes": [], "gains": [], "colour": None, "keep_own_colour": False}
    m = _PT.search(t)
    if m:
        p, q = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        out["set_power"], out["set_toughness"] = int(p), int(q)
    for m in _ADDITION.finditer(t):
        for w in re.split(r",|\band\b|\s", m.group(1)):
            if w in TYPES:
                out["add_types"].append(w)
            elif w in SUPERTYPES:
                out["add_supertypes"].append(w)
    m = _IS_COLOUR.search(t)
    if m:
        out["colour"] = _COLOUR_WORD[m.group(1)]
    out["keep_own_colour"] = bool(_NOT_COLOUR.search(t))
    out["gains"] = [g.strip() for g in _HAS.findall(text.replace("“", '"').replace("”", '"'))]
    if not (out["add_types"] or out["add_supertypes"] or out["gains"] or out["colour"] or out["keep_own_colour"]
            or "set_power" in out):
        raise SituationError(where, f"can't read what this exception changes: {text!r} (write e.g. \"except it's 7/7\", "
                             "\"except it's an artifact in addition to its other types\", \"except the copy is red\")",
                             message_ja="例外の文章から変更点を読み取れません（例「7/7である」「他のタイプに加えてアーティファクトでもある」）",
                             label_ja="コピー効果の例外（文章）")
    return out


@implements("707.9b", "Some copy effects modify a characteristic as part of the copying process",
            "The final set of values for that characteristic becomes part of the copiable values", mechanic=M)
def exception_modifies(st, ctx, read=None, **_):
    v, said = st["v"], []
    if "set_power" in read:
        v["power"], v["toughness"] = read["set_power"], read["set_toughness"]
        said.append(f"P/T {v['power']}/{v['toughness']}")
    for t in read["add_types"]:
        if t not in v["types"]:
            v["types"].append(t)
    for t in read["add_supertypes"]:
        if t not in v["supertypes"]:
            v["supertypes"].append(t)
    if read["add_types"] or read["add_supertypes"]:
        said.append("also " + " ".join(read["add_supertypes"] + read["add_types"]))
    if read["colour"]:
        v["color_indicator"], v["mana_cost_colours_ignored"] = [read["colour"]], True
        said.append(f"colour {COLOURS[read['colour']][1]} (its mana cost is copied, not its colour)")
    if not said:
        return None
    return f"the exception '{st['exception_text']}' modifies the copy as it copies: " + "; ".join(said) + \
        " — part of its copiable values"


@implements("707.9c", "don't copy certain characteristics and the affected objects instead retain their original values",
            mechanic=M)
def exception_keeps_colour(st, ctx, **_):
    own = colours(st["s"]["copier_mana_cost"])
    st["v"]["color_indicator"], st["v"]["mana_cost_colours_ignored"] = own, True
    return (f"the exception doesn't copy colour: the copy keeps its own colour "
            f"({'/'.join(COLOURS[c][1] for c in own) or 'colourless'}, from its own mana cost), though it has the copied mana cost")


@implements("707.9a", "gain an ability as part of the copying process", mechanic=M)
def exception_gains(st, ctx, read=None, **_):
    st["v"]["abilities"] += read["gains"]
    return "as it copies, the copy has " + "; ".join(f"'{g}'" for g in read["gains"]) + ": part of its copiable values"


def apply_exception_text(ctx, st) -> None:
    """The exception as printed, read and applied to the copy's values (after the copiable values are taken)."""
    text = st["s"]["exception"]["text"]
    if not text:
        return
    read = read_exception(text)
    st["exception_text"] = text
    ctx.apply("707.9b", using="exception_modifies", read=read)
    if "set_power" in read and st["s"]["exception"]["original_has_cda"] and st["v"].get("cda_copied", True):
        ctx.apply("707.9d")  # the exception sets P/T: the original's P/T-defining ability isn't copied
    if read["keep_own_colour"]:
        ctx.apply("707.9c", using="exception_keeps_colour")
    if read["gains"]:
        ctx.apply("707.9a", using="exception_gains", read=read)


@implements("614.1c", "enters with", "are replacement effects", mechanic=M)
def enters_with(st, ctx, counters=None, tapped=False, **_):
    what = [f"{n} {k} counter(s)" for k, n in counters.items()] + (["tapped"] if tapped else [])
    return ("the copied 'enters with …' ability is a replacement effect the copy has as it enters: it enters with "
            + " and ".join(what).replace("with tapped", "tapped"))


@implements("707.5", "If the text that's being copied includes any abilities that replace the enters-the-battlefield event",
            "those abilities will take effect", mechanic=M)
def copied_replacement(st, ctx, **_):
    return "the copy becomes a copy as it enters, so the copied 'enters with' / 'enters tapped' abilities take effect"


def entering(ctx, st, token: bool) -> dict:
    """Counters and tapped status the copy enters with from the copied text's 'enters with' abilities."""
    o = st["o"]
    counters: dict[str, int] = {}
    for c in o["enters_with"]:
        counters[c["kind"]] = counters.get(c["kind"], 0) + c["count"]
    counters = {k: n for k, n in counters.items() if n}
    if not counters and not o["enters_tapped"]:
        return {"counters": {}, "tapped": False}
    ctx.apply("707.5", using="copied_replacement")
    ctx.apply("614.1c", counters=counters, tapped=o["enters_tapped"])
    return {"counters": counters, "tapped": bool(o["enters_tapped"])}
