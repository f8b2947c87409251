"""Meld (CR 701.42, 712.4–712.5, 712.8, 712.14c, 712.19, 712.21, 202.3c, 707.8).

Two meld cards of one pair become one permanent with the combined back face's characteristics;
its mana value is the sum of the front faces'. Off the battlefield (and on the stack) each card
is only its front face; the back face alone is never a set of characteristics (712.4b).
"""
from __future__ import annotations

from kb.reasoning.cards import colours, mana_value, real_card
from kb.reasoning.meld.schema import M
from kb.reasoning.registry import implements


def _front(c):
    return {"name": c["name"], "types": c["types"], "mana_cost": c.get("mana_cost"),
            "mana_value": mana_value(c.get("mana_cost")), "power": c.get("power"), "toughness": c.get("toughness"),
            "colors": colours(c.get("mana_cost"), c.get("color_indicator"))}


def _is_pair(a, b) -> bool:
    return (not a["token"] and not b["token"] and a["meld_card"] and b["meld_card"] and a["melds_with"] == b["name"]
            and b["melds_with"] == a["name"] and a["melds_into"] == b["melds_into"] != "")


@implements("712.8g", "has only the characteristics of the combined back face",
            "mana value is the sum of the mana values of its front faces", mechanic=M)
def melded_chars(st, ctx, **_):
    b = st["melded"]
    mv = sum(mana_value(c.get("mana_cost")) for c in st["cards"])
    st["chars"] = {"name": b.get("name"), "types": b.get("types"), "power": b.get("power"),
                   "toughness": b.get("toughness"), "loyalty": b.get("loyalty"), "mana_value": mv,
                   "colors": colours(b.get("mana_cost"), b.get("color_indicator")), "objects": 1,
                   "cards": len(st["cards"])}
    ctx.apply("202.3c")
    return (f"melded: only the combined back face's characteristics ({b.get('name')}); mana value = "
            + " + ".join(str(mana_value(c.get("mana_cost"))) for c in st["cards"]) + f" = {mv}")


@implements("202.3c", "combined mana cost of the front faces", mechanic=M)
def mv_combined(st, ctx, **_):
    return f"mana value of a melded permanent: the front faces' combined mana cost = {st['chars']['mana_value']}"


@implements("712.8b", "A meld card on the stack has only the characteristics of its front face", mechanic=M)
def on_stack(st, ctx, **_):
    return "a meld card on the stack has only its front face's characteristics"


@implements("712.8a", "zone other than the battlefield or stack, it has only the characteristics of its front face",
            mechanic=M)
def elsewhere(st, ctx, **_):
    return f"in the {st['s']['zone']} it has only its front face's characteristics"


@implements("712.8d", "front face up, it has only the characteristics of its front face", mechanic=M)
def front_up(st, ctx, **_):
    return "on the battlefield unmelded, with its front face up: only its front face's characteristics"


@implements("712.4b", "fails to determine its characteristics", mechanic=M)
def back_unused(st, ctx, **_):
    return "the back half is used only for the melded permanent: it gives this card no characteristics"


def _characteristics(ctx, st):
    s = st["s"]
    if s["zone"] == "battlefield" and s["melded_now"]:
        ctx.apply("712.8g", using="melded_chars")
        return st["chars"]
    ctx.apply({"stack": "712.8b", "battlefield": "712.8d"}.get(s["zone"], "712.8a"))
    if s["zone"] != "battlefield":
        ctx.apply("712.4b")
    return _front(st["cards"][0])


@implements("701.42b", "Only two cards belonging to the same meld pair can be melded", mechanic=M)
def only_pairs(st, ctx, **_):
    cards = st["cards"]
    st["ok"] = len(cards) == 2 and _is_pair(*cards)
    if st["ok"]:
        return f"{cards[0]['name']} and {cards[1]['name']} are a meld pair"
    bad = [c["name"] for c in cards if c["token"]]
    return ("tokens can't be melded: " + ", ".join(bad) if bad else "these aren't the two cards of one meld pair")


@implements("701.42c", "instructs a player to meld objects that can't be melded, they stay in their current zone",
            mechanic=M)
def stay(st, ctx, **_):
    return "they can't be melded: they stay where they are (in exile, after the meld ability exiled them)"


@implements("701.42a", "put them onto the battlefield with their back faces up and combined", mechanic=M)
def meld(st, ctx, **_):
    return "both cards go onto the battlefield back faces up and combined: one permanent represented by two cards"


@implements("712.14c", "enter the battlefield as a single permanent with their back faces up", mechanic=M)
def enter_one(st, ctx, **_):
    return "they enter the battlefield as a single permanent: one 'enters' event"


@implements("400.7", "becomes a new object with no memory of, or relation to, its previous existence", mechanic=M)
def new_object(st, ctx, **_):
    lost = [f"{c['plus1_counters']} +1/+1 counters on {c['name']}" for c in st["cards"] if c["plus1_counters"]]
    lost += [f"{a} on {c['name']}" for c in st["cards"] for a in c["attached"]]
    return ("the melded permanent is a new object: " + (", ".join(lost) + " don't carry over" if lost else
                                                          "nothing that affected the cards carries over"))


@implements("704.5m", "is not attached to an object or player, that Aura is put into its owner", mechanic=M)
def aura_left_behind(st, ctx, auras=(), **_):
    return (", ".join(auras) + " was attached to a card that became part of a new object: attached to nothing, "
            "it is put into its owner's graveyard at the next state-based action check")


@implements("301.5c", "becomes unattached from that permanent but remains on the battlefield", mechanic=M)
def equipment_left_behind(st, ctx, others=(), **_):
    return ", ".join(others) + " equipped a permanent that no longer exists: it becomes unattached and stays"


def _left_behind(ctx, cards) -> list[dict]:
    """What was attached to the cards before they melded, after the melded permanent enters (400.7)."""
    auras = [a for c in cards for a in c["attached"] if a in c["auras"]]
    others = [a for c in cards for a in c["attached"] if a not in c["auras"]]
    if auras:
        ctx.apply("704.5m", auras=auras)
    if others:
        ctx.apply("301.5c", others=others)
    return [{"name": a, "zone": "graveyard", "attached": False} for a in auras] + [
        {"name": a, "zone": "battlefield", "attached": False} for a in others]


@implements("508.3a", "won't trigger if a creature is put onto the battlefield attacking", mechanic=M)
def not_declared(st, ctx, **_):
    return "it enters attacking but wasn't declared as an attacker: 'whenever it attacks' doesn't trigger"


@implements("603.6a", "Enters-the-battlefield abilities trigger when a permanent enters the battlefield", mechanic=M)
def etb(st, ctx, **_):
    return "it entered the battlefield: its enters abilities trigger (once: one permanent entered)"


@implements("712.21", "one permanent leaves the battlefield and two cards are put into the appropriate zone",
            mechanic=M)
def leaves(st, ctx, **_):
    return f"one permanent leaves the battlefield; both cards go to the {st['s']['destination']}"


@implements("712.21a", "may arrange the two cards in any order", mechanic=M)
def order(st, ctx, **_):
    d = st["s"]["destination"]
    return "its owner arranges the two cards in any order" + (", without revealing the order" if d == "library" else "")


@implements("712.21b", "determines the relative timestamp order of the two cards", mechanic=M)
def timestamps(st, ctx, **_):
    return "exiled: its owner chooses the relative timestamp order of the two cards"


@implements("712.21c", "it finds both cards", "the same actions are taken upon each of them", mechanic=M)
def finds_both(st, ctx, **_):
    return "the effect finds both cards and returns each: two separate permanents, not melded"


@implements("712.14", "enters the battlefield with its front face up by default", mechanic=M)
def front_up_again(st, ctx, **_):
    return "each card returns front face up"


@implements("712.21e", "counts as one object that moved", "counts as two cards that moved", mechanic=M)
def counting(st, ctx, **_):
    return "counted as one object that changed zones, or as two cards"


@implements("700.4", "The term dies means", "is put into a graveyard from the battlefield", mechanic=M)
def dies(st, ctx, **_):
    creature = "creature" in (st["melded"].get("types") or [])
    st["dies_count"] = 1 if creature else 0
    return ("the melded creature dies once (one object put into a graveyard from the battlefield): "
            "'whenever a creature dies' triggers once" if creature else
            "the melded permanent dies once (it isn't a creature: 'whenever a creature dies' doesn't trigger)")


@implements("704.5d", "If a token is in a zone other than the battlefield, it ceases to exist", mechanic=M)
def token_gone(st, ctx, **_):
    return "the token that couldn't be melded is outside the battlefield: it ceases to exist"


@implements("707.5", "any enters-the-battlefield triggered abilities of the copy will have a chance to trigger",
            mechanic=M)
def copy_etb(st, ctx, **_):
    return "it becomes a copy as it enters, so the copied enters-the-battlefield ability triggers"


@implements("712.4c", "meld cards cannot be transformed or converted", mechanic=M)
def no_transform(st, ctx, **_):
    return "meld cards can't be transformed: the instruction is ignored"


@implements("701.27g", "such as a melded or merged permanent, is never considered a transformed permanent", mechanic=M)
def not_transformed(st, ctx, **_):
    return "a melded permanent has its back face up but isn't a transformed permanent"


@implements("712.16", "can't be turned face down", mechanic=M)
def no_face_down(st, ctx, **_):
    return "a melded (double-faced) permanent can't be turned face down: nothing happens"


@implements("707.8", "When copying a melded permanent", "copiable values of the face that", mechanic=M)
def copy_face(st, ctx, **_):
    return "the copy uses the combined back face's copiable values"


@implements("712.8g", "If a permanent is copying a melded permanent, the mana value of the copy is 0", mechanic=M)
def copy_mv(st, ctx, **_):
    return "a copy of a melded permanent has mana value 0"


@implements("712.19", "may choose the name of the combined back face of a meld pair", mechanic=M)
def naming(st, ctx, **_):
    return "the combined back face's name may be chosen"


def named_pair(st, ctx, **_):
    """The subrule of 712.5 that names this pair (712.5a–g list them, e.g. 712.5e for Urza)."""
    c = st["cards"][0]
    text = ctx.book.rule(ctx.state["pair_rule"]).text_en
    return f"the CR lists this pair: {text}" if c["name"] in text and c["melds_with"] in text else None


for _letter in "abcdefg":  # the pairs 712.5 lists in the CR this logic was written for
    implements(f"712.5{_letter}", "meld to form", mechanic=M)(named_pair)


def pair_rule(ctx, st) -> str | None:
    """The number of the 712.5 subrule naming the first card and its partner, if the CR lists it."""
    c = st["cards"][0]
    for number in ctx.book.children("712.5"):
        text = ctx.book.rule(number).text_en
        if c["name"] in text and c["melds_with"] and c["melds_with"] in text:
            return number
    return None


@implements("712.5", "specific meld pairs", mechanic=M)
def pairs(st, ctx, **_):
    c = st["cards"][0]
    return f"{c['name']} melds with {c['melds_with']} into {c['melds_into']}"


@implements("603.4", "checks the stated condition again as it resolves", "does nothing", mechanic=M)
def recheck(st, ctx, **_):
    ok = st["s"]["condition_still_true"]
    return ("the condition still holds as it resolves: the ability resolves" if ok else
            "the condition no longer holds as it resolves: the ability does nothing")


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    cards = [dict(c) for c in sit["cards"]]
    for i, c in enumerate(cards):
        real_card(ctx, c["name"], f"cards[{i}].name")
    st.update(s=sit, cards=cards, melded=sit["melded"], chars=None, ok=False)
    q = sit["question"]
    if q == "characteristics":
        return {"characteristics": _characteristics(ctx, st),
                "uses_back_face": sit["zone"] == "battlefield" and sit["melded_now"]}
    if q == "meld":
        ctx.apply("701.42b")
        if not st["ok"]:
            ctx.apply("701.42c")
            tokens = any(c["token"] for c in cards)
            if tokens:
                ctx.apply("704.5d")
            return {"melded": False, "zone": "exile", "tokens_exist": False if tokens else None}
        ctx.apply("701.42a")
        ctx.apply("712.14c")
        ctx.apply("400.7")
        ctx.apply("712.8g", using="melded_chars")
        chars = st["chars"]
        ctx.apply("603.6a")
        if sit["enters_attacking"]:
            ctx.apply("508.3a")
        return {"melded": True, "objects": 1, "cards": 2, "characteristics": chars, "enter_triggers": 1,
                "attack_triggers": 0, "attacking": sit["enters_attacking"], "plus1_counters": 0, "attached": [],
                "attachments_after": _left_behind(ctx, cards)}
    if q in ("leaves", "flicker"):
        ctx.apply("712.21")
        if sit["destination"] in ("graveyard", "library") and q == "leaves":
            ctx.apply("712.21a")
        if q == "leaves":
            ctx.apply("712.21e")
            died = None
            if sit["destination"] == "graveyard":
                ctx.apply("700.4")
                died = st["dies_count"]
            return {"objects_left": 1, "cards_moved": len(cards), "zone": sit["destination"], "dies_count": died,
                    "order_revealed": False if sit["destination"] == "library" else None,
                    "cards": [c["name"] for c in cards], "owner_orders": sit["destination"] in ("graveyard", "library")}
        ctx.apply("712.21b")
        ctx.apply("712.21c")
        ctx.apply("712.14")
        return {"returned": [c["name"] for c in cards], "melded_after_return": False, "face_up": "front",
                "permanents_after": len(cards)}
    if q == "transform":
        ctx.apply("712.4c")
        ctx.apply("701.27g")
        return {"transforms": False, "is_transformed_permanent": False, "anything_changes": False,
                "legal_target": False if sit["targeted_as"] == "transformed-permanent" else None}
    if q == "turn-face-down":
        ctx.apply("712.16")
        return {"turned_face_down": False, "anything_changes": False}
    if q == "copy":
        ctx.apply("712.8g", using="melded_chars")
        ctx.apply("707.8")
        ctx.apply("712.8g", using="copy_mv")
        etb = bool(sit["melded"].get("etb_ability"))
        if etb:
            ctx.apply("707.5")
        return {"copy": dict(st["chars"], mana_value=0, cards=1), "original_mana_value": st["chars"]["mana_value"],
                "etb_triggers": etb}
    if q == "name-a-card":
        ctx.apply("712.19")
        return {"may_name_combined_back_face": True, "valid": sit["chosen_name"] in
                [c["name"] for c in cards] + [sit["melded"].get("name"), c["melds_into"]]}
    if q == "pair":
        ctx.apply("712.5")
        st["pair_rule"] = pair_rule(ctx, st)
        if st["pair_rule"] in {f"712.5{x}" for x in "abcdefg"}:
            ctx.apply(st["pair_rule"])
        partner = {"name": sit["other"], "token": False, "meld_card": True,
                   "melds_with": next((c["melds_with"] for c in cards[1:] if c["name"] == sit["other"]), ""),
                   "melds_into": next((c["melds_into"] for c in cards[1:] if c["name"] == sit["other"]), "")}
        st["cards"] = [cards[0], partner]
        ctx.apply("701.42b")
        return {"counterpart": cards[0]["melds_with"], "melds_into": cards[0]["melds_into"], "can_meld": st["ok"]}
    ctx.apply("603.4")
    ok = sit["condition_still_true"]  # doing nothing, the cards still there stay where they are
    return {"melded": ok, "does_anything": ok, "zone": "battlefield" if ok else sit["zone"]}
