"""Search over rules, glossary, rulings, mechanics and cards (JSON and page)."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

import server.resources as res
from server.cache import cached
from server.views.common import answer

bp = Blueprint("search", __name__)


@bp.get("/api/search")
@cached("q", "limit")
def api():
    limit = res.arg_int("limit", 10, 1, res.max_search_limit())
    return answer(res.search(request.args.get("q"), res.arg_lang(), limit))


@bp.get("/search")
@cached("q", "in", "limit", "nogoto")
def page():
    q = (request.args.get("q") or "").strip()
    if not q:
        return redirect(url_for("home.page"))
    result = res.search(q, res.arg_lang("in"), res.arg_int("limit", 20, 1, res.max_search_limit()))
    if result.get("goto") and request.args.get("nogoto") is None:
        return redirect(url_for("rules.page", number=result["goto"]))
    card = result.get("goto_card")
    if card and request.args.get("nogoto") is None:  # an exact card name, as a rule number goes to its rule
        return redirect(url_for("cards.page", name=card["name_en"] or card["name_ja"]))
    return render_template("search.html", q=q, result=result)
