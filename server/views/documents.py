"""Source documents: the list and one document with its rulings (JSON, page, RDF)."""
from __future__ import annotations

from flask import Blueprint, render_template

from kb import vocab
from server.state import get_kb
import server.resources as res
from server.cache import cached
from server.views.common import answer, rdf_or

bp = Blueprint("documents", __name__)


@bp.get("/api/documents")
@cached
def api_list():
    return answer({"documents": get_kb().documents()})


@bp.get("/api/documents/<path:doc_id>")
@cached
def api(doc_id: str):
    found = res.document(doc_id)
    return answer(found, [vocab.document_iri(found["id"])])


@bp.get("/documents")
@cached
def list_page():
    return render_template("documents.html", documents=get_kb().documents())


@bp.get("/documents/<path:doc_id>")
@cached
def page(doc_id: str):
    found = res.document(doc_id)
    if (other := rdf_or([vocab.document_iri(found["id"])])) is not None:
        return other
    return render_template("document.html", doc=found, rulings=get_kb().rulings(document=found["id"]))
