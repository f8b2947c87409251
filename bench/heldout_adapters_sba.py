"""The state-based actions adapter of bench/heldout_adapters.py (kept apart: module size): neutral
held-out facts (permanents with damage, counters, attachments; players) -> the engine's situation."""
from __future__ import annotations

import re

from heldout_adapters import TYPES, _int, card_named, text_of


def _attachment(p: dict) -> str:
    subs = {s.lower() for s in p.get("subtypes", [])}
    return next((k for k in ("aura", "equipment", "fortification") if k in subs), "none")


def _illegal(p: dict, by_name: dict) -> str:
    host = by_name.get(p.get("attached_to"))
    if host is None:
        return "legal"
    colours = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
    prot = {a.lower().removeprefix("protection from ") for a in host.get("abilities", [])
            if a.lower().startswith("protection from ")}
    if any(colours.get(col) in prot for col in p.get("colors", [])):
        return "protection"
    if _attachment(p) == "equipment" and "creature" not in host.get("types", []):
        return "not-a-creature"
    return "legal"


SBA_MOVES = {"token-bounced": "hand"}  # events that move the (first) permanent before the check


def sba(facts: dict) -> list[tuple[str, dict]]:
    perms = facts.get("permanents", [])
    by_name = {p.get("name"): p for p in perms}
    dealt = _int(facts.get("damage_dealt")) or 0

    def bonus(p: dict) -> dict | None:
        """A P/T the facts give that differs from the printed card by exactly what another
        permanent's static ability grants ("Enchanted creature gets +2/+1", "Other Merfolk get +1/+1")."""
        printed = card_named(facts, p.get("name"))
        if not printed or _int(printed.get("power")) is None or _int(p.get("power")) is None:
            return None
        diff = (p["power"] - printed["power"], (p.get("toughness") or 0) - (printed.get("toughness") or 0))
        if diff == (0, 0):
            return None
        for other in perms:
            if other is p:
                continue
            text = text_of(card_named(facts, other.get("name")) or other)
            for m in re.finditer(r"(enchanted creature|equipped creature|other [^.]*?) gets? ([+-]\d+)/([+-]\d+)", text):
                grants = m.group(1).startswith("other") or other.get("name") in p.get("attached", [])
                if grants and (int(m.group(2)), int(m.group(3))) == diff:
                    return {"source": other["name"], "power": diff[0], "toughness": diff[1], "printed": printed}
        return None

    def perm(p: dict) -> dict:
        counters = p.get("counters", {})
        abil = [a.lower() for a in p.get("abilities", [])]
        out = {"name": p.get("name") or "", "controller": p.get("controller", "you"),
               "types": [t for t in p.get("types", ["creature"]) if t in TYPES],
               "supertypes": list(p.get("supertypes", [])), "damage": _int(p.get("damage")) or 0,
               "deathtouch_damage": bool(p.get("damaged_by_deathtouch")), "indestructible": "indestructible" in abil,
               "regeneration_shield": bool(p.get("regeneration_shield")), "token": bool(p.get("token")),
               "face_down": bool(p.get("face_down")), "copy_of": p.get("copy_of") or "",
               "cards": 2 if p.get("melded") else 1, "plus1_counters": _int(counters.get("+1/+1")) or 0,
               "minus1_counters": _int(counters.get("-1/-1")) or 0, "attachment": _attachment(p),
               "attached_to": p.get("attached_to") or "", "attachment_illegal": _illegal(p, by_name)}
        for k in ("power", "toughness"):
            v = p.get(f"base_{k}", p.get(k))
            if _int(v) is not None:
                out[k] = v
        b = bonus(p)
        if b:  # the printed values plus the change, which lasts while its source is on the battlefield
            out.update(power=b["printed"]["power"], toughness=b["printed"]["toughness"],
                       bonuses=[{"source": b["source"], "power": b["power"], "toughness": b["toughness"]}])
        if _int(counters.get("loyalty")) is not None:
            out["loyalty"] = counters["loyalty"]
            if dealt and "planeswalker" in out["types"]:
                out["damage_dealt_to_planeswalker"] = dealt
        return out

    players = [{"name": pl.get("name", "you"), "life": pl.get("life", 20), "poison": pl.get("poison", 0),
                "drew_from_empty_library": bool(pl.get("attempted_draw_from_empty_library"))}
               for pl in facts.get("players", [])]
    base = {"permanents": [perm(p) for p in perms], "players": players}
    moved = SBA_MOVES.get(facts.get("event"))
    if moved and base["permanents"]:
        base["permanents"][0]["zone"] = moved
    if not facts.get("cases"):
        return [("check", base)]
    out = []
    for key, change in facts["cases"].items():  # the same board under each case's changes
        changed = [perm({**p, **change}) if i == 0 else perm(p) for i, p in enumerate(perms)]
        out.append((f"case_{key}", {**base, "permanents": changed}))
    return out
