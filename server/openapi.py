"""The OpenAPI 3.1 document served at /api/openapi.json.

Written by hand, one entry per route; ``tests/test_server_api.py`` checks that every /api/ route
of the app is documented here and every documented path exists, so the two cannot drift.
"""
from __future__ import annotations

from kb import rulenumbers
from kb.errors import CODES, HTTP_CODES
from kb.lookup.changes import DIFF_KINDS

DIFF_KIND_VALUES = tuple(k.value for k in DIFF_KINDS)


def _param(name: str, where: str = "query", required: bool = False, desc: str = "", schema=None) -> dict:
    return {"name": name, "in": where, "required": required, "description": desc,
            "schema": schema or {"type": "string"}}


NUMBER = _param("number", "path", True, "Rule number: 7, 702, 702.145, 601.2c",
                {"type": "string", "pattern": rulenumbers.OPENAPI_PATTERN})
EDITION = _param("edition", desc="Edition (effective date YYYY-MM-DD); default: current",
                 schema={"type": "string", "format": "date"})
LANG = _param("lang", desc="Language of the text", schema={"type": "string", "enum": ["en", "ja"]})
FORMAT = _param("format", desc="RDF instead of JSON (same as Accept: text/turtle, application/ld+json, "
                               "application/n-triples)", schema={"type": "string", "enum": ["ttl", "jsonld", "nt"]})

ERROR = {"$ref": "#/components/responses/Error"}
RDF_CONTENT = {m: {"schema": {"type": "string"}} for m in
               ("text/turtle", "application/ld+json", "application/n-triples")}


def _get(summary: str, params: list, ref: str | None = None, rdf: bool = False, errors=(400, 404)) -> dict:
    content = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"} if ref else
                                    {"$ref": "#/components/schemas/Cited"}}}
    if rdf:
        content.update(RDF_CONTENT)
        params = [*params, FORMAT]
    return {"get": {"summary": summary, "parameters": params,
                    "responses": {"200": {"description": "OK", "content": content},
                                  **{str(e): ERROR for e in errors}}}}


ASK_ERRORS = (400, 404, 413, 415, 422)  # 422: the loaded CR cannot answer it (not_answerable)


def _post(summary: str, params: list, body_schema: dict, errors=(400, 404, 413, 415)) -> dict:
    return {"post": {"summary": summary, "parameters": params,
                     "requestBody": {"required": True,
                                     "content": {"application/json": {"schema": body_schema}}},
                     "responses": {"200": {"description": "OK", "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/Cited"}}}},
                         **{str(e): ERROR for e in errors}}}}


def openapi_document() -> dict:
    name = _param("name", "path", True, "Any JA/EN name, alias or key")
    paths = {
        "/api/": _get("Index of the API", [], errors=()),
        "/api/openapi.json": {"get": {"summary": "This document",
                                      "responses": {"200": {"description": "OpenAPI 3.1"}}}},
        "/api/editions": _get("Loaded CR editions and the current one per language", [], errors=()),
        "/api/diff": _get("What changed between two loaded EN editions: rules added, removed, moved (old -> new "
                          "number) and text changed, with word diffs (EN) and character diffs (JA); entries "
                          "wording changes first (`group`), what changed only numbers last, also as "
                          "`renumbering_runs`",
                          [_param("from", desc="Older edition; default: the one loaded before `to`",
                                  schema={"type": "string", "format": "date"}),
                           _param("to", desc="Newer edition; default: the current one",
                                  schema={"type": "string", "format": "date"}),
                           _param("kind", desc="Keep one kind of change",
                                  schema={"type": "string", "enum": list(DIFF_KIND_VALUES)}),
                           _param("limit", desc="At most this many entries",
                                  schema={"type": "integer", "minimum": 1, "maximum": 100000})]),
        "/api/rules": _get("The table of contents: chapters and sections with JA/EN titles", [EDITION]),
        "/api/rules/{number}": _get("A rule: JA/EN text, parent, children, references, history, citations",
                                    [NUMBER, EDITION, LANG], "Rule", rdf=True),
        "/api/rules/{number}/children": _get("A rule's children with their text", [NUMBER, EDITION, LANG]),
        "/api/rules/{number}/references": _get("Rules a rule cites, and rules/rulings/quotes citing it",
                                               [NUMBER, EDITION, LANG]),
        "/api/rules/{number}/history": _get("The rule across the loaded editions (lineage by text): each step's "
                                            "`event` (kb.lookup.changes: created only when the official edition "
                                            "before is loaded, else first-seen; removed / absent) with its JA/EN "
                                            "`event_label` and `not_loaded`, the official editions between not loaded",
                                            [NUMBER, EDITION, LANG]),
        "/api/mechanics": _get("Mechanics whose names match q", [_param("q", required=True)]),
        "/api/mechanics/{name}": _get("A mechanic: rules, rulings, cards, related mechanics", [name],
                                      rdf=True),
        "/api/cards/{name}": _get("A card by its JA or EN name: mentions and mechanics", [name], rdf=True),
        "/api/rulings": _get("Rulings, filtered by mechanic and/or document",
                             [_param("mechanic"), _param("document")]),
        "/api/rulings/{ruling_id}": _get("One ruling with the rules it cites",
                                         [_param("ruling_id", "path", True)], rdf=True),
        "/api/documents": _get("Source documents", [], errors=()),
        "/api/documents/{doc_id}": _get("One source document", [_param("doc_id", "path", True)], rdf=True),
        "/api/search": _get("Ranked, cited search in Japanese or English",
                            [_param("q", required=True), LANG,
                             _param("limit", schema={"type": "integer", "minimum": 1, "maximum": 100,
                                                     "default": 10})], "Search"),
        "/api/ask": {**_get("Question schemas, one per mechanic", [], errors=()),
                     **_post("Ask a state question: {mechanic, situation}", [],
                             {"type": "object", "required": ["mechanic"],
                              "properties": {"mechanic": {"type": "string"},
                                             "situation": {"type": "object"}}}, ASK_ERRORS)},
        "/api/ask/{mechanic}/schema": _get("The JSON Schema of one mechanic's situation",
                                           [_param("mechanic", "path", True)]),
        "/api/ask/{mechanic}/procedure": _get("Every step of one of the mechanic's CR procedures (casting "
                                              "601.2a–i, turning face up, unlocking, melding), each cited",
                                              [_param("mechanic", "path", True), _param("key")]),
        "/api/ask/{mechanic}": _post("Ask a state question; the body is the situation (or {situation})",
                                     [_param("mechanic", "path", True)], {"type": "object"}, ASK_ERRORS),
        "/api/path": _get("How two rules, mechanics or cards connect: shortest typed paths, each edge cited",
                          [_param("from", required=True), _param("to", required=True)]),
        "/api/citations/check": _post("Check every rule citation in a text against the current rules", [],
                                      {"type": "object", "required": ["text"],
                                       "properties": {"text": {"type": "string"},
                                                      "date": {"type": "string", "format": "date"}}}),
    }
    citation = {"type": "object", "properties": {k: {"type": ["string", "integer", "null"]} for k in (
        "rule", "edition", "document", "document_title", "locator", "line_start", "line_end")}}
    citation["properties"]["section"] = {}
    return {
        "openapi": "3.1.0",
        "info": {"title": "MTG rules knowledge graph", "version": "1",
                 "description": "Rules, mechanics, cards, rulings and documents of Magic: The Gathering, "
                                "every answer with its citations. SPARQL 1.1 Protocol at /sparql "
                                "(read-only, time- and result-limited)."},
        "paths": paths,
        "components": {
            "schemas": {
                "Citation": citation,
                "Cited": {"type": "object", "required": ["citations"],
                          "properties": {"citations": {"type": "array",
                                                       "items": {"$ref": "#/components/schemas/Citation"}}}},
                "Rule": {"type": "object", "required": ["number", "edition", "text", "citations"],
                         "properties": {
                             "number": {"type": "string"}, "edition": {"type": "string"},
                             "lang": {"type": ["string", "null"]}, "kind": {"type": "string"},
                             "title": {"type": ["string", "null"]},
                             "text": {"type": "object", "properties": {"en": {"type": ["string", "null"]},
                                                                       "ja": {"type": ["string", "null"]}}},
                             "parent": {"type": ["string", "null"]},
                             "children": {"type": "array", "items": {"type": "string"}},
                             "references_out": {"type": "array"}, "references_in": {"type": "array"},
                             "history": {"type": "array"}, "mechanics": {"type": "array"},
                             "citations": {"type": "array", "items": {"$ref": "#/components/schemas/Citation"}}}},
                "Search": {"type": "object", "properties": {
                    "query": {"type": "string"}, "goto": {"type": ["string", "null"]},
                    "rules": {"type": "array", "description": "A question only: today's rules it needs, one per rule",
                              "items": {"type": "object", "properties": {
                                  "number": {"type": "string"}, "edition": {"type": "string"},
                                  "text": {"type": "string"}, "via": {"type": "array", "items": {"type": "string"}},
                                  "why": {"type": "array", "description": "Why it is listed: the phrase of the question, "
                                          "a named card's text, a ruling or a CR example that led to it",
                                          "items": {"type": "object", "properties": {
                                              "via": {"type": "string"},
                                              "from": {"type": "string", "enum": ["question", "card", "ruling", "example", "rule"]},
                                              "phrase": {"type": "string"}, "card": {"type": "string"}}}},
                                  "citation": {"$ref": "#/components/schemas/Citation"}}}},
                    "cards": {"type": "array", "description": "A question only: the cards it names",
                              "items": {"type": "object", "properties": {
                                  "key": {"type": "string"}, "name": {"type": "string"},
                                  "oracle_name": {"type": "string"},
                                  "text_loaded": {"type": "boolean", "description": "false: known by name only, its "
                                                  "Oracle text is not loaded (kb fetch --cards), so it was not read"}}}},
                    "hits": {"type": "array", "items": {"type": "object", "properties": {
                        "kind": {"type": "string"}, "id": {"type": "string"}, "title": {"type": "string"},
                        "snippet": {"type": "string", "description": "HTML-escaped; matches in <mark>"},
                        "score": {"type": "number"}, "citation": {"$ref": "#/components/schemas/Citation"}}}}}},
                "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                    "type": "object", "required": ["status", "code", "message", "suggestions"],
                    "properties": {"status": {"type": "integer"},
                                   "code": {"type": "string", "enum": sorted(set(CODES) | set(HTTP_CODES.values())),
                                            "description": "; ".join(f"{c} ({s}): {d}" for c, (s, d) in sorted(CODES.items()))},
                                   "message": {"type": "string"},
                                   "suggestions": {"type": "array"}}}}},
            },
            "responses": {"Error": {"description": "The one error shape",
                                    "content": {"application/json": {
                                        "schema": {"$ref": "#/components/schemas/Error"}}}}},
        },
    }
