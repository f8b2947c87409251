"""The home page, the API index and the OpenAPI document."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, url_for

from server.state import get_kb
import server.resources as res
from server.cache import cached
from server.openapi import openapi_document

bp = Blueprint("home", __name__)


@bp.get("/")
@cached
def page():
    kb = get_kb()
    return render_template("home.html", editions=kb.editions(), schemas=res.ask_schemas(),
                           current={"en": kb.current_edition("en"), "ja": kb.current_edition("ja")})


@bp.get("/api/")
@cached
def index():
    return jsonify({
        "openapi": url_for("home.openapi"),
        "sparql": url_for("sparql.endpoint"),
        "endpoints": sorted({str(r.rule) for r in current_app.url_map.iter_rules() if str(r.rule).startswith("/api/")}),
        "citations": [],
    })


@bp.get("/api/openapi.json")
@cached
def openapi():
    return jsonify(openapi_document())
