"""Records: what parsers produce and the graph builder consumes.

Parsers are pure functions ``text -> records``; they never import rdflib. Every record keeps the
exact original text and a Locator so a user can find it again in the source.
Line numbers are 1-based and count lines as ``str.splitlines()`` does (after removing a BOM), so a
file with lone-CR line ends is numbered the same way an editor shows it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from kb.sources.document import Document  # noqa: F401  (a source document is where every record comes from)


@dataclass(slots=True, frozen=True)
class Locator:
    """Where a piece of text is: document id, line range (1-based, inclusive), section path."""

    document: str
    line_start: int
    line_end: int
    section: tuple[str, ...] = ()

    def describe(self) -> str:
        lines = (f"line {self.line_start}" if self.line_start == self.line_end
                 else f"lines {self.line_start}-{self.line_end}")
        return f"{self.document} {lines}" + (f" § {' > '.join(self.section)}" if self.section else "")


# ---------------------------------------------------------------- Comprehensive Rules


@dataclass(slots=True)
class Example:
    text: str  # original text, including the leading "Example:" / "例："
    locator: Locator


@dataclass(slots=True)
class Rule:
    """One numbered unit of the CR: a chapter ("7"), section ("712"), rule ("712.8") or subrule ("712.8e").

    ``number`` is canonical (no trailing period, ASCII digits). ``raw`` is the line(s) exactly as
    published, typos included ("119.1d." or "901.4.All").
    """

    number: str
    kind: str  # "chapter" | "section" | "rule" | "subrule"
    text: str  # the rule's own text without its number (section/chapter: the title)
    raw: str
    locator: Locator
    parent: str | None = None
    examples: list[Example] = field(default_factory=list)
    # Citations found inside this rule's text (and examples), e.g. "See rule 702.37e".
    citations: list["CitationMention"] = field(default_factory=list)


@dataclass(slots=True)
class GlossaryEntry:
    term: str  # as printed: "Day and Night" / "昼と夜"
    text: str  # the definition lines, joined with "\n", original
    locator: Locator
    reading: str | None = None  # JA: よみがな
    term_en: str | None = None  # JA: the English term after ／
    senses: list[str] = field(default_factory=list)  # "1. ...", "2. ..." when multi-sense
    obsolete: bool = False  # JA: (廃語)
    citations: list["CitationMention"] = field(default_factory=list)


@dataclass(slots=True)
class CREdition:
    """A parsed Comprehensive Rules file (one language, one effective date)."""

    edition: str  # ISO effective date, "2026-04-17"
    effective: date
    lang: str  # "en" | "ja"
    title: str
    document: "Document"
    rules: list[Rule] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    complete: bool = True  # False for excerpts: absent rules are not "removed"
    file_date: str | None = None  # the date in the official file name (an alias of ``edition``)
    # Accidents of the real file, tolerated and reported: (line, message), e.g. a duplicated number.
    warnings: list[tuple[int, str]] = field(default_factory=list)
    # Lines in the rules part that are neither a rule, heading, example nor continuation, kept
    # with their line so nothing is lost: (line, text).
    anomalies: list[tuple[int, str]] = field(default_factory=list)
    # What the file's own contents list promises and the file lacks (a truncated copy): (line, message).
    # The build refuses such a file unless told to take it (kb build --allow-incomplete).
    incomplete: tuple[int, str] | None = None

    def counts(self) -> "EditionCounts":
        """What an edition's row says of its records, without the records (kb.parse.corpus keeps
        it beside a cached parse, so a build need not read every older edition's records)."""
        return EditionCounts(
            rules=sum(r.kind in ("rule", "subrule") for r in self.rules), glossary=len(self.glossary),
            examples=sum(len(r.examples) for r in self.rules),
            documents=tuple(sorted({*(r.locator.document for r in self.rules),
                                    *(g.locator.document for g in self.glossary)})))


@dataclass(slots=True, frozen=True)
class EditionCounts:
    rules: int  # numbered rules and subrules (headings excluded)
    glossary: int
    examples: int
    documents: tuple[str, ...]  # the documents its records' locators name (JA excerpts: several)


# ---------------------------------------------------------------- other documents


@dataclass(slots=True, frozen=True)
class CitationMention:
    """A reference to a CR rule as written in some text.

    ``numbers`` is the expansion: "601.2a–d" -> ("601.2a", "601.2b", "601.2c", "601.2d");
    a single rule -> one number. ``title`` is a title given with it (〔不正な処理の扱い〕, “Transform”).
    Offsets are into the text the extractor was given; line/column are 1-based within the document.
    """

    raw: str
    numbers: tuple[str, ...]
    start: int
    end: int
    line: int
    column: int
    title: str | None = None
    is_range: bool = False


@dataclass(slots=True, frozen=True)
class CardMention:
    raw: str  # as written: 《修道院の若者》, [[夜帳の死霊/Nightveil Specter]], {{#Card:The Celestus}}
    name: str  # the displayed name
    name_ja: str | None
    name_en: str | None
    line: int
    column: int


@dataclass(slots=True)
class Section:
    """A heading in a document with its path (for locators)."""

    title: str
    level: int
    path: tuple[str, ...]
    locator: Locator


@dataclass(slots=True)
class QuotedRule:
    """A CR rule quoted inside a document (wiki 引用 block, FAQ, article)."""

    number: str  # canonical number as written in the quote ("701.25c", "601.2e")
    text: str  # the quoted text exactly as in the document (typos kept)
    lang: str
    locator: Locator
    edition_hint: str | None = None  # edition the document says it quotes, e.g. "2023-11-17"
    raw_number: str = ""  # as written ("711.1a." with its stray period)
    citations: list[CitationMention] = field(default_factory=list)


@dataclass(slots=True)
class Ruling:
    """A statement about game behaviour in a document: a bullet, an FAQ ＊ item, a paragraph.

    ``kind`` says what the statement is: "ruling" (a bullet / ＊ item / rules paragraph),
    "commentary" (an author's own notes such as the article's ①–⑨), "summary" (an author's
    numbered summary step), "note" (trivia that is not about game rules).
    """

    id: str  # stable within the document: f"{document}#r{n}"
    document: str
    text: str  # original text of the statement (one bullet, nested bullets are their own rulings)
    locator: Locator
    kind: str = "ruling"
    depth: int = 1  # bullet nesting depth
    parent: str | None = None  # id of the enclosing ruling for nested bullets
    citations: list[CitationMention] = field(default_factory=list)
    cards: list[CardMention] = field(default_factory=list)
    links: list[str] = field(default_factory=list)  # wiki link targets ("夜", "変身")


@dataclass(slots=True)
class ParsedDocument:
    """Everything a non-CR parser found in one document."""

    document: Document
    sections: list[Section] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    quoted_rules: list[QuotedRule] = field(default_factory=list)
    citations: list[CitationMention] = field(default_factory=list)  # every citation in the text
    cards: list[CardMention] = field(default_factory=list)  # every card mention in the text
    # Names the page itself defines, e.g. ("予示", "Manifest") from "予示（よじ）/Manifest".
    defines: list[tuple[str, str]] = field(default_factory=list)
    footnotes: list[tuple[str, Locator]] = field(default_factory=list)


@dataclass(slots=True, frozen=True)
class CardName:
    """One JA/EN card-name pair from card data (MTGJSON, wiki name table)."""

    name_en: str
    name_ja: str | None
    source: str  # document id
    set_code: str | None = None
    number: str | None = None
    type_en: str | None = None
    type_ja: str | None = None
    line: int | None = None  # where in its file the pair was read: a line (TSV) ...
    pointer: str | None = None  # ... or a JSON pointer to its first record ("/1234": the wiki table)


@dataclass(slots=True)
class CardFace:
    """One face of an Oracle card (a single-faced card has one): its printed characteristics,
    exactly as the card data gives them, and the Japanese name/type/text where the data has them."""

    name: str
    side: str | None = None  # "a", "b", ... (None for a single-faced card)
    mana_cost: str | None = None
    mana_value: float | None = None
    type_line: str | None = None
    text: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    name_ja: str | None = None
    type_ja: str | None = None
    text_ja: str | None = None


@dataclass(slots=True)
class CardRuling:
    """An official ruling as the card data gives it (Gatherer's, dated)."""

    date: str | None
    text: str
    locator: str | None = None  # JSON pointer of the ruling where it was first read, e.g. "/cards/225/rulings/0"


@dataclass(slots=True)
class OracleCard:
    """One Oracle card read from MTGJSON data (set files, AtomicCards, AllPrintings).

    ``name`` is the Oracle name: "Fire // Ice" for a split card, "Delver of Secrets // Insectile
    Aberration" for a transforming one, "Urza, Lord Protector" for a meld front (its melded back,
    "Urza, Planeswalker", is a card of its own whose ``meld`` names both fronts)."""

    name: str
    layout: str
    faces: list[CardFace]
    source: str  # document id
    locator: str  # JSON pointer of the first row read, e.g. "/data/cards/224"
    keywords: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    rulings: list[CardRuling] = field(default_factory=list)
    meld: dict | None = None  # {"fronts": [...], "result": name}
    oracle_id: str | None = None
