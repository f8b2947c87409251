"""Card data -> JA/EN card-name pairs (CardName records).

Two formats (see ../shared/data/README.md, "Card data with Japanese names"); MTGJSON files are
read by kb.parse.mtgjson, which raises CardDataError too:

- The TSV derived from MTGJSON's BRO set (``set number uuid name_en name_ja type_en type_ja multiverse_id_ja``).
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
TSV_COLUMNS = ("set", "number", "uuid", "name_en", "name_ja", "type_en", "type_ja",
               "multiverse_id_ja")


class CardDataError(ValueError):
    """A card-data file that is not what its format says: names the document and the record
    (1-based, in file order) or the line where reading failed."""

    def __init__(self, document: Document, message: str, *, record: int | None = None, line: int | None = None):
        where = f"record {record}" if record is not None else f"line {line}" if line is not None else ""
        super().__init__(f"{document.id}: {where + ': ' if where else ''}{message}")
        self.record, self.line = record, line


def _json(text: str, document: Document):
    try:
        return json.loads(text.lstrip("\ufeff"))
    except ValueError as exc:  # JSONDecodeError (a ValueError) knows the line
        raise CardDataError(document, f"not JSON: {getattr(exc, 'msg', exc)}", line=getattr(exc, "lineno", None)) from None


def text_field(record, key: str, *, required: bool = False) -> str | None:
    """A text field of a JSON record: a string, or None when absent (a TypeError otherwise)."""
    if required and key not in record:
        raise KeyError(key)
    value = record.get(key)
    if value is None and not required or isinstance(value, str) and (value or not required):
        return value
    raise TypeError(f"{key!r} should be {'a non-empty' if required else 'a'} string, not {value!r:.40}")


def _each(document: Document, records, read) -> None:
    """Call ``read`` on every record; a malformed one becomes a CardDataError naming it."""
    if not isinstance(records, list):
        raise CardDataError(document, f"expected a list of records, not {type(records).__name__}")
    for number, record in enumerate(records, 1):
        try:
            if not isinstance(record, dict):
                raise TypeError(f"a record should be an object, not {record!r:.40}")
            read(record)
        except (KeyError, TypeError, AttributeError) as exc:
            detail = f"no {exc.args[0]!r} field" if isinstance(exc, KeyError) else str(exc)
            raise CardDataError(document, detail, record=number) from None


def face_pair(name_en: str, name_ja: str | None, face_name: str | None = None) -> str:
    """The English name to pair with ``name_ja``: the front face when only EN lists both faces."""
    if FACE_SEP in name_en and (name_ja is None or FACE_SEP not in name_ja):
        return face_name or name_en.split(FACE_SEP, 1)[0]
    return name_en


# ---------------------------------------------------------------- TSV


def parse_names_tsv(text: str, document: Document) -> list[CardName]:
    """One CardName per data row; empty cells become None. The header row names the columns."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines:
        return []
    header = lines[0].split("\t")
    missing = set(TSV_COLUMNS[:7]) - set(header)
    if missing:
        raise CardDataError(document, f"TSV lacks columns {sorted(missing)}", line=1)
    col = {name: header.index(name) for name in TSV_COLUMNS[:7]}
    out = []
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        cells = line.split("\t")
        row = {name: (cells[i] if i < len(cells) else "") or None for name, i in col.items()}
        out.append(CardName(name_en=face_pair(row["name_en"] or "", row["name_ja"]),
                            name_ja=row["name_ja"], source=document.id, set_code=row["set"],
                            number=row["number"], type_en=row["type_en"], type_ja=row["type_ja"], line=number))
    return out


# ---------------------------------------------------------------- MTG Wiki name table


def parse_wiki_name_table(text: str, document: Document) -> list[CardName]:
    """One CardName per distinct (EN, JA) pair, in first-seen order.

    Duplicated EN names collapse: identical pairs are kept once, and an ``"undefined"`` record is
    dropped when the same EN name also has a real JA name (``Fire``: undefined and 火 -> 火). An
    EN name with only ``"undefined"`` records gives one CardName with ``name_ja=None``. Two
    different real JA names for one EN name would both be kept (none occur in the 2025-09-22 table).
    """
    records = _json(text, document)
    names: dict[str, list[str]] = {}  # EN -> distinct real JA names, in order
    first: dict[tuple[str, str | None], int] = {}  # (EN, JA or None) -> index of its first record
    seen = [0]

    def read(rec: dict) -> None:
        ja = text_field(rec, "jpname")
        en = text_field(rec, "name", required=True)
        found = names.setdefault(en, [])
        real = ja if ja and ja != NO_JA else None
        first.setdefault((en, real), seen[0])
        if real and real not in found:
            found.append(real)
        seen[0] += 1

    _each(document, records, read)
    source = document.id
    return [CardName(name_en=en, name_ja=ja, source=source, pointer=f"/{first[(en, ja)]}")
            for en, jas in names.items() for ja in (jas or [None])]
