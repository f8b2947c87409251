"""Shared helpers for reasoning tests: a ParsedRuleBook over the real current CR, with mechanics
located by their titles in the parsed text and rulings taken line by line from the seed documents.

Until ``KB.rulebook()`` exists, this is how tests see the real texts: nothing here states an
expected answer; it only says where each mechanic's rules are and what the seeds say.
"""
from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import replace


from kb import config as settings
from kb.parse.cr_en import parse_cr_en
from kb.reasoning.rulebook import MechanicView, ParsedRuleBook, RulingView


# key -> (EN name, JA name, [(parent number, title or text start)], related mechanics)
MECHANICS = {
    "day-night": ("Day and Night", "昼と夜", [("7", "Day and Night"), ("702", "Daybound and Nightbound")],
                  ("double-faced-card",)),
    "double-faced-card": ("Double-Faced Cards", "両面カード", [("7", "Double-Faced Cards"), ("701", "Transform")],
                          ("manifest", "cast")),
    "manifest": ("Manifest", "予示", [("701", "Manifest"), ("7", "Face-Down Spells and Permanents")],
                 ("double-faced-card",)),
    "cast": ("Casting Spells", "唱える", [("6", "Casting Spells")], ()),
    "room": ("Room", "部屋", [("709", "Some split cards are permanent cards with a single shared type line")],
             ("cast",)),
}
# Seed documents whose lines become rulings, by mechanic (the manifest.toml ids).
SEEDS = {"day-night": ["wiki-hiru-day"], "double-faced-card": ["faq-innistrad-dfc-2011"],
         "manifest": ["wiki-yoji-manifest"], "room": ["wiki-heya-room"], "cast": ["blog-cr-601-casting"]}
_CITED = re.compile(r"(?<![\d.])(\d{3}\.\d+[a-z]?)")


def _find(edition, parent: str, title: str) -> str:
    """The number of the rule under ``parent`` (a chapter digit or a section) whose text starts with ``title``."""
    for r in edition.rules:
        in_parent = r.parent == parent if len(parent) > 1 else (r.kind == "section" and r.number[0] == parent)
        if in_parent and r.text.strip().startswith(title):
            return r.number
    raise LookupError(f"no rule titled {title!r} under {parent}")


@functools.cache
def _edition():
    """The newest English edition in the shared data, found by content as `kb build` finds it."""
    from tests.shared_data import newest_en_source
    source = newest_en_source()
    return parse_cr_en(source.document.text, source.document)


@functools.cache
def _seed_docs() -> dict[str, dict]:
    with open(settings.rules_src_dir() / "manifest.toml", "rb") as f:
        return {d["id"]: d for d in tomllib.load(f)["document"]}


def _kind(line: str) -> str:
    if re.match(r"^\d{3}\.\d", line):
        return "quoted-rule"
    return "ruling" if line[:1] in "＊*・" else "commentary"


@functools.cache
def seed_rulings(doc_id: str, mechanic: str) -> tuple[RulingView, ...]:
    """Every non-blank line of a seed document as a RulingView (repeated text kept once)."""
    doc = _seed_docs()[doc_id]
    path = settings.rules_src_dir() / doc["path"]
    date = doc.get("date")
    out, seen = [], set()
    for n, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        text = line.strip()
        if len(text) < 8 or text in seen:
            continue
        seen.add(text)
        kind = _kind(text)
        cited = tuple(_CITED.findall(text))
        out.append(RulingView(id=f"{doc_id}#L{n}", document=doc_id, document_title=doc["title"],
                              date=date.isoformat() if date else None, text=text,
                              locator=f"{doc['path']} line {n}", kind=kind,
                              cited_rules=cited if kind != "quoted-rule" else (), mechanics=(mechanic,)))
    return tuple(out)


def seed_ruling(doc_id: str, fingerprint: str) -> RulingView:
    """The seed line that contains ``fingerprint`` (the first one)."""
    for r in seed_rulings(doc_id, ""):
        if fingerprint in r.text:
            return r
    raise LookupError(f"{fingerprint!r} not in {doc_id}")


def mechanic_views(edition) -> dict[str, MechanicView]:
    return {key: MechanicView(key=key, name_en=en, name_ja=ja,
                              rules=tuple(_find(edition, p, t) for p, t in where), related=related)
            for key, (en, ja, where, related) in MECHANICS.items()}


@functools.cache
def current_book() -> ParsedRuleBook:
    edition = _edition()
    rulings = {k: [replace(r, mechanics=(k,)) for d in docs for r in seed_rulings(d, k)]
               for k, docs in SEEDS.items()}
    return ParsedRuleBook(edition, mechanics=mechanic_views(edition), rulings=rulings)


def altered_book(number: str, new_text: str | None) -> ParsedRuleBook:
    """A fresh book over the current CR with one rule's text replaced (None: the rule removed)."""
    edition = _edition()
    rules = [r for r in edition.rules if not (r.number == number and new_text is None)]
    from copy import copy
    changed = copy(edition)
    changed.rules = [replace(r, text=new_text) if r.number == number else r for r in rules]
    return ParsedRuleBook(changed, mechanics=mechanic_views(edition))


_LINES = re.compile(r"\blines? (\d+)(?:-(\d+))?")


def book_ruling(book, mechanic: str, doc_id: str, fingerprint: str) -> RulingView:
    """The ruling of ``book`` (parsed or KB) that is the seed line holding ``fingerprint``.

    The book's own ruling is returned (its id is what answers cite); it must come from the same
    document and its locator must name the seed line, so a KB ruling is the real record of that
    line ("wiki-yoji-manifest line 31"), not a look-alike.
    """
    seed = seed_ruling(doc_id, fingerprint)
    line = int(seed.id.rsplit("#L", 1)[1])
    words = fingerprint.lstrip("＊*・• ")  # a bullet is layout, not part of the statement

    def covers(r: RulingView) -> bool:
        span = _LINES.search(r.locator)
        return bool(span) and int(span[1]) <= line <= int(span[2] or span[1])
    found = [r for r in book.rulings(mechanic) if r.document == doc_id and words in r.text and covers(r)]
    assert found, f"{fingerprint!r}: no ruling of {mechanic} from {doc_id} covers its line {line}"
    ruling = found[0]
    if not isinstance(book, ParsedRuleBook):
        assert re.match(rf"{re.escape(doc_id)} lines? \d", ruling.locator), ruling.locator
    return ruling


# Manifest test cards, shared by the manifest tables (kept as the cards' real characteristics).
MANIFEST_CARDS = {
    "bear": {"name": "Grizzly Bears", "types": "Creature", "mana_cost": "{1}{G}"},
    "angel": {"name": "Exalted Angel", "types": "Creature", "mana_cost": "{4}{W}{W}", "morph_cost": "{2}{W}{W}",
              "turned_face_up_ability": True},
    "outfitter": {"name": "Agency Outfitter", "types": "Creature", "mana_cost": "{3}{U}{U}", "disguise_cost": "{3}{U}"},
    "delver": {"name": "Delver of Secrets", "types": "Creature", "mana_cost": "{U}", "double_faced": True},
}


# A Room for the Room tables: the left door's unlock trigger needs no target; the right one's needs
# one (one legal); NO_TARGET_ROOM is the same Room with no legal target for the right door.
ROOM = {"left": {"name": "Walk-In Closet", "mana_cost": "{2}{G}", "unlock_trigger": True},
        "right": {"name": "Forgotten Cellar", "mana_cost": "{3}{G}{G}", "unlock_trigger": True,
                  "trigger_targets": 1, "legal_targets": 1}}
NO_TARGET_ROOM = ROOM | {"right": ROOM["right"] | {"legal_targets": 0}}


@functools.cache
def bro_meld_rulings() -> tuple[RulingView, ...]:
    """The official rulings of BRO's meld cards (MTGJSON set file in the shared data), one RulingView
    each, as a card-data loader would give them (date, card, text)."""
    import json
    from tests.shared_data import require_data
    path = require_data() / "cards" / "mtgjson-set-BRO.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    cards = data.get("data", data)["cards"]
    out, seen = [], set()
    for card in cards:
        if card.get("layout") != "meld":
            continue
        for i, r in enumerate(card.get("rulings", [])):
            if r["text"] in seen:
                continue
            seen.add(r["text"])
            out.append(RulingView(id=f"mtgjson-set-BRO#{card['number']}-{i + 1}", document="mtgjson-set-BRO",
                                  document_title="MTGJSON BRO", date=r["date"], text=r["text"],
                                  locator=f"cards/mtgjson-set-BRO.json {card['name']} ruling {i + 1}", kind="ruling",
                                  mechanics=("meld",)))
    return tuple(out)


def meld_book() -> ParsedRuleBook:
    """The current CR with BRO's meld rulings as the meld mechanic's rulings."""
    edition = _edition()
    rulings = {k: [replace(r, mechanics=(k,)) for d in docs for r in seed_rulings(d, k)] for k, docs in SEEDS.items()}
    rulings["meld"] = list(bro_meld_rulings())
    return ParsedRuleBook(edition, mechanics=mechanic_views(edition), rulings=rulings)
