"""MTGJSON v5 card data -> Oracle cards (OracleCard records) and their JA/EN names.

Three shapes, told apart by their content (``kb.sources.cards.detect``), whatever the file is called:

- a set file: ``{"meta", "data": {code, name, cards: [...]}}``, or the set object alone
  (``cards/mtgjson-set-BRO.json``);
- ``AtomicCards.json``: ``{"meta", "data": {oracle name: [face row, ...]}}``;
- ``AllPrintings.json``: ``{"meta", "data": {set code: set object}}``.

Every printing row of a card is folded into one Oracle card: its faces (a row per face; split,
adventure, transform, modal DFC, flip and Room halves share the full "A // B" name), the sets it
is in, its keywords and its official rulings (deduplicated by date and text). Meld is the one
layout whose pieces are cards of their own: each front ("Urza, Lord Protector", side a of a row
named "Urza, Lord Protector // Urza, Planeswalker") and the melded back ("Urza, Planeswalker",
side b) are three cards; a front's faces are itself and the back it melds into, and ``meld``
names the two fronts and the result. Japanese name, type and text come from ``foreignData``.
Text is kept exactly as the data gives it.
"""
from __future__ import annotations

import json
from collections.abc import Iterator

from kb.parse.card_data import CardDataError, text_field
from kb.parse.records import CardFace, CardName, CardRuling, Document, OracleCard
from kb.sources.cards import FORMATS  # noqa: F401  (the formats this parser reads)

TEXT_FIELDS = ("name", "faceName", "side", "layout", "manaCost", "type", "text", "power", "toughness",
               "loyalty", "defense")
LIST_FIELDS = ("keywords", "printings", "cardParts", "rulings", "foreignData")


def load(text: str, document: Document):
    """The parsed JSON of ``text``; broken JSON is a CardDataError naming the line."""
    try:
        return json.loads(text.lstrip("\ufeff"))
    except ValueError as exc:
        raise CardDataError(document, f"not JSON: {getattr(exc, 'msg', exc)}",
                            line=getattr(exc, "lineno", None)) from None

FACE_SEP = " // "
JAPANESE = "Japanese"

def _pointer(*parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _rows(obj, fmt: str) -> Iterator[tuple[str, dict, str | None]]:
    """(JSON pointer, card row, set code) for every card row (tokens are not cards)."""
    wrapped = isinstance(obj, dict) and "data" in obj
    data = obj["data"] if wrapped else obj
    base = ("data",) if wrapped else ()
    if fmt == "mtgjson-set":
        if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
            raise TypeError("expected an MTGJSON set object with a 'cards' list")
        code = data.get("code") if isinstance(data.get("code"), str) else None
        for i, row in enumerate(data["cards"]):
            yield _pointer(*base, "cards", i), row, code
    elif fmt == "mtgjson-all":
        if not isinstance(data, dict):
            raise TypeError("expected MTGJSON AllPrintings: an object of set objects")
        for code, card_set in data.items():
            cards = card_set.get("cards") if isinstance(card_set, dict) else None
            if not isinstance(cards, list):
                raise TypeError(f"expected set {code!r:.40} to be an object with a 'cards' list")
            for i, row in enumerate(cards):
                yield _pointer(*base, code, "cards", i), row, code
    elif fmt == "mtgjson-atomic":
        if not isinstance(data, dict):
            raise TypeError("expected MTGJSON AtomicCards: an object of card names")
        for name, faces in data.items():
            if not isinstance(faces, list):
                raise TypeError(f"expected card {name!r:.40} to be a list of faces")
            for i, row in enumerate(faces):
                yield _pointer(*base, name, i), row, None
    else:
        raise TypeError(f"expected an MTGJSON format {FORMATS}, not {fmt!r}")


def _check(row) -> None:
    """A row's fields have the types MTGJSON gives them (TypeError/KeyError naming the field)."""
    if not isinstance(row, dict):
        raise TypeError(f"a card row should be an object, not {row!r:.40}")
    text_field(row, "name", required=True)
    for key in TEXT_FIELDS[1:]:
        text_field(row, key)
    for key in LIST_FIELDS:
        value = row.get(key)
        if value is not None and not isinstance(value, list):
            raise TypeError(f"{key!r} should be a list, not {value!r:.40}")
    for key in ("keywords", "printings", "cardParts"):
        if not all(isinstance(v, str) for v in row.get(key) or ()):
            raise TypeError(f"{key!r} should be a list of strings")
    for key, fields in (("rulings", ("date", "text")), ("foreignData", ("language", "name", "faceName", "type", "text"))):
        for item in row.get(key) or ():
            if not isinstance(item, dict):
                raise TypeError(f"{key!r} should be a list of objects, not {item!r:.40}")
            for f in fields:
                text_field(item, f)
    for key in ("manaValue", "faceManaValue"):
        value = row.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise TypeError(f"{key!r} should be a number, not {value!r:.40}")
    if row.get("identifiers") is not None and not isinstance(row["identifiers"], dict):
        raise TypeError(f"'identifiers' should be an object, not {row['identifiers']!r:.40}")
    text_field(row.get("identifiers") or {}, "scryfallOracleId")


def _japanese(row: dict) -> dict:
    return next((f for f in row.get("foreignData") or () if f.get("language") == JAPANESE), {})


def _face(row: dict) -> CardFace:
    ja = _japanese(row)
    multi = FACE_SEP in row["name"] and row.get("faceName")
    name_ja = ja.get("faceName") or ja.get("name") or None
    if multi and name_ja and FACE_SEP in name_ja:  # "火 // 氷": this face's half
        halves = name_ja.split(FACE_SEP)
        index = ord(row.get("side") or "a") - ord("a")
        name_ja = halves[index] if index < len(halves) else None
    value = row.get("faceManaValue", row.get("manaValue"))
    return CardFace(name=row.get("faceName") or row["name"], side=row.get("side"), mana_cost=row.get("manaCost"),
                    mana_value=float(value) if value is not None else None, type_line=row.get("type"),
                    text=row.get("text"), power=row.get("power"), toughness=row.get("toughness"),
                    loyalty=row.get("loyalty"), defense=row.get("defense"), name_ja=name_ja,
                    type_ja=ja.get("type") or None, text_ja=ja.get("text") or None)


def _oracle_name(row: dict) -> str:
    """The card a row belongs to: a meld piece is its own card; other multi-face rows share "A // B"."""
    if row.get("layout") == "meld":
        return row.get("faceName") or row["name"]
    return row["name"]


def _fill(face: CardFace, more: CardFace) -> None:
    """A later printing fills what an earlier one lacked (most often the Japanese text)."""
    for attr in CardFace.__slots__:
        if getattr(face, attr) is None and getattr(more, attr) is not None:
            setattr(face, attr, getattr(more, attr))


def parse(obj, document: Document, fmt: str) -> tuple[list[OracleCard], list[CardName]]:
    """Oracle cards in first-seen order, and one CardName per face (EN face name, JA face name).

    Input that is not ``fmt`` (or a card row whose fields have the wrong types) is a CardDataError
    naming the document and the row (1-based, in file order) with its JSON pointer."""
    try:
        return _parse(obj, document, fmt)
    except _RowError as exc:
        raise CardDataError(document, exc.message, record=exc.record) from None
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise CardDataError(document, _detail(exc)) from None


class _RowError(Exception):
    def __init__(self, record: int, message: str):
        super().__init__(message)
        self.record, self.message = record, message


def _detail(exc: Exception) -> str:
    return f"no {exc.args[0]!r} field" if isinstance(exc, KeyError) else str(exc)


def _fold(row: dict, pointer: str, set_code: str | None, document: Document, cards: dict, faces: dict,
          meld_backs: dict, ruled: dict) -> None:
    """One printing row folded into its Oracle card (created on first sight)."""
    name = _oracle_name(row)
    face = _face(row)
    card = cards.get(name)
    if card is None:
        card = cards[name] = OracleCard(name=name, layout=row.get("layout") or "normal", faces=[],
                                        source=document.id, locator=pointer,
                                        oracle_id=(row.get("identifiers") or {}).get("scryfallOracleId"))
        faces[name], ruled[name] = {}, set()
    known = faces[name].get(face.name)
    if known is None:
        faces[name][face.name] = face
    else:
        _fill(known, face)
    card.keywords = tuple(dict.fromkeys([*card.keywords, *(row.get("keywords") or ())]))
    card.sets = tuple(dict.fromkeys([*card.sets, *([set_code] if set_code else []),
                                     *(row.get("printings") or ())]))
    for i, r in enumerate(row.get("rulings") or ()):
        key = (r.get("date"), r.get("text"))
        if r.get("text") and key not in ruled[name]:
            ruled[name].add(key)
            card.rulings.append(CardRuling(date=r.get("date"), text=r["text"], locator=f"{pointer}/rulings/{i}"))
    if card.layout == "meld":
        parts = list(row.get("cardParts") or ())
        result = row["name"].split(FACE_SEP, 1)[1] if FACE_SEP in row["name"] else name
        if row.get("side") == "b" or FACE_SEP not in row["name"]:
            meld_backs.setdefault(name, faces[name][face.name])
        card.meld = {"fronts": [p for p in parts if p != result], "result": result}


def _parse(obj, document: Document, fmt: str) -> tuple[list[OracleCard], list[CardName]]:
    cards: dict[str, OracleCard] = {}
    faces: dict[str, dict[str, CardFace]] = {}  # oracle name -> face name -> face
    meld_backs: dict[str, CardFace] = {}  # a melded back by name, to add to its fronts
    ruled: dict[str, set] = {}
    for number, (pointer, row, set_code) in enumerate(_rows(obj, fmt), 1):
        try:
            _check(row)
            _fold(row, pointer, set_code, document, cards, faces, meld_backs, ruled)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise _RowError(number, f"{pointer}: {_detail(exc)}") from None
    for name, card in cards.items():
        card.faces = sorted(faces[name].values(), key=lambda f: f.side or "")
        if card.layout == "meld" and card.meld and card.meld["result"] != name:
            back = meld_backs.get(card.meld["result"])
            if back is not None and all(f.name != back.name for f in card.faces):
                card.faces.append(CardFace(**{a: getattr(back, a) for a in CardFace.__slots__} | {"side": "b"}))
    names = [CardName(name_en=f.name, name_ja=f.name_ja, source=document.id, type_en=f.type_line,
                      type_ja=f.type_ja)
             for card in cards.values() for f in card.faces
             if not (card.meld and f.side == "b" and card.meld["result"] != card.name)]
    return list(cards.values()), names
