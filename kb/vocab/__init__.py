"""The project's RDF vocabulary: the only place an IRI is spelled.

Like rdflib's own ``namespace/_SKOS.py``: a closed ``DefinedNamespace`` (an unknown term raises),
one commented line per term. ``kb/vocab/vocab.ttl`` is generated from this module (``kb export --vocab``)
and a test keeps the two in step. Instance IRIs are minted by the helpers at the bottom.
"""
from __future__ import annotations

from urllib.parse import quote

from rdflib import Namespace, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS, XSD, DefinedNamespace

BASE = "https://w3id.org/mtg-kb/"


class MTG(DefinedNamespace):
    """MTG rules knowledge graph vocabulary."""

    _NS = Namespace(BASE + "vocab#")
    _fail = True

    # ---- classes
    Edition: URIRef  # One published Comprehensive Rules text: one language, one effective date.
    Rule: URIRef  # A numbered unit of the CR in one edition: chapter, section, rule or subrule.
    Example: URIRef  # An "Example:" / 例： paragraph attached to a rule.
    GlossaryTerm: URIRef  # A glossary entry of one edition.
    Mechanic: URIRef  # A keyword ability or action, designation, card type or game state (day/night).
    Card: URIRef  # A Magic card, named in Japanese and/or English.
    Document: URIRef  # A source document: CR file, wiki page, FAQ, article.
    Ruling: URIRef  # A statement about game behaviour made in a document.
    QuotedRule: URIRef  # A CR rule quoted inside a document, with the text as quoted.
    Citation: URIRef  # A reference to a rule as written somewhere, and how it was resolved.
    Section: URIRef  # A heading of a document (for locators).
    OfficialRules: URIRef  # A source that is the official rules: a Comprehensive Rules file.
    OfficialRuling: URIRef  # A source that is an official ruling (Gatherer's, as card data such as MTGJSON gives it).
    OfficialFAQ: URIRef  # A source that is an official FAQ or release notes page, or a statement in one.
    OfficialArticle: URIRef  # A source that is an article published by Wizards of the Coast, or a statement in one.
    CardData: URIRef  # A source that is card data (Oracle text, names): MTGJSON, a name table.
    WikiCommentary: URIRef  # A source that is wiki commentary (MTG Wiki), or a statement in it: not an official ruling.
    BlogCommentary: URIRef  # A source that is a personal blog or article, or a statement in it: not an official ruling.
    CardFace: URIRef  # One face of a card: a single-faced card has one; split, transform, modal DFC, adventure, Room and meld have two.

    # ---- card characteristics (Oracle data from MTGJSON; text exactly as the data gives it)
    layout: URIRef  # "normal" | "split" | "transform" | "modal_dfc" | "meld" | "adventure" | "flip" | ...
    hasFace: URIRef  # A card's face.
    faceSide: URIRef  # A face's side: "a", "b", ...
    manaCost: URIRef  # A face's mana cost as printed: "{1}{W}{U}".
    manaValue: URIRef  # A face's mana value (xsd:decimal).
    typeLine: URIRef  # A face's type line (language-tagged: EN Oracle, JA printed).
    power: URIRef  # Printed power ("2", "*").
    toughness: URIRef  # Printed toughness.
    loyalty: URIRef  # Printed loyalty.
    defense: URIRef  # Printed defense.
    keyword: URIRef  # A keyword the card data lists for the card, as written ("Meld").
    usesMechanic: URIRef  # The card's keywords or text use this mechanic.
    usesRule: URIRef  # A current rule the card's keywords, text or types use.
    printedIn: URIRef  # A set code the card was printed in.
    meldsWith: URIRef  # The other front of a meld pair.
    meldsInto: URIRef  # The melded card a meld front becomes.
    relatedCard: URIRef  # A card worth seeing with this one (meld partner, a rare mechanic shared).
    oracleId: URIRef  # Scryfall's Oracle id of the card, when the data gives it.
    rulingOn: URIRef  # An official ruling is about this card.

    # ---- rules and editions
    ruleNumber: URIRef  # Canonical rule number, "601.2c".
    ruleKind: URIRef  # "chapter" | "section" | "rule" | "subrule".
    edition: URIRef  # The Edition a rule, glossary term or edition-bound node belongs to.
    effectiveDate: URIRef  # An edition's effective date (xsd:date).
    editionKey: URIRef  # An edition's key, its effective date as "YYYY-MM-DD".
    complete: URIRef  # False for an excerpt edition (absent rules are not removed rules).
    text: URIRef  # Text exactly as in the source (language-tagged).
    rawText: URIRef  # The source line(s) exactly as published, number and typos included.
    parentRule: URIRef  # The rule one level up ("601.2c" -> "601.2" -> "601" -> "6").
    references: URIRef  # This rule's text cites that rule (same edition).
    hasExample: URIRef  # A rule's example paragraph.
    translationOf: URIRef  # A JA rule/glossary term is the translation of this EN one (same number/edition).

    # ---- lineage across editions
    nextVersion: URIRef  # The same rule in the next loaded edition of the same language.
    lineageMethod: URIRef  # How a lineage link was matched: "same-number-same-text", "text", "text-fuzzy", ...
    lineageScore: URIRef  # Text similarity (0..1) behind a lineage link.
    textChanged: URIRef  # True when the rule's text differs from its previous version.

    # ---- mechanics, cards
    definedBy: URIRef  # A mechanic's defining rule (e.g. manifest -> 701.40 in 2026-04-17).
    relatedRule: URIRef  # A rule that mentions a mechanic by name.
    relatedMechanic: URIRef  # Two mechanics whose defining rules cite each other.
    glossaryTerm: URIRef  # A mechanic's glossary entry.
    mechanicKind: URIRef  # "keyword-action" | "keyword-ability" | "game-state" | "designation" | "card-type" | "term".
    exampleCard: URIRef  # A card mentioned in a ruling or rule about a mechanic.
    nameJa: URIRef  # A card's Japanese name.
    nameEn: URIRef  # A card's English name.

    # ---- documents, rulings, quotes
    documentKind: URIRef  # "cr" | "wiki-source" | "wiki-page" | "faq" | "article".
    sourceType: URIRef  # What a document, ruling or quote is as a source: "official-rules" | "official-ruling" | "official-faq" | "official-article" | "card-data" | "wiki" | "blog" (its class: mtg:OfficialRuling ...).
    quotesEdition: URIRef  # The CR edition a document says it quotes.
    sha256: URIRef  # Digest of the document's bytes as read.
    rulingKind: URIRef  # "ruling" | "commentary" | "summary" | "note".
    aboutMechanic: URIRef  # A ruling/document is about this mechanic.
    mentionsCard: URIRef  # A ruling/rule/document mentions this card.
    quotesRule: URIRef  # A QuotedRule resolved to this rule (in the edition it was matched to).
    quoteMatches: URIRef  # Whether the quoted text equals the official text after normalisation.
    quoteSimilarity: URIRef  # Similarity (0..1) between quote and official text.
    supersededBy: URIRef  # A ruling no longer true under this (later) rule.
    backedBy: URIRef  # A current rule the reasoning engine applies when it runs the situation this ruling describes (whether the ruling's claim still holds is judged apart).
    decidedBy: URIRef  # The backedBy rule that decides the ruling's case: the first the engine applied for one of its claims.
    nestedIn: URIRef  # A nested bullet's enclosing ruling.
    bulletDepth: URIRef  # Nesting depth of a bullet (1 = top level).

    # ---- citations
    cites: URIRef  # A ruling, rule, quote or document contains this Citation.
    asWritten: URIRef  # The citation exactly as written ("rule 717〔不正な処理の扱い〕").
    citedNumber: URIRef  # One rule number the citation names (a range has several).
    citedTitle: URIRef  # The title written with the citation (〔不正な処理の扱い〕).
    resolvedTo: URIRef  # The Rule the citation meant, in the edition in force for its source.
    resolvedEdition: URIRef  # The Edition the citation was resolved against.
    resolutionMethod: URIRef  # "document-date" | "quoted-text" | "title" | "current-edition" | ...
    currentRule: URIRef  # The same rule in the current edition (carried forward through lineage).
    citationStatus: URIRef  # "current" | "renumbered" | "text-changed" | "removed" | "never-existed" | "ambiguous".

    # ---- locators (W3C Web Annotation selectors are used alongside, see oa:)
    locator: URIRef  # Human-readable locator: "document lines 12-14 § 解説".
    lineStart: URIRef  # First line (1-based) in the source document.
    lineEnd: URIRef  # Last line (1-based, inclusive).
    column: URIRef  # Column (1-based) of a citation or mention.
    sectionPath: URIRef  # Section path, " > "-joined.
    inDocument: URIRef  # The Document a node was read from.


# kb.sources.types keys -> the class a source of that type has
SOURCE_CLASSES = {"official-rules": MTG.OfficialRules, "official-ruling": MTG.OfficialRuling,
                  "official-faq": MTG.OfficialFAQ, "official-article": MTG.OfficialArticle,
                  "card-data": MTG.CardData, "wiki": MTG.WikiCommentary, "blog": MTG.BlogCommentary}

OA = Namespace("http://www.w3.org/ns/oa#")  # W3C Web Annotation (citation selectors)
PREFIXES = {"mtg": MTG._NS, "skos": SKOS._NS, "dcterms": DCTERMS._NS, "prov": PROV._NS, "oa": OA,
            "rdf": RDF._NS, "rdfs": RDFS._NS, "xsd": XSD._NS}


def sparql_prefixes() -> str:
    return " ".join(f"PREFIX {p}: <{ns}>" for p, ns in PREFIXES.items()) + " "


def _slug(value: str) -> str:
    return quote(value, safe="")


def edition_iri(lang: str, edition: str) -> URIRef:
    return URIRef(f"{BASE}id/edition/{lang}/{edition}")


def rule_iri(lang: str, edition: str, number: str) -> URIRef:
    return URIRef(f"{BASE}id/rule/{lang}/{edition}/{number}")


def example_iri(lang: str, edition: str, number: str, index: int) -> URIRef:
    return URIRef(f"{BASE}id/rule/{lang}/{edition}/{number}/example/{index}")


def glossary_iri(lang: str, edition: str, term: str) -> URIRef:
    return URIRef(f"{BASE}id/glossary/{lang}/{edition}/{_slug(term)}")


def mechanic_iri(key: str) -> URIRef:
    return URIRef(f"{BASE}id/mechanic/{_slug(key)}")


def card_iri(key: str) -> URIRef:
    return URIRef(f"{BASE}id/card/{_slug(key)}")


def card_face_iri(key: str, index: int) -> URIRef:
    return URIRef(f"{BASE}id/card/{_slug(key)}/face/{index}")


def document_iri(doc_id: str) -> URIRef:
    return URIRef(f"{BASE}id/document/{_slug(doc_id)}")


def node_iri(doc_id: str, kind: str, key: str) -> URIRef:
    """Rulings, quotes, citations, sections: minted under their document."""
    return URIRef(f"{BASE}id/document/{_slug(doc_id)}/{kind}/{_slug(key)}")


def skolem_iri(label: str) -> URIRef:
    """A skolem IRI for a node that would otherwise be blank (lineage derivations, selectors)."""
    return URIRef(f"{BASE}.well-known/genid/{_slug(label)}")
