"""Hostile SPARQL queries and requests, one catalogue for the tests (tests/server/test_server_sparql_limits.py,
test_server_sparql_endpoint.py) and bench/bench_hostile.py: name -> (query, expected status, expected code);
``None`` where whichever limit comes first (the memory cap or the deadline) may stop it."""
from __future__ import annotations


def patterns(n: int) -> str:
    return "SELECT * WHERE { " + " ".join(f"?s{i} ?p{i} ?o{i + 1} ." for i in range(n)) + " }"


HOSTILE = {  # query -> (status, code)
    "150 chained patterns (slow to plan)": (patterns(150), None, None),
    "500 chained patterns": (patterns(500), None, None),
    "5000 nested parentheses": ("SELECT * WHERE { FILTER(" + "(" * 5000 + "1" + ")" * 5000 + ") }", 400, "invalid_query"),
    "5000 nested groups": ("SELECT * WHERE " + "{" * 5000 + "}" * 5000, 400, "invalid_query"),
    "110 KB query": ("SELECT * WHERE { ?s ?p ?o FILTER(?o IN ("
                     + ",".join(f'"{i:06d}"' for i in range(12000)) + ")) }", 413, "payload_too_large"),
    "859 KiB INSERT": ('INSERT DATA { <urn:a> <urn:b> "' + "x" * 880_000 + '" }', 413, "payload_too_large"),
    "INSERT after a prologue": ("PREFIX a: <urn:a#> DELETE WHERE { ?s ?p ?o }", 403, "update_refused"),
    "ORDER BY over a cross product": ("SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f", None, None),
    "unknown function": ("SELECT (<urn:f>(1) AS ?x) {}", 400, "query_failed"),
    "SERVICE clause": ("SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }", 400, "invalid_query"),
    "service in lower case": ("select * where { service <http://127.0.0.1:1/> { ?s ?p ?o } }", 400, "invalid_query"),
    "FROM clause": ("SELECT * FROM <urn:g> WHERE { ?s ?p ?o }", 400, "invalid_query"),
    "FROM NAMED clause": ("SELECT * FROM NAMED <urn:g> WHERE { GRAPH ?g { ?s ?p ?o } }", 400, "invalid_query"),
    "unterminated string": ('SELECT * WHERE { ?s ?p "abc }', 400, "invalid_query"),
    "binary garbage": ("\x00\x01\x02SELECT\xff", 400, "invalid_query"),
    "only a prologue": ("PREFIX a: <urn:a#>", 400, "invalid_query"),
}
