"""The loaded CR editions and what changed between them: /api/editions, /editions, /api/diff, /diff."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from server.state import get_kb
import server.resources as res
from server.cache import cached
from server.views.common import answer
from kb.errors import InvalidParameter
from kb.lookup.diffs import KINDS

bp = Blueprint("editions", __name__)


@bp.get("/api/editions")
@cached
def api():
    kb = get_kb()
    return answer({"editions": kb.editions(),
                   "current": {"en": kb.current_edition("en"), "ja": kb.current_edition("ja")}})


@bp.get("/editions")
@cached
def page():
    kb = get_kb()
    return render_template("editions.html", editions=kb.editions(), unloaded=kb.official_not_loaded(),
                           current={"en": kb.current_edition("en"), "ja": kb.current_edition("ja")})


def _diff_from_request() -> dict:
    """?from=&to=: ``to`` defaults to the current edition, ``from`` to the loaded edition before ``to``;
    ?kind= keeps one kind of change (added, removed, moved, text-changed)."""
    kb = get_kb()
    old, new = request.args.get("from") or None, request.args.get("to") or None
    kind = request.args.get("kind") or None
    if kind is not None and kind not in KINDS:
        raise InvalidParameter(f"kind={kind!r}: expected one of {', '.join(KINDS)}", suggestions=list(KINDS))
    found = kb.diff(old, new or kb.current_edition()) if old else kb.changes(new)
    if kind:
        found = dict(found, entries=[e for e in found["entries"] if e["kind"] == kind])
    return found


@bp.get("/api/diff")
@cached("from", "to", "kind", "limit")
def api_diff():
    found = _diff_from_request()
    limit = res.arg_int("limit", 100000, 1, 100000)
    return answer(dict(found, entries=found["entries"][:limit], truncated=len(found["entries"]) > limit))


@bp.get("/diff")
@cached("from", "to", "kind", "limit")
def diff_page():
    found = _diff_from_request()
    limit = res.arg_int("limit", 300, 1, 5000)
    groups = {str(g): [e for e in found["entries"] if e["group"] == g] for g in found["groups"]}
    loaded = [e["edition"] for e in get_kb().editions() if e["lang"] == "en"]
    return render_template("diff.html", diff=found, groups=groups, limit=limit, loaded=loaded,
                           kind=request.args.get("kind") or None)
