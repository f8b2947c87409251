"""A card file the size of MTGJSON's AtomicCards (what `kb fetch --cards` brings: ~33k cards with
text, ~80k rulings), made from the MTGJSON set files shipped in ../shared/data/cards.

No build here holds the real file, so the bench makes one of that size with the real structure:
the shipped printings folded into AtomicCards' shape ({"meta", "data": {card name: [face row, ...]}},
the printing-only fields dropped), then renamed copies of every card until there are ``cards``
cards. Copy 0 keeps the real names (AtomicCards holds the shipped sets' cards too); copy k renames
every name a row carries (the card, each face, meld parts, the Japanese names) with " k" / "k",
so names stay unique, and keeps text, types, keywords and rulings as they are. The shipped sets have
fewer rulings a card than the whole file, so past the first copy, cards with rulings are copied
more often until there are as many rulings a card (~80k for ~33k cards).

    python bench/big_cards.py OUT.json [--cards 33000]
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

PRINTING_ONLY = ("artist", "artistIds", "availability", "boosterTypes", "borderColor", "finishes", "flavorText",
                 "frameVersion", "hasFoil", "hasNonFoil", "language", "number", "originalText", "originalType",
                 "rarity", "setCode", "uuid", "watermark", "securityStamp", "isStarter", "edhrecSaltiness",
                 "variations", "otherFaceIds", "frameEffects", "promoTypes", "sourceProducts", "isReprint")
SEP = " // "


def _atomic_rows(card_dir: Path) -> dict[str, list[dict]]:
    """The shipped set files' cards in AtomicCards' shape: card name -> its face rows (first printing)."""
    out: dict[str, list[dict]] = {}
    for path in sorted(card_dir.glob("mtgjson-set-*.json")):
        obj = json.loads(path.read_text(encoding="utf-8-sig"))
        for row in obj.get("data", obj)["cards"]:
            faces = out.setdefault(row["name"], [])
            if any(f.get("faceName") == row.get("faceName") and f.get("side") == row.get("side") for f in faces):
                continue  # another printing of a face already there
            faces.append({k: v for k, v in row.items() if k not in PRINTING_ONLY})
    return out


def _rename(name, k: int, ja: bool = False):
    if not name or k == 0:
        return name
    return SEP.join(f"{half}{k}" if ja else f"{half} {k}" for half in name.split(SEP))


def _copy(row: dict, k: int) -> dict:
    row = json.loads(json.dumps(row))  # a deep copy
    for field in ("name", "faceName"):
        if row.get(field):
            row[field] = _rename(row[field], k)
    if row.get("cardParts"):
        row["cardParts"] = [_rename(p, k) for p in row["cardParts"]]
    for foreign in row.get("foreignData") or ():
        for field in ("name", "faceName"):
            if foreign.get(field):
                foreign[field] = _rename(foreign[field], k, ja=foreign.get("language") == "Japanese")
    ids = row.get("identifiers") or {}
    if k and ids.get("scryfallOracleId"):
        ids["scryfallOracleId"] = ids["scryfallOracleId"][:-6] + f"{k:06x}"
    return row


def _rulings(faces: list[dict]) -> int:
    """A card's rulings, deduplicated by date and text as the parser does."""
    return len({(r.get("date"), r.get("text")) for f in faces for r in f.get("rulings") or ()})


def make(card_dir: Path, out: Path, cards: int = 33000, per_card: float = 80 / 33) -> dict:
    """Write the file; its figures: cards, face rows, rulings. ``per_card``: the rulings a card has in
    the whole file (~80k for ~33k cards); cards with rulings are copied more often to reach it."""
    base = _atomic_rows(card_dir)
    data: dict[str, list[dict]] = {}
    k = rulings = 0
    while len(data) < cards:
        for name, faces in base.items():
            if len(data) >= cards:
                break
            count = _rulings(faces)
            if k and not count and rulings < per_card * len(data):
                continue  # the shipped sets have fewer rulings a card than the whole file: copy ruled cards
            data[_rename(name, k)] = [_copy(f, k) for f in faces]
            rulings += count
        k += 1
    meta = {"date": "2026-03-12", "version": "5.3.0+20260312 (bench: renamed copies of the shipped sets)"}
    out.write_text(json.dumps({"meta": meta, "data": data}, ensure_ascii=False), encoding="utf-8")
    return {"cards": len(data), "rows": sum(map(len, data.values())), "rulings": rulings, "copies": k,
            "bytes": out.stat().st_size}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--cards", type=int, default=33000)
    args = parser.parse_args()
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from kb import config
    print(make(config.shared_data_dir() / "cards", args.out, args.cards))


if __name__ == "__main__":
    main()
