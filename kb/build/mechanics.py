"""The mechanic lexicon, derived from the sources (never a hand-kept list of names).

- The current EN edition gives the mechanics: each keyword action (701.x), keyword ability
  (702.x) and section of "Additional Rules" (7xx: double-faced cards, day and night, ...), and
  each glossary sense that cites a rule. A glossary term whose name is part of the title of the
  rule it cites first ("Day" -> 731 "Day and Night", "Cast" -> 601 "Casting Spells") is an alias
  of that rule's mechanic, not a mechanic of its own.
- Japanese names come from the JA glossary (``用語（よみ）／English``), JA section titles of the
  same edition, pages that define a name (``予示（よじ）/Manifest``) and titles written with
  citations in JA documents (``701.25「変身」`` resolves to transform).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.parse.records import CREdition, GlossaryEntry, Rule
from kb.text import is_title, normalize

KEYWORD_PARENTS = {"701": "keyword-action", "702": "keyword-ability"}
SEE_RULE = re.compile(r"\b(?:rules?|section)\s+(\d{3}(?:\.\d+[a-z]?)?|\d)\b")


@dataclass(slots=True)
class Mechanic:
    key: str
    name_en: str
    kind: str  # keyword-action | keyword-ability | rules-section | designation | term
    rules: list[str]  # defining rules in the current edition, primary first
    name_ja: str | None = None
    aliases_en: list[str] = field(default_factory=list)
    aliases_ja: list[str] = field(default_factory=list)
    glossary: list[tuple[str, str]] = field(default_factory=list)  # (lang, term) entries
    related: set[str] = field(default_factory=set)
    ja_source: dict | None = None  # how a JA name found in the JA rule text was found (kb.build.ja_names)
    ja_missing: dict | None = None  # why the JA edition has no name for it

    def names(self) -> list[str]:
        return [n for n in [self.name_en, self.name_ja, *self.aliases_en, *self.aliases_ja] if n]


def slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "-", normalize(text)).strip("-")


def _cited(text: str) -> list[str]:
    return list(dict.fromkeys(SEE_RULE.findall(text)))


def _is_alias_of(term: str, title: str) -> bool:
    """"Day" is part of "Day and Night"; "Cast" of "Casting Spells"; "Door" not of "Split Cards"."""
    t, ti = normalize(term), normalize(title)
    if t == ti:
        return True
    words = ti.replace(",", " ").split()
    return len(t) >= 3 and any(w == t or (w.startswith(t) and len(t) >= 4) for w in words) \
        and len(t.split()) == 1


class Lexicon:
    def __init__(self, current: CREdition):
        self.edition = current.edition
        self.by_key: dict[str, Mechanic] = {}
        self._by_rule: dict[str, str] = {}  # primary rule number -> key
        self._by_name_en: dict[str, list[str]] = {}  # normalised EN name -> keys
        self._primary_ja: set[str] = set()  # mechanics whose official JA name is known
        rules = {r.number: r for r in current.rules}
        self._rules = rules
        self._descendants: dict[str, list[Rule]] = {}  # section/rule -> every rule under it
        for r in current.rules:
            parent = r.parent
            while parent:
                self._descendants.setdefault(parent, []).append(r)
                parent = rules[parent].parent if parent in rules else None
        for r in current.rules:
            if r.parent in KEYWORD_PARENTS and r.kind == "rule" and is_title(r.text):
                self._add(Mechanic(key=slug(r.text), name_en=r.text, kind=KEYWORD_PARENTS[r.parent],
                                   rules=[r.number]))
            elif r.kind == "section" and r.number[0] == "7" and r.number not in ("700", "701", "702"):
                self._add(Mechanic(key=slug(r.text), name_en=r.text, kind="rules-section", rules=[r.number]))
        for entry in current.glossary:
            self._add_glossary(entry)
        self._link_related()

    def _add(self, mechanic: Mechanic) -> Mechanic:
        key = mechanic.key
        if key in self.by_key:  # two rules with one title (rare): keep both apart
            key = mechanic.key = f"{key}-{slug(mechanic.rules[0])}"
        self.by_key[key] = mechanic
        self._by_rule.setdefault(mechanic.rules[0], key)
        self._by_name_en.setdefault(normalize(mechanic.name_en), []).append(key)
        return mechanic

    def _add_glossary(self, entry: GlossaryEntry) -> None:
        senses = entry.senses or [entry.text]
        for sense in senses:
            cited = _cited(sense if entry.senses else entry.text)
            if not cited:
                continue
            primary = cited[0]
            same_name = [m for m in self.find_en(entry.term) if m.kind != "term"]
            if same_name:  # "Cast": keyword action 701.5 and the glossary's rule 601 are one mechanic
                same_name[0].rules.extend(n for n in self._defining(entry.term, cited)
                                          if n not in same_name[0].rules)
                same_name[0].glossary.append(("en", entry.term))
                continue
            owner = self.by_key.get(self._by_rule.get(primary, ""))
            if owner and _is_alias_of(entry.term, owner.name_en):
                if normalize(entry.term) != normalize(owner.name_en):
                    owner.aliases_en.append(entry.term)
                    self._by_name_en.setdefault(normalize(entry.term), []).append(owner.key)
                owner.glossary.append(("en", entry.term))
                if "designation" in sense and owner.kind == "rules-section":
                    owner.kind = "designation"
                continue
            # A multi-sense term ("Room": dungeon room / Room enchantment) is one mechanic per sense.
            key = slug(entry.term) if len(senses) == 1 else \
                f"{slug(entry.term)}-{slug(self._title(primary) or primary)}"
            mechanic = self._add(Mechanic(key=key, name_en=entry.term.split(" (")[0], kind="term",
                                          rules=self._defining(entry.term, cited)))
            mechanic.glossary.append(("en", entry.term))
            if owner:
                mechanic.related.add(owner.key)

    def _title(self, number: str) -> str | None:
        rule = self._rules.get(number)
        return rule.text if rule and rule.kind in ("section", "chapter", "rule") and len(rule.text) < 60 else None

    def _defining(self, term: str, cited: list[str]) -> list[str]:
        """The cited rules, plus rules inside a cited section that use the term (Room -> 709.5j, 709.5)."""
        found = [n for n in cited if n in self._rules]
        word = re.compile(rf"\b{re.escape(normalize(term))}s?\b")
        for number in cited:
            if self._rules.get(number) and self._rules[number].kind == "section":
                for rule in self._descendants.get(number, ()):
                    if word.search(normalize(rule.text)):
                        chain = [rule.number]
                        while chain[-1] and self._rules[chain[-1]].parent not in (None, number):
                            chain.append(self._rules[chain[-1]].parent)
                        found.extend(n for n in reversed(chain) if n not in found)
        return found or cited

    def _link_related(self) -> None:
        """Mechanics whose defining rules cite another mechanic's primary rule are related."""
        for mechanic in self.by_key.values():
            for number in mechanic.rules[:1]:
                rule = self._rules.get(number)
                if not rule:
                    continue
                texts = [rule.text] + [r.text for r in self._descendants.get(number, ())
                                       if r.parent == number]
                for cited in {c for t in texts for c in _cited(t)}:
                    other = self._by_rule.get(cited)
                    if other and other != mechanic.key:
                        mechanic.related.add(other)
                        self.by_key[other].related.add(mechanic.key)

    # ------------------------------------------------------------- Japanese names

    def add_ja_glossary(self, entries: list[GlossaryEntry]) -> None:
        """A JA entry names every mechanic of its EN term (a multi-sense term is one mechanic per
        sense: "Face Down" 110.5 / 708 / zones are all 裏向き)."""
        en_terms: dict[str, list[Mechanic]] = {}
        for mechanic in self.by_key.values():
            for _, term in mechanic.glossary:
                found = en_terms.setdefault(_term_key(term), [])
                if mechanic not in found:
                    found.append(mechanic)
        for entry in entries:
            if not entry.term_en:
                continue
            key = _term_key(entry.term_en)
            for mechanic in en_terms.get(key, []):
                # the glossary's name for the mechanic itself, or for one of its aliases
                self.add_ja_name(mechanic.key, entry.term, entry.reading,
                                 primary=key == _term_key(mechanic.name_en))
                mechanic.glossary.append(("ja", entry.term))

    def add_ja_name(self, key: str, name: str, reading: str | None = None, primary: bool = False) -> None:
        """``primary``: this is the official JA name of the mechanic itself (its glossary entry or the
        JA title of its primary rule), which outranks names met elsewhere."""
        mechanic = self.by_key[key]
        name = name.strip()
        if primary and name != mechanic.name_ja and key not in self._primary_ja:
            if mechanic.name_ja and mechanic.name_ja not in mechanic.aliases_ja:
                mechanic.aliases_ja.insert(0, mechanic.name_ja)
            mechanic.name_ja = name
            self._primary_ja.add(key)
            if name in mechanic.aliases_ja:
                mechanic.aliases_ja.remove(name)
        elif mechanic.name_ja is None:
            mechanic.name_ja = name
        elif name != mechanic.name_ja and name not in mechanic.aliases_ja:
            mechanic.aliases_ja.append(name)
        if reading and reading not in mechanic.aliases_ja:
            mechanic.aliases_ja.append(reading)

    def for_rule(self, number: str) -> str | None:
        """The mechanic whose primary rule is ``number`` (a current-edition number), else the
        keyword/section mechanic that counts it among its defining rules (601 -> cast)."""
        if number in self._by_rule:
            return self._by_rule[number]
        return next((m.key for m in self.by_key.values() if m.kind != "term" and number in m.rules), None)

    def add_ja_section_titles(self, titles: dict[str, str]) -> None:
        """JA section titles, keyed by today's number, name the mechanic of that section
        ("730. 昼と夜" in the 2026-01-16 JA contents is today's 731 Day and Night). A glossary term
        is not its cited section: "Deck" cites 100 (原則), "Color" 105/106 (マナ), "Card Type" 205
        (タイプ行); its JA headword comes from the JA glossary or is absent (kb.build.ja_names)."""
        for current, title in titles.items():
            key = self.for_rule(current)
            if key and self.by_key[key].kind != "term":  # a glossary term is named by the JA glossary only
                self.add_ja_name(key, title, primary=self.by_key[key].rules[0] == current)

    def find_en(self, name: str) -> list[Mechanic]:
        return [self.by_key[k] for k in self._by_name_en.get(normalize(name), [])]


def _term_key(term: str) -> str:
    """A glossary term as both glossaries are matched on: the JA glossary's English term against the
    EN glossary's headword, written differently at times ("Modal DoubleFaced Cards" for "Modal
    Double-Faced Cards"; the EN "Transforming Double-Faced Cards (Obsolete)"; "Face Down(2)")."""
    term = re.sub(r"\s*\((?:\d|obsolete)\)$", "", normalize(term).casefold())
    return re.sub(r"[^0-9a-z]+", "", term)
