"""kb/vocab/vocab.ttl is generated from kb/vocab/__init__.py: each term's comment becomes its rdfs:comment."""
from __future__ import annotations

import re
from pathlib import Path

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import OWL, RDF, RDFS

from kb.vocab import BASE, MTG

VOCAB_SOURCE = Path(__file__).with_name("__init__.py")
VOCAB_TTL = Path(__file__).with_name("vocab.ttl")
TERM_LINE = re.compile(r"^    (?P<term>[A-Za-z][A-Za-z0-9]*): URIRef  # (?P<comment>.+)$")


def terms() -> list[tuple[str, str]]:
    """(term, comment) in source order, read from the vocabulary module itself."""
    return [(m["term"], m["comment"]) for m in map(TERM_LINE.match, VOCAB_SOURCE.read_text(encoding="utf-8").splitlines())
            if m]


def vocabulary_graph() -> Graph:
    graph = Graph()
    graph.bind("mtg", MTG._NS)
    ontology = URIRef(BASE + "vocab")
    graph.add((ontology, RDF.type, OWL.Ontology))
    graph.add((ontology, RDFS.label, Literal("MTG rules knowledge graph vocabulary", lang="en")))
    for term, comment in terms():
        iri = MTG[term]
        graph.add((iri, RDF.type, OWL.Class if term[0].isupper() else RDF.Property))
        graph.add((iri, RDFS.label, Literal(term)))
        graph.add((iri, RDFS.comment, Literal(comment, lang="en")))
        graph.add((iri, RDFS.isDefinedBy, ontology))
    return graph


def vocabulary_turtle() -> str:
    return vocabulary_graph().serialize(format="turtle")


if __name__ == "__main__":  # python -m kb.vocab.ttl  (rewrites kb/vocab/vocab.ttl)
    VOCAB_TTL.write_text(vocabulary_turtle(), encoding="utf-8")
