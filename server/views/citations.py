"""The citation checker: POST a text, get every citation checked."""
from __future__ import annotations

from flask import Blueprint

from kb.errors import InvalidParameter
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
    return answer(res.with_citations(get_kb().check_citations(text, date=body.get("date"))))
