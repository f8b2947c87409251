"""/sparql's limits hold for hostile queries: size and nesting refused before parsing, parsing and
planning inside the deadline, a memory cap on the query process, SERVICE/FROM refused by the query's
tokens (not a word match), and every malformed query a 4xx — never a crash, never a 500."""
from __future__ import annotations

import pytest

from server import create_app
from tests.server.corpus import tiny_kb
from tests.server.hostile import HOSTILE, patterns as _patterns


@pytest.fixture(scope="module")
def client():
    return create_app({"KB": tiny_kb()[0], "TESTING": True, "SPARQL_TIMEOUT": 2.0}).test_client()


def _post(client, query: str):
    return client.post("/sparql", data=query.encode("utf-8"), content_type="application/sparql-query")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_queries_get_a_clear_4xx_or_503(client, name):
    query, status, code = HOSTILE[name]
    response = _post(client, query)
    body = response.get_json()
    if status is None:  # stopped by whichever limit comes first: the memory cap or the deadline
        assert (response.status_code, body["error"]["code"]) in ((400, "query_failed"), (503, "query_timeout"))
    else:
        assert (response.status_code, body["error"]["code"]) == (status, code), body
    assert client.post("/sparql", data=b"ASK { ?s ?p ?o }", content_type="application/sparql-query").get_json() \
        == {"head": {}, "boolean": True}  # and the endpoint goes on answering


def test_memory_cap_stops_a_query_that_grows(client):
    app = create_app({"KB": tiny_kb()[0], "TESTING": True, "SPARQL_TIMEOUT": 30.0, "SPARQL_MEMORY": 64 << 20})
    response = _post(app.test_client(), "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f")
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == "the query was stopped: it needed more than 64 MiB of memory"


@pytest.mark.parametrize("query", [
    'SELECT * WHERE { ?s ?p "a service from here" } LIMIT 1',
    "PREFIX ex: <urn:ex#> SELECT ?service ?from WHERE { ?service ex:from ?from } LIMIT 1",
    "SELECT * WHERE { ?s <urn:service> ?o } LIMIT 1 # SERVICE <http://x/> in a comment",
    "SELECT * WHERE { ?s ?p ?o FILTER(?o < 3 && ?o > 1) } LIMIT 1",
])
def test_the_words_service_and_from_elsewhere_are_fine(client, query):
    response = _post(client, query)
    assert response.status_code == 200, response.get_json()
    assert "results" in response.get_json()


def test_a_deadline_counts_parsing_and_planning(client):
    """Planning 150 chained patterns takes Oxigraph many seconds (and much memory): it is stopped at
    the deadline or the memory cap, whichever comes first; before, planning ran outside the deadline."""
    response = _post(client, _patterns(150))
    assert response.status_code in (400, 503)
    assert response.get_json()["error"]["code"] in ("query_timeout", "query_failed")
