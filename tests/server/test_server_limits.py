"""Bounded work for every input, and answers a cache in front can keep: nested JSON refused, the
citation checker's input bounded, no Host echoed in redirects, the answer cache keyed on the
parameters that matter, ETag / Cache-Control / 304, every answer naming its snapshot."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.server.corpus import tiny_kb

DEEP = "[" * 1000 + "]" * 1000


@pytest.mark.parametrize("url", ["/api/citations/check", "/api/ask", "/api/ask/day-night"])
@pytest.mark.parametrize("body", [DEEP, '{"situation": ' + DEEP + "}", '{"text": ' + "{\"a\": " * 500 + "1" + "}" * 501])
def test_deeply_nested_json_is_a_400(client, url, body):
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == {"status": 400, "code": "invalid_json", "suggestions": [],
                                            "message": "the body nests arrays/objects deeper than 32 levels"}


@pytest.mark.parametrize("text", [
    '{"a": 1}', '{"a": [1, 2.5, -0.0, 1e308, "x"], "b": {"c": null, "d": true}}', '{"a": 1, "a": 2}',
    '{"n": 123456789012345678901234567890}', '{"n": -9223372036854775809}', '{"x": NaN}', '{"x": Infinity}',
    '{"x": 1e400}', '{"s": "\\ud800"}', '{"s": "\\u00e9 予示"}', " \n{} ", "[" * 32 + "]" * 32,
    "[" * 33 + "]" * 33, '{"a": [' * 20 + "1" + "]}" * 20, "{", '{"a": 1,}', "null", '"str"'])
def test_a_body_is_read_as_the_bounded_reader_reads_it(app, text):
    """json_body reads a plain body with orjson; whatever it gives is what json_loads_bounded gives
    (values, key order, the error and its message), big integers, NaN and lone surrogates included."""
    from kb.errors import KBError
    from kb.text import json_loads_bounded
    from server.resources import json_body

    def outcome(read):
        try:
            value = read()
            return ("ok", json.dumps(value, allow_nan=True), type(value).__name__)
        except KBError as err:
            return ("error", err.body()["error"]["message"])

    want = outcome(lambda: json_loads_bounded(text, 32, what="the body"))
    with app.test_request_context("/api/ask", method="POST", data=text.encode("utf-8", "surrogatepass"),
                                  content_type="application/json"):
        got = outcome(json_body)
    if want[0] == "ok" and want[2] != "dict":  # an array or scalar is refused as no object
        assert got[0] == "error" and "expected a JSON object" in got[1]
    else:
        assert got == want


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
