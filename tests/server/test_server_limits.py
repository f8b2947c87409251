"""Bounded work for every input, and answers a cache in front can keep: nested JSON refused, the
citation checker's input bounded, no Host echoed in redirects, the answer cache keyed on the
parameters that matter, ETag / Cache-Control / 304, every answer naming its snapshot."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from server import create_app
from tests.server.test_server_fixtures import tiny_kb

DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture(scope="module")
def app():
    return create_app({"KB": tiny_kb()[0], "TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.mark.parametrize("url", ["/api/citations/check", "/api/ask", "/api/ask/day-night"])
@pytest.mark.parametrize("body", [DEEP, '{"situation": ' + DEEP + "}", '{"text": ' + "{\"a\": " * 500 + "1" + "}" * 501])
def test_deeply_nested_json_is_a_400(client, url, body):
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == {"status": 400, "code": "invalid_json", "suggestions": [],
                                            "message": "the body nests arrays/objects deeper than 32 levels"}


def test_deep_json_in_the_question_form_is_a_400_page(client):
    response = client.post("/mechanics/day-night/ask", data={"_json": DEEP})
    assert response.status_code == 400 and "32" in response.get_data(as_text=True)


def test_brackets_inside_strings_do_not_count(client):
    body = {"event": "untap-step", "designation": "day", "previous_turn_spells": [], "note": "[" * 100}
    response = client.post("/api/ask/day-night", data=json.dumps(body), content_type="application/json")
    assert response.get_json()["error"]["code"] == "invalid_situation"  # judged by the schema, not the depth check


def test_citation_checker_input_is_bounded(client, app):
    limit = app.config["CITATIONS_MAX_CHARS"]
    response = client.post("/api/citations/check", json={"text": "CR 601.2c " * (limit // 10 + 1)})
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "payload_too_large" and str(limit) in response.get_json()["error"]["message"]
    ok = client.post("/api/citations/check", json={"text": "See rule 601.2c."})
    assert ok.status_code == 200 and "citations" in ok.get_json()


def test_cli_ask_with_deep_json_exits_2_without_a_traceback():
    home = tiny_kb()[2]
    result = subprocess.run([sys.executable, "-c", "from kb.cli import run; run()", "ask", "day-night",
                             "--situation", DEEP], capture_output=True, text=True, env={"MTG_KB_HOME": str(home),
                                                                                       "PATH": "/usr/bin:/bin"})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip() == "kb: --situation nests arrays/objects deeper than 32 levels"


@pytest.mark.parametrize("url", ["/api", "//evil.example/api", "/api?x=1"])
def test_redirects_never_echo_the_host(client, url):
    response = client.get(url, headers={"Host": "evil.example"})
    assert response.status_code == 308
    location = response.headers["Location"]
    assert location.startswith("/api/") and "evil" not in location and not location.startswith("//")


def test_unknown_parameters_neither_change_the_answer_nor_miss_the_cache(app):
    client = app.test_client()
    cache = app.extensions["response_cache"]
    first = client.get("/api/rules/601.2c")
    entries = len(cache._items)
    for extra in ("x=1", "utm_source=mail&_=123", "edition_=2026-04-17", "nocache=" + "9" * 50):
        again = client.get(f"/api/rules/601.2c?{extra}")
        assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert len(cache._items) == entries  # served from the one entry
    other = client.get("/api/rules/601.2c", query_string={"edition": tiny_kb()[0].model.current("en")})
    assert other.headers["ETag"] != first.headers["ETag"]  # a parameter that matters is its own entry
    # Accept counts through the representation it selects, not its spelling
    a = client.get("/api/rules/601.2c", headers={"Accept": "text/turtle"})
    b = client.get("/api/rules/601.2c", headers={"Accept": "text/turtle;q=0.9, */*;q=0.1"})
    assert a.mimetype == b.mimetype == "text/turtle" and a.headers["ETag"] == b.headers["ETag"] != first.headers["ETag"]


def test_etag_cache_control_and_304(client, app):
    kb = tiny_kb()[0]
    first = client.get("/rules/601.2c")
    etag = first.headers["ETag"]
    assert etag.startswith(f'"{kb.path.name}.') and first.headers["Cache-Control"] == "public, max-age=60"
    assert first.headers["X-KB-Snapshot"] == kb.path.name
    again = client.get("/rules/601.2c", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    english = client.get("/rules/601.2c?lang=en", headers={"If-None-Match": etag})
    assert english.status_code == 200 and english.headers["ETag"] != etag  # another language, another tag
    missing = client.get("/api/rules/999.9z")
    assert missing.status_code == 404 and "ETag" not in missing.headers
    assert client.post("/api/ask/day-night", json={}).headers.get("ETag") is None
