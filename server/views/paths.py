"""How two rules, mechanics or cards connect: shortest typed paths in the graph, each edge cited."""
from __future__ import annotations

from flask import Blueprint, request

from kb.errors import MissingParameter
from server.state import get_kb
from server.cache import cached
from server.views.common import answer

bp = Blueprint("paths", __name__)


@bp.get("/api/path")
@cached("from", "to")
def api():
    source, target = request.args.get("from"), request.args.get("to")
    if not source or not target:
        raise MissingParameter("from, to: two rule numbers, mechanic or card names are required")
    return answer(get_kb().paths_between(source, target))
