"""Web pages: Japanese first (``?lang=en`` or the cookie switches), every rule number a link.

Shareable URLs: ``/rules/601.2c``, ``/mechanics/予示``, ``/cards/…``, ``/search?q=…``. The same
URLs answer RDF when asked (``Accept: text/turtle`` …, see ``rdf``). Source text is escaped by
Jinja's autoescape and ``linkify``; nothing from a source is marked safe.
"""
from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, url_for

from kb import vocab

from . import forms, get_kb, rdf
from . import resources as res
from .api import rule_iris, ruling_iri
from .errors import APIError
from .svg import Node, draw
from .cache import cached
from .templating import _older_edition, current_lang, kind_label, pick

bp = Blueprint("pages", __name__)


def _rdf_or(iris: list):
    media = rdf.wanted("text/html")
    return rdf.respond(media, iris) if media else None


@bp.get("/")
@cached
def home():
    kb = get_kb()
    return render_template("home.html", editions=kb.editions(), schemas=res.ask_schemas(),
                           current={"en": kb.current_edition("en"), "ja": kb.current_edition("ja")})


@bp.get("/search")
@cached
def search():
    q = (request.args.get("q") or "").strip()
    if not q:
        return redirect(url_for("pages.home"))
    lang = res.arg_lang("in")
    result = res.search(q, lang, res.arg_int("limit", 20, 1, res.max_search_limit()))
    if result.get("goto") and request.args.get("nogoto") is None:
        return redirect(url_for("pages.rule", number=result["goto"]))
    return render_template("search.html", q=q, result=result)


@bp.get("/rules/<path:number>")
@cached
def rule(number: str):
    found = res.rule(number, edition=res.arg_edition())
    if (other := _rdf_or(rule_iris(found))) is not None:
        return other
    edition = found["edition"]
    pinned = _older_edition(edition)  # links from an older edition stay in it

    def rule_url(number: str) -> str:
        return url_for("pages.rule", number=number, edition=pinned)

    parent = res.brief(found["parent"], edition) if found.get("parent") and edition else None
    children = [c for n in found.get("children") or [] if (c := res.brief(n, edition))]
    neighbours = [Node(parent["number"], "rule", rule_url(parent["number"]), "parent")] if parent else []
    neighbours += [Node(c["number"], "rule", rule_url(c["number"]), "child") for c in children]
    neighbours += [Node(r["number"], "rule", rule_url(r["number"]), "cites")
                   for r in found.get("references_out") or []]
    neighbours += [Node(r.get("number") or r["id"], r["kind"] if r["kind"] == "rule" else "ruling",
                        _ref_href(r), "cited by") for r in found.get("references_in") or []]
    neighbours += [Node(pick(m.get("name_ja"), m.get("name_en")), "mechanic",
                        url_for("pages.mechanic", name=m["key"]), "") for m in found.get("mechanics") or []]
    graph = draw(found["number"], neighbours, f"rule {found['number']}", kind_label)
    return render_template("rule.html", rule=found, parent=parent, children=children, graph=graph)


def _ref_href(ref: dict) -> str:
    if ref.get("kind") == "rule" and ref.get("number"):
        return url_for("pages.rule", number=ref["number"])
    return url_for("pages.ruling", ruling_id=ref["id"])


@bp.get("/mechanics/<name>")
@cached
def mechanic(name: str):
    found = res.mechanic(name)
    if (other := _rdf_or([vocab.mechanic_iri(found["key"])])) is not None:
        return other
    neighbours = [Node(r["number"], "rule", url_for("pages.rule", number=r["number"]), "defined by")
                  for r in found.get("rules") or []]
    neighbours += [Node(pick(m.get("name_ja"), m.get("name_en")), "mechanic",
                        url_for("pages.mechanic", name=m["key"]), "related") for m in found.get("related") or []]
    neighbours += [Node(pick(c.get("name_ja"), c.get("name_en")), "card",
                        url_for("pages.card", name=c.get("name_ja") or c.get("name_en")), "card")
                   for c in found.get("cards") or []]
    neighbours += [Node(r["number"], "rule", url_for("pages.rule", number=r["number"]), "mentions")
                   for r in (found.get("related_rules") or [])[:6]]
    name_text = pick(found["name"].get("ja"), found["name"].get("en"))
    graph = draw(name_text, neighbours, name_text, kind_label)
    return render_template("mechanic.html", m=found, graph=graph, ask_key=res.reasoning_key(found["key"]))


@bp.route("/mechanics/<name>/ask", methods=["GET", "POST"])
@cached
def ask(name: str):
    schema_entry = res.ask_schema(name)
    schema = schema_entry["schema"]
    lang = current_lang()
    answer = error = None
    values = None
    raw_json = ""
    if request.method == "POST":
        raw_json = request.form.get("_json", "").strip()
        try:
            if raw_json:
                try:
                    values = json.loads(raw_json)
                except json.JSONDecodeError as err:
                    raise res.bad_request("invalid_json", f"JSON: {err.msg} at line {err.lineno} "
                                                          f"column {err.colno}") from None
            else:
                values = forms.situation(schema, request.form)
            answer = res.ask(schema_entry["key"], values)
        except APIError as err:
            error = err.body()["error"]
    fields = forms.build(schema, lang, values=values if isinstance(values, dict) else None)
    status = 400 if error else 200
    return render_template("ask.html", entry=schema_entry, fields=fields, answer=answer, error=error,
                           raw_json=raw_json), status


@bp.get("/cards/<path:name>")
@cached
def card(name: str):
    found = res.card(name)
    if (other := _rdf_or([vocab.card_iri(found["key"])])) is not None:
        return other
    return render_template("card.html", card=found)


@bp.get("/rulings/<path:ruling_id>")
@cached
def ruling(ruling_id: str):
    found = res.ruling(ruling_id)
    if (other := _rdf_or([ruling_iri(found)])) is not None:
        return other
    return render_template("ruling.html", ruling=found)


@bp.get("/documents")
@cached
def documents():
    return render_template("documents.html", documents=get_kb().documents())


@bp.get("/documents/<path:doc_id>")
@cached
def document(doc_id: str):
    found = res.document(doc_id)
    if (other := _rdf_or([vocab.document_iri(found["id"])])) is not None:
        return other
    return render_template("document.html", doc=found, rulings=get_kb().rulings(document=found["id"]))
