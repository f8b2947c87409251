"""Manifest (CR 701.40) on top of face-down objects (CR 708), morph (702.37), disguise (702.168).

A manifested card is described by its real (face-up) characteristics; the face-down ones come from
701.40a / 708.2a. Double-faced cards follow 712.15 / 712.15a (dfc logic).
"""
from __future__ import annotations

from kb.reasoning.cards import real_card, type_words
from kb.reasoning.registry import implements
from kb.reasoning.manifest.schema import FACE_DOWN, M


def _creature_card(card) -> bool:
    return "creature" in card["type_set"]


def _instant_or_sorcery(card) -> bool:
    return bool({"instant", "sorcery"} & card["type_set"])


# ---------------------------------------------------------------- manifesting


@implements("701.40e", "manifest multiple cards", "manifested one at a time", mechanic=M)
def one_at_a_time(st, ctx, **_):
    if len(st["cards"]) < 2:
        return None
    return f"{len(st['cards'])} cards are manifested one at a time, each its own event"


@implements("701.40f", "prohibits the face-down object from entering the battlefield", "isn't manifested", mechanic=M)
def prohibited(st, ctx, card=None, **_):
    if not st["prohibited"]:
        return None
    card["manifested"] = False
    card["stays_face_up"] = st["face_up_in_previous_zone"]
    return (f"{card['name']} isn't manifested: it stays in its previous zone with its characteristics"
            + (", still face up" if card["stays_face_up"] else ""))


@implements("701.40a", "2/2 face-down creature card with no text, no name, no subtypes, and no mana cost",
            "manifested permanent for as long as it remains face down", mechanic=M)
def manifest_card(st, ctx, card=None, **_):
    card["manifested"] = True
    card["characteristics"] = dict(FACE_DOWN)
    return f"{card['name']} is turned face down and put onto the battlefield as a 2/2 manifested creature"


@implements("708.3", "turned face down before they enter the battlefield", "won't trigger", mechanic=M)
def no_etb(st, ctx, card=None, **_):
    card["etb_triggers"] = False
    return f"{card['name']} is face down before it enters: its own enters abilities don't trigger"


@implements("603.6a", "all permanents on the battlefield (including the newcomers) are checked", mechanic=M)
def others_see_creature(st, ctx, card=None, **_):
    if not st["creature_enters_triggers"]:
        return None
    card["creature_enters_triggered"] = True
    return f"a 2/2 creature entered ({card['name']} face down): 'whenever a creature enters' triggers"


def _manifest(ctx, st):
    ctx.apply("701.40e")
    out = []
    for card in st["cards"]:
        if ctx.apply("701.40f", card=card):
            out.append({"name": card["name"], "manifested": False, "face_up": card["stays_face_up"]})
            continue
        if card["double_faced"]:
            ctx.apply("712.15", when="characteristics")
        ctx.apply("701.40a", card=card)
        ctx.apply("708.3", card=card)
        ctx.apply("603.6a", card=card)
        out.append({"name": card["name"], "manifested": True, "characteristics": card["characteristics"],
                    "etb_triggers": False, "creature_enters_triggers": card.get("creature_enters_triggered", False),
                    "can_turn_face_up_for_mana_cost": _creature_card(card) and bool(card["mana_cost"])})
    return {"cards": out, "one_at_a_time": len(out) > 1}


# ---------------------------------------------------------------- turning face up


@implements("701.40b", "is a creature card and what that card's mana cost is", "special action",
            "can't be turned face up this way", mechanic=M)
def pay_mana_cost(st, ctx, card=None, **_):
    if st["how_face_down"] != "manifested":
        st["up"] = False
        return "it isn't a manifested permanent (it was cast with morph): its mana cost can't turn it face up"
    # The card itself is shown, so continuous effects on the permanent are ignored.
    ok = _creature_card(card) and bool(card["mana_cost"])
    st["up"] = ok
    ignored = f" (ignoring {', '.join(st['continuous_effects'])})" if st["continuous_effects"] else ""
    if not ok:
        why = "isn't a creature card" if not _creature_card(card) else "has no mana cost"
        return f"the card {why}{ignored}: it can't be turned face up this way"
    return f"special action: reveal the creature card{ignored}, pay {card['mana_cost']}, turn it face up"


@implements("701.40c", "card with morph is manifested", "702.37e", mechanic=M)
def via_morph(st, ctx, card=None, **_):
    return ("a manifested card with morph may be turned face up by either the morph procedure (702.37e) or "
            f"the manifest procedure (701.40b); here: {st['method']}")


@implements("701.40d", "card with disguise is manifested", "702.168d", mechanic=M)
def via_disguise(st, ctx, card=None, **_):
    return ("a manifested card with disguise may be turned face up by either the disguise procedure (702.168d) "
            f"or the manifest procedure (701.40b); here: {st['method']}")


@implements("702.37e", "pay that cost, then turn the permanent face up", "special action", mechanic=M)
@implements("702.168d", "pay that cost, then turn the permanent face up", "special action", mechanic=M)
def pay_alt_cost(st, ctx, card=None, cost=None, **_):
    st["up"] = bool(card.get(cost))
    return (f"special action: pay its {cost.split('_')[0]} cost {card.get(cost)} and turn it face up" if st["up"]
            else f"it has no {cost.split('_')[0]} cost: it can't be turned face up this way")


@implements("701.40g", "instant or sorcery card would turn face up", "leaves it face down", mechanic=M)
def instant_stays_down(st, ctx, card=None, **_):
    if not _instant_or_sorcery(card):
        return None
    st["up"] = False
    st["revealed"] = True
    return f"{card['name']} is an instant or sorcery card: revealed, left face down; face-up triggers don't trigger"


@implements("712.15a", "If it's turned face up, it will have its front face up", mechanic=M)
def dfc_front_up(st, ctx, card=None, **_):
    if not card["double_faced"] or not st["up"]:
        return None
    return f"{card['name']} is a double-faced card: it's turned face up front face up (this isn't transforming)"


@implements("708.8", "Any effects that have been applied to the face-down permanent still apply",
            "don't trigger", mechanic=M)
def after_face_up(st, ctx, card=None, **_):
    return ("it regains its normal characteristics; effects, counters and Auras still apply; "
            "abilities about entering the battlefield don't trigger")


@implements("116.2b", "Turning a face-down creature face up is a special action", mechanic=M)
def special_action(st, ctx, **_):
    if st["method"] == "effect":
        return None
    return "turning a face-down creature face up is a special action: any time you have priority, without the stack"


def _turn_up(ctx, st):
    card = st["cards"][0]
    method = st["method"]
    if st["how_face_down"] == "manifested":  # either procedure may be used for such a card (701.40c/d)
        if card["morph_cost"]:
            ctx.apply("701.40c", card=card)
        if card["disguise_cost"]:
            ctx.apply("701.40d", card=card)
    if method == "mana-cost":
        ctx.apply("701.40b", card=card)
    elif method == "effect":
        st["up"] = True
    else:
        rule, cost = ("702.37e", "morph_cost") if method == "morph" else ("702.168d", "disguise_cost")
        ctx.apply(rule, card=card, cost=cost)
    ctx.apply("701.40g", card=card)
    if st["up"]:
        ctx.apply("116.2b")
    if not st["up"]:
        return {"turned_face_up": False, "revealed": st.get("revealed", False), "turned_face_up_triggers": False}
    ctx.apply("712.15a", using="dfc_front_up", card=card)
    ctx.apply("708.8", card=card)
    return {"turned_face_up": True, "face": "front" if card["double_faced"] else None,
            "uses_stack": False if method != "effect" else None, "etb_triggers": False,
            "turned_face_up_triggers": card["turned_face_up_ability"], "effects_still_apply": True,
            "characteristics": {"name": card["name"], "types": card["types"], "mana_cost": card["mana_cost"]}}


# ---------------------------------------------------------------- leaving the battlefield


@implements("708.9", "moves from the battlefield to any other zone", "reveal it", mechanic=M)
def reveal_on_leaving(st, ctx, card=None, **_):
    return f"{card['name']} leaves the battlefield: its owner reveals it"


@implements("603.10a", "leaves-the-battlefield abilities", "look back in time", mechanic=M)
def looks_back(st, ctx, card=None, **_):
    return ("leaves-the-battlefield triggers look back: face down it had no abilities, so its own "
            "'when this dies' ability doesn't trigger")


@implements("400.7", "becomes a new object with no memory of", mechanic=M)
def new_object(st, ctx, card=None, **_):
    return f"{card['name']} returns as a new object, not 'turned face up': face-up triggers don't trigger"


@implements("110.5b", "enter the battlefield untapped, unflipped, face up", mechanic=M)
def returns_face_up(st, ctx, card=None, **_):
    return f"{card['name']} returns face up" + (", front face up" if card["double_faced"] else "")


@implements("304.4", "If an instant would enter the battlefield, it remains in its previous zone", mechanic=M)
@implements("307.4", "If a sorcery would enter the battlefield, it remains in its previous zone", mechanic=M)
def stays_exiled(st, ctx, card=None, **_):
    return f"{card['name']} is an instant or sorcery card: it can't enter; it stays in exile"


def _leave(ctx, st):
    card = st["cards"][0]
    ctx.apply("708.9", card=card)
    ctx.apply("603.10a", card=card)
    if st["destination"] != "flicker":
        return {"zone": st["destination"], "revealed": True, "dies_triggers": False}
    ctx.apply("400.7", card=card)
    if _instant_or_sorcery(card):
        ctx.apply("307.4" if "sorcery" in card["types"].lower() else "304.4", card=card)
        return {"zone": "exile", "revealed": True, "returns": False}
    ctx.apply("110.5b", card=card)
    return {"zone": "battlefield", "revealed": True, "returns": True, "face_up": True,
            "face": "front" if card["double_faced"] else None, "turned_face_up_triggers": False,
            "mana_cost_paid": False}


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    # The type line is read in English or Japanese (「インスタント」 is an instant); an unknown word is refused.
    cards = [dict(c, type_set=type_words(c["types"], f"cards[{i}].types")) for i, c in enumerate(sit["cards"])]
    for i, c in enumerate(cards):
        real_card(ctx, c["name"], f"cards[{i}].name")
    st.update(sit, cards=cards)
    return {"manifest": _manifest, "turn-face-up": _turn_up, "leave-battlefield": _leave}[sit["question"]](ctx, st)
