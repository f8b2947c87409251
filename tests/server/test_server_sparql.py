"""/sparql: SPARQL 1.1 Protocol (GET, POST form, POST query body), JSON/XML/CSV/TSV results,
read-only (updates refused with 403), a result limit and a time limit that are enforced."""
from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest
from rdflib import Graph, Literal, URIRef

from kb import vocab
from server import create_app
from tests.server.corpus import tiny_kb

RULE = vocab.rule_iri("en", "2026-04-17", "731.1")
TEXT_QUERY = f"""PREFIX mtg: <{vocab.MTG._NS}>
SELECT ?number ?text WHERE {{ <{RULE}> mtg:ruleNumber ?number ; mtg:text ?text }}"""
MANY = f"PREFIX mtg: <{vocab.MTG._NS}> SELECT ?r ?n WHERE {{ ?r mtg:ruleNumber ?n }}"
EXPENSIVE = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


@pytest.fixture(scope="module")
def kb():
    return tiny_kb()[0]


@pytest.fixture(scope="module")
def client(kb):
    """The default time limit: what these tests assert is the answer, never how fast a busy machine is."""
    return create_app({"KB": kb, "TESTING": True, "SPARQL_LIMIT": 50}).test_client()


@pytest.fixture(scope="module")
def limited_client(kb):
    return create_app({"KB": kb, "TESTING": True, "SPARQL_TIMEOUT": 1.0, "SPARQL_LIMIT": 50}).test_client()


@pytest.fixture(scope="module")
def text_731_1(kb):
    return kb.rule("731.1")["text"]["en"]


def test_get_select_as_json(client, text_731_1):
    response = client.get("/sparql", query_string={"query": TEXT_QUERY},
                          headers={"Accept": "application/sparql-results+json"})
    assert response.status_code == 200 and response.mimetype == "application/sparql-results+json"
    assert json.loads(response.data) == {"head": {"vars": ["number", "text"]}, "results": {"bindings": [
        {"number": {"type": "literal", "value": "731.1"},
         "text": {"type": "literal", "value": text_731_1, "xml:lang": "en"}}]}}
    assert "X-SPARQL-Truncated" not in response.headers


def test_post_form_as_xml_and_csv(client, text_731_1):
    response = client.post("/sparql", data={"query": TEXT_QUERY},
                           headers={"Accept": "application/sparql-results+xml"})
    assert response.mimetype == "application/sparql-results+xml"
    ns = {"s": "http://www.w3.org/2005/sparql-results#"}
    root = ET.fromstring(response.data)
    assert [v.get("name") for v in root.findall("s:head/s:variable", ns)] == ["number", "text"]
    literal = root.find("s:results/s:result/s:binding[@name='text']/s:literal", ns)
    assert literal.text == text_731_1
    assert literal.get("{http://www.w3.org/XML/1998/namespace}lang") == "en"
    response = client.post("/sparql", data=TEXT_QUERY, content_type="application/sparql-query",
                           headers={"Accept": "text/csv"})
    assert response.mimetype == "text/csv"
    assert list(csv.reader(io.StringIO(response.get_data(as_text=True)))) == [["number", "text"], ["731.1", text_731_1]]


def test_ask_and_construct(client, text_731_1):
    ask = client.get("/sparql", query_string={"query": f"ASK {{ <{RULE}> ?p ?o }}"})
    assert json.loads(ask.data) == {"head": {}, "boolean": True}
    construct = client.get("/sparql", query_string={
        "query": f"CONSTRUCT {{ <{RULE}> <{vocab.MTG.text}> ?t }} WHERE {{ <{RULE}> <{vocab.MTG.text}> ?t }}"},
        headers={"Accept": "text/turtle"})
    assert construct.mimetype == "text/turtle"
    graph = Graph().parse(data=construct.get_data(as_text=True), format="turtle")
    assert set(graph) == {(URIRef(RULE), URIRef(vocab.MTG.text), Literal(text_731_1, lang="en"))}


@pytest.mark.parametrize("how", ["get-update", "post-update-form", "post-sparql-update", "update-in-query"])
def test_updates_are_refused(client, kb, how):
    update = "INSERT DATA { <urn:a> <urn:b> <urn:c> }"
    if how == "get-update":
        response = client.get("/sparql", query_string={"update": update})
    elif how == "post-update-form":
        response = client.post("/sparql", data={"update": update})
    elif how == "post-sparql-update":
        response = client.post("/sparql", data=update, content_type="application/sparql-update")
    else:
        response = client.get("/sparql", query_string={"query": update})
    assert response.status_code == 403
    assert response.get_json() == {"error": {"status": 403, "code": "update_refused",
                                             "message": "this SPARQL endpoint is read-only: updates are refused",
                                             "suggestions": []}}
    assert len(list(kb.store.query("SELECT * WHERE { <urn:a> ?p ?o }", use_default_graph_as_union=True))) == 0


def test_syntax_error_is_400_with_position(client):
    response = client.get("/sparql", query_string={"query": "SELECT ?x WHERE { ?x ?y }"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "invalid_query" and error["message"].startswith("SPARQL syntax error: error at 1:")
    missing = client.get("/sparql", headers={"Accept": "application/json"}).get_json()["error"]
    assert (missing["code"], missing["message"]) == ("missing_parameter", "query: a SPARQL query is required")


def test_result_limit_truncates_and_says_so(client):
    response = client.get("/sparql", query_string={"query": MANY})
    rows = json.loads(response.data)["results"]["bindings"]
    assert len(rows) == 50
    assert response.headers["X-SPARQL-Truncated"] == "true" and response.headers["X-SPARQL-Result-Limit"] == "50"
    small = client.get("/sparql", query_string={"query": MANY + " LIMIT 7"})
    assert len(json.loads(small.data)["results"]["bindings"]) == 7 and "X-SPARQL-Truncated" not in small.headers


def test_time_limit_stops_an_expensive_query(limited_client):
    client = limited_client
    response = client.get("/sparql", query_string={"query": EXPENSIVE})
    assert response.status_code == 503
    assert response.get_json() == {"error": {"status": 503, "code": "query_timeout",
                                             "message": "the query ran longer than the 1 s time limit and was stopped",
                                             "suggestions": []}}
    # the endpoint still answers afterwards
    assert client.get("/sparql", query_string={"query": "ASK { ?s ?p ?o }"}).status_code == 200


def test_federation_and_dataset_parameters_refused(client):
    service = client.get("/sparql", query_string={"query": "SELECT * WHERE { SERVICE <http://x/> { ?s ?p ?o } }"})
    assert service.status_code == 400 and "SERVICE" in service.get_json()["error"]["message"]
    graphs = client.get("/sparql", query_string={"query": "ASK {}", "default-graph-uri": "urn:x"})
    assert graphs.status_code == 400 and graphs.get_json()["error"]["code"] == "invalid_parameter"
