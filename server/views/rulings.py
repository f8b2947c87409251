"""Rulings and quoted rules: lists by mechanic or document, one ruling as JSON, page and RDF."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from server.state import get_kb
import server.resources as res
from server.cache import cached
from server.views.common import answer, rdf_or, ruling_iri

bp = Blueprint("rulings", __name__)


@bp.get("/api/rulings")
@cached("mechanic", "document")
def api_list():
    mechanic_name = request.args.get("mechanic") or None
    document = request.args.get("document") or None
    key = res.mechanic(mechanic_name)["key"] if mechanic_name else None
    if document:
        res.document(document)
    found = get_kb().rulings(mechanic=key, document=document)
    return answer({"mechanic": key, "document": document, "rulings": found})


@bp.get("/api/rulings/<path:ruling_id>")
@cached
def api(ruling_id: str):
    found = dict(res.ruling(ruling_id))
    # the kb's "citations" of a ruling are the rule citations written in its text; the answer's
    # "citations" are where the ruling itself comes from, as everywhere else
    found["rule_citations"] = found.pop("citations", [])
    found["citations"] = [found["citation"]]
    return answer(found, [ruling_iri(found)])


@bp.get("/rulings/<path:ruling_id>")
@cached
def page(ruling_id: str):
    found = res.ruling(ruling_id)
    if (other := rdf_or([ruling_iri(found)])) is not None:
        return other
    return render_template("ruling.html", ruling=found)
