"""The JSON API under /api/ (described by /api/openapi.json).

Thin: each view validates its input, calls the kb API (through ``resources``) and returns the
answer with its citations. Resource URLs also answer RDF by content negotiation (``rdf``).
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request, url_for

from kb import vocab

from . import get_kb, rdf
from . import resources as res
from .openapi import openapi_document
from .cache import cached

bp = Blueprint("api", __name__, url_prefix="/api")


def answer(payload: dict, iris: list | None = None):
    if iris is not None:
        media = rdf.wanted("application/json")
        if media:
            return rdf.respond(media, iris)
    return jsonify(res.with_citations(payload))


def rule_iris(rule: dict) -> list:
    texts = rule.get("texts") or [{"lang": rule.get("lang") or "en", "edition": rule["edition"]}]
    return [vocab.rule_iri(t["lang"], t["edition"], rule["number"]) for t in texts]


def ruling_iri(ruling: dict):
    """A ruling (or a quoted rule) is minted under its document with the part after "#" of its id."""
    if ruling.get("iri"):
        return ruling["iri"]
    kind = "quote" if ruling.get("kind") == "quoted-rule" else "ruling"
    return vocab.node_iri(ruling["document"], kind, ruling["id"].split("#", 1)[-1])


@bp.get("/")
@cached
def index():
    return jsonify({
        "openapi": url_for("api.openapi"),
        "sparql": url_for("sparql.endpoint"),
        "endpoints": sorted({str(r.rule) for r in _app_rules() if str(r.rule).startswith("/api/")}),
        "citations": [],
    })


def _app_rules():
    from flask import current_app

    return current_app.url_map.iter_rules()


@bp.get("/openapi.json")
@cached
def openapi():
    return jsonify(openapi_document())


@bp.get("/editions")
@cached
def editions():
    kb = get_kb()
    return answer({"editions": kb.editions(),
                   "current": {"en": kb.current_edition("en"), "ja": kb.current_edition("ja")}})


# ---------------------------------------------------------------- rules


def _rule_from_request(number: str) -> dict:
    return res.rule(number, edition=res.arg_edition(), lang=res.arg_lang())


@bp.get("/rules/<path:number>")
@cached
def rule(number: str):
    found = _rule_from_request(number)
    return answer(found, rule_iris(found))


@bp.get("/rules/<path:number>/children")
@cached
def rule_children(number: str):
    found = _rule_from_request(number)
    children = [c for n in found.get("children") or [] if (c := res.brief(n, found["edition"]))]
    return answer({"number": found["number"], "edition": found["edition"], "children": children,
                   "citations": found.get("citations", [])})


@bp.get("/rules/<path:number>/references")
@cached
def rule_references(number: str):
    found = _rule_from_request(number)
    return answer({"number": found["number"], "edition": found["edition"],
                   "references_out": found.get("references_out", []),
                   "references_in": found.get("references_in", []),
                   "citations": found.get("citations", [])})


@bp.get("/rules/<path:number>/history")
@cached
def rule_history(number: str):
    number = res.check_rule_number(number)
    edition, lang = res.arg_edition(), res.arg_lang(default="en")
    found = res.rule(number, edition=edition, lang=lang)
    history = get_kb().history(number, edition=edition, lang=lang)
    return answer({"number": number, "edition": found["edition"], "lang": lang, "history": history,
                   "current": found.get("current"), "citations": found.get("citations", [])})


# ---------------------------------------------------------------- mechanics, cards


@bp.get("/mechanics")
@cached
def mechanics():
    q = request.args.get("q")
    if not q:
        raise res.bad_request("missing_parameter", "q: a mechanic name (JA or EN) or part of one is required")
    return answer({"query": q, "mechanics": get_kb().find_mechanics(q), "citations": []})


@bp.get("/mechanics/<path:name>")
@cached
def mechanic(name: str):
    found = res.mechanic(name)
    return answer(found, [vocab.mechanic_iri(found["key"])])


@bp.get("/cards/<path:name>")
@cached
def card(name: str):
    found = res.card(name)
    return answer(found, [vocab.card_iri(found["key"])])


# ---------------------------------------------------------------- rulings, documents


@bp.get("/rulings")
@cached
def rulings():
    mechanic_name = request.args.get("mechanic") or None
    document = request.args.get("document") or None
    key = res.mechanic(mechanic_name)["key"] if mechanic_name else None
    if document:
        res.document(document)
    found = get_kb().rulings(mechanic=key, document=document)
    return answer({"mechanic": key, "document": document, "rulings": found})


@bp.get("/rulings/<path:ruling_id>")
@cached
def ruling(ruling_id: str):
    found = dict(res.ruling(ruling_id))
    # the kb's "citations" of a ruling are the rule citations written in its text; the answer's
    # "citations" are where the ruling itself comes from, as everywhere else
    found["rule_citations"] = found.pop("citations", [])
    found["citations"] = [found["citation"]]
    return answer(found, [ruling_iri(found)])


@bp.get("/documents")
@cached
def documents():
    return answer({"documents": get_kb().documents()})


@bp.get("/documents/<path:doc_id>")
@cached
def document(doc_id: str):
    found = res.document(doc_id)
    return answer(found, [vocab.document_iri(found["id"])])


# ---------------------------------------------------------------- search, ask, citations


@bp.get("/search")
@cached
def search():
    limit = res.arg_int("limit", 10, 1, res.max_search_limit())
    return answer(res.search(request.args.get("q"), res.arg_lang(), limit))


@bp.get("/ask")
@cached
def ask_schemas():
    return answer({"schemas": res.ask_schemas(), "citations": []})


@bp.get("/ask/<path:mechanic>/schema")
@cached
def ask_schema(mechanic: str):
    return answer({**res.ask_schema(mechanic), "citations": []})


@bp.post("/ask/<path:mechanic>")
def ask(mechanic: str):
    body = res.json_body()
    situation = body.get("situation", body) if set(body) <= {"situation"} and body else body
    return answer(res.ask(mechanic, situation))


@bp.post("/ask")
def ask_any():
    body = res.json_body()
    if "mechanic" not in body:
        raise res.bad_request("invalid_situation", "mechanic: required (a mechanic key or name)", field="mechanic")
    return answer(res.ask(str(body["mechanic"]), body.get("situation", {})))


@bp.post("/citations/check")
def check_citations():
    body = res.json_body()
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise res.bad_request("invalid_parameter", "text: a non-empty string is required")
    date = body.get("date")
    if date is not None and not (isinstance(date, str) and res.EDITION.fullmatch(date)):
        raise res.bad_request("invalid_parameter", "date: expected YYYY-MM-DD")
    return answer(res.with_citations(get_kb().check_citations(text, date=date)))
