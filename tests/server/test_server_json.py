"""JSON answers are written by orjson (server.jsonio) and are byte for byte what Flask's own JSON
provider writes: compact, keys in the order the kb gives them, Japanese as UTF-8, scores as the
same floats, dates and dataclasses converted as Flask converts them."""
from __future__ import annotations

import dataclasses
import datetime
import json
from urllib.parse import quote

import pytest
from flask.json.provider import DefaultJSONProvider

from server import create_app
from tests.server.corpus import tiny_kb

URLS = ["/api/rules/601.2c", "/api/rules/601.2c/history", "/api/editions", "/api/search?q=" + quote("予示"),
        "/api/search?q=manifest", "/api/mechanics/" + quote("予示"), "/api/documents", "/api/ask", "/api/",
        "/api/rules/999.9z", "/api/openapi.json"]


@pytest.fixture(scope="module")
def clients():
    fast = create_app({"KB": tiny_kb()[0], "TESTING": True, "RESPONSE_CACHE_SIZE": 0})
    plain = create_app({"KB": tiny_kb()[0], "TESTING": True, "RESPONSE_CACHE_SIZE": 0})
    plain.json = DefaultJSONProvider(plain)
    plain.json.sort_keys, plain.json.ensure_ascii = False, False
    return fast, fast.test_client(), plain.test_client()


@pytest.mark.parametrize("url", URLS)
def test_answers_are_byte_for_byte_flask_json(clients, url):
    _, fast, plain = clients
    a, b = fast.get(url), plain.get(url)
    assert a.status_code == b.status_code and a.mimetype == b.mimetype == "application/json"
    assert a.data == b.data
    assert "予示" not in url or "予示" in a.get_data(as_text=True)  # UTF-8, not \\u escapes


def test_posted_answers_are_the_same_too(clients):
    _, fast, plain = clients
    body = {"event": "untap-step", "designation": "day", "previous_turn_spells": []}
    assert fast.post("/api/ask/day-night", json=body).data == plain.post("/api/ask/day-night", json=body).data
    text = {"text": "CR 601.2c と 702.2b を参照。"}
    assert fast.post("/api/citations/check", json=text).data == plain.post("/api/citations/check", json=text).data


def test_values_orjson_leaves_to_flask(clients):
    app = clients[0]

    @dataclasses.dataclass
    class Row:
        day: datetime.date
        n: int

    payload = {"when": datetime.date(2026, 6, 19), "row": Row(datetime.date(2026, 1, 16), 2 ** 70), "ja": "予示"}
    with app.test_request_context():
        fast = app.json.response(payload).get_data()
        plain = DefaultJSONProvider(app)
        plain.sort_keys, plain.ensure_ascii = False, False
        assert fast == plain.response(payload).get_data()
    assert json.loads(fast)["when"] == "Fri, 19 Jun 2026 00:00:00 GMT"
