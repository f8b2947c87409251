"""The citation checker: POST a text, get every citation checked."""
from __future__ import annotations

from flask import Blueprint, current_app

from kb.errors import InvalidParameter, PayloadTooLarge
from server.state import get_kb
import server.resources as res
from server.views.common import answer

bp = Blueprint("citations", __name__)


@bp.post("/api/citations/check")
def check():
    body = res.json_body()
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InvalidParameter("text: a non-empty string is required")
    limit = int(current_app.config["CITATIONS_MAX_CHARS"])
    if len(text) > limit:  # the checker's work and answer grow with the text: bounded here
        raise PayloadTooLarge(f"text: {len(text)} characters; the checker takes at most {limit} per request")
    return answer(res.with_citations(get_kb().check_citations(text, date=body.get("date"))))
