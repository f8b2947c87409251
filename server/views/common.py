"""What the views share: the JSON answer (or RDF when asked), and IRIs of answers."""
from __future__ import annotations

from flask import jsonify

from kb import vocab
import server.rdf as rdf
import server.resources as res


def answer(payload: dict, iris=None):
    """``iris``: the resources' IRIs for an RDF answer, or a function making them (called only when
    RDF is asked for: minting them is wasted on a JSON answer)."""
    if iris is not None:
        media = rdf.wanted("application/json")
        if media:
            return rdf.respond(media, iris() if callable(iris) else iris)
    return jsonify(res.with_citations(payload))


def rdf_or(iris: list):
    """RDF when the client asked for it instead of the page, else None."""
    media = rdf.wanted("text/html")
    return rdf.respond(media, iris) if media else None


def rule_iris(rule: dict) -> list:
    texts = rule.get("texts") or [{"lang": rule.get("lang") or "en", "edition": rule["edition"]}]
    return [vocab.rule_iri(t["lang"], t["edition"], rule["number"]) for t in texts]


def ruling_iri(ruling: dict):
    """A ruling (or a quoted rule) is minted under its document with the part after "#" of its id."""
    kind = "quote" if ruling.get("kind") == "quoted-rule" else "ruling"
    return vocab.node_iri(ruling["document"], kind, ruling["id"].split("#", 1)[-1])
