"""A card by its JA or EN name: JSON, page and RDF."""
from __future__ import annotations

from flask import Blueprint, render_template

from kb import vocab
import server.resources as res
from server.cache import cached
from server.views.common import answer, rdf_or

bp = Blueprint("cards", __name__)


@bp.get("/api/cards/<path:name>")
@cached
def api(name: str):
    found = res.card(name)
    return answer(found, [vocab.card_iri(found["key"])])


@bp.get("/cards/<path:name>")
@cached
def page(name: str):
    found = res.card(name)
    if (other := rdf_or([vocab.card_iri(found["key"])])) is not None:
        return other
    return render_template("card.html", card=found)
