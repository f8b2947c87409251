"""A mechanic by any of its names: JSON, page (with its graph picture) and RDF."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request, url_for
from markupsafe import Markup

from kb import vocab
from kb.errors import MechanicNotFound, MissingParameter
from kb.memo import per_owner
from server.state import get_kb
import server.resources as res
from server.cache import cached
from server.pictures import picture
from server.templating import current_lang, pick
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
    chosen = get_kb().mechanic_choice(name)
    if chosen is None:
        raise MechanicNotFound(f"no mechanic named {name!r}")
    if (other := rdf_or([vocab.mechanic_iri(chosen[0])])) is not None:
        return other
    title, body = prepared(chosen[0])
    return render_template("mechanic.html", title=title, body=body)


class _Pages:
    """The owner of an app's prepared mechanic pages (kb.memo: its own bound, dropped with the app)."""


def prepared(key: str) -> tuple[str, Markup]:
    """The title and main part of mechanic ``key``'s page in the page's language. The main part
    (rules, glossary, rulings, cards, the graph picture, citations: most of a page's work) depends
    on nothing else of the request but its script root, so it is rendered once per app for each
    (``prepare`` renders every mechanic's before the server serves); the page around it (the
    language toggle names the requested URL) is rendered per request."""
    app = current_app._get_current_object()
    owner = app.extensions.get("mechanic_pages") or app.extensions.setdefault("mechanic_pages", _Pages())

    def render() -> tuple[str, Markup]:
        found = get_kb().mechanic_view(key)
        title = pick(found["name"].get("ja"), found["name"].get("en"))
        graph = picture(get_kb().node_id("mechanic", key), title, rule_url=lambda n, e: url_for("rules.page", number=n))
        body = render_template("_mechanic_body.html", m=found, graph=graph, ask_key=res.reasoning_key(key))
        return title, Markup(body)
    return per_owner(owner, ("page", key, current_lang(), request.script_root), render)


def prepare(app) -> int:
    """Render every mechanic page's main part in both languages now (at the site's root), so that
    no first visit pays for it. Returns how many."""
    kb = app.extensions["kb"]
    done = 0
    for lang in ("ja", "en"):
        with app.test_request_context(f"/?lang={lang}"):
            for key in sorted(kb.model.mechanics):
                prepared(key)
                done += 1
    return done
