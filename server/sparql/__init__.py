"""SPARQL behind the service: the request check (``check``), the answer writers (``results``), and two
runners with one interface, ``run(query, formats, limit, deadline) -> (form, format, body, truncated)``:
``local.LocalRunner`` (the snapshot's embedded store, a process per query) and
``remote.RemoteRunner`` (a SPARQL server over HTTP, ``SPARQL_ENDPOINT``)."""
from __future__ import annotations


def make_runner(kb, endpoint: str | None, memory_bytes: int):
    if endpoint:
        from server.sparql.remote import RemoteRunner
        return RemoteRunner(endpoint)
    from kb.store import snapshot
    from server.sparql.local import LocalRunner
    return LocalRunner(kb.path / snapshot.STORE, memory_bytes)
