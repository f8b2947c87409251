"""State questions: the schemas, the JSON answer and the question form page."""
from __future__ import annotations

import json

from flask import Blueprint, current_app, render_template, request, url_for

from kb.errors import KBError, SituationError
from kb.text import json_loads_bounded
import server.answer_view as view
import server.forms as forms
import server.resources as res
from server.cache import ANY, cached
from server.templating import current_lang
from server.views.common import answer

bp = Blueprint("ask", __name__)


@bp.get("/api/ask")
@cached
def schemas():
    return answer({"schemas": res.ask_schemas(), "citations": []})


@bp.get("/api/ask/<path:mechanic>/schema")
@cached
def schema(mechanic: str):
    return answer({**res.ask_schema(mechanic), "citations": []})


@bp.get("/api/ask/<path:mechanic>/procedure")
@cached("key")
def procedure(mechanic: str):
    return answer(res.ask_procedure(mechanic, request.args.get("key")))


@bp.post("/api/ask/<path:mechanic>")
def api(mechanic: str):
    body = res.json_body()
    situation = body.get("situation", body) if set(body) <= {"situation"} and body else body
    return answer(res.ask(mechanic, situation))


@bp.post("/api/ask")
def api_any():
    body = res.json_body()
    if "mechanic" not in body:
        raise SituationError("mechanic", "required (a mechanic key or name)")
    return answer(res.ask(str(body["mechanic"]), body.get("situation", {})))


def _submitted(form) -> tuple[object, str]:
    """(situation, the JSON text typed) from a POSTed or GET form: ``s`` / ``_json`` is the whole
    situation as JSON (a shared link), else the form's fields."""
    raw = (form.get("_json") or form.get("s") or "").strip()
    if raw:
        return json_loads_bounded(raw, int(current_app.config["JSON_MAX_DEPTH"]), what="JSON"), raw
    return None, ""


@bp.get("/mechanics/<name>/ask.css")
@cached
def form_css(name: str):
    """The form's show-when rules as a stylesheet of this origin (the CSP allows no inline style)."""
    entry = res.ask_schema(name)
    css = forms.css_rules(forms.build(entry["schema"], current_lang()))
    return css + "\n", 200, {"Content-Type": "text/css; charset=utf-8"}


@bp.route("/mechanics/<name>/ask", methods=["GET", "POST"])
@cached(ANY)  # a GET form: its fields are the schema's
def page(name: str):
    entry = res.ask_schema(name)
    schema, lang = entry["schema"], current_lang()
    found = error = values = None
    raw_json = ""
    form = request.form if request.method == "POST" else request.args
    asked = request.method == "POST" or "_ask" in form or "s" in form
    if asked:
        try:
            values, raw_json = _submitted(form)
            if values is None:
                values = forms.situation(schema, form)
            found = res.ask(entry["key"], values)
        except KBError as err:
            error = err.body()["error"]
    fields = forms.build(schema, lang, values=values if isinstance(values, dict) else None)
    share = url_for("ask.page", name=name, s=json.dumps(found["situation"], ensure_ascii=False), lang=lang) \
        if found else None
    examples = [(ex[f"title_{lang}"], url_for("ask.page", name=name, s=json.dumps(ex["situation"], ensure_ascii=False),
                                              lang=lang)) for ex in entry.get("examples", [])]
    message = error and (error.get("message_ja") if lang == "ja" and error.get("message_ja") else error["message"])
    return render_template("ask.html", entry=entry, fields=fields, answer=found, error=error, message=message,
                           raw_json=raw_json, share=share, examples=examples,
                           verdict=found and view.verdict(found, lang), show=lambda v: view.value_view(v, lang)), \
        error["status"] if error else 200
