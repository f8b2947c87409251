"""The JSON API through Flask's test client over the tiny corpus: exact JSON, texts and citations.

Expected texts and line numbers are read from the excerpt files and the seed documents
(``source_line`` / ``_line_no``), never copied from the KB's own answers.
"""
from __future__ import annotations

import json
import re

from pathlib import Path
from urllib.parse import quote

import pytest
from rdflib import Graph, Literal, URIRef

from kb import config as settings, vocab
from server import create_app
from tests.shared_data import newest_en_sources
from tests.server.corpus import JA_FILE, editions, source_line, tiny_kb

EN, EN_OLD, EN_OLDEST = editions()  # the three newest EN editions in the data, newest first
CURRENT, PREVIOUS, OLDEST = (s.edition_hint for s in newest_en_sources(3))
JA = "2026-01-16"  # the JA CR's edition: a translation of EN 2026-01-16


@pytest.fixture(scope="module")
def kb_data():
    return tiny_kb()


@pytest.fixture(scope="module")
def app(kb_data):
    return create_app({"KB": kb_data[0], "TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


def _line_no(path, start: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(start):
            return number
    raise LookupError(start)


def _rule_text(data, name: str, number: str) -> str:
    """The rule's text as printed: after "601.2c " or "731.2. "."""
    for start in (number + ". ", number + " "):
        try:
            return source_line(data, name, start)[len(start):]
        except LookupError:
            continue
    raise LookupError(number)


def _rule_line(data, name: str, number: str) -> int:
    for start in (number + ". ", number + " "):
        try:
            return _line_no(data / name, start)
        except LookupError:
            continue
    raise LookupError(number)


# ---------------------------------------------------------------- rules


def test_rule_json_has_both_texts_and_citations(client, kb_data):
    _, data, _ = kb_data
    body = client.get("/api/rules/601.2c").get_json()
    assert body["number"] == "601.2c" and body["edition"] == CURRENT and body["kind"] == "subrule"
    assert body["text"]["en"] == _rule_text(data, EN, "601.2c")
    assert body["text"]["ja"] == source_line(data, JA_FILE, "601.2c")[len("601.2c"):].strip()
    assert body["parent"] == "601.2"
    assert body["citations"][0] == {
        "rule": "601.2c", "edition": CURRENT, "lang": "en", "document": f"cr-en-{CURRENT}",
        "document_title": f"Comprehensive Rules {CURRENT} (English)",
        "locator": f"cr-en-{CURRENT} line {_line_no(data / EN, '601.2c ')} § 6. Spells, Abilities, and Effects > 601. Casting Spells",
        "line_start": _line_no(data / EN, "601.2c "), "line_end": _line_no(data / EN, "601.2c "),
        "section": "6. Spells, Abilities, and Effects > 601. Casting Spells"}
    ja_cite = body["citations"][1]
    assert (ja_cite["document"], ja_cite["edition"], ja_cite["lang"]) == (f"cr-ja-{JA}", JA, "ja")
    assert ja_cite["line_start"] == _line_no(data / JA_FILE, "601.2c")


def test_rule_in_an_older_edition_and_one_language(client, kb_data):
    _, data, _ = kb_data
    body = client.get(f"/api/rules/601.2c?edition={PREVIOUS}&lang=en").get_json()
    assert body["edition"] == PREVIOUS
    assert body["text"]["en"] == _rule_text(data, EN_OLD, "601.2c")
    assert [t["lang"] for t in body["texts"]] == ["en"]
    assert body["citations"][0]["document"] == f"cr-en-{PREVIOUS}"


def test_children_in_source_order_with_text(client, kb_data):
    _, data, _ = kb_data
    body = client.get("/api/rules/601.2/children").get_json()
    expected = [line.split(" ", 1)[0] for line in (data / EN).read_text(encoding="utf-8").splitlines()
                if re.match(r"601\.2[a-z] ", line)]
    assert [c["number"] for c in body["children"]] == expected == [f"601.2{c}" for c in "abcdefghi"]
    assert body["children"][2]["text"]["en"] == _rule_text(data, EN, "601.2c")
    assert body["children"][2]["citation"]["rule"] == "601.2c"
    assert body["citations"][0]["rule"] == "601.2"


def test_references_out_and_in(client, kb_data):
    _, data, _ = kb_data
    assert "See rule 502" in _rule_text(data, EN, "731.2")
    out = client.get("/api/rules/731.2/references").get_json()
    assert out["references_out"] == [{"number": "502", "edition": CURRENT, "exists": True}]
    back = client.get("/api/rules/502/references").get_json()
    citing = [r for r in back["references_in"] if r["kind"] == "rule" and r["number"] == "731.2"]
    assert citing and citing[0]["text"] == _rule_text(data, EN, "731.2")
    assert citing[0]["citation"]["line_start"] == _rule_line(data, EN, "731.2")


def test_history_across_editions(client, kb_data):
    _, data, _ = kb_data
    body = client.get("/api/rules/601.2c/history").get_json()
    assert [(h["edition"], h["number"]) for h in body["history"]] == [
        (OLDEST, "601.2c"), (PREVIOUS, "601.2c"), (CURRENT, "601.2c")]
    assert body["history"][1]["text"] == _rule_text(data, EN_OLD, "601.2c")
    assert [h["citation"]["document"] for h in body["history"]] == [f"cr-en-{e}" for e in (OLDEST, PREVIOUS, CURRENT)]
    assert body["citations"][0]["rule"] == "601.2c"


# ---------------------------------------------------------------- errors: one shape


def test_unknown_rule_is_404_with_close_numbers(client, kb_data):
    kb = kb_data[0]
    response = client.get("/api/rules/601.2z")
    assert response.status_code == 404
    body = response.get_json()
    assert body == {"error": {"status": 404, "code": "rule_not_found", "message": "no rule 601.2z",
                              "suggestions": kb.suggest("601.2z")}}
    assert body["error"]["suggestions"] and all(s.startswith("601.2") for s in body["error"]["suggestions"])


@pytest.mark.parametrize("url,code,words", [
    ("/api/rules/abc", "invalid_rule_number", "'abc' is not a rule number"),
    ("/api/rules/601.2c?lang=fr", "invalid_lang", "lang='fr'"),
    ("/api/rules/601.2c?edition=yesterday", "invalid_edition", "edition='yesterday'"),
    ("/api/search", "missing_parameter", "q:"),
    ("/api/search?q=day&limit=0", "invalid_parameter", "limit=0"),
    ("/api/search?q=day&limit=x", "invalid_parameter", "limit='x'"),
    ("/api/mechanics", "missing_parameter", "q:"),
])
def test_bad_input_is_400_naming_the_problem(client, url, code, words):
    response = client.get(url)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert (error["status"], error["code"]) == (400, code)
    assert words in error["message"]
    assert set(error) >= {"status", "code", "message", "suggestions"}


def test_unknown_edition_is_404_listing_the_loaded_ones(client):
    body = client.get("/api/rules/601.2c?edition=2011-09-30").get_json()
    assert body == {"error": {"status": 404, "code": "edition_not_found", "message": "no edition 2011-09-30 is loaded",
                              "suggestions": [OLDEST, PREVIOUS, CURRENT]}}


def test_unknown_url_and_wrong_method_use_the_same_shape(client):
    assert client.get("/api/nothing/here").get_json() == {"error": {
        "status": 404, "code": "not_found", "message": "no resource at /api/nothing/here", "suggestions": []}}
    response = client.delete("/api/rules/601.2c")
    assert response.status_code == 405
    assert response.get_json()["error"]["code"] == "method_not_allowed"
    assert "DELETE is not allowed on /api/rules/601.2c" in response.get_json()["error"]["message"]
    assert "GET" in response.headers["Allow"]


def test_invalid_json_and_wrong_content_type(client):
    response = client.post("/api/ask/day-night", data="{bad", content_type="application/json")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "invalid_json"
    assert error["message"].startswith("the body is not valid JSON: Expecting property name") and "line 1 column 2" in error["message"]
    response = client.post("/api/ask/day-night", data="[1, 2]", content_type="application/json")
    assert response.get_json()["error"]["message"] == "expected a JSON object, got list"
    response = client.post("/api/ask/day-night", data="event=x", content_type="text/plain")
    assert response.status_code == 415 and response.get_json()["error"]["code"] == "unsupported_media_type"


def test_huge_body_is_413_in_the_same_shape(kb_data):
    app = create_app({"KB": kb_data[0], "TESTING": True, "MAX_CONTENT_LENGTH": 1000})
    response = app.test_client().post("/api/ask/day-night", data=json.dumps({"x": "a" * 5000}),
                                      content_type="application/json")
    assert response.status_code == 413
    assert response.get_json() == {"error": {"status": 413, "code": "payload_too_large",
                                             "message": "request body too large (limit 1000 bytes)",
                                             "suggestions": []}}


def test_unexpected_exception_is_500_without_a_stack_trace(kb_data):
    app = create_app({"KB": kb_data[0]})

    @app.get("/api/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/api/boom")
    assert response.status_code == 500
    assert response.get_json() == {"error": {"status": 500, "code": "internal_error",
                                             "message": "internal error; the server log has the details",
                                             "suggestions": []}}
    assert b"secret" not in response.data and b"Traceback" not in response.data


# ---------------------------------------------------------------- mechanics, cards, rulings, documents


@pytest.mark.parametrize("name", ["予示", "manifest", "Manifest", "よじ"])
def test_mechanic_by_any_name(client, kb_data, name):
    _, data, _ = kb_data
    body = client.get(f"/api/mechanics/{name}").get_json()
    assert body["key"] == "manifest" and body["name"] == {"en": "Manifest", "ja": "予示"}
    rules = {r["number"]: r for r in body["rules"]}
    assert rules["701.40"]["text_en"] == source_line(data, EN, "701.40. ")[len("701.40. "):]
    assert rules["701.40"]["citation"]["line_start"] == _line_no(data / EN, "701.40. ")
    seed = (settings.rules_src_dir() / "wiki" / "yoji-manifest.rendered.txt").read_text(encoding="utf-8").splitlines()
    assert body["rulings"], "the 予示 wiki page's rulings"
    for ruling in body["rulings"]:
        cite = ruling["citation"]
        assert cite["document"] == "wiki-yoji-manifest"
        assert ruling["text"].split("\n")[0][:20] in seed[cite["line_start"] - 1]
    assert body["citations"][0]["rule"] == body["rules"][0]["number"]


def test_unknown_mechanic_is_404(client):
    body = client.get("/api/mechanics/no-such-thing").get_json()
    assert body["error"]["code"] == "mechanic_not_found"
    assert body["error"]["message"] == "no mechanic named 'no-such-thing'"


def test_mechanic_search_by_part_of_a_name(client):
    body = client.get("/api/mechanics?q=予示").get_json()
    assert body["mechanics"][0] == {"key": "manifest", "name_en": "Manifest", "name_ja": "予示",
                                    "kind": body["mechanics"][0]["kind"], "ja_missing": None}


def test_card_by_japanese_name_with_its_mentions(client):
    seed = (settings.rules_src_dir() / "articles" / "cr-601-casting-blog.txt").read_text(encoding="utf-8").splitlines()
    body = client.get("/api/cards/夜帳の死霊").get_json()
    assert (body["name_ja"], body["name_en"]) == ("夜帳の死霊", None)
    mention = body["mentions"][0]
    assert mention["raw"] == "《夜帳の死霊》"
    assert seed[mention["citation"]["line_start"] - 1].startswith("《夜帳の死霊》")
    assert mention["text"] == seed[mention["citation"]["line_start"] - 1]
    assert body["citations"][0]["document"] == "blog-cr-601-casting"
    assert client.get("/api/cards/No Such Card").get_json()["error"]["code"] == "card_not_found"


def test_rulings_filtered_and_one_ruling(client):
    listed = client.get("/api/rulings?mechanic=予示&document=wiki-yoji-manifest").get_json()
    assert listed["mechanic"] == "manifest" and listed["rulings"]
    assert {r["document"] for r in listed["rulings"]} == {"wiki-yoji-manifest"}
    first = listed["rulings"][0]
    assert "#" in first["id"]  # ids like wiki-yoji-manifest#r1: quoted in URLs
    one = client.get(f"/api/rulings/{quote(first['id'], safe='')}").get_json()
    assert one["text"] == first["text"] and one["citation"] == first["citation"]
    assert one["citations"] == [first["citation"]]
    assert client.get("/api/rulings/nope").get_json()["error"] == {
        "status": 404, "code": "ruling_not_found", "message": "no ruling 'nope'", "suggestions": []}


def test_documents_and_editions(client):
    ids = [d["id"] for d in client.get("/api/documents").get_json()["documents"]]
    assert set(ids) == {f"cr-en-{OLDEST}", f"cr-en-{PREVIOUS}", f"cr-en-{CURRENT}", f"cr-ja-{JA}",
                        "wiki-hiru-day", "faq-innistrad-dfc-2011", "wiki-heya-room",
                        "blog-cr-601-casting", "wiki-yoji-manifest"}
    doc = client.get("/api/documents/faq-innistrad-dfc-2011").get_json()
    assert doc["kind"] == "faq" and doc["citations"][0]["document"] == "faq-innistrad-dfc-2011"
    body = client.get("/api/editions").get_json()
    assert [(e["lang"], e["edition"]) for e in body["editions"]] == [
        ("en", OLDEST), ("en", PREVIOUS), ("en", CURRENT), ("ja", JA)]
    assert body["current"] == {"en": CURRENT, "ja": JA}
    assert [c["document"] for c in body["citations"]] == [f"cr-en-{e}" for e in (OLDEST, PREVIOUS, CURRENT)] + [f"cr-ja-{JA}"]


# ---------------------------------------------------------------- ask


def test_ask_day_night_untap_step(client, kb_data):
    _, data, _ = kb_data
    response = client.post("/api/ask/day-night", json={"event": "untap-step", "designation": "day",
                                                       "previous_turn_spells": []})
    assert response.status_code == 200
    body = response.get_json()
    assert body["mechanic"] == "day-night" and body["edition"] == CURRENT
    assert body["outcome"]["designation_before"] == "day" and body["outcome"]["designation"] == "night"
    trace = {s["rule"]: s for s in body["trace"]}
    assert "731.2a" in trace
    assert trace["731.2a"]["text_en"] == _rule_text(data, EN, "731.2a")
    cited = {c["rule"] for c in body["citations"] if "rule" in c}
    assert set(trace) <= cited
    # same question by {"mechanic", "situation"} and by the graph mechanic's name
    again = client.post("/api/ask", json={"mechanic": "Day and Night", "situation": {
        "event": "untap-step", "designation": "day", "previous_turn_spells": []}}).get_json()
    assert again["outcome"] == body["outcome"]


def test_ask_errors_name_the_field(client):
    response = client.post("/api/ask/day-night", json={"event": "bogus"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_situation", "event")
    assert error["message"].startswith("event: 'bogus' is not one of")
    missing = client.post("/api/ask", json={"situation": {}}).get_json()["error"]
    assert (missing["code"], missing["field"]) == ("invalid_situation", "mechanic")
    unknown = client.post("/api/ask/no-such", json={"event": "x"})
    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "mechanic_not_answerable"


def test_ask_the_loaded_cr_cannot_answer_is_422_naming_rule_and_edition(client):
    """The tiny corpus's CR does not link a Room to 608.3f (a copy of a split-card half resolving), which
    the copy case's logic applies: the answer says the snapshot cannot answer it, never a 500."""
    situation = {"room": {"left": {"name": "Walk-In Closet", "mana_cost": "{2}{G}"},
                          "right": {"name": "Forgotten Cellar", "mana_cost": "{3}{G}{G}", "unlock_trigger": True}},
                 "event": "spell_copy_resolves", "cast_half": "right"}
    response = client.post("/api/ask/room", json=situation)
    assert response.status_code == 422
    error = response.get_json()["error"]
    edition = client.get("/api/editions").get_json()["current"]["en"]
    assert (error["code"], error["edition"], error["rule"]) == ("not_answerable", edition, "608.3f")
    assert "608.3f" in error["message"] and edition in error["message"] and "608.3f" in error["message_ja"]
    page = client.post("/mechanics/room/ask", data={"_json": json.dumps(situation)})  # the form says it too
    assert page.status_code == 422 and 'href="/rules/608.3f"' in page.get_data(as_text=True)  # followable
    assert client.post("/api/ask/room", json=dict(situation, event="unlock_action", door="left")).status_code == 200


def test_ask_procedure_lists_every_casting_step(client):
    body = client.get("/api/ask/cast/procedure").get_json()
    assert [s["rule"] for s in body["steps"]] == [f"601.2{c}" for c in "abcdefghi"]
    assert all(c["locator"] for c in body["citations"])
    bad = client.get("/api/ask/cast/procedure?key=dancing")
    assert bad.status_code == 400 and bad.get_json()["error"]["field"] == "procedure"


def test_ask_schemas_are_labelled(client):
    body = client.get("/api/ask").get_json()
    keys = [s["key"] for s in body["schemas"]]
    assert keys == ["cast", "copy", "day-night", "double-faced-card", "face-down", "manifest", "meld", "modal-dfc",
                    "room", "split-card", "state-based-actions"]
    assert client.get("/api/ask/唱える/schema").get_json()["key"] == "cast"
    event = client.get("/api/ask/day-night/schema").get_json()["schema"]["properties"]["event"]
    assert event["title_ja"] == "出来事" and event["enum_labels_en"]["untap-step"] == "the untap step check"


# ---------------------------------------------------------------- RDF by content negotiation


@pytest.mark.parametrize("accept,fmt", [("text/turtle", "turtle"), ("application/ld+json", "json-ld"),
                                        ("application/n-triples", "nt")])
def test_rule_as_rdf(client, kb_data, accept, fmt):
    _, data, _ = kb_data
    response = client.get("/api/rules/601.2c", headers={"Accept": accept})
    assert response.status_code == 200 and response.mimetype == accept
    graph = Graph().parse(data=response.get_data(as_text=True), format=fmt)
    subject = URIRef(vocab.rule_iri("en", CURRENT, "601.2c"))
    assert (subject, vocab.MTG.ruleNumber, Literal("601.2c")) in graph
    texts = {str(o) for o in graph.objects(subject, vocab.MTG.text)}
    assert _rule_text(data, EN, "601.2c") in texts
    assert response.headers["Vary"] == "Accept"


def test_rdf_for_mechanic_page_url_and_format_parameter(client):
    response = client.get("/mechanics/予示", headers={"Accept": "text/turtle"})
    graph = Graph().parse(data=response.get_data(as_text=True), format="turtle")
    assert (URIRef(vocab.mechanic_iri("manifest")), None, None) in graph
    assert client.get("/api/mechanics/予示?format=nt").mimetype == "application/n-triples"
    assert client.get("/api/mechanics/予示?format=xml").get_json()["error"]["code"] == "invalid_parameter"
    # browsers (text/html first) and JSON clients are not given RDF
    assert client.get("/api/rules/601.2c", headers={"Accept": "application/json"}).is_json


# ---------------------------------------------------------------- the OpenAPI document


def test_openapi_documents_every_api_route(app, client):
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    routes = set()
    for rule in app.url_map.iter_rules():
        if str(rule.rule).startswith("/api/"):
            path = str(rule.rule)
            for arg in rule.arguments:
                path = path.replace(f"<path:{arg}>", "{" + arg + "}").replace(f"<{arg}>", "{" + arg + "}")
            routes.add(path)
    assert routes == set(doc["paths"])
    error = doc["components"]["schemas"]["Error"]["properties"]["error"]
    assert error["required"] == ["status", "code", "message", "suggestions"]


# ---------------------------------------------------------------- search, citations/check


def test_search_ranked_cited_and_escaped(client, kb_data):
    kb, data, _ = kb_data
    body = client.get("/api/search?q=day night&limit=5").get_json()
    assert body == kb.search("day night", limit=5) | {"citations": body["citations"]}
    assert body["query"] == "day night" and 0 < len(body["hits"]) <= 5
    scores = [h["score"] for h in body["hits"]]
    assert scores == sorted(scores, reverse=True)
    top = body["hits"][0]
    assert (top["kind"], top["rule"], top["citation"]["document"]) == ("rule", "731.1", f"cr-en-{CURRENT}")
    assert top["citation"]["line_start"] == _rule_line(data, EN, "731.1")
    assert "<mark>" in top["snippet"]
    assert all(h["citation"] for h in body["hits"])
    # each hit's citation, then that of the official JA text an EN rule hit carries (shown on JA pages)
    cited = [c for h in body["hits"] for c in (h["citation"], (h.get("ja") or {}).get("citation")) if c]
    assert body["citations"] == [c for i, c in enumerate(cited) if c not in cited[:i]]
    assert any(h.get("ja") for h in body["hits"])
    assert client.get("/api/search?q=601.2c").get_json()["goto"] == "601.2c"
    escaped = client.get("/api/search?q=<script>").get_json()
    assert escaped["hits"] == [] and escaped["query"] == "<script>"


def test_check_citations(client, kb_data):
    _, data, _ = kb_data
    body = client.post("/api/citations/check", json={"text": "See rule 701.27a and rule 999.1",
                                                     "date": CURRENT}).get_json()
    found = {c["raw"]: c for c in body["citations"]}
    assert found["rule 701.27a"]["status"] == "current"
    assert body["texts"][found["rule 701.27a"]["current"]["text_en_ref"]] == _rule_text(data, EN, "701.27a")
    assert (found["rule 701.27a"]["line"], found["rule 701.27a"]["column"]) == (1, 5)
    assert found["rule 999.1"]["status"] == "never-existed"
    bad = client.post("/api/citations/check", json={"text": "x", "date": "soon"}).get_json()["error"]
    assert (bad["code"], bad["message"]) == ("invalid_date", "date: expected YYYY-MM-DD")


def test_get_answers_are_cached_per_representation(kb_data):
    app = create_app({"KB": kb_data[0], "TESTING": True, "RESPONSE_CACHE_SIZE": 4})
    client, cache = app.test_client(), app.extensions["response_cache"]
    first = client.get("/api/rules/601.2c")
    assert len(cache._items) == 1
    again = client.get("/api/rules/601.2c")
    assert again.data == first.data and again.mimetype == "application/json" and len(cache._items) == 1
    turtle = client.get("/api/rules/601.2c", headers={"Accept": "text/turtle"})
    assert turtle.mimetype == "text/turtle" and len(cache._items) == 2
    assert client.get("/api/rules/601.2z").status_code == 404 and len(cache._items) == 2  # errors are not kept
    for number in ("601.2a", "601.2b", "601.2d"):
        client.get(f"/api/rules/{number}")
    assert len(cache._items) == 4  # least recently used out
    off = create_app({"KB": kb_data[0], "TESTING": True, "RESPONSE_CACHE_SIZE": 0})
    assert off.extensions["response_cache"] is None
    assert off.test_client().get("/api/rules/601.2c").data == first.data


def test_ruling_and_document_as_rdf(client):
    ruling = client.get("/api/rulings?document=wiki-yoji-manifest").get_json()["rulings"][0]
    response = client.get(f"/api/rulings/{quote(ruling['id'], safe='')}", headers={"Accept": "text/turtle"})
    graph = Graph().parse(data=response.get_data(as_text=True), format="turtle")
    texts = {str(o) for o in graph.objects(None, vocab.MTG.text)}
    assert texts == {ruling["text"]}
    doc = Graph().parse(data=client.get("/api/documents/wiki-yoji-manifest?format=nt").get_data(as_text=True),
                        format="nt")
    assert (URIRef(vocab.document_iri("wiki-yoji-manifest")), None, None) in doc


def test_server_readme_lists_every_api_route(client):
    readme = (Path(__file__).resolve().parents[2] / "server" / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`(?:GET|POST) (/api/[^`]*)`", readme))
    documented = set(client.get("/api/openapi.json").get_json()["paths"])
    assert listed == documented
