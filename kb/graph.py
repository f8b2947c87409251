"""The model as RDF: the only writer of triples.

Standard vocabularies where they fit (rdfs/skos labels with @ja/@en, dcterms for documents,
prov for derivation, the W3C Web Annotation ``oa:`` TextQuoteSelector for citation locators);
everything else is ``MTG`` from kb.vocab.
"""
from __future__ import annotations

from collections.abc import Iterator

import pyoxigraph as ox
from rdflib import Namespace
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS, XSD

from .model import Model
from .vocab import (MTG, card_iri, document_iri, edition_iri, example_iri, glossary_iri, mechanic_iri,
                    node_iri, rule_iri)

OA = Namespace("http://www.w3.org/ns/oa#")
Triple = tuple
_XSD_BOOLEAN, _XSD_INTEGER, _XSD_DECIMAL = (ox.NamedNode(str(XSD[t])) for t in ("boolean", "integer", "decimal"))


# Terms are pyoxigraph's (built in Rust: ~10x faster than rdflib.Literal for 400k triples); the
# graph is read back through rdflib (oxrdflib), which is the API users and the server see.
def Literal(value, lang: str | None = None, datatype=None) -> ox.Literal:
    if isinstance(value, bool):
        return ox.Literal("true" if value else "false", datatype=_XSD_BOOLEAN)
    if isinstance(value, int):
        return ox.Literal(str(value), datatype=_XSD_INTEGER)
    if isinstance(value, float):
        return ox.Literal(repr(value), datatype=_XSD_DECIMAL)
    if datatype is not None:
        return ox.Literal(value, datatype=ox.NamedNode(str(datatype)))
    return ox.Literal(value, language=lang) if lang else ox.Literal(value)


def BNode(label: str) -> ox.BlankNode:
    return ox.BlankNode("b" + "".join(ch if ch.isalnum() else "_" for ch in label))


def _locator(subject, locator: dict | None) -> Iterator[Triple]:
    if not locator:
        return
    yield subject, MTG.locator, Literal(locator["locator"])
    yield subject, MTG.lineStart, Literal(locator["line_start"])
    yield subject, MTG.lineEnd, Literal(locator["line_end"])
    if locator.get("section"):
        yield subject, MTG.sectionPath, Literal(locator["section"])
    yield subject, MTG.inDocument, document_iri(locator["document"])


def triples(model: Model) -> Iterator[Triple]:
    for info in model.editions.values():
        e = edition_iri(info["lang"], info["edition"])
        yield e, RDF.type, MTG.Edition
        yield e, MTG.editionKey, Literal(info["edition"])
        yield e, MTG.effectiveDate, Literal(info["effective"], datatype=XSD.date)
        yield e, DCTERMS.language, Literal(info["lang"])
        yield e, DCTERMS.title, Literal(info["title"])
        yield e, MTG.complete, Literal(info["complete"])
        yield e, PROV.wasDerivedFrom, document_iri(info["document"])
    for doc in model.documents.values():
        d = document_iri(doc["id"])
        yield d, RDF.type, MTG.Document
        yield d, DCTERMS.title, Literal(doc["title"], lang=doc["lang"] if doc["kind"] != "cr" else None)
        yield d, MTG.documentKind, Literal(doc["kind"])
        yield d, DCTERMS.language, Literal(doc["lang"])
        yield d, DCTERMS.source, Literal(doc["path"])
        yield d, MTG.sha256, Literal(doc["sha256"])
        if doc.get("date"):
            yield d, DCTERMS.date, Literal(doc["date"], datatype=XSD.date)
        if doc.get("quotes_edition"):
            yield d, MTG.quotesEdition, Literal(doc["quotes_edition"])
        if doc.get("edition") and doc["kind"] != "cr":
            yield d, MTG.resolvedEdition, edition_iri("en", doc["edition"])
            yield d, MTG.resolutionMethod, Literal(doc["edition_method"])
    yield from _rules(model)
    yield from _documents_content(model)
    yield from _mechanics(model)
    yield from _cards(model)


def _rules(model: Model) -> Iterator[Triple]:
    for (lang, edition, number), rule in model.rules.items():
        r = rule_iri(lang, edition, number)
        yield r, RDF.type, MTG.Rule
        yield r, MTG.ruleNumber, Literal(number)
        yield r, MTG.ruleKind, Literal(rule["kind"])
        yield r, MTG.edition, edition_iri(lang, edition)
        yield r, MTG.text, Literal(rule["text"], lang=lang)
        yield r, MTG.rawText, Literal(rule["raw"])
        if rule["kind"] in ("chapter", "section"):
            yield r, RDFS.label, Literal(f"{number}. {rule['text']}", lang=lang)
        else:
            yield r, RDFS.label, Literal(f"{number} ({edition})", lang=lang)
        if rule["parent"]:
            yield r, MTG.parentRule, rule_iri(lang, edition, rule["parent"])
        for ref in rule["refs"]:
            if (lang, edition, ref) in model.rules:
                yield r, MTG.references, rule_iri(lang, edition, ref)
        for index, example in enumerate(rule["examples"], 1):
            x = example_iri(lang, edition, number, index)
            yield r, MTG.hasExample, x
            yield x, RDF.type, MTG.Example
            yield x, MTG.text, Literal(example["text"], lang=lang)
            yield from _locator(x, example["locator"])
        yield from _locator(r, rule["locator"])
    for (_, edition, number), (new, method, score, changed) in model.next_link.items():
        nxt = next(e for e in model.en_editions() if e > edition)
        yield rule_iri("en", edition, number), MTG.nextVersion, rule_iri("en", nxt, new)
        link = BNode(f"lineage-{edition}-{number}")
        yield link, RDF.type, PROV.Derivation
        yield rule_iri("en", nxt, new), PROV.qualifiedDerivation, link
        yield link, PROV.entity, rule_iri("en", edition, number)
        yield link, MTG.lineageMethod, Literal(method)
        yield link, MTG.lineageScore, Literal(score)
        yield link, MTG.textChanged, Literal(changed)
    for en_key, ja_key in model.ja_of.items():
        yield rule_iri(*ja_key), MTG.translationOf, rule_iri(*en_key)
    for (lang, edition, term), entry in model.glossary.items():
        g = glossary_iri(lang, edition, term)
        yield g, RDF.type, MTG.GlossaryTerm
        yield g, SKOS.prefLabel, Literal(term, lang=lang)
        if entry.get("term_en"):
            yield g, SKOS.altLabel, Literal(entry["term_en"], lang="en")
        if entry.get("reading"):
            yield g, SKOS.altLabel, Literal(entry["reading"], lang="ja-Hira")
        yield g, SKOS.definition, Literal(entry["text"], lang=lang)
        yield g, MTG.edition, edition_iri(lang, edition)
        for ref in entry["refs"]:
            if (lang, edition, ref) in model.rules:
                yield g, MTG.references, rule_iri(lang, edition, ref)
        yield from _locator(g, entry["locator"])


def _documents_content(model: Model) -> Iterator[Triple]:
    for ruling in model.rulings.values():
        kind = "quote" if ruling["kind"] == "quoted-rule" else "ruling"
        n = node_iri(ruling["document"], kind, ruling["id"].split("#", 1)[1])
        lang = ruling.get("lang") or model.documents[ruling["document"]]["lang"]
        yield n, RDF.type, MTG.QuotedRule if kind == "quote" else MTG.Ruling
        yield n, MTG.text, Literal(ruling["text"], lang=lang)
        yield n, PROV.wasDerivedFrom, document_iri(ruling["document"])
        yield from _locator(n, ruling["locator"])
        if kind == "quote":
            yield n, MTG.ruleNumber, Literal(ruling["number"])
            resolved = ruling["resolved"]
            if resolved["status"] != "never-existed" and ruling["edition"]:
                yield n, MTG.quotesRule, rule_iri("en", ruling["edition"], ruling["number"])
            if ruling["similarity"] is not None:
                yield n, MTG.quoteSimilarity, Literal(round(ruling["similarity"], 3))
                yield n, MTG.quoteMatches, Literal(ruling["similarity"] >= 0.999)
        else:
            yield n, MTG.rulingKind, Literal(ruling["kind"])
            yield n, MTG.bulletDepth, Literal(ruling["depth"])
            if ruling.get("parent"):
                yield n, MTG.nestedIn, node_iri(ruling["document"], "ruling", ruling["parent"].split("#", 1)[1])
        for key in ruling.get("mechanics", []):
            yield n, MTG.aboutMechanic, mechanic_iri(key)
        for card in ruling.get("cards", []):
            if card.get("key"):
                yield n, MTG.mentionsCard, card_iri(card["key"])
    for citation in model.citations:
        c = node_iri(citation["document"], "citation", citation["id"].split("#", 1)[1] + "/" +
                     citation["source"].split("#", 1)[1])
        source_kind = "quote" if model.rulings[citation["source"]]["kind"] == "quoted-rule" else "ruling"
        yield node_iri(citation["document"], source_kind, citation["source"].split("#", 1)[1]), MTG.cites, c
        yield c, RDF.type, MTG.Citation
        yield c, MTG.asWritten, Literal(citation["raw"])
        yield c, MTG.lineStart, Literal(citation["line"])
        yield c, MTG.column, Literal(citation["column"])
        yield c, MTG.inDocument, document_iri(citation["document"])
        selector = BNode(f"sel-{citation['document']}-{citation['id'].split('#', 1)[1]}")
        yield c, OA.hasSelector, selector
        yield selector, RDF.type, OA.TextQuoteSelector
        yield selector, OA.exact, Literal(citation["raw"])
        if citation["title"]:
            yield c, MTG.citedTitle, Literal(citation["title"])
        if citation["method"]:
            yield c, MTG.resolutionMethod, Literal(citation["method"])
        for res in citation["resolved"]:
            yield c, MTG.citedNumber, Literal(res["number"])
            yield c, MTG.citationStatus, Literal(res["status"])
            if res["edition"]:
                yield c, MTG.resolvedEdition, edition_iri("en", res["edition"])
                if res["status"] != "never-existed":
                    yield c, MTG.resolvedTo, rule_iri("en", res["edition"], res["number"])
            if res.get("current"):
                yield c, MTG.currentRule, rule_iri("en", res["current"]["edition"], res["current"]["number"])


def _mechanics(model: Model) -> Iterator[Triple]:
    for m in model.mechanics.values():
        node = mechanic_iri(m["key"])
        yield node, RDF.type, MTG.Mechanic
        yield node, SKOS.prefLabel, Literal(m["name_en"], lang="en")
        if m["name_ja"]:
            yield node, SKOS.prefLabel, Literal(m["name_ja"], lang="ja")
        for alias in m["aliases_en"]:
            yield node, SKOS.altLabel, Literal(alias, lang="en")
        for alias in m["aliases_ja"]:
            yield node, SKOS.altLabel, Literal(alias, lang="ja")
        yield node, MTG.mechanicKind, Literal(m["kind"])
        for number in m["rules"]:
            yield node, MTG.definedBy, rule_iri("en", m["edition"], number)
        for other in m["related"]:
            yield node, MTG.relatedMechanic, mechanic_iri(other)
        for lang, term in m["glossary"]:
            edition = model.current(lang)
            if edition and (lang, edition, term) in model.glossary:
                yield node, MTG.glossaryTerm, glossary_iri(lang, edition, term)
        for key in m["cards"]:
            yield node, MTG.exampleCard, card_iri(key)
        for doc in m["documents"]:
            yield document_iri(doc), MTG.aboutMechanic, node


def _cards(model: Model) -> Iterator[Triple]:
    for card in model.cards.values():
        node = card_iri(card["key"])
        yield node, RDF.type, MTG.Card
        if card["name_en"]:
            yield node, MTG.nameEn, Literal(card["name_en"], lang="en")
            yield node, RDFS.label, Literal(card["name_en"], lang="en")
        if card["name_ja"]:
            yield node, MTG.nameJa, Literal(card["name_ja"], lang="ja")
            yield node, RDFS.label, Literal(card["name_ja"], lang="ja")
        for source in card["sources"]:
            yield node, PROV.wasDerivedFrom, document_iri(source)


PREFIXES = {"mtg": MTG._NS, "skos": SKOS._NS, "dcterms": DCTERMS._NS, "prov": PROV._NS, "oa": OA,
            "rdfs": RDFS._NS, "xsd": XSD._NS}


def quads(model: Model, graph: ox.NamedNode | ox.DefaultGraph = ox.DefaultGraph()) -> Iterator[ox.Quad]:
    """The triples as pyoxigraph quads; IRIs converted once each."""
    named: dict[str, ox.NamedNode] = {}

    def term(value):
        if isinstance(value, (ox.Literal, ox.BlankNode, ox.NamedNode)):
            return value
        node = named.get(value)
        if node is None:
            node = named[value] = ox.NamedNode(str(value))
        return node

    for s, p, o in triples(model):
        yield ox.Quad(term(s), term(p), term(o), graph)
