"""Cards as RDF: Oracle characteristics, faces, keywords, sets, meld partners, official rulings
(mtg:Ruling nodes with their date, source document and locator) and the mechanics and rules a
card and each of its rulings use. Called by kb.build.rdf for every card row."""
from __future__ import annotations

from collections.abc import Iterator

from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, XSD

from kb.store.rows import Model
from kb.text import normalize
from kb.vocab import MTG, SOURCE_CLASSES, card_face_iri, card_iri, document_iri, mechanic_iri, node_iri, rule_iri

Triple = tuple


BASE_FIELDS = ("key", "name_en", "name_ja", "sources", "layout", "oracle_id", "faces", "keywords", "sets")


def card_base_triples(card: dict, literal) -> Iterator[Triple]:
    """What the card data says of a card read from it (``BASE_FIELDS`` only: no edition changes
    it, so kb.build.rdf keeps it as a part of its own); ``literal`` is kb.build.rdf.Literal."""
    node = card_iri(card["key"])
    yield node, MTG.layout, literal(card["layout"])
    if card.get("oracle_id"):
        yield node, MTG.oracleId, literal(card["oracle_id"])
    for i, face in enumerate(card["faces"]):
        f = card_face_iri(card["key"], i + 1)
        yield node, MTG.hasFace, f
        yield f, RDF.type, MTG.CardFace
        yield f, RDFS.label, literal(face["name"], lang="en")
        if face["side"]:
            yield f, MTG.faceSide, literal(face["side"])
        if face["name_ja"]:
            yield f, RDFS.label, literal(face["name_ja"], lang="ja")
        for attr, pred in (("mana_cost", MTG.manaCost), ("power", MTG.power), ("toughness", MTG.toughness),
                           ("loyalty", MTG.loyalty), ("defense", MTG.defense)):
            if face.get(attr) is not None:
                yield f, pred, literal(face[attr])
        if face.get("mana_value") is not None:
            yield f, MTG.manaValue, literal(float(face["mana_value"]))
        for attr, pred, lang in (("type_line", MTG.typeLine, "en"), ("type_ja", MTG.typeLine, "ja"),
                                 ("text", MTG.text, "en"), ("text_ja", MTG.text, "ja")):
            if face.get(attr):
                yield f, pred, literal(face[attr], lang=lang)
    for word in card["keywords"]:
        yield node, MTG.keyword, literal(word)
    for code in card["sets"]:
        yield node, MTG.printedIn, literal(code)


def card_link_triples(model: Model, card: dict, literal) -> Iterator[Triple]:
    """A card's links: mechanics and today's rules it uses, meld partners, related cards, rulings."""
    node = card_iri(card["key"])
    for link in card["mechanics"]:
        yield node, MTG.usesMechanic, mechanic_iri(link["key"])
    current = model.current("en")
    for number in card["rules"] if current else ():
        yield node, MTG.usesRule, rule_iri("en", current, number)
    meld = card.get("meld") or {}
    for name in meld.get("fronts", []):
        other = model.card_names.get(normalize(name))
        if other and other != card["key"]:
            yield node, MTG.meldsWith, card_iri(other)
    result = model.card_names.get(normalize(meld.get("result", "")))
    if result and result != card["key"]:
        yield node, MTG.meldsInto, card_iri(result)
    for other in card["related"]:
        yield node, MTG.relatedCard, card_iri(other)
    for rid in card["rulings"]:
        yield from _ruling(model, model.card_rulings[rid], node, literal, current)


def _ruling(model: Model, r: dict, card, literal, current) -> Iterator[Triple]:
    n = node_iri(r["document"], "card-ruling", r["id"].split(":", 1)[1])
    yield n, RDF.type, MTG.Ruling
    yield n, MTG.rulingKind, literal("card-ruling")
    yield n, RDF.type, SOURCE_CLASSES["official-ruling"]
    yield n, MTG.sourceType, literal("official-ruling")
    yield n, MTG.rulingOn, card
    yield n, MTG.text, literal(r["text"], lang="en")
    if r.get("date"):
        yield n, DCTERMS.date, literal(r["date"], datatype=XSD.date)
    for source in r["sources"]:
        yield n, PROV.wasDerivedFrom, document_iri(source)
    yield n, MTG.inDocument, document_iri(r["document"])
    yield n, MTG.locator, literal(r["locator"]["locator"])
    for key in r["mechanics"]:
        yield n, MTG.aboutMechanic, mechanic_iri(key)
    for number in r["rules"] if current else ():
        yield n, MTG.relatedRule, rule_iri("en", current, number)
