"""A rule: JSON (with children, references and history sub-resources), its page and its RDF."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, url_for

from server.state import get_kb
import server.resources as res
from server.cache import cached
from server.jsonio import writes_fragments
from server.pictures import picture
from server.templating import older_edition
from server.views.common import answer, rdf_or, rule_iris

bp = Blueprint("rules", __name__)


def _from_request(number: str) -> dict:
    return res.rule(number, edition=res.arg_edition(), lang=res.arg_lang())


@bp.get("/api/rules")
@cached("edition")
def api_contents():
    found = get_kb().contents(res.arg_edition())
    return answer(found | {"citations": [cite_edition(found["edition"])]})


@bp.get("/rules")
@cached("edition")
def contents_page():
    return render_template("contents.html", contents=get_kb().contents(res.arg_edition()))


def cite_edition(edition: str) -> dict:
    info = next((e for e in get_kb().editions() if e["lang"] == "en" and e["edition"] == edition), {})
    return {"edition": edition, "document": info.get("document"), "document_title": info.get("title")}


@bp.get("/api/rules/<path:number>")
@cached("edition")
def api(number: str):
    found = res.rule(number, edition=res.arg_edition(), lang=res.arg_lang(), serialised=writes_fragments(current_app))
    return answer(found, lambda: rule_iris(found))


@bp.get("/api/rules/<path:number>/children")
@cached("edition")
def children(number: str):
    found = _from_request(number)
    kids = [c for n in found.get("children") or [] if (c := res.brief(n, found["edition"]))]
    return answer({"number": found["number"], "edition": found["edition"], "children": kids,
                   "citations": found.get("citations", [])})


@bp.get("/api/rules/<path:number>/references")
@cached("edition")
def references(number: str):
    found = _from_request(number)
    return answer({"number": found["number"], "edition": found["edition"],
                   "references_out": found.get("references_out", []),
                   "references_in": found.get("references_in", []),
                   "citations": found.get("citations", [])})


@bp.get("/api/rules/<path:number>/history")
@cached("edition")
def history(number: str):
    edition, lang = res.arg_edition(), res.arg_lang(default="en")
    found = res.rule(number, edition=edition, lang=lang)
    return answer({"number": found["number"], "edition": found["edition"], "lang": lang,
                   "history": get_kb().history(found["number"], edition=edition),
                   "current": found.get("current"), "citations": found.get("citations", [])})


@bp.get("/rules/<path:number>")
@cached("edition")
def page(number: str):
    found = res.rule(number, edition=res.arg_edition())
    if (other := rdf_or(rule_iris(found))) is not None:
        return other
    edition = found["edition"]
    pinned = older_edition(edition)  # links from an older edition stay in it
    parent = res.brief(found["parent"], edition) if found.get("parent") and edition else None
    kids = [c for n in found.get("children") or [] if (c := res.brief(n, edition))]
    graph = None
    if edition and found.get("kind") != "quoted":
        node = get_kb().node_id("rule", found["number"], edition, found.get("lang") or "en")
        graph = picture(node, f"rule {found['number']}",
                        rule_url=lambda n, e: url_for("rules.page", number=n, edition=older_edition(e) or pinned))
    kb = get_kb()
    context = kb.context(found["number"], edition) if edition and found.get("kind") != "quoted" else None
    near = kb.neighbours(found["number"], edition) if edition else {"previous": None, "next": None}
    full_kids = [kb.brief_titled(edition, n) for n in found.get("children") or []] if edition else []
    return render_template("rule.html", rule=found, parent=parent, children=kids, graph=graph, context=context,
                           near=near, full_children=full_kids)
