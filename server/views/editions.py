"""The loaded CR editions."""
from __future__ import annotations

from flask import Blueprint

from server.state import get_kb
from server.cache import cached
from server.views.common import answer

bp = Blueprint("editions", __name__)


@bp.get("/api/editions")
@cached
def api():
    kb = get_kb()
    return answer({"editions": kb.editions(),
                   "current": {"en": kb.current_edition("en"), "ja": kb.current_edition("ja")}})
