"""A mechanic by any of its names: JSON, page (with its graph picture) and RDF."""
from __future__ import annotations

from flask import Blueprint, render_template, request, url_for

from kb import vocab
from kb.errors import MissingParameter
from server.state import get_kb
import server.resources as res
from server.cache import cached
from server.pictures import picture
from server.templating import pick
from server.views.common import answer, rdf_or

bp = Blueprint("mechanics", __name__)


@bp.get("/api/mechanics")
@cached("q")
def search():
    q = request.args.get("q")
    if not q:
        raise MissingParameter("q: a mechanic name (JA or EN) or part of one is required")
    return answer({"query": q, "mechanics": get_kb().find_mechanics(q), "citations": []})


@bp.get("/api/mechanics/<path:name>")
@cached
def api(name: str):
    found = res.mechanic(name)
    return answer(found, [vocab.mechanic_iri(found["key"])])


@bp.get("/mechanics")
@cached
def index():
    found = get_kb().all_mechanics()
    groups: dict[str, list[dict]] = {}
    for m in found:  # in the kb's order: keyword actions, abilities, sections, designations, terms
        groups.setdefault(m["kind"], []).append(m)
    return render_template("mechanics.html", groups=groups, total=len(found),
                           missing=sum(1 for m in found if not m["name_ja"]))


@bp.get("/mechanics/<name>")
@cached
def page(name: str):
    found = res.mechanic(name)
    if (other := rdf_or([vocab.mechanic_iri(found["key"])])) is not None:
        return other
    name_text = pick(found["name"].get("ja"), found["name"].get("en"))
    graph = picture(get_kb().node_id("mechanic", found["key"]), name_text,
                    rule_url=lambda n, e: url_for("rules.page", number=n))
    return render_template("mechanic.html", m=found, graph=graph, ask_key=res.reasoning_key(found["key"]))
