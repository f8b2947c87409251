"""The NetworkX view's nodes and typed edges, read from the RDF graph with SPARQL (at build time,
right after the store is written), so the view shows exactly what the graph says.

Scope: the current EN and JA editions' rules and glossary, every mechanic, card, document, ruling
and quote; a rule of an older edition appears where a document cites it, linked to today's rule by
a ``lineage`` edge. Each edge keeps what a user needs to check it (a locator or how it was made).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pyoxigraph as ox

from kb.vocab import edition_iri, sparql_prefixes

T = TypeVar("T")


def _rows(store: ox.Store, query: str):
    for solution in store.query(sparql_prefixes() + query):
        yield [None if v is None else v.value for v in solution]


def _editions(store: ox.Store) -> dict[str, str]:
    """lang -> current edition key."""
    out: dict[str, str] = {}
    for lang, key in _rows(store, "SELECT ?lang ?key WHERE { ?e a mtg:Edition ; mtg:editionKey ?key ; "
                                  "dcterms:language ?lang }"):
        out[lang] = max(out.get(lang, key), key)
    return out


def _direct(part: tuple[str, ...], make: Callable[[], T]) -> T:
    return make()


def extract(store: ox.Store, memo: Callable[[tuple[str, ...], Callable[[], T]], T] = _direct) -> dict:
    """``memo(part, make)``: ``make()``, or what it returned for a store holding the same triples
    of store part ``part`` (kb.build.rdf.parts: ``("edition", lang, edition)``, ``("cards",)``).
    What is read of one edition's rules and glossary, and the list of cards, come only from that
    part's triples (tests/build/test_incremental.py checks it), so a build keeps them across builds
    by the part's key (kb.build.rdfstore), as the store keeps the part itself."""
    current = _editions(store)
    nodes: dict[str, dict] = {}
    edges: list[tuple[str, str, str, dict]] = []
    for lang, edition in current.items():
        part_nodes, part_edges = memo(("edition", lang, edition), lambda: edition_part(store, lang, edition))
        nodes.update(part_nodes)
        edges += part_edges
    for ja, en in _rows(store, "SELECT ?ja ?en WHERE { ?ja mtg:translationOf ?en }"):
        if ja in nodes:
            edges.append((ja, en, "translation-of", {"locator": nodes[ja]["locator"]}))
    for m, label, kind in _rows(store, "SELECT ?m (SAMPLE(?l) AS ?label) (SAMPLE(?k) AS ?kind) WHERE { "
                                       "?m a mtg:Mechanic ; skos:prefLabel ?l ; mtg:mechanicKind ?k "
                                       "FILTER(lang(?l) = 'en') } GROUP BY ?m"):
        nodes[m] = {"kind": "mechanic", "label": label, "mechanic_kind": kind}
    for m, ja in _rows(store, "SELECT ?m ?l WHERE { ?m a mtg:Mechanic ; skos:prefLabel ?l FILTER(lang(?l) = 'ja') }"):
        nodes[m]["label_ja"] = ja
    for m, r in _rows(store, "SELECT ?m ?r WHERE { ?m mtg:definedBy ?r }"):
        edges.append((m, r, "defined-by", {"locator": nodes.get(r, {}).get("locator")}))
    for a, b in _rows(store, "SELECT ?a ?b WHERE { ?a mtg:relatedMechanic ?b }"):
        edges.append((a, b, "related", {"how": "their defining rules cite each other"}))
    cards = memo(("cards",), lambda: card_list(store))
    for c in cards:
        nodes[c] = None  # named below if some edge links it
    for m, c in _rows(store, "SELECT ?m ?c WHERE { ?m mtg:exampleCard ?c }"):
        edges.append((c, m, "has-mechanic", {"how": "named in rulings about the mechanic"}))
    for c, m in _rows(store, "SELECT ?c ?m WHERE { ?c mtg:usesMechanic ?m }"):
        edges.append((c, m, "uses-mechanic", {"how": "the card's keywords or Oracle text"}))
    for c, r in _rows(store, "SELECT ?c ?r WHERE { ?c mtg:usesRule ?r }"):
        edges.append((c, r, "uses-rule", {"how": "the rule of a mechanic or card type the card uses"}))
    for a, b in _rows(store, "SELECT ?a ?b WHERE { { ?a mtg:meldsWith ?b } UNION { ?a mtg:meldsInto ?b } }"):
        edges.append((a, b, "melds", {"how": "the card data's meld parts"}))
    for s, c in _rows(store, "SELECT ?s ?c WHERE { ?s mtg:rulingOn ?c }"):
        edges.append((s, c, "ruling-on", {"locator": None}))
    for d, title, kind in _rows(store, "SELECT ?d ?t ?k WHERE { ?d a mtg:Document ; "
                                       "dcterms:title ?t ; mtg:documentKind ?k }"):
        nodes[d] = {"kind": "document", "label": title, "document_kind": kind}
    for s, kind, doc, loc in _rows(store, "SELECT ?s ?k ?d ?loc WHERE { VALUES ?k { mtg:Ruling mtg:QuotedRule } "
                                          "?s a ?k ; prov:wasDerivedFrom ?d ; mtg:locator ?loc }"):
        nodes[s] = {"kind": "quote" if kind.endswith("QuotedRule") else "ruling", "label": loc, "locator": loc}
        edges.append((s, doc, "in-document", {"locator": loc}))
    for s, m in _rows(store, "SELECT ?s ?m WHERE { ?s mtg:aboutMechanic ?m ; mtg:locator ?loc }"):
        edges.append((s, m, "about", {"locator": nodes.get(s, {}).get("locator")}))
    for s, c in _rows(store, "SELECT ?s ?c WHERE { ?s mtg:mentionsCard ?c }"):
        edges.append((s, c, "mentions", {"locator": nodes.get(s, {}).get("locator")}))
    for s, raw, line, col, now, then in _rows(store, (
            "SELECT ?s ?raw ?line ?col ?now ?then WHERE { ?s mtg:cites ?c . ?c mtg:asWritten ?raw ; "
            "mtg:lineStart ?line ; mtg:column ?col . OPTIONAL { ?c mtg:currentRule ?now } "
            "OPTIONAL { ?c mtg:resolvedTo ?then } }")):
        where = {"as_written": raw, "line": int(line), "column": int(col), "locator": nodes.get(s, {}).get("locator")}
        if then and then not in nodes:  # an older edition's rule, as the document meant it
            number = then.rsplit("/", 1)[1]
            edition = then.rsplit("/", 2)[1]
            nodes[then] = {"kind": "rule", "label": number, "number": number, "edition": edition, "lang": "en"}
        if then:
            edges.append((s, then, "cites", where))
            if now and now != then:
                edges.append((then, now, "lineage", {"how": "the same rule in the current edition, by text"}))
        elif now:
            edges.append((s, now, "cites", where))
    edges += decided_edges(store, nodes)
    edges = [e for e in edges if e[0] in nodes and e[1] in nodes]
    linked = {n for e in edges for n in e[:2]}
    # 33k names from the name tables are cards no text links to: not part of any picture or path,
    # so only the linked ones' names are read
    named = [c for c in cards if c in linked]
    for start in range(0, len(named), 2000):
        values = " ".join(f"<{c}>" for c in named[start:start + 2000])
        for c, en, ja in _rows(store, f"SELECT ?c ?en ?ja WHERE {{ VALUES ?c {{ {values} }} "
                                      "OPTIONAL { ?c mtg:nameEn ?en } OPTIONAL { ?c mtg:nameJa ?ja } }"):
            nodes[c] = {"kind": "card", "label": en or ja, "label_ja": ja}
    nodes = {n: a for n, a in nodes.items() if a is not None}
    return {"current": current, "nodes": nodes, "edges": edges}


def edition_part(store: ox.Store, lang: str, edition: str) -> tuple[dict[str, dict], list[tuple[str, str, str, dict]]]:
    """One edition's rule and glossary nodes and their parent and reference edges."""
    e = f"<{edition_iri(lang, edition)}>"
    nodes: dict[str, dict] = {}
    edges: list[tuple[str, str, str, dict]] = []
    for r, number, kind, loc, p in _rows(store, f"SELECT ?r ?n ?k ?loc ?p WHERE {{ ?r mtg:edition {e} ; "
                                                "a mtg:Rule ; mtg:ruleNumber ?n ; mtg:ruleKind ?k ; mtg:locator ?loc "
                                                "OPTIONAL { ?r mtg:parentRule ?p } }"):
        nodes[r] = {"kind": "rule", "label": number, "number": number, "edition": edition, "lang": lang,
                    "rule_kind": kind, "locator": loc}
        if p is not None:
            edges.append((r, p, "parent", {"locator": loc}))
    for r, o, loc in _rows(store, f"SELECT ?r ?o ?loc WHERE {{ ?r mtg:edition {e} ; a mtg:Rule ; "
                                  "mtg:references ?o ; mtg:locator ?loc }"):
        edges.append((r, o, "references", {"locator": loc}))
    for g, term, loc in _rows(store, f"SELECT ?g ?t ?loc WHERE {{ ?g a mtg:GlossaryTerm ; mtg:edition {e} ; "
                                     "skos:prefLabel ?t ; mtg:locator ?loc }"):
        nodes[g] = {"kind": "glossary", "label": term, "edition": edition, "lang": lang, "locator": loc}
    for g, o, loc in _rows(store, f"SELECT ?g ?o ?loc WHERE {{ ?g a mtg:GlossaryTerm ; mtg:edition {e} ; "
                                  "mtg:references ?o ; mtg:locator ?loc }"):
        edges.append((g, o, "references", {"locator": loc}))
    return nodes, edges


def card_list(store: ox.Store) -> list[str]:
    """Every card's IRI, in the store's order."""
    return [c for (c,) in _rows(store, "SELECT ?c WHERE { ?c a mtg:Card }")]


def decided_edges(store: ox.Store, nodes: dict) -> list[tuple[str, str, str, dict]]:
    return [(s, r, "decided-by", {"how": "computed by the reasoning engine from the ruling's own situation",
                                  "locator": nodes.get(s, {}).get("locator")})
            for s, r in _rows(store, "SELECT ?s ?r WHERE { ?s mtg:decidedBy ?r }")]
