"""The model's rows: every node of the graph, typed, as plain dicts (built by kb.build.model, stored
by kb.store.snapshot).

Rows are TypedDicts: dicts at run time, so a snapshot loads with ``marshal`` (several times faster
than pickle), and named, documented fields for readers and type checkers. Kept apart from the
builder so that loading a snapshot imports no parser, rdflib or build code.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypedDict

from kb.store.tables import EditionTable

RuleKey = tuple[str, str, str]  # (lang, edition, number)
Link = tuple[str, str, float, bool]  # (number in the other edition, method, score, text changed)


class LocatorRow(TypedDict):
    document: str
    document_title: str
    line_start: int
    line_end: int
    section: str  # " > "-joined section path
    locator: str  # "cr-en-2026-06-19 line 2459 § 6. … > 601. Casting Spells"


class EditionRow(TypedDict, total=False):
    lang: str
    edition: str  # effective date, the edition's key
    effective: str
    file_date: str | None  # the date in the official file name (an alias)
    title: str
    document: str
    path: str
    sha256: str
    encoding: str
    complete: bool
    current: bool
    rules: int  # numbered rules and subrules (headings excluded)
    examples: int
    glossary: int
    warnings: list[dict]  # {"line", "message"}: accidents of the file, tolerated
    anomalies: list[dict]  # {"line", "text"}: stray lines kept


class ExampleRow(TypedDict):
    text: str
    locator: LocatorRow


class RuleRow(TypedDict):
    number: str
    kind: str  # chapter | section | rule | subrule
    lang: str
    edition: str
    text: str
    raw: str
    parent: str | None
    refs: list[str]  # rule numbers its text cites
    citations_raw: list[str]
    examples: list[ExampleRow]
    locator: LocatorRow


class GlossaryRow(TypedDict):
    term: str
    lang: str
    edition: str
    text: str
    reading: str | None
    term_en: str | None
    senses: list[str]
    obsolete: bool
    refs: list[str]
    locator: LocatorRow


class CitationRow(TypedDict):
    id: str
    raw: str
    numbers: list[str]
    line: int
    column: int
    title: str | None
    is_range: bool
    document: str
    source: str  # the ruling or quote it is in
    edition: str | None
    method: str
    resolved: list[dict]  # kb.store.lineage.Lineage.status per number


class RulingRow(TypedDict):
    id: str  # "<document>#r<n>"
    document: str
    document_title: str
    kind: str  # ruling | commentary | summary | note
    text: str
    date: str | None
    depth: int
    parent: str | None
    links: list[str]
    locator: LocatorRow
    cards: list[dict]
    mechanics: list[str]
    citations: list[CitationRow]


class QuoteRow(TypedDict):
    id: str  # "<document>#q<n>"
    document: str
    document_title: str
    kind: str  # always "quoted-rule"
    number: str
    raw_number: str
    lang: str
    text: str
    date: str | None
    edition: str | None
    edition_method: str
    resolved: dict
    official_text: str | None
    similarity: float | None
    locator: LocatorRow
    mechanics: list[str]
    cards: list[dict]
    citations: list[CitationRow]


class MechanicRow(TypedDict):
    key: str
    name_en: str
    name_ja: str | None
    aliases_en: list[str]
    aliases_ja: list[str]
    kind: str
    edition: str
    rules: list[str]  # defining rules, primary first
    related: list[str]
    glossary: list[tuple[str, str]]
    rulings: list[str]  # ruling and quote ids
    cards: list[str]
    documents: list[str]
    ja_source: dict | None  # how the JA name was found in the JA rule text (kb.build.ja_names), if so
    ja_missing: dict | None  # why there is no JA name: {reason, translation, label, edition, added_in}


class CardFaceRow(TypedDict):
    name: str
    side: str | None  # "a", "b", ... (None: a single-faced card)
    mana_cost: str | None
    mana_value: float | None
    type_line: str | None
    text: str | None  # Oracle text, exactly as the card data gives it
    power: str | None
    toughness: str | None
    loyalty: str | None
    defense: str | None
    name_ja: str | None
    type_ja: str | None
    text_ja: str | None


class _CardRowBase(TypedDict):
    key: str
    name_en: str | None
    name_ja: str | None
    sources: list[str]
    mentions: list[dict]  # {"ruling", "line", "column", "raw"}


class CardRow(_CardRowBase, total=False):
    """A card; the fields below only for cards read from MTGJSON data (kb.build.cards)."""

    oracle_name: str  # "Fire // Ice", "Urza, Lord Protector"
    layout: str  # normal | split | transform | modal_dfc | meld | adventure | flip | ...
    faces: list[CardFaceRow]
    keywords: list[str]
    sets: list[str]  # set codes it was printed in
    meld: dict | None  # {"fronts": [name, name], "result": name}
    oracle_id: str | None
    data: list[LocatorRow]  # where it was read (document, JSON pointer)
    rulings: list[str]  # card-ruling ids
    mechanics: list[dict]  # {"key", "how": "keyword" | "text"}
    rules: list[str]  # current rules its keywords, text and types use
    forms: list[list]  # [rule, share of cards with text]: the CR-quoted text forms its text takes (kb.build.forms)
    related: list[str]  # card keys: meld partners, cards sharing a rare mechanic


class CardRulingRow(TypedDict):
    id: str  # "card:<key>#r<n>"
    kind: str  # always "card-ruling"
    card: str
    date: str | None
    text: str
    document: str  # the first card-data file it was read from
    sources: list[str]  # every card-data file that has it
    locator: LocatorRow
    citations: list[dict]  # kb.store.lineage.Lineage.status of each rule number it cites
    mechanics: list[str]  # mechanics its text names
    rules: list[str]  # current rules: cited, then the mechanics' defining rules


@dataclass(eq=False)  # compared by identity: a loaded model is a cache owner (kb.memo), never mutated
class Model:
    editions: dict[str, EditionRow] = field(default_factory=dict)  # "en/2026-06-19" -> row
    rules: EditionTable = field(default_factory=EditionTable)  # RuleKey -> RuleRow, one block per edition
    children: EditionTable = field(default_factory=EditionTable)  # RuleKey -> child numbers
    next_link: dict[RuleKey, Link] = field(default_factory=dict)
    prev_link: dict[RuleKey, Link] = field(default_factory=dict)
    ja_of: dict[RuleKey, RuleKey] = field(default_factory=dict)  # EN key -> JA key (same edition)
    glossary: EditionTable = field(default_factory=EditionTable)  # (lang, edition, term) -> GlossaryRow
    mechanics: dict[str, MechanicRow] = field(default_factory=dict)
    mechanic_names: dict[str, list[str]] = field(default_factory=dict)  # normalised name -> keys
    documents: dict[str, dict] = field(default_factory=dict)
    rulings: dict[str, RulingRow] = field(default_factory=dict)
    quotes: dict[str, QuoteRow] = field(default_factory=dict)  # CR rules quoted in documents
    citations: list[CitationRow] = field(default_factory=list)
    cards: dict[str, CardRow] = field(default_factory=dict)
    card_names: dict[str, str] = field(default_factory=dict)  # normalised JA/EN name -> key
    card_rulings: dict[str, CardRulingRow] = field(default_factory=dict)  # official rulings from card data
    refs_in: EditionTable = field(default_factory=EditionTable)  # RuleKey -> what cites it
    # JA section titles by edition and number, from the JA file's contents list (もくじ) and headings.
    # Kept apart from rules: the JA contents follow its own numbering (732 不正な処理の扱い).
    ja_section_titles: dict[str, dict[str, str]] = field(default_factory=dict)
    # Ruling or quote id -> {"deciding": [...], "rules": [...]}: the current EN rules that decide the
    # case it describes (each check's first trace rule) and every rule its checks' traces applied,
    # deciding first. Computed by the build's reasoning step (kb.build.pipeline); empty with no EN edition.
    ruling_rules: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    # JA edition -> its alignment with the EN edition it translates (kb.build.japanese): the
    # translation's label, numbers in one language only, contents-list gaps, and the
    # cross-references resolved by their 〔title〕 ("fixes", keyed "rule:<n>" / "glossary:<term>").
    ja_alignment: dict[str, dict] = field(default_factory=dict)

    def en_editions(self) -> list[str]:
        return sorted(e["edition"] for e in self.editions.values() if e["lang"] == "en")

    def current(self, lang: str = "en") -> str | None:
        eds = sorted(e["edition"] for e in self.editions.values() if e["lang"] == lang)
        return eds[-1] if eds else None

    def edition_rules(self, lang: str, edition: str) -> dict[str, RuleRow]:
        """One edition's rules by number (an older edition is read from disk on first use)."""
        return self.rules.edition(lang, edition)

    def statement(self, statement_id: str) -> RulingRow | QuoteRow | None:
        """A ruling or a quoted rule by id."""
        return self.rulings.get(statement_id) or self.quotes.get(statement_id)

    def statements(self) -> Iterator[RulingRow | QuoteRow]:
        """Every ruling, then every quoted rule."""
        yield from self.rulings.values()
        yield from self.quotes.values()
