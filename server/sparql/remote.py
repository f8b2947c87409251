"""Reading the graph from a SPARQL server (``kb serve --sparql-endpoint URL``) instead of the embedded
store: ``/sparql`` and every RDF read go through the SPARQL 1.1 Protocol.

The server is expected to be Oxigraph serving the snapshot's store read-only (``oxigraph
serve-read-only --location var/snapshots/<snap>/store --timeout-s 5``, see server/README.md); any
SPARQL 1.1 server answering SPARQL JSON results and N-Triples works. Every query is checked here
first (``server.sparql.check``: size, nesting, updates, SERVICE, FROM), so the limits hold wherever
the query runs; the answer is read as a stream, parsed back to terms and written by the same
writers as the embedded store's (``server.sparql.results``), so the two answer the same bytes and
the result limit cuts the stream. The deadline is enforced here too: past it the connection is
dropped (the server's own ``--timeout-s`` stops its work).
"""
from __future__ import annotations

import socket
import urllib.error
import urllib.parse
import urllib.request

import pyoxigraph as ox

from kb.errors import InvalidQuery, QueryFailed
from server.sparql.results import Expired, write

ACCEPT = "application/sparql-results+json, application/n-triples;q=0.9"


class Unreachable(QueryFailed):
    """The SPARQL server did not answer (answered as 503 unavailable by the view)."""


class RemoteRunner:
    def __init__(self, endpoint: str):
        parts = urllib.parse.urlsplit(endpoint)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"SPARQL endpoint {endpoint!r}: expected an http(s) URL")
        joined = "&".join(p for p in (parts.query, "union-default-graph") if p)
        self.endpoint = endpoint
        self.url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path or "/query", joined, ""))

    def start(self) -> None:
        pass

    def close(self) -> None:
        pass

    def _open(self, query: str, accept: str, deadline: float):
        import time
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Expired()
        request = urllib.request.Request(self.url, data=query.encode("utf-8"), method="POST", headers={
            "Content-Type": "application/sparql-query; charset=utf-8", "Accept": accept})
        try:
            return urllib.request.urlopen(request, timeout=remaining)
        except urllib.error.HTTPError as err:
            message = err.read(2000).decode("utf-8", "replace").strip()
            err.close()
            if err.code == 400:
                raise InvalidQuery(f"SPARQL syntax error: {message}") from None
            raise QueryFailed(f"the query failed at the SPARQL server ({err.code}): {message}") from None
        except (TimeoutError, socket.timeout):
            raise Expired() from None
        except urllib.error.URLError as err:
            if isinstance(err.reason, (TimeoutError, socket.timeout)):
                raise Expired() from None
            raise Unreachable(f"the SPARQL server at {self.endpoint} did not answer: {err.reason}") from None

    def run(self, query: str, formats: dict, limit: int, deadline: float) -> tuple[str, str, bytes, bool]:
        with self._open(query, ACCEPT, deadline) as response:
            media = response.headers.get_content_type()
            try:
                if media == "application/n-triples":
                    results = _Triples(q.triple for q in ox.parse(response, format=ox.RdfFormat.N_TRIPLES))
                else:
                    results = ox.parse_query_results(response, format=ox.QueryResultsFormat.JSON)
                return write(results, formats, limit, deadline)
            except (TimeoutError, socket.timeout):
                raise Expired() from None
            except (SyntaxError, ValueError, OSError) as err:
                raise QueryFailed(f"the SPARQL server's answer could not be read: {err}") from None

    def triples_about(self, iris: list, deadline: float) -> list[ox.Triple]:
        """Every triple whose subject is one of ``iris`` (a resource's description)."""
        values = " ".join(f"<{iri}>" for iri in iris)
        query = f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ VALUES ?s {{ {values} }} ?s ?p ?o }}"
        with self._open(query, "application/n-triples", deadline) as response:
            return [q.triple for q in ox.parse(response, format=ox.RdfFormat.N_TRIPLES)]


class _Triples:
    """A CONSTRUCT answer read back from N-Triples, as the writers expect it."""

    def __init__(self, triples):
        self._triples = triples

    def __iter__(self):
        return iter(self._triples)
