"""Card data -> JA/EN card-name pairs (CardName records).

Three formats (see ../shared/data/README.md, "Card data with Japanese names"):

- MTGJSON v5 set object (``cards/mtgjson-set-BRO.json``): the Japanese name and type come from
  ``foreignData`` with ``language == "Japanese"``; tokens are not cards and are skipped.
- The TSV derived from it (``set number uuid name_en name_ja type_en type_ja multiverse_id_ja``).
- The MTG Wiki name table (``ja-card-names-mtgwiki-*.json``): ``[{name, jpname[, info]}]`` where
  ``jpname == "undefined"`` means no Japanese name is known.

A meld/transform row's English name is "Front // Back" while its Japanese name is the front face
only ("Titania, Voice of Gaea // Titania, Gaea Incarnate" / "ガイアの声、ティタニア"); such pairs
are narrowed to the front face so that each CardName pairs the same card face in both languages.
"""
from __future__ import annotations

import json

from kb.parse.records import CardName, Document

FACE_SEP = " // "  # "SP//dr, Piloted by Peni" has no spaces and is one name
NO_JA = "undefined"
JAPANESE = "Japanese"
TSV_COLUMNS = ("set", "number", "uuid", "name_en", "name_ja", "type_en", "type_ja",
               "multiverse_id_ja")


def face_pair(name_en: str, name_ja: str | None, face_name: str | None = None) -> str:
    """The English name to pair with ``name_ja``: the front face when only EN lists both faces."""
    if FACE_SEP in name_en and (name_ja is None or FACE_SEP not in name_ja):
        return face_name or name_en.split(FACE_SEP, 1)[0]
    return name_en


# ---------------------------------------------------------------- MTGJSON


def parse_mtgjson_set(text: str, document: Document) -> list[CardName]:
    """One CardName per card row of an MTGJSON v5 set (``{"data": set}`` or the set itself)."""
    data = json.loads(text.lstrip("\ufeff"))
    card_set = data.get("data", data) if isinstance(data, dict) else {}
    set_code = card_set.get("code")
    return [_mtgjson_card(card, document.id, set_code) for card in card_set.get("cards", [])]


def _mtgjson_card(card: dict, source: str, set_code: str | None) -> CardName:
    ja = next((f for f in card.get("foreignData") or () if f.get("language") == JAPANESE), {})
    name_ja = ja.get("name") or None
    return CardName(
        name_en=face_pair(card["name"], name_ja, card.get("faceName")),
        name_ja=name_ja,
        source=source,
        set_code=card.get("setCode") or set_code,
        number=card.get("number"),
        type_en=card.get("type"),
        type_ja=ja.get("type") or None,
    )


# ---------------------------------------------------------------- TSV


def parse_names_tsv(text: str, document: Document) -> list[CardName]:
    """One CardName per data row; empty cells become None. The header row names the columns."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines:
        return []
    header = lines[0].split("\t")
    missing = set(TSV_COLUMNS[:7]) - set(header)
    if missing:
        raise ValueError(f"{document.id}: TSV lacks columns {sorted(missing)}")
    col = {name: header.index(name) for name in TSV_COLUMNS[:7]}
    out = []
    for line in lines[1:]:
        if not line.strip():
            continue
        cells = line.split("\t")
        row = {name: (cells[i] if i < len(cells) else "") or None for name, i in col.items()}
        out.append(CardName(name_en=face_pair(row["name_en"] or "", row["name_ja"]),
                            name_ja=row["name_ja"], source=document.id, set_code=row["set"],
                            number=row["number"], type_en=row["type_en"], type_ja=row["type_ja"]))
    return out


# ---------------------------------------------------------------- MTG Wiki name table


def parse_wiki_name_table(text: str, document: Document) -> list[CardName]:
    """One CardName per distinct (EN, JA) pair, in first-seen order.

    Duplicated EN names collapse: identical pairs are kept once, and an ``"undefined"`` record is
    dropped when the same EN name also has a real JA name (``Fire``: undefined and 火 -> 火). An
    EN name with only ``"undefined"`` records gives one CardName with ``name_ja=None``. Two
    different real JA names for one EN name would both be kept (none occur in the 2025-09-22 table).
    """
    records = json.loads(text.lstrip("\ufeff"))
    names: dict[str, list[str]] = {}  # EN -> distinct real JA names, in order
    for rec in records:
        ja = rec.get("jpname")
        found = names.setdefault(rec["name"], [])
        if ja and ja != NO_JA and ja not in found:
            found.append(ja)
    source = document.id
    return [CardName(name_en=en, name_ja=ja, source=source)
            for en, jas in names.items() for ja in (jas or [None])]
