"""The model as RDF: the only writer of triples.

Standard vocabularies where they fit (rdfs/skos labels with @ja/@en, dcterms for documents,
prov for derivation, the W3C Web Annotation ``oa:`` TextQuoteSelector for citation locators);
everything else is ``MTG`` from kb.vocab.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from rdflib.namespace import XSD

from kb.build.rdf_cards import BASE_FIELDS, card_base_triples, card_link_triples
from kb.build.rdf_terms import (BNode, Literal, DCTERMS_date, DCTERMS_language, DCTERMS_source,
    DCTERMS_title, MTG_Card, MTG_Citation, MTG_Document, MTG_Edition, MTG_Example, MTG_GlossaryTerm,
    MTG_Mechanic, MTG_QuotedRule, MTG_Rule, MTG_Ruling, MTG_aboutMechanic, MTG_asWritten, MTG_backedBy,
    MTG_decidedBy, MTG_bulletDepth, MTG_citationStatus, MTG_citedNumber, MTG_citedTitle, MTG_cites,
    MTG_column, MTG_complete, MTG_currentRule, MTG_definedBy, MTG_documentKind, MTG_edition, MTG_editionKey,
    MTG_effectiveDate, MTG_exampleCard, MTG_glossaryTerm, MTG_hasExample, MTG_inDocument, MTG_lineEnd,
    MTG_lineStart, MTG_lineageMethod, MTG_lineageScore, MTG_locator, MTG_mechanicKind, MTG_mentionsCard,
    MTG_nameEn, MTG_nameJa, MTG_nestedIn, MTG_nextVersion, MTG_parentRule, MTG_quoteMatches,
    MTG_quoteSimilarity, MTG_quotesEdition, MTG_quotesRule, MTG_rawText, MTG_references, MTG_relatedMechanic,
    MTG_resolutionMethod, MTG_resolvedEdition, MTG_resolvedTo, MTG_ruleKind, MTG_ruleNumber, MTG_rulingKind,
    MTG_sectionPath, MTG_text, MTG_textChanged, MTG_translationOf, OA_TextQuoteSelector, OA_exact,
    OA_hasSelector, PROV_Derivation, PROV_entity, PROV_qualifiedDerivation, PROV_wasDerivedFrom, RDF_type,
    RDFS_label, SKOS_altLabel, SKOS_definition, SKOS_prefLabel)
from kb.store.rows import Model
from kb.vocab import (MTG, SOURCE_CLASSES, card_iri, document_iri, edition_iri, example_iri, glossary_iri, mechanic_iri,
                      node_iri, rule_iri)

Triple = tuple


def _locator(subject, locator: dict | None) -> Iterator[Triple]:
    if not locator:
        return
    yield subject, MTG_locator, Literal(locator["locator"])
    yield subject, MTG_lineStart, Literal(locator["line_start"])
    yield subject, MTG_lineEnd, Literal(locator["line_end"])
    if locator.get("section"):
        yield subject, MTG_sectionPath, Literal(locator["section"])
    yield subject, MTG_inDocument, document_iri(locator["document"])


def triples(model: Model) -> Iterator[Triple]:
    """Every triple of the model, part by part (``parts``)."""
    for _, make in parts(model):
        yield from make()


def parts(model: Model) -> list[tuple[tuple[str, ...], Callable[[], Iterator[Triple]]]]:
    """The graph as disjoint parts, each with the model rows it is made from: one per edition (its
    node, rules, examples and glossary), one per consecutive EN pair (the lineage links), the
    cards as the card data describes them, and the rest (documents, rulings, citations, mechanics,
    the cards' links to them and to rules: what the current edition changes). A part's triples
    depend only on its rows, so kb.build.rdfstore reuses a part whose rows are unchanged from the
    previous snapshot's store."""
    out: list = []
    for info in model.editions.values():
        lang, edition = info["lang"], info["edition"]
        out.append((("edition", lang, edition), lambda lang=lang, edition=edition: _edition(model, lang, edition)))
    editions = model.en_editions()
    links: dict[str, list] = {}  # one pass over the links for every pair, on first use

    def pair_rows(edition: str) -> list:
        if not links:
            links.update(lineage_rows(model))
        return links.get(edition, [])
    for old, new in zip(editions, editions[1:]):
        out.append((("lineage", old, new), lambda old=old, new=new: _lineage(old, new, pair_rows(old))))
    out.append((("cards",), lambda: _card_base(model)))
    out.append((("rest",), lambda: _rest(model)))
    return out


def part_rows(model: Model, name: tuple[str, ...]) -> object:
    """What part ``name``'s triples are made from (kb.build.rdfstore digests it)."""
    if name[0] == "edition":
        _, lang, edition = name
        row = model.editions[f"{lang}/{edition}"]
        info = [row[k] for k in ("edition", "effective", "lang", "title", "complete", "document")]  # what is written
        return [info, list(model.rules.edition(lang, edition).items()),
                list(model.glossary.edition(lang, edition).items())]
    if name[0] == "lineage":
        return lineage_rows(model).get(name[1], [])
    if name[0] == "cards":
        return [[card.get(k) for k in BASE_FIELDS] for card in model.cards.values()]
    return None  # the rest: always written again


def lineage_rows(model: Model) -> dict[str, list]:
    """Each EN edition's links to the next one, sorted by rule number: the lineage parts' rows."""
    out: dict[str, list] = {}
    for (_, edition, number), link in model.next_link.items():
        out.setdefault(edition, []).append((number, link))
    for rows in out.values():
        rows.sort()
    return out


def _document(doc: dict) -> Iterator[Triple]:
    d = document_iri(doc["id"])
    yield d, RDF_type, MTG_Document
    yield d, DCTERMS_title, Literal(doc["title"], lang=doc["lang"] if doc["kind"] != "cr" else None)
    yield d, MTG_documentKind, Literal(doc["kind"])
    if doc.get("source_type"):
        yield d, RDF_type, SOURCE_CLASSES[doc["source_type"]]
        yield d, MTG.sourceType, Literal(doc["source_type"])
    yield d, DCTERMS_language, Literal(doc["lang"])
    yield d, DCTERMS_source, Literal(doc["path"])
    yield d, MTG.sha256, Literal(doc["sha256"])
    if doc.get("date"):
        yield d, DCTERMS_date, Literal(doc["date"], datatype=XSD.date)
    if doc.get("quotes_edition"):
        yield d, MTG_quotesEdition, Literal(doc["quotes_edition"])
    if doc.get("edition") and doc["kind"] != "cr":
        yield d, MTG_resolvedEdition, edition_iri("en", doc["edition"])
        yield d, MTG_resolutionMethod, Literal(doc["edition_method"])


def _edition(model: Model, lang: str, edition: str) -> Iterator[Triple]:
    info = model.editions[f"{lang}/{edition}"]
    e = edition_iri(info["lang"], info["edition"])
    yield e, RDF_type, MTG_Edition
    yield e, MTG_editionKey, Literal(info["edition"])
    yield e, MTG_effectiveDate, Literal(info["effective"], datatype=XSD.date)
    yield e, DCTERMS_language, Literal(info["lang"])
    yield e, DCTERMS_title, Literal(info["title"])
    yield e, MTG_complete, Literal(info["complete"])
    yield e, PROV_wasDerivedFrom, document_iri(info["document"])
    rules = model.rules.edition(lang, edition)
    for number, rule in rules.items():
        r = rule_iri(lang, edition, number)
        yield r, RDF_type, MTG_Rule
        yield r, MTG_ruleNumber, Literal(number)
        yield r, MTG_ruleKind, Literal(rule["kind"])
        yield r, MTG_edition, e
        yield r, MTG_text, Literal(rule["text"], lang=lang)
        yield r, MTG_rawText, Literal(rule["raw"])
        if rule["kind"] in ("chapter", "section"):
            yield r, RDFS_label, Literal(f"{number}. {rule['text']}", lang=lang)
        else:
            yield r, RDFS_label, Literal(f"{number} ({edition})", lang=lang)
        if rule["parent"]:
            yield r, MTG_parentRule, rule_iri(lang, edition, rule["parent"])
        for ref in rule["refs"]:
            if ref in rules:
                yield r, MTG_references, rule_iri(lang, edition, ref)
        for index, example in enumerate(rule["examples"], 1):
            x = example_iri(lang, edition, number, index)
            yield r, MTG_hasExample, x
            yield x, RDF_type, MTG_Example
            yield x, MTG_text, Literal(example["text"], lang=lang)
            yield from _locator(x, example["locator"])
        yield from _locator(r, rule["locator"])
    for term, entry in model.glossary.edition(lang, edition).items():
        g = glossary_iri(lang, edition, term)
        yield g, RDF_type, MTG_GlossaryTerm
        yield g, SKOS_prefLabel, Literal(term, lang=lang)
        if entry.get("term_en"):
            yield g, SKOS_altLabel, Literal(entry["term_en"], lang="en")
        if entry.get("reading"):
            yield g, SKOS_altLabel, Literal(entry["reading"], lang="ja-Hira")
        yield g, SKOS_definition, Literal(entry["text"], lang=lang)
        yield g, MTG_edition, e
        for ref in entry["refs"]:
            if ref in rules:
                yield g, MTG_references, rule_iri(lang, edition, ref)
        yield from _locator(g, entry["locator"])


def _lineage(edition: str, nxt: str, rows: list) -> Iterator[Triple]:
    for number, (new, method, score, changed) in rows:
        yield rule_iri("en", edition, number), MTG_nextVersion, rule_iri("en", nxt, new)
        if method == "same-number-same-text":
            continue  # the plain link says it all; only matched links carry how they were matched
        link = BNode(f"lineage-{edition}-{number}")
        yield link, RDF_type, PROV_Derivation
        yield rule_iri("en", nxt, new), PROV_qualifiedDerivation, link
        yield link, PROV_entity, rule_iri("en", edition, number)
        yield link, MTG_lineageMethod, Literal(method)
        yield link, MTG_lineageScore, Literal(score)
        yield link, MTG_textChanged, Literal(changed)


def _rest(model: Model) -> Iterator[Triple]:
    for doc in model.documents.values():
        yield from _document(doc)
    for en_key, ja_key in model.ja_of.items():
        yield rule_iri(*ja_key), MTG_translationOf, rule_iri(*en_key)
    yield from _documents_content(model)
    yield from _mechanics(model)
    yield from _cards(model)


def _documents_content(model: Model) -> Iterator[Triple]:
    """Rulings, quotes and citations; their links to the rules deciding them are ruling_link_triples'."""
    for ruling in model.statements():
        kind = "quote" if ruling["kind"] == "quoted-rule" else "ruling"
        n = node_iri(ruling["document"], kind, ruling["id"].split("#", 1)[1])
        lang = ruling.get("lang") or model.documents[ruling["document"]]["lang"]
        yield n, RDF_type, MTG_QuotedRule if kind == "quote" else MTG_Ruling
        yield n, MTG_text, Literal(ruling["text"], lang=lang)
        yield n, PROV_wasDerivedFrom, document_iri(ruling["document"])
        if ruling.get("source_type"):
            yield n, RDF_type, SOURCE_CLASSES[ruling["source_type"]]
            yield n, MTG.sourceType, Literal(ruling["source_type"])
        yield from _locator(n, ruling["locator"])
        if kind == "quote":
            yield n, MTG_ruleNumber, Literal(ruling["number"])
            resolved = ruling["resolved"]
            if resolved["status"] != "never-existed" and ruling["edition"]:
                yield n, MTG_quotesRule, rule_iri("en", ruling["edition"], ruling["number"])
            if ruling["similarity"] is not None:
                yield n, MTG_quoteSimilarity, Literal(round(ruling["similarity"], 3))
                yield n, MTG_quoteMatches, Literal(ruling["similarity"] >= 0.999)
        else:
            yield n, MTG_rulingKind, Literal(ruling["kind"])
            yield n, MTG_bulletDepth, Literal(ruling["depth"])
            if ruling.get("parent"):
                yield n, MTG_nestedIn, node_iri(ruling["document"], "ruling", ruling["parent"].split("#", 1)[1])
        for key in ruling.get("mechanics", []):
            yield n, MTG_aboutMechanic, mechanic_iri(key)
        for card in ruling.get("cards", []):
            if card.get("key"):
                yield n, MTG_mentionsCard, card_iri(card["key"])
    for citation in model.citations:
        c = node_iri(citation["document"], "citation", citation["id"].split("#", 1)[1] + "/" +
                     citation["source"].split("#", 1)[1])
        source_kind = "quote" if citation["source"] in model.quotes else "ruling"
        yield node_iri(citation["document"], source_kind, citation["source"].split("#", 1)[1]), MTG_cites, c
        yield c, RDF_type, MTG_Citation
        yield c, MTG_asWritten, Literal(citation["raw"])
        yield c, MTG_lineStart, Literal(citation["line"])
        yield c, MTG_column, Literal(citation["column"])
        yield c, MTG_inDocument, document_iri(citation["document"])
        selector = BNode(f"sel-{citation['document']}-{citation['id'].split('#', 1)[1]}")
        yield c, OA_hasSelector, selector
        yield selector, RDF_type, OA_TextQuoteSelector
        yield selector, OA_exact, Literal(citation["raw"])
        if citation["title"]:
            yield c, MTG_citedTitle, Literal(citation["title"])
        if citation["method"]:
            yield c, MTG_resolutionMethod, Literal(citation["method"])
        for res in citation["resolved"]:
            yield c, MTG_citedNumber, Literal(res["number"])
            yield c, MTG_citationStatus, Literal(res["status"])
            if res["edition"]:
                yield c, MTG_resolvedEdition, edition_iri("en", res["edition"])
                if res["status"] != "never-existed":
                    yield c, MTG_resolvedTo, rule_iri("en", res["edition"], res["number"])
            if res.get("current"):
                yield c, MTG_currentRule, rule_iri("en", res["current"]["edition"], res["current"]["number"])


def _ruling_links(model: Model, ruling: dict, node, current: str | None) -> Iterator[Triple]:
    linked = model.ruling_rules.get(ruling["id"])
    if linked and current:
        for number in linked["rules"]:
            yield node, MTG_backedBy, rule_iri("en", current, number)
        for number in linked["deciding"]:
            yield node, MTG_decidedBy, rule_iri("en", current, number)


def ruling_link_triples(model: Model) -> Iterator[Triple]:
    """The reasoning engine's ruling -> rule links alone (the build adds them once computed)."""
    current = model.current("en")
    for ruling in model.statements():
        kind = "quote" if ruling["kind"] == "quoted-rule" else "ruling"
        yield from _ruling_links(model, ruling, node_iri(ruling["document"], kind, ruling["id"].split("#", 1)[1]),
                                 current)


def _mechanics(model: Model) -> Iterator[Triple]:
    for m in model.mechanics.values():
        node = mechanic_iri(m["key"])
        yield node, RDF_type, MTG_Mechanic
        yield node, SKOS_prefLabel, Literal(m["name_en"], lang="en")
        if m["name_ja"]:
            yield node, SKOS_prefLabel, Literal(m["name_ja"], lang="ja")
        for alias in m["aliases_en"]:
            yield node, SKOS_altLabel, Literal(alias, lang="en")
        for alias in m["aliases_ja"]:
            yield node, SKOS_altLabel, Literal(alias, lang="ja")
        yield node, MTG_mechanicKind, Literal(m["kind"])
        for number in m["rules"]:
            yield node, MTG_definedBy, rule_iri("en", m["edition"], number)
        for other in m["related"]:
            yield node, MTG_relatedMechanic, mechanic_iri(other)
        for lang, term in m["glossary"]:
            edition = model.current(lang)
            if edition and (lang, edition, term) in model.glossary:
                yield node, MTG_glossaryTerm, glossary_iri(lang, edition, term)
        for key in m["cards"]:
            yield node, MTG_exampleCard, card_iri(key)
        for doc in m["documents"]:
            yield document_iri(doc), MTG_aboutMechanic, node


def _cards(model: Model) -> Iterator[Triple]:
    """The cards' links (the ``cards`` part holds what the card data says of each card)."""
    for card in model.cards.values():
        if "faces" in card:
            yield from card_link_triples(model, card, Literal)


def _card_base(model: Model) -> Iterator[Triple]:
    for card in model.cards.values():
        node = card_iri(card["key"])
        yield node, RDF_type, MTG_Card
        if card["name_en"]:
            yield node, MTG_nameEn, Literal(card["name_en"], lang="en")
            yield node, RDFS_label, Literal(card["name_en"], lang="en")
        if card["name_ja"]:
            yield node, MTG_nameJa, Literal(card["name_ja"], lang="ja")
            yield node, RDFS_label, Literal(card["name_ja"], lang="ja")
        for source in card["sources"]:
            yield node, PROV_wasDerivedFrom, document_iri(source)
        if "faces" in card:
            yield from card_base_triples(card, Literal)
