"""Oracle cards -> card rows, official rulings as card-ruling rows, and card -> mechanic -> rule links.

``add_oracle_cards`` runs before the name tables are merged (kb.build.model ``_cards``): a card
read from MTGJSON is keyed like the name tables key it (the slug of its first face's English
name), so the wiki table's JA name, the rulings that mention it and its Oracle data meet in one
node; every face name, EN and JA, finds it. ``link_cards`` runs once the mechanics exist:

- keywords (MTGJSON's ``keywords``, written as the CR names them: "Flying", "Meld", "Mill") and
  keyword actions and abilities named in the Oracle text (stemmed: "sacrifices" -> Sacrifice,
  "transforms" -> Transform) link the card to a mechanic, hence to its defining rules;
- the card's types link it to the CR section of each type ("Planeswalker" -> 306);
- each official ruling is linked to its card, to the rules it cites (rare in Gatherer text) and to
  the mechanics it names (so to their rules), the same way.

Nothing is hand-listed: names come from the mechanics the CR defines and the CR's section titles.
"""
from __future__ import annotations

import re

from kb.build.mechanics import slug
from kb.citations.extract import find_citations
from kb.parse.records import OracleCard
from kb.search.tokenize import EN_WORD, STOP_EN, en_stems, stem
from kb.store.lineage import Lineage
from kb.store.rows import Model
from kb.text import normalize

TEXT_KINDS = ("keyword-action", "keyword-ability", "rules-section", "designation")
MAX_PHRASE = 5
INFLECTIONS = ("", "s", "es", "ed", "d", "ing", "'s")  # "exiles", "sacrificed"; not "planeswalker"
TYPE_SECTION = re.compile(r"^3\d\d$")
# A keyword action is a verb ("counter target spell", "exile it"). The same word after an article,
# a number, a possessive or a zone's preposition, or before "on"/"from"/"of", is the noun: "two
# +1/+1 counters", "a counter on it", "from exile" are no Counter (701.6) or Exile (701.13).
NOUN_BEFORE = frozenset("""a an the one two three four five six seven eight nine ten x each all no any
those these that this more additional another its their his her your my of from in into with many""".split())
NOUN_AFTER = frozenset("on from of".split())


def card_key(name: str) -> str:
    return slug(name)


def _face_row(face) -> dict:
    return {"name": face.name, "side": face.side, "mana_cost": face.mana_cost, "mana_value": face.mana_value,
            "type_line": face.type_line, "text": face.text, "power": face.power, "toughness": face.toughness,
            "loyalty": face.loyalty, "defense": face.defense, "name_ja": face.name_ja,
            "type_ja": face.type_ja, "text_ja": face.text_ja}


def record_locator(model: Model, source: str, pointer: str | None = None, line: int | None = None) -> dict:
    """Where in a card-data file a record was read: its JSON pointer, or its line (a TSV)."""
    doc = model.documents.get(source, {})
    where = f"line {line}" if line is not None else pointer
    return {"document": source, "document_title": doc.get("title") or source,
            "line_start": line, "line_end": line, "section": pointer or "",
            "locator": f"{doc.get('path') or source} {where}"}


def _locator(model: Model, card: OracleCard, pointer: str | None = None) -> dict:
    """Where in its file a card (or, with ``pointer``, one of its rulings) was read."""
    return record_locator(model, card.source, pointer or card.locator)


def add_oracle_cards(model: Model, cards: list[OracleCard]) -> None:
    """One row per Oracle card (printings of every file merged), with its rulings."""
    for card in cards:
        front = card.faces[0].name if card.faces else card.name
        key = model.card_names.get(normalize(card.name)) or card_key(front)
        row = model.cards.get(key)
        if row is None or "faces" not in row:
            names_only = row or {}
            row = model.cards[key] = {
                "key": key, "name_en": front, "name_ja": card.faces[0].name_ja if card.faces else None,
                "sources": list(names_only.get("sources", [])), "mentions": list(names_only.get("mentions", [])),
                "oracle_name": card.name, "layout": card.layout, "faces": [_face_row(f) for f in card.faces],
                "keywords": list(card.keywords), "sets": list(card.sets), "meld": card.meld,
                "oracle_id": card.oracle_id, "data": [_locator(model, card)], "rulings": [],
                "mechanics": [], "rules": [], "related": []}
        else:  # the same card in another file: more sets, rulings, a missing JA text
            row["sets"] = list(dict.fromkeys(row["sets"] + list(card.sets)))
            row["keywords"] = list(dict.fromkeys(row["keywords"] + list(card.keywords)))
            row["data"].append(_locator(model, card))
            for face, more in zip(row["faces"], card.faces):
                for attr, value in _face_row(more).items():
                    if face.get(attr) is None and value is not None:
                        face[attr] = value
            row["name_ja"] = row["name_ja"] or row["faces"][0].get("name_ja")
        if card.source not in row["sources"]:
            row["sources"].append(card.source)
        for face in row["faces"]:
            for n in (face["name"], face["name_ja"]):
                if n and not (card.meld and face["side"] == "b" and card.meld["result"] != card.name):
                    model.card_names.setdefault(normalize(n), key)
        model.card_names.setdefault(normalize(card.name), key)
        _add_rulings(model, row, card)


def fill_from_name(card: dict, name) -> bool:
    """A name table's JA name for one face of an Oracle card (the fallback where the card data has
    none: meld backs, older sets). False for a card with no Oracle data."""
    if "faces" not in card:
        return False
    for face in card["faces"]:
        if name.name_ja and not face["name_ja"] and normalize(face["name"]) == normalize(name.name_en or ""):
            face["name_ja"] = name.name_ja
            face.setdefault("name_ja_from", name.source)
    card["name_ja"] = card["name_ja"] or card["faces"][0]["name_ja"]
    return True


def _add_rulings(model: Model, row: dict, card: OracleCard) -> None:
    known = {(r["date"], r["text"]): r for r in (model.card_rulings[i] for i in row["rulings"])}
    for ruling in card.rulings:
        same = known.get((ruling.date, ruling.text))
        if same is not None:
            if card.source not in same["sources"]:
                same["sources"].append(card.source)
            continue
        rid = f"card:{row['key']}#r{len(row['rulings']) + 1}"
        entry = {"id": rid, "kind": "card-ruling", "source_type": "official-ruling", "card": row["key"], "date": ruling.date, "text": ruling.text,
                 "document": card.source, "sources": [card.source], "locator": _locator(model, card, ruling.locator or f"{card.locator}/rulings"), "citations": [], "mechanics": [], "rules": []}
        model.card_rulings[rid] = entry
        row["rulings"].append(rid)
        known[(ruling.date, ruling.text)] = entry


# ---------------------------------------------------------------- links to mechanics and rules


class _Names:
    """Stemmed EN mechanic names -> keys (kinds a card's text can use), and CR type sections."""

    def __init__(self, model: Model):
        self.model = model
        self.phrases: dict[tuple[str, ...], list[tuple[str, str]]] = {}  # stems -> (key, last word)
        for m in model.mechanics.values():
            if m["kind"] not in TEXT_KINDS:
                continue
            for name in [m["name_en"], *m["aliases_en"]]:
                stems = tuple(en_stems(name))
                words = EN_WORD.findall(normalize(name))
                if stems and len(stems) <= MAX_PHRASE and words:
                    self.phrases.setdefault(stems, []).append((m["key"], words[-1]))
        self.verbs = frozenset(k for k, m in model.mechanics.items() if m["kind"] == "keyword-action")
        current = model.current("en")
        self.types: dict[str, str] = {}  # "planeswalker" -> "306"
        for number, rule in (model.rules.edition("en", current) if current else {}).items():
            if rule["kind"] == "section" and TYPE_SECTION.match(number):
                title = normalize(rule["text"])
                self.types[title[:-1] if title.endswith("s") else title] = number
                self.types[title] = number
        self.by_name = {normalize(n): k for k, m in model.mechanics.items()
                        for n in [m["name_en"], *m["aliases_en"]]}

    def in_text(self, text: str) -> list[str]:
        """Mechanics named in ``text`` (kb keys, in text order)."""
        return list(self.phrases_in(text))

    def phrases_in(self, text: str) -> dict[str, str]:
        """Mechanics named in ``text``, each with the words that name it: stemmed phrases, the last
        word only inflected (the stemmer alone would read "planeswalker" as Planeswalk), a keyword
        action only where it is a verb ("+1/+1 counters on a creature" is no Counter: see NOUN_BEFORE)."""
        raw = EN_WORD.findall(normalize(text))
        at = [j for j, w in enumerate(raw) if w not in STOP_EN]  # content word -> its place in raw
        words = [raw[j] for j in at]
        stems = [stem(w) for w in words]
        found: dict[str, str] = {}
        i = 0
        while i < len(stems):
            for n in range(min(MAX_PHRASE, len(stems) - i), 0, -1):
                got = self.phrases.get(tuple(stems[i:i + n]))
                last = words[i + n - 1]
                first, end = at[i], at[i + n - 1]
                noun = ((first > 0 and (raw[first - 1] in NOUN_BEFORE or raw[first - 1].isdigit()))
                        or (end + 1 < len(raw) and raw[end + 1] in NOUN_AFTER))
                keys = [k for k, base in got or () if _inflected(last, base) and not (noun and k in self.verbs)]
                if keys:
                    for k in keys:
                        found.setdefault(k, " ".join(raw[first:end + 1]))
                    i += n - 1
                    break
            i += 1
        return found

    def keyword(self, word: str) -> str | None:
        return self.by_name.get(normalize(word))


def _inflected(word: str, base: str) -> bool:
    """``word`` is ``base`` or a regular inflection of it ("exiles", "sacrificed", "copies")."""
    stems = {base, base[:-1] if base.endswith("e") else base}
    return (any(word == b + suffix for b in stems for suffix in INFLECTIONS)
            or (base.endswith("y") and word in (base[:-1] + "ies", base[:-1] + "ied")))


def _as_written(words: str, text: str) -> str:
    """The card's own spelling of the (normalised) words that named a mechanic: "Exile" for "exile"."""
    found = re.search(r"\b" + r"\W+".join(map(re.escape, words.split())) + r"\w*", text, re.I)
    return found.group() if found else words


def _without_names(text: str, names: list[str]) -> str:
    """A card's text names itself ("Urza, Lord Protector"): its own words are not mechanics."""
    for name in sorted(filter(None, names), key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def link_cards(model: Model) -> None:
    """Card -> mechanics (with how: keyword or text) and rules; rulings -> rules and mechanics."""
    if not model.mechanics:
        return
    names = _Names(model)
    lineage = Lineage(model)
    current = model.current("en")
    by_mechanic: dict[str, list[str]] = {}
    for key, card in model.cards.items():
        if "faces" not in card:
            continue
        own = [f["name"] for f in card["faces"]] + [card["oracle_name"], *((card.get("meld") or {}).get("fronts", []))]
        links: dict[str, str] = {}
        phrase: dict[str, str] = {}  # mechanic -> the card's words that name it
        for word in card["keywords"]:
            found = names.keyword(word)
            if found:
                links.setdefault(found, "keyword")
                phrase.setdefault(found, word)
        for face in card["faces"]:
            text = face.get("text") or ""
            for found, words in names.phrases_in(_without_names(text, own)).items():
                links.setdefault(found, "text")
                phrase.setdefault(found, _as_written(words, text))
        # each rule with the phrase of the card that led to it (kb.build.forms adds the forms')
        led: dict[str, dict] = card.setdefault("rule_phrases", {})
        for k in links:
            for n in model.mechanics[k]["rules"][:2]:
                led.setdefault(n, {"phrase": phrase[k], "how": links[k], "mechanic": k})
        for face in card["faces"]:
            type_part = (face.get("type_line") or "").split("—")[0]
            for word in re.findall(r"[A-Za-z]+", type_part):
                number = names.types.get(normalize(word))
                if number:
                    led.setdefault(number, {"phrase": word, "how": "type"})
        card["mechanics"] = [{"key": k, "how": how} for k, how in links.items()]
        card["rules"] = list(led)
        for k in links:
            by_mechanic.setdefault(k, []).append(key)
        for rid in card["rulings"]:
            ruling = model.card_rulings[rid]
            text = _without_names(ruling["text"], own)
            cited = [lineage.status(n, current) for c in find_citations(ruling["text"]) for n in c.numbers]
            ruling["citations"] = cited
            ruling["mechanics"] = names.in_text(text)
            numbers = [c["current"]["number"] for c in cited if c.get("current")]
            numbers += [n for k in ruling["mechanics"] for n in model.mechanics[k]["rules"][:1]]
            ruling["rules"] = list(dict.fromkeys(numbers))
    for key, card in model.cards.items():  # related: meld partners, then cards sharing a rare mechanic
        if "faces" not in card:
            continue
        result = model.cards.get(model.card_names.get(normalize((card.get("meld") or {}).get("result", ""))) or "")
        if result and result is not card and result.get("faces"):  # a meld back's JA from its own card
            back, own_face = card["faces"][-1], result["faces"][0]
            for attr in ("name_ja", "type_ja", "text_ja"):
                back[attr] = back[attr] or own_face.get(attr)
        related = [model.card_names.get(normalize(n)) for n in (card.get("meld") or {}).get("fronts", [])]
        related.append(model.card_names.get(normalize((card.get("meld") or {}).get("result", ""))))
        for link in card["mechanics"]:
            others = by_mechanic.get(link["key"], [])
            if len(others) <= 40:
                related.extend(others[:8])
        card["related"] = [k for k in dict.fromkeys(related) if k and k != key][:16]
