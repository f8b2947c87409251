"""Hostile input on every route (issue 40): a fuzz of every URL rule and form with big numbers,
negative and full-width numbers, impossible dates, 100,000-character names, deep and wide bodies,
missing, extra and wrongly typed fields and every enum value, where any 500 fails; then the issue's
own reproductions, each with its status and JSON shape."""
from __future__ import annotations

import json

import pytest

from server import create_app
from tests.server.corpus import tiny_kb

BIG = "1" + "0" * 5000  # beyond Python's 4,300-digit integer-string limit (a 500 before)
VALUES = (BIG, "-1", "２０", "2026-13-45", "x" * 100_000, "%00", "601.2c", "")
PARAMS = ("limit", "edition", "lang", "q", "from", "to", "old", "new", "kinds", "format", "s", "procedure", "date")
ERROR_KEYS = {"status", "code", "message", "suggestions"}


def _routes(app) -> list[tuple[str, tuple[str, ...], frozenset]]:
    return sorted((str(r.rule), tuple(sorted(r.arguments)), frozenset(r.methods - {"HEAD", "OPTIONS"}))
                  for r in app.url_map.iter_rules() if not str(r.rule).startswith("/static"))


def _path(rule: str, args: tuple[str, ...], value: str) -> str:
    for arg in args:
        rule = rule.replace(f"<path:{arg}>", value or "x").replace(f"<{arg}>", value or "x")
    return rule


def _judged(response, path: str) -> None:
    """Never a 500; an /api or /sparql error is the one JSON shape with its own status."""
    assert response.status_code != 500, (path[:120], response.get_data(as_text=True)[:300])
    if response.status_code >= 400 and (path.startswith("/api/") or path.startswith("/sparql")):
        error = response.get_json()["error"]
        assert ERROR_KEYS <= set(error) and error["status"] == response.status_code, (path[:120], error)


def test_every_get_route_with_hostile_path_and_parameters_answers_without_a_500(app, client):
    asked = 0
    for rule, args, methods in _routes(app):
        if "GET" not in methods:
            continue
        for value in VALUES if args else ("x",):
            path = _path(rule, args, value)
            _judged(client.get(path), path)
            asked += 1
        path = _path(rule, args, "601.2c")
        for name in PARAMS:
            for value in (BIG, "-1", "２０", "2026-13-45", "x" * 20_000):
                _judged(client.get(path, query_string={name: value}), f"{path}?{name}=")
                asked += 1
    assert asked > 1000


def _bodies(schema: dict):
    """JSON bodies for one question type: hostile scalars in every field, each enum value alone,
    missing and extra fields, deep and wide objects."""
    props = schema.get("properties", {})
    for name, prop in props.items():
        for value in (int(BIG[:100]), -1, 1e308, "２０", "{" + "9" * 5000 + "}", [], {}, None, True, "x" * 10_000):
            yield {name: value}
        for value in prop.get("enum", []):
            yield {name: value}
    yield {}
    yield {"no_such_field": 1}
    yield {f"k{i}": i for i in range(5000)}  # wide
    yield {"a": [[[[[[[[[[1]]]]]]]]]]}  # deep but under the limit


def test_every_question_type_and_form_refuses_hostile_situations_without_a_500(app, client):
    schemas = client.get("/api/ask").get_json()
    entries = schemas["schemas"]
    assert len(entries) >= 10
    for entry in entries:
        key = entry["key"]
        schema = client.get(f"/api/ask/{key}/schema").get_json()["schema"]
        for body in _bodies(schema):
            text = json.dumps(body)
            _judged(client.post(f"/api/ask/{key}", data=text, content_type="application/json"), f"/api/ask/{key}")
            _judged(client.post("/api/ask", json={"mechanic": key, "situation": body}), "/api/ask")
            page = client.post(f"/mechanics/{key}/ask", data={"_json": text})
            assert page.status_code != 500
        for name in schema.get("properties", {}):  # the HTML form's fields, each a big number
            assert client.post(f"/mechanics/{key}/ask", data={name: BIG}).status_code != 500


@pytest.mark.parametrize("body", [
    '{"text": ' + BIG + "}", '{"text": "CR 601.2c", "date": ' + BIG + "}", "[" + BIG + "]",
    '{"text": "CR 601.2c", "date": "2026-13-45"}', '{"text": ["CR 601.2c"]}', '{"text": null}', "{}",
    '{"text": "CR 601.2c", "extra": {"deep": [[[[1]]]]}}', json.dumps({f"k{i}": "601.2c" for i in range(5000)}),
    '{"text": 1e999}', '{"text": NaN}'])
def test_the_citation_checker_refuses_hostile_bodies_without_a_500(client, body):
    _judged(client.post("/api/citations/check", data=body, content_type="application/json"), "/api/citations/check")
    _judged(client.post("/check", data={"text": body}), "/check")


# ---------------------------------------------------------------- the reproductions


@pytest.mark.parametrize("url, body, field", [
    ("/api/citations/check", '{"text": ' + BIG + "}", "text"),
    ("/api/ask", '{"mechanic": "cast", "situation": {"x": ' + BIG + "}}", "x"),
    ("/api/ask/cast", '{"x": ' + BIG + "}", "x"),
    ("/api/ask/cast", '{"spell": {"name": "Bolt", "mana_cost": ' + BIG + "}}", "mana_cost"),
])
def test_a_number_of_5000_digits_is_a_400_naming_the_field(client, url, body, field):
    """Issue 40.4: Python refuses to convert more than 4,300 digits (a 500 before)."""
    response = client.post(url, data=body, content_type="application/json")
    error = response.get_json()["error"]
    assert response.status_code == 400 and error["code"] == "invalid_json" and error["field"] == field
    assert error["message"] == f"the body: {field}: a number of 5001 digits; at most 100"


def test_a_mana_cost_of_5000_digits_is_a_400_on_the_field(client):
    situation = {"spell": {"name": "Bolt", "mana_cost": "{" + "9" * 5000 + "}"}}
    response = client.post("/api/ask/cast", json=situation)
    error = response.get_json()["error"]
    assert response.status_code == 400 and error["code"] == "invalid_situation" and error["field"] == "spell.mana_cost"
    assert "(5002 characters)" in error["message"] and len(error["message"]) < 400  # not the whole value back


def test_the_ask_forms_big_numbers_are_a_400_page(client):
    shared = client.get("/mechanics/cast/ask", query_string={"s": '{"x": ' + BIG + "}"})
    assert shared.status_code == 400 and "a number of 5001 digits" in shared.get_data(as_text=True)
    typed = client.post("/mechanics/cast/ask", data={"x": "9" * 5000})
    assert typed.status_code == 400 and "5000" in typed.get_data(as_text=True)


def test_an_impossible_edition_date_is_bad_input_not_not_found(client):
    response = client.get("/api/rules/601.2c?edition=2026-13-45")
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "invalid_edition"
    assert client.get("/api/rules/601.2c?edition=２０２６-０１-１６").status_code == 400  # full-width: no date
    assert client.get("/api/rules/601.2c?edition=2031-01-01").get_json()["error"]["code"] == "edition_not_found"


def test_full_width_digits_are_no_limit(client):
    response = client.get("/api/search", query_string={"q": "manifest", "limit": "１０"})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "invalid_parameter"
    assert client.get("/api/search", query_string={"q": "manifest", "limit": "10"}).status_code == 200


def test_a_name_with_no_letter_names_no_mechanic(client):
    response = client.get("/api/mechanics/-1")
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "mechanic_not_found"
    assert client.get("/api/mechanics/manifest").status_code == 200


def test_a_100k_character_name_is_bad_input_for_mechanics_and_cards_alike(client):
    name = "x" * 100_000
    answers = [client.get(f"/api/{kind}/{name}") for kind in ("mechanics", "cards")]
    assert [(a.status_code, a.get_json()["error"]["code"]) for a in answers] == [(400, "invalid_parameter")] * 2


def test_an_answer_setting_the_language_cookie_is_not_public(client):
    response = client.get("/rules/601.2c?lang=en")
    assert "lang=en" in response.headers["Set-Cookie"]
    assert response.headers["Cache-Control"].startswith("private") and "public" not in response.headers["Cache-Control"]
    plain = client.get("/rules/601.2c", headers={"Cookie": "lang=en"})
    assert "Set-Cookie" not in plain.headers and plain.headers["Cache-Control"].startswith("public")


@pytest.mark.parametrize("content_type", [None, "", "application/json", "text/plain",
                                          "application/x-www-form-urlencoded"])
def test_the_checker_and_ask_take_the_same_content_types(client, content_type):
    """Issue 40.7: both JSON endpoints read a body the same way (kb's json_body)."""
    kw = {} if content_type is None else {"content_type": content_type}
    check = client.post("/api/citations/check", data='{"text": "CR 601.2c"}', **kw)
    ask = client.post("/api/ask", data=json.dumps({"mechanic": "day-night", "situation": {
        "event": "untap-step", "designation": "day", "previous_turn_spells": []}}), **kw)
    assert check.status_code == ask.status_code
    assert check.status_code in (200, 400, 415)


# ---------------------------------------------------------------- a damaged snapshot (40.6)


@pytest.fixture()
def damaged(tmp_path):
    """An app on a copy of the tiny snapshot, for a test to damage before its first request."""
    import shutil

    from kb.lookup.kb import KB
    copy = tmp_path / "home"
    shutil.copytree(tiny_kb()[2], copy, ignore=shutil.ignore_patterns(".build.lock", "cache"))
    kb = KB.load(copy)
    yield kb, create_app({"KB": kb, "TESTING": True, "KB_ENSURE": False}).test_client()
    kb.close()


@pytest.mark.parametrize("url, headers", [
    ("/api/rules/601.2c", {"Accept": "text/turtle"}), ("/rules/601.2c", {"Accept": "text/turtle"}),
    ("/sparql?query=SELECT%20*%20%7B%3Fs%20%3Fp%20%3Fo%7D%20LIMIT%201", {})])
def test_a_missing_store_is_a_503_naming_the_snapshot_not_its_path(damaged, url, headers):
    import shutil
    kb, client = damaged
    shutil.rmtree(kb.path / "store")
    response = client.get(url, headers=headers)
    error = response.get_json()["error"]
    assert response.status_code == 503 and error["code"] == "unavailable"
    assert error["message"].startswith(f"snapshot {kb.path.name}: store/") and str(kb.path.parent) not in error["message"]


def test_a_truncated_search_index_is_a_503(damaged):
    kb, client = damaged
    path = kb.path / "search.bin"
    path.write_bytes(path.read_bytes()[:1000])
    response = client.get("/api/search?q=manifest")
    assert response.status_code == 503 and response.get_json()["error"]["message"].startswith(
        f"snapshot {kb.path.name}: search.bin is damaged")
