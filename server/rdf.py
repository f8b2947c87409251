"""RDF for the same resources by content negotiation: Turtle, JSON-LD, N-Triples.

A resource page or API URL answers RDF when the ``Accept`` header prefers one of the RDF media
types over JSON/HTML, or when ``?format=ttl|jsonld|nt`` is given. The triples are the resource's
Concise Bounded Description (every triple with the resource as subject, following blank nodes),
read from the kb's Oxigraph store (``rdf_store``), or with ``SPARQL_ENDPOINT`` set, from the
SPARQL server by a CONSTRUCT (the graph has no blank nodes: skolem IRIs): no triples are built here.
"""
from __future__ import annotations

import time

import pyoxigraph as ox
from flask import Response, current_app, request

from server.state import get_kb
from kb.errors import InvalidParameter

MEDIA = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/ld+json": ox.RdfFormat.JSON_LD,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
}
EXTENSIONS = {"ttl": "text/turtle", "turtle": "text/turtle", "jsonld": "application/ld+json",
              "json-ld": "application/ld+json", "nt": "application/n-triples",
              "ntriples": "application/n-triples"}


def rdf_store(kb) -> ox.Store:
    """The pyoxigraph Store behind the kb."""
    return kb.store


def wanted(default: str) -> str | None:
    """The RDF media type the client asked for, or None for the usual JSON/HTML answer."""
    fmt = request.args.get("format")
    if fmt:
        if fmt in EXTENSIONS:
            return EXTENSIONS[fmt]
        if fmt in ("json", "html"):
            return None
        raise InvalidParameter(
                       f"format={fmt!r}: expected one of ttl, jsonld, nt (or json/html)")
    accept = request.accept_mimetypes
    if not accept or not any(m in MEDIA for m, _ in accept):
        return None
    best = accept.best_match([default, *MEDIA])
    return best if best in MEDIA else None


def describe(iris: list) -> list[ox.Triple]:
    from kb import vocab  # noqa: F401  (IRIs are minted by kb.vocab; here we only receive them)

    runner = current_app.extensions.get("sparql_runner")
    if hasattr(runner, "triples_about"):  # a SPARQL server holds the graph
        from kb.errors import QueryTimeout
        from server.sparql.remote import Unreachable
        from server.sparql.results import Expired
        try:
            return runner.triples_about([str(i) for i in iris],
                                        time.monotonic() + float(current_app.config["SPARQL_TIMEOUT"]))
        except Expired:
            raise QueryTimeout("the SPARQL server did not describe the resource in time",
                               headers={"Retry-After": "1"}) from None
        except Unreachable as err:
            from server.errors import APIError
            raise APIError(503, "unavailable", err.message, headers={"Retry-After": "5"}) from None
    store = rdf_store(get_kb())
    triples: list[ox.Triple] = []
    seen_triples: set = set()
    todo = [ox.NamedNode(str(i)) for i in iris]
    done: set = set()
    while todo:
        subject = todo.pop()
        if subject in done:
            continue
        done.add(subject)
        for quad in store.quads_for_pattern(subject, None, None, None):
            triple = ox.Triple(quad.subject, quad.predicate, quad.object)
            if triple in seen_triples:
                continue
            seen_triples.add(triple)
            triples.append(triple)
            if isinstance(quad.object, ox.BlankNode):
                todo.append(quad.object)
    return triples


def respond(media: str, iris: list) -> Response:
    from kb.vocab import PREFIXES

    triples = describe(iris)
    prefixes = {k: str(v) for k, v in PREFIXES.items()}
    fmt = MEDIA[media]
    kwargs = {"format": fmt}
    if fmt in (ox.RdfFormat.TURTLE, ox.RdfFormat.JSON_LD):
        kwargs["prefixes"] = prefixes
    try:
        body = ox.serialize(triples, **kwargs)
    except TypeError:  # a serializer without prefix support
        body = ox.serialize(triples, format=fmt)
    response = Response(body, mimetype=media)
    response.headers["Vary"] = "Accept"
    return response
