"""Neutral held-out facts -> the engine's situations: ONE general adapter per question type.

The held-out questions (bench/reasoning_heldout_new.json) describe a case in a neutral vocabulary
(zones, card types, ``status``, an ``event`` name, ``effects`` as text). Each adapter below maps that
vocabulary to the fields of one engine schema; it never looks at a question's id or its expected
answer. An event may need more than one engine question (``cast-back-face-then-query``); the adapter
then returns several situations, labelled, and the scorer reads each expected key from the labelled
outcome its declared key mapping names (bench/bench_reasoning_heldout.py).
"""
from __future__ import annotations

import re

PROHIBITIONS = (("even mana value", "even-mana-value"), ("odd mana value", "odd-mana-value"),
                ("mana value 4 or greater", "mana-value-4-or-more"), ("noncreature spells", "noncreature-spells"),
                ("creature spells", "creature-spells"))
TYPES = {"artifact", "battle", "creature", "enchantment", "instant", "kindred", "land", "planeswalker", "sorcery"}
PERMANENT_TYPES = {"artifact", "battle", "creature", "enchantment", "land", "planeswalker"}


def _int(v):
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def face(c: dict) -> dict:
    """A neutral card (or face) -> the engine's card-face fields."""
    out = {"name": c.get("name") or "", "mana_cost": c.get("mana_cost"),
           "types": [t for t in c.get("types", []) if t in TYPES],
           "supertypes": list(c.get("supertypes", [])), "subtypes": list(c.get("subtypes", [])),
           "abilities": [a.lower() for a in c.get("abilities", [])],
           "color_indicator": list(c.get("color_indicator", []))}
    for k in ("power", "toughness", "loyalty"):
        if _int(c.get(k)) is not None:
            out[k] = c[k]
    return out


def text_of(c: dict) -> str:
    """The card's rules text and keyword abilities, all faces, lower case."""
    parts = [c.get("text") or "", *c.get("abilities", [])]
    for f in c.get("faces", []):
        parts += [f.get("text") or "", *f.get("abilities", [])]
    return " ".join(parts).lower()


def card_named(facts: dict, name) -> dict | None:
    if not name:
        return None
    base = re.sub(r"\s*\(copy\)$", "", str(name))
    for c in facts.get("cards", []):
        if c.get("name") == base or any(f.get("name") == base for f in c.get("faces", [])):
            return c
    return None


def prohibition(facts: dict) -> str:
    text = " ".join(facts.get("effects", [])).lower()
    return next((v for words, v in PROHIBITIONS if words in text), "none")


def requirement(facts: dict) -> dict:
    """'target instant card with mana value 2 or less', 'land card' -> the engine's requirement fields."""
    text = facts.get("target_requirement") or facts.get("requirement") or ""
    low = text.lower()
    req = {"types_any": [t for t in re.findall(r"[a-z]+", low) if t in TYPES], "permanent_card": "permanent card" in low,
           "targeted": "target_requirement" in facts}
    for m in re.finditer(r"mana value (\d+) or (less|greater)", low):
        req["mana_value_max" if m.group(2) == "less" else "mana_value_min"] = int(m.group(1))
    return req if (req["types_any"] or req["permanent_card"] or len(req) > 3) else {}


def faces(c: dict) -> tuple[dict, dict]:
    fs = c.get("faces") or [c, c]
    return face(fs[0]), face(fs[1])


# ---------------------------------------------------------------- face-down

FD_EVENTS = {  # neutral event -> engine questions, in order
    "turn-face-up": ["turn-face-up"], "turn-face-up-in-response": ["turn-face-up"],
    "turn-face-up-timing": ["turn-face-up"], "query-characteristics-and-turn-face-up": ["characteristics", "turn-face-up"],
    "turned-face-down-then-turn-face-up": ["characteristics", "turn-face-up"],
    "cast-face-down": ["cast-face-down"], "cast-face-down-under-restriction": ["cast-face-down"],
    "cast-face-down-then-turn-face-up": ["cast-face-down", "turn-face-up"],
    "dies": ["leaves"], "countered": ["leaves"], "look-at-face-down": ["look"],
    "enters-as-copy-of-face-down": ["copy"], "face-down-becomes-copy": ["becomes-copy"],
    "turn-face-down-attempt": ["turn-face-down"], "manifest-dread": ["manifest-dread"],
}
FD_VIA = {"morph": "morph", "megamorph": "megamorph", "disguise": "disguise", "manifest": "manifest",
          "manifest-dread": "manifest-dread", "cloak": "cloak", "effect": "effect"}


def stack_text(facts: dict, own: dict) -> str:
    """What the spells on the stack say: a card the facts name, by its text; else the item as written
    ("opponent's instant: Destroy target creature")."""
    out = []
    for item in facts.get("stack", []):
        c = next((c for c in facts.get("cards", []) if c is not own and c.get("name") and c["name"] in item), None)
        out.append(c.get("text") or "" if c else item.partition(":")[2] or item)
    return " ".join(t for t in out if t)


def face_down(facts: dict) -> list[tuple[str, dict]]:
    status = facts.get("status", {})
    cards = facts.get("cards", [])
    c = card_named(facts, status.get("of")) or (cards[0] if cards else {"name": "(face-down card)"})
    fs = c.get("faces")
    card = face(fs[1 if fs and status.get("face_up") == "back" and not status.get("face_down") else 0] if fs else c)
    for k in ("morph_cost", "megamorph_cost", "disguise_cost"):
        if c.get(k):
            card[k] = c[k]
    card["double_faced"] = bool(fs)
    if (c.get("prototype") or {}).get("mana_cost"):
        card["prototype_cost"] = c["prototype"]["mana_cost"]
    text = text_of(c)
    card["etb_ability"] = "enters" in text
    card["turned_face_up_ability"] = "turned face up" in text
    base = {"via": FD_VIA.get(status.get("via"), "morph"), "card": card}
    if _int(facts.get("damage_marked")):
        base["damage"] = facts["damage_marked"]
    out = []
    still_down = facts.get("event") == "turn-face-down-attempt" and status.get("face_down")
    for q in FD_EVENTS.get(facts.get("event"), []) + (["turn-face-up"] if still_down else []):
        s = {**base, "question": q}
        zone = facts.get("zone")
        if zone in ("battlefield", "stack", "exile", "library") and q != "manifest-dread":
            s["from_zone"] = zone
        if q == "turn-face-up":
            incoming = stack_text(facts, c)
            if incoming:
                s["incoming"] = incoming
            if facts.get("mana_available"):
                s["mana_available"] = facts["mana_available"]
            s["effects"] = [m.group(0) for e in facts.get("effects", []) for m in [re.search(r"[+-]\d+/[+-]\d+", e)] if m]
        if q == "cast-face-down":
            s["prohibition"] = prohibition(facts)
            s["from_zone"] = "stack"
        if q == "leaves":
            s["destination"] = "graveyard"
        if q == "turn-face-down":
            s["face_up_now"] = not status.get("face_down", True)
        if q == "becomes-copy" and card_named(facts, facts.get("copied")):
            s["copied"] = face(card_named(facts, facts["copied"]))
        if q == "manifest-dread":
            s["top_cards"] = [face(card_named(facts, n) or {"name": n}) for n in facts.get("top_cards", [])]
            creatures = [i for i, t in enumerate(s["top_cards"]) if "creature" in t["types"]]
            s["choose"] = (creatures[0] + 1) if creatures else 1
        if q == "look":
            for i, p in enumerate(facts.get("permanents", [])):
                out.append((f"look:{p.get('controller', 'you')}" + (":phased-out" if p.get("phased_out") else ""),
                            {**s, "via": FD_VIA.get(p.get("via"), "morph"), "controller": p.get("controller", "you"),
                             "phased_out": bool(p.get("phased_out"))}))
            continue
        out.append((q, s))
    return out


# ---------------------------------------------------------------- meld

MELD_EVENTS = {
    "query-characteristics": "characteristics", "query-mana-value": "characteristics", "meld": "meld",
    "meld-attempt": "meld", "meld-during-combat": "meld", "meld-trigger-one-half-missing": "meld-trigger",
    "dies": "leaves", "bounce": "leaves", "put-into-library": "leaves", "flicker-return": "flicker",
    "transform-attempt": "transform", "targeting-check": "transform", "turn-face-down-attempt": "turn-face-down",
    "copy-melded-permanent": "copy", "choose-card-name": "name-a-card", "meld-pair-query": "pair",
}
DESTINATIONS = {"dies": "graveyard", "bounce": "hand", "put-into-library": "library"}


def meld(facts: dict) -> list[tuple[str, dict]]:
    q = MELD_EVENTS.get(facts.get("event"))
    if q is None:
        return []
    before = facts.get("before", {})
    cards = []
    for c in facts.get("cards", []):
        if c.get("layout") != "meld":
            continue
        card = {**face(c), "melds_with": c.get("melds_with", ""), "melds_into": c.get("melds_into", "")}
        b = before.get(c["name"], {})
        card["plus1_counters"] = _int(b.get("counters", {}).get("+1/+1")) or 0
        card["attached"] = list(b.get("attached", []))
        card["auras"] = [a for a in card["attached"] if "Aura" in (card_named(facts, a) or {}).get("subtypes", [])]
        card["token"] = any(o.get("name") == c["name"] and o.get("token") for o in facts.get("objects", []))
        cards.append(card)
    zone = facts.get("zone") or "battlefield"
    s = {"question": q, "cards": cards[:2], "zone": zone if zone in ("battlefield", "stack", "hand", "graveyard",
                                                                     "exile", "library") else "battlefield"}
    if facts.get("melded"):
        s["melded"] = {**face(facts["melded"]), "etb_ability": bool(re.search(r"\benters\b", text_of(facts["melded"])))}
    s["melded_now"] = bool(facts.get("melded")) and s["zone"] == "battlefield" and q not in ("meld", "meld-trigger")
    if q == "leaves":
        s["destination"] = DESTINATIONS.get(facts.get("event"), facts.get("destination") or "graveyard")
    if facts.get("destination") in ("graveyard", "hand", "library", "exile"):
        s["destination"] = facts["destination"]
    if "transformed permanent" in (facts.get("target_requirement") or "").lower():
        s["targeted_as"] = "transformed-permanent"
    if q == "meld":
        s["enters_attacking"] = bool(facts.get("enters", {}).get("attacking"))
    if q == "meld-trigger":
        s["condition_still_true"] = not facts.get("event", "").endswith("-missing")
    if q == "copy":
        s["copy_kind"] = "token-copy" if any(o.get("token") for o in facts.get("objects", [])) else "becomes-copy"
    if q == "name-a-card":
        s["chosen_name"] = (facts.get("melded") or {}).get("name", "")
    if q == "pair":
        others = [c for c in cards[2:]]
        s["other"] = others[0]["name"] if others else ""
    return [(q, s)]


# ---------------------------------------------------------------- modal double-faced cards

MDFC_EVENTS = {
    "play-as-land": ["play-land"], "play-or-cast": ["play-land", "cast"],
    "characteristics-in-hand": ["characteristics"], "query-characteristics": ["characteristics"],
    "query-mana-value": ["characteristics"], "targeting-check": ["characteristics"],
    "countered-then-query": ["countered"], "put-onto-battlefield": ["put-onto-battlefield"],
    "put-onto-battlefield-from-graveyard": ["put-onto-battlefield"], "cast-back-face": ["cast:back"],
    "cast-back-face-then-query": ["characteristics", "cast:back"], "transform-instruction": ["transform"],
    "token-copy": ["token-copy"], "choose-card-name": ["name-a-card"],
    "castability-by-face": ["cast:front", "cast:back"], "play-vs-put-onto-battlefield": ["play-land", "put-onto-battlefield"],
}


def modal_dfc(facts: dict) -> list[tuple[str, dict]]:
    c = next((c for c in facts.get("cards", []) if c.get("faces")), None)
    if c is None:
        return []
    front, back = faces(c)
    base = {"front": front, "back": back, "layout": "transforming" if c.get("layout") == "transform" else "modal",
            "zone": facts.get("zone") or "hand", "face_up": facts.get("face_up") or "front",
            "lands_played": facts.get("lands_played_this_turn", 0), "land_plays": facts.get("land_plays_allowed", 1),
            "prohibition": prohibition(facts), "chosen_name": facts.get("chosen_name", ""),
            "requirement": requirement(facts)}
    if facts.get("timing") and "empty-stack" not in facts["timing"]:
        base["main_phase_empty_stack"] = False
    out = []
    for label in MDFC_EVENTS.get(facts.get("event"), []):
        q, _, side = label.partition(":")
        s = {**base, "question": q}
        if side:
            s["choose"] = side
        elif q == "play-land":
            s["choose"] = "back" if "land" in back["types"] and "land" not in front["types"] else "front"
        elif q == "cast":
            s["choose"] = "front" if "land" not in front["types"] else "back"
        if q == "countered":
            s["zone"] = "stack"  # the facts give where it ends up; it is countered on the stack
        if q in ("cast", "play-land") and s["zone"] in ("stack", "battlefield"):
            s["zone"] = "hand"  # the facts give where it ends up; casting and playing start from the hand
        out.append((label, s))
    return out


# ---------------------------------------------------------------- copies

COPY_KIND = {"enters-as-copy": "permanent", "becomes-copy": "permanent", "token-copy": "token", "spell-copy": "spell"}


def _exceptions(texts: list[str]) -> dict:
    out: dict = {"add_types": [], "gains": []}
    for t in texts:
        low = t.lower()
        if "in addition to its other types" in low:
            out["add_types"] += [w for w in re.findall(r"[a-z]+", low.split("in addition")[0]) if w in TYPES]
        pt = re.search(r"(\d+)/(\d+)", low)
        if pt and ("power and toughness" in low or re.search(r"it'?s \d+/\d+", low)):
            out["set_power"], out["set_toughness"] = int(pt.group(1)), int(pt.group(2))
    return out


def copies(facts: dict) -> list[tuple[str, dict]]:
    ce = facts.get("copy_effect", {})
    q = COPY_KIND.get(ce.get("kind"), "permanent")
    if facts.get("event") in ("copy-resolves", "copy-permanent-spell-resolves"):
        q = "copy-resolves"
    o = facts.get("original") or facts.get("spell") or {}
    c = card_named(facts, o.get("card")) or card_named(facts, o.get("name")) or {"name": o.get("name") or ""}
    fs = c.get("faces")
    if fs:
        up = 1 if o.get("face_up") == "back" else 0
        orig = face(fs[up])
        orig["double_faced"] = c.get("layout") in ("transform", "modal_dfc", "meld")
        orig["modal_dfc"] = c.get("layout") == "modal_dfc"
        orig["face_up"] = "back" if up else "front"
        if up:
            orig["front_mana_cost"] = fs[0].get("mana_cost")
        if c.get("layout") == "room":
            orig = {**face(c), "name": c["name"], "room_unlocked": [d.split()[0] for d in o.get("designations", [])
                                                                    if d.split()[0] in ("left", "right")]}
    else:
        orig = face(c)
    if o.get("types"):
        orig["types"] = [t for t in o["types"] if t in TYPES]
    status = o.get("status", {})
    orig["tapped"] = bool(status.get("tapped"))
    orig["face_down"] = bool(status.get("face_down"))
    orig["plus1_counters"] = _int(o.get("counters", {}).get("+1/+1")) or 0
    orig["other_effects"] = list(o.get("effects", []))
    copied = card_named(facts, o.get("copying"))
    if copied:
        orig["is_copy_of"] = face(copied)
        own = re.search(r"\bcopy of [^,.]*?,? except (.+)$", c.get("text") or "", re.S)
        if own:  # the original's own copy effect, as its card says: its exceptions are copiable (707.9)
            orig["copy_exceptions"] = [own.group(1)]
        extra = [t for t in o.get("types", []) if t in TYPES and t not in orig["is_copy_of"]["types"]]
        if extra:  # the original's own copy effect added types: an exception of that effect (707.9b)
            orig["copy_exceptions"] = orig.get("copy_exceptions", []) + [
                f"is {' and '.join(extra)} in addition to its other types"]
    if c.get("prototype") and o.get("cast_prototyped"):
        orig["prototyped"] = True
        orig.update({k: v for k, v in c["prototype"].items() if k in ("mana_cost", "power", "toughness")})
    choices = o.get("choices") or {}
    if choices:
        orig["as_enters_choice"] = ", ".join(str(v) for v in choices.values())
    orig["etb_ability"] = "enters" in text_of(c)
    orig["etb_if_cast"] = bool(re.search(r"\benters?\b[^.]*, if you cast it", text_of(c)))
    for k in ("modes", "targets"):
        if o.get(k):
            orig[k] = list(o[k])
    if _int(o.get("x")) is not None:
        orig["x"] = o["x"]
    orig["kicked"] = bool(o.get("kicked"))
    orig["text"] = c.get("text") or ""
    orig["permanent_spell"] = bool(set(orig.get("types", [])) & PERMANENT_TYPES)
    if not orig.get("name"):
        orig["name"] = "(face-down)"
    src = card_named(facts, ce.get("source")) or {}
    n = re.search(r"create (\w+) tokens? that (?:are|is a) cop", (src.get("text") or "").lower())
    exception = _exceptions(ce.get("exceptions", []))
    # a P/T the card defines itself ("power and toughness are each equal to ...", printed */*): a CDA (604.3)
    exception["original_has_cda"] = bool(re.search(r"power and toughness are each equal", text_of(c))
                                         or c.get("power") == "*" or c.get("toughness") == "*")
    s = {"question": q, "original": orig, "exception": exception,
         "may_choose_new_targets": bool(ce.get("may_choose_new_targets"))}
    s["copier_controller"] = "opponent" if ce.get("controller") == "opponent" else "you"
    if ce.get("source") and "effect" not in ce["source"]:
        s["copier_name"] = ce["source"]
    numbers = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    if q == "token" and n and n.group(1) in numbers:
        s["copies"] = numbers[n.group(1)]  # "create two tokens that are copies of it"
    return [(q, s)]


# ---------------------------------------------------------------- split cards and adventures

SPLIT_EVENTS = {
    "query-characteristics": ["characteristics"], "targeting-check": ["characteristics"], "cast-half": ["cast"],
    "castability-under-restriction": ["cast:left", "cast:right"], "discard-count": ["card-count"],
    "choose-card-name": ["name-a-card"], "cast-fused": ["cast:fused"], "fuse-from-non-hand": ["cast:fused", "cast:left"],
    "copy-fused-spell": ["copy"], "copy-adventure-spell": ["copy"], "adventure-resolves": ["resolves"],
    "adventure-countered": ["countered"], "cast-from-adventure-exile": ["cast"], "cast-trigger-check": ["cast"],
    "copy-adventurer-permanent": ["copy-permanent"],
}


def split(facts: dict) -> list[tuple[str, dict]]:
    c = next((c for c in facts.get("cards", []) if c.get("faces")), None)
    if c is not None and c.get("layout") == "room":
        return room(facts, c)
    if c is None or c.get("layout") not in ("split", "adventure"):
        return []
    left, right = faces(c)
    for f, raw in zip((left, right), c.get("faces") or []):
        f["text"] = raw.get("text") or ""
    layout = c["layout"]
    if layout == "split" and "fuse" in text_of(c):
        layout = "fuse"
    cast_as = facts.get("cast_as")
    zone = facts.get("zone") or "hand"
    base = {"left": left, "right": right, "layout": layout, "zone": zone, "prohibition": prohibition(facts),
            "requirement": requirement(facts)}
    if cast_as in ("left", "right", "fused", "creature", "adventure"):
        base["cast_as"] = cast_as
    if facts.get("timing") == "opponent-turn":
        base["own_turn_main_phase"] = False
    if zone == "exile" and layout == "adventure":
        base["was_adventure"] = True
    # abilities that trigger on casting: as the facts list them, and those of the other cards named
    base["watchers"] = [{"source": "", "text": w} for w in facts.get("watchers", [])] + [
        {"source": o["name"], "text": o.get("text") or ""} for o in facts.get("cards", [])
        if o is not c and "whenever" in (o.get("text") or "").lower() and " cast" in (o.get("text") or "").lower()]
    aimed = set((facts.get("targets") or {}).values())
    if len(aimed) == 1 and card_named(facts, next(iter(aimed))):
        t = card_named(facts, next(iter(aimed)))
        base["target"] = {"name": t["name"], "power": _int(t.get("power")), "toughness": _int(t.get("toughness")),
                          "abilities": [a.lower() for a in t.get("abilities", [])]}
    out = []
    labels = list(SPLIT_EVENTS.get(facts.get("event"), []))
    if facts.get("event") == "castability-under-restriction" and layout == "fuse":
        labels.append("cast:fused")  # every way the card can be cast
    for label in labels:
        q, _, side = label.partition(":")
        s = {**base, "question": q}
        if side:
            s["cast_as"] = side
        if q == "cast" and zone == "stack":
            s["zone"] = "hand"  # the facts give where it is once cast; casting starts from the hand
        out.append((label, s))
    return out


def room(facts: dict, c: dict) -> list[tuple[str, dict]]:
    """A Room: a split card off the battlefield (709.4, asked as split-card), and the engine's own room
    mechanic (709.5) for it entering with the cast half unlocked and for unlocking the other door."""
    left, right = faces(c)
    for f in (left, right):
        f["types"], f["subtypes"] = list(c.get("types", [])), list(c.get("subtypes", []))
    cast = facts.get("cast_as") if facts.get("cast_as") in ("left", "right") else "left"
    doors = {"left": {"name": left["name"], "mana_cost": left["mana_cost"]},
             "right": {"name": right["name"], "mana_cost": right["mana_cost"]}}
    base = {"_mechanic": "room", "room": doors}
    return [("characteristics", {"question": "characteristics", "left": left, "right": right, "layout": "split",
                                 "zone": facts.get("zone") or "hand"}),
            ("room-enters", {**base, "event": "cast_resolves", "cast_half": cast}),
            ("room-unlock", {**base, "event": "unlock_action", "door": "right" if cast == "left" else "left",
                             "unlocked": [cast]})]


from heldout_adapters_sba import sba  # noqa: E402  (the state-based actions adapter, kept apart: module size)

ADAPTERS = {"face-down": ("face-down", face_down), "meld": ("meld", meld), "modal-dfc": ("modal-dfc", modal_dfc),
            "copies": ("copy", copies), "split-adventure": ("split-card", split),
            "state-based-actions": ("state-based-actions", sba)}
