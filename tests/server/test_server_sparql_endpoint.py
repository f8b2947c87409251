"""The same /sparql and RDF answers when the graph is read from an Oxigraph SPARQL server
(``SPARQL_ENDPOINT``, ``kb serve --sparql-endpoint URL``) instead of the embedded store: the SPARQL
and RDF tests run again against a real ``oxigraph serve-read-only`` on loopback."""
from __future__ import annotations

import pytest

from kb.store import snapshot
from server import create_app
from tests.server.oxigraph_server import oxigraph_server
from tests.server.corpus import tiny_kb
from tests.server import test_server_api as api
from tests.server import test_server_sparql as sparql
from tests.server import test_server_sparql_limits as limits
from tests.server.hostile import HOSTILE


@pytest.fixture(scope="module")
def endpoint():
    with oxigraph_server(tiny_kb()[0].path / snapshot.STORE, timeout_s=2) as url:
        yield url


@pytest.fixture(scope="module")
def kb():
    return tiny_kb()[0]


@pytest.fixture(scope="module")
def kb_data():
    return tiny_kb()


@pytest.fixture(scope="module")
def text_731_1(kb):
    return kb.rule("731.1")["text"]["en"]


def _remote_client(endpoint, kb, **config):
    app = create_app({"KB": kb, "TESTING": True, "SPARQL_LIMIT": 50, "SPARQL_ENDPOINT": endpoint, **config})
    assert type(app.extensions["sparql_runner"]).__name__ == "RemoteRunner"
    return app.test_client()


@pytest.fixture()
def client(endpoint, kb):
    return _remote_client(endpoint, kb)


@pytest.fixture()
def limited_client(endpoint, kb):
    return _remote_client(endpoint, kb, SPARQL_TIMEOUT=1.0)


# The embedded store's tests, unchanged, with the client above.
test_get_select_as_json = sparql.test_get_select_as_json
test_post_form_as_xml_and_csv = sparql.test_post_form_as_xml_and_csv
test_ask_and_construct = sparql.test_ask_and_construct
test_updates_are_refused = sparql.test_updates_are_refused
test_syntax_error_is_400_with_position = sparql.test_syntax_error_is_400_with_position
test_result_limit_truncates_and_says_so = sparql.test_result_limit_truncates_and_says_so
test_time_limit_stops_an_expensive_query = sparql.test_time_limit_stops_an_expensive_query
test_federation_and_dataset_parameters_refused = sparql.test_federation_and_dataset_parameters_refused
test_the_words_service_and_from_elsewhere_are_fine = limits.test_the_words_service_and_from_elsewhere_are_fine
test_rule_as_rdf = api.test_rule_as_rdf
test_rdf_for_mechanic_page_url_and_format_parameter = api.test_rdf_for_mechanic_page_url_and_format_parameter
test_ruling_and_document_as_rdf = api.test_ruling_and_document_as_rdf


@pytest.mark.parametrize("name", ["5000 nested parentheses", "110 KB query", "859 KiB INSERT", "SERVICE clause",
                                  "FROM clause", "unknown function", "unterminated string"])
def test_hostile_queries_are_refused_before_they_reach_the_server(client, name):
    query, status, code = HOSTILE[name]
    response = client.post("/sparql", data=query.encode(), content_type="application/sparql-query")
    assert (response.status_code, response.get_json()["error"]["code"]) == (status, code)


def test_the_endpoint_answers_exactly_as_the_embedded_store(client, kb):
    embedded = create_app({"KB": kb, "TESTING": True, "SPARQL_LIMIT": 50}).test_client()
    for query in (sparql.TEXT_QUERY, sparql.MANY, "ASK { ?s ?p ?o }"):
        for accept in ("application/sparql-results+json", "text/csv", "application/sparql-results+xml"):
            remote = client.get("/sparql", query_string={"query": query + (" ORDER BY ?r" if query == sparql.MANY else "")},
                                headers={"Accept": accept})
            local = embedded.get("/sparql", query_string={"query": query + (" ORDER BY ?r" if query == sparql.MANY else "")},
                                 headers={"Accept": accept})
            assert (remote.status_code, remote.data) == (local.status_code, local.data)


def test_an_unreachable_endpoint_is_503(kb):
    app = create_app({"KB": kb, "TESTING": True, "SPARQL_ENDPOINT": "http://127.0.0.1:9/query"})
    response = app.test_client().get("/sparql", query_string={"query": "ASK {}"})
    assert response.status_code == 503 and response.get_json()["error"]["code"] == "unavailable"
