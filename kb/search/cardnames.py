"""Cards named in a question, and what they are: the expansion a question that names cards needs.

Real questions name cards, not rules ("Vesuvan Shapeshifter is turned face up as a copy of
Skinthinner"). Every card read from card data is found by its English name (as written, at word
boundaries: "Lightning Bolt", "Urza, Lord Protector", a face name) or its Japanese name (as a
substring; 《》 or not). What a named card is — its keywords, the mechanics its text uses, its type
line and Oracle text, the rules of those mechanics and types — becomes a second query, so the
rules the card's text needs are found although the question never names them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.search.tokenize import HAS_JA
from kb.store.rows import Model
from kb.text import normalize, without_reminder_text

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\uff0c": ",", "\u3001": "、"})
_WORD_START = re.compile(r"(?<![A-Za-z0-9'])[A-Z0-9]")
# a name used as a verb or a plural ("Lightning Bolts one", "Unsummons their Wall", "two Islands"):
# the same card, so the ending is part of the mention (and blanked with it)
_ENDING = re.compile(r"(?:e?s|e?d|ing)?(?![A-Za-z0-9])")
RULINGS_CHARS = 2000  # of one card's rulings, as one query (tuning half: 1500-3000 within .005)
JA_OFFSET = 10**6  # a JA name's offsets are in the folded text, kept apart from EN ones
MIN_JA = 2  # JA names of one character (火) are words of every sentence
# A card known by name only (the name tables, no Oracle text loaded) is taken from a question only when the
# name can hardly be a plain word: an EN name of two words or more, or one word that is not a game term and
# does not open a sentence; a JA name of MIN_JA_UNLOADED characters or more, or in 《》.
MIN_JA_UNLOADED = 4
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n)$")


@dataclass(slots=True, frozen=True)
class NamedCard:
    key: str
    name: str  # as matched
    start: int
    end: int
    loaded: bool = True  # its Oracle text is in the card data (False: known by name only)


class CardNames:
    def __init__(self, model: Model):
        self.model = model
        self.en: dict[str, list[tuple[str, str]]] = {}  # first word -> [(name, key)], longest first
        self.ja: dict[str, list[tuple[str, str]]] = {}  # first two characters -> [(name, key)]
        self.unloaded_en: dict[str, list[tuple[str, str]]] = {}  # the same for cards known by name only
        self.unloaded_ja: dict[str, list[tuple[str, str]]] = {}
        terms = {normalize(n) for n in model.mechanic_names} | {normalize(t) for (_, _, t) in model.glossary}
        terms |= {w for t in list(terms) for w in t.split()}  # "Flash" in "flash ability" too
        for key, card in model.cards.items():
            if "faces" not in card:
                self._add_unloaded(key, card, terms)
                continue
            names = {card["oracle_name"], card["name_en"], *(f["name"] for f in card["faces"][:1 if card.get("meld")
                                                                                      else None])}
            for name in filter(None, names):
                name = name.translate(_QUOTES)
                self.en.setdefault(name.split(" ", 1)[0], []).append((name, key))
            for name in {card["name_ja"], *(f["name_ja"] for f in card["faces"][:1 if card.get("meld") else None])}:
                if name and len(name) >= MIN_JA:
                    name = normalize(name)
                    self.ja.setdefault(name[:2], []).append((name, key))
        for table in (self.en, self.ja, self.unloaded_en, self.unloaded_ja):
            for names in table.values():
                names.sort(key=lambda nk: -len(nk[0]))

    def _add_unloaded(self, key: str, card: dict, terms: set[str]) -> None:
        name = (card.get("name_en") or "").translate(_QUOTES)
        if name and " // " not in name and (" " in name or normalize(name) not in terms):
            self.unloaded_en.setdefault(name.split(" ", 1)[0], []).append((name, key))
        name_ja = card.get("name_ja")
        if name_ja and len(name_ja) >= MIN_JA and name_ja != "undefined":
            name_ja = normalize(name_ja)
            self.unloaded_ja.setdefault(name_ja[:2], []).append((name_ja, key))

    def __bool__(self) -> bool:
        return bool(self.en or self.ja)

    def find(self, query: str) -> list[NamedCard]:
        """Cards the query names, in the order they appear, each once (longest name wins)."""
        text = query.translate(_QUOTES)
        found: dict[str, NamedCard] = {}
        taken: list[tuple[int, int]] = []

        def add(key: str, name: str, start: int, end: int, loaded: bool = True) -> None:
            if any(s < end and start < e for s, e in taken):
                return
            taken.append((start, end))
            found.setdefault(key, NamedCard(key, name, start, end, loaded))
        self._find_en(text, self.en, add)
        if HAS_JA.search(text):
            folded = normalize(text)
            self._find_ja(folded, self.ja, add)
            self._find_ja(folded, self.unloaded_ja, lambda *a: add(*a, loaded=False), unloaded=True)
        self._find_en(text, self.unloaded_en, lambda *a: add(*a, loaded=False), unloaded=True)
        return sorted(found.values(), key=lambda c: c.start)

    @staticmethod
    def _find_en(text: str, table, add, unloaded: bool = False) -> None:
        for m in _WORD_START.finditer(text):
            start = m.start()
            word = text[start:].split(" ", 1)[0]
            bare = word.rstrip(".,;:!?)")
            firsts = {word, bare, word.rstrip(".,;:!?)'s").rstrip("'")}
            firsts.update(bare[:-len(e)] for e in ("s", "es", "d", "ed", "ing") if bare.endswith(e))  # Disenchanted
            for first in firsts:
                for name, key in table.get(first, ()):
                    ending = _ENDING.match(text, start + len(name)) if text.startswith(name, start) else None
                    if ending and unloaded and " " not in name and _SENTENCE_START.search(text[:start]):
                        continue  # one capitalised word opening a sentence is a word, not a name
                    if ending:
                        add(key, name, start, ending.end())
                        break

    @staticmethod
    def _find_ja(folded: str, table, add, unloaded: bool = False) -> None:
        for i in range(len(folded) - 1):
            for name, key in table.get(folded[i:i + 2], ()):
                if folded.startswith(name, i) and (not unloaded or len(name) >= MIN_JA_UNLOADED or (
                        folded[i - 1:i] == "《" and folded[i + len(name):i + len(name) + 1] == "》")):
                    add(key, name, i + JA_OFFSET, i + JA_OFFSET + len(name))  # apart from EN offsets
                    break

    @staticmethod
    def without_names(query: str, cards: list[NamedCard]) -> str:
        """The question with the English card names it was found to use blanked out: a name's words
        are not the rules' words ("Urza, Lord Protector" is no battle's protector, 310.8)."""
        text = query.translate(_QUOTES)  # the text ``find`` matched in, offsets unchanged
        out, last = [], 0
        for named in sorted(cards, key=lambda c: c.start):
            if named.start >= JA_OFFSET or named.start < last:
                continue
            out.extend((text[last:named.start], " "))
            last = named.end
        out.append(text[last:])
        return "".join(out)

    def ruling_texts(self, named: NamedCard) -> list[str]:
        """One card's official rulings, in the card data's order, its own names left out."""
        return self.ruling_texts_of(named.key)

    def ruling_texts_of(self, key: str) -> list[str]:
        """``ruling_texts`` of the card ``key``."""
        card = self.model.cards[key]
        own = sorted({f["name"] for f in card.get("faces", ())} | {card.get("oracle_name") or ""}, key=len,
                     reverse=True)
        out = []
        for rid in card.get("rulings", ()):
            text = self.model.card_rulings[rid]["text"]
            for name in filter(None, own):
                text = text.replace(name, " ")
            out.append(text)
        return out

    def rulings_text(self, cards: list[NamedCard], limit: int = RULINGS_CHARS) -> str:
        """The official rulings of the named cards, in the order the question names them (their own
        names left out): rulings say in the rules' words how a card meets the game ("...is a
        triggered ability", "...uses the stack"), which a question in a player's words does not."""
        return " ".join(text for named in cards for text in self.ruling_texts(named))[:limit]

    def expansion(self, cards: list[NamedCard], lang: str = "en") -> tuple[str, list[str]]:
        """(text describing the cards, the rules their keywords, text and types use)."""
        words, rules = [], []
        for named in cards:
            card = self.model.cards[named.key]
            own = {f["name"] for f in card["faces"]} | {card["oracle_name"]}
            for face in card["faces"]:
                text = face.get("text") or ""
                for name in sorted(own, key=len, reverse=True):
                    text = text.replace(name, " ")
                words.append(face.get("type_line") or "")
                words.append(without_reminder_text(text))
            words.extend(card.get("keywords", []))
            for link in card.get("mechanics", []):
                m = self.model.mechanics.get(link["key"])
                if m:
                    words.append(m["name_en"])
            rules.extend(card.get("rules", []))
        return " ".join(w for w in words if w), list(dict.fromkeys(rules))
