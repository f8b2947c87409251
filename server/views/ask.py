"""State questions: the schemas, the JSON answer and the question form page."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from kb.errors import KBError, SituationError
from kb.text import json_loads_bounded
import server.forms as forms
import server.resources as res
from server.cache import cached
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


@bp.route("/mechanics/<name>/ask", methods=["GET", "POST"])
@cached
def page(name: str):
    schema_entry = res.ask_schema(name)
    schema = schema_entry["schema"]
    found = error = None
    values = None
    raw_json = ""
    if request.method == "POST":
        raw_json = request.form.get("_json", "").strip()
        try:
            if raw_json:
                values = json_loads_bounded(raw_json, int(current_app.config["JSON_MAX_DEPTH"]), what="JSON")
            else:
                values = forms.situation(schema, request.form)
            found = res.ask(schema_entry["key"], values)
        except KBError as err:
            error = err.body()["error"]
    fields = forms.build(schema, current_lang(), values=values if isinstance(values, dict) else None)
    return render_template("ask.html", entry=schema_entry, fields=fields, answer=found, error=error,
                           raw_json=raw_json), 400 if error else 200
