"""SPARQL 1.1 Protocol endpoint at /sparql: read-only, with a time limit and a result limit.

Design (see also the module docs of ``server``):

- The query runs on the kb's Oxigraph store (``rdf.rdf_store``), with the union of all graphs as
  the default graph. Requests: GET ``?query=``, POST form ``query=``, POST
  ``application/sparql-query``. Results: JSON, XML, CSV, TSV for SELECT/ASK; Turtle, N-Triples,
  JSON-LD for CONSTRUCT/DESCRIBE; by ``Accept`` or ``?format=``.
- Parse first: the query is parsed by Oxigraph against an empty store (parsing and planning only,
  nothing is read). A syntax error is a 400 naming line and column; text that parses as a SPARQL
  *update* (``update=``, ``application/sparql-update``, or INSERT/DELETE/LOAD/... in ``query``) is
  refused with a 403. The store itself is never given an update. SERVICE is refused (400).
- Time limit: Oxigraph cannot be interrupted from Python, so the query runs in a forked child
  process that writes its serialized answer to a pipe; the parent waits at most SPARQL_TIMEOUT
  seconds, then kills the child and answers 503 ``query_timeout``. The work really stops.
- Result limit: the child reads at most SPARQL_LIMIT rows (or triples), serializes those and says
  whether there were more; a truncated answer carries ``X-SPARQL-Truncated: true`` and
  ``X-SPARQL-Result-Limit``.
"""
from __future__ import annotations

import csv
import io
import json
import os
import pickle
import re
import select
import signal
import time
from xml.sax.saxutils import escape as xml_escape, quoteattr

import pyoxigraph as ox
from flask import Blueprint, Response, current_app, render_template, request

from server.state import get_kb
from kb.errors import (InvalidParameter, InvalidQuery, MissingParameter, QueryFailed, QueryTimeout,
                       UnsupportedMediaType, UpdateRefused)
from server.errors import APIError
from server.rdf import rdf_store

bp = Blueprint("sparql", __name__)

SELECT_MEDIA = {
    "application/sparql-results+json": "json", "application/json": "json",
    "application/sparql-results+xml": "xml", "application/xml": "xml",
    "text/csv": "csv", "text/tab-separated-values": "tsv",
}
SELECT_FORMAT_MEDIA = {"json": "application/sparql-results+json", "xml": "application/sparql-results+xml",
                       "csv": "text/csv; charset=utf-8", "tsv": "text/tab-separated-values; charset=utf-8"}
GRAPH_MEDIA = {"text/turtle": "ttl", "application/n-triples": "nt", "application/ld+json": "jsonld"}
GRAPH_FORMATS = {"ttl": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "jsonld": ox.RdfFormat.JSON_LD}
GRAPH_FORMAT_MEDIA = {v: k for k, v in GRAPH_MEDIA.items()}
SERVICE = re.compile(r"\bSERVICE\b", re.IGNORECASE)


class _Expired(Exception):
    """The query child ran past its deadline (answered as QueryTimeout)."""


# ---------------------------------------------------------------- request -> query text


def _query_text() -> str | None:
    if request.method == "GET":
        if "update" in request.args:
            raise _update_refused()
        return request.args.get("query")
    mimetype = request.mimetype
    if mimetype == "application/sparql-update" or "update" in request.form:
        raise _update_refused()
    if mimetype == "application/sparql-query":
        return request.get_data(as_text=True)
    if mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        return request.form.get("query")
    raise UnsupportedMediaType(
                   f"Content-Type {mimetype!r}: send application/sparql-query or a form with query=")


def _update_refused() -> APIError:
    return UpdateRefused("this SPARQL endpoint is read-only: updates are refused")


def parse(query: str) -> str:
    """The query form ("select" | "ask" | "graph"), or a 400/403 naming the problem."""
    if SERVICE.search(query):
        raise InvalidQuery("SERVICE (federated query) is not allowed here")
    try:
        parsed = ox.Store().query(query)  # empty store: parse and plan, nothing to read
    except SyntaxError as err:
        if _is_update(query):
            raise _update_refused() from None
        raise InvalidQuery(f"SPARQL syntax error: {err}") from None
    if isinstance(parsed, ox.QueryBoolean):
        return "ask"
    if isinstance(parsed, ox.QuerySolutions):
        return "select"
    return "graph"


def _is_update(query: str) -> bool:
    from rdflib.plugins.sparql.parser import parseUpdate

    try:
        parseUpdate(query)
    except Exception:  # noqa: BLE001 - any parse failure means "not an update"
        return False
    return True


def _result_format(form: str) -> str:
    fmt = request.args.get("format") or request.form.get("format") if request.method == "POST" \
        else request.args.get("format")
    if form == "graph":
        if fmt:
            if fmt not in GRAPH_FORMATS:
                raise InvalidParameter(f"format={fmt!r}: expected one of ttl, nt, jsonld")
            return fmt
        best = request.accept_mimetypes.best_match(list(GRAPH_MEDIA))
        return GRAPH_MEDIA.get(best, "ttl") if best and request.accept_mimetypes[best] else "ttl"
    if fmt:
        if fmt not in SELECT_FORMAT_MEDIA:
            raise InvalidParameter(f"format={fmt!r}: expected one of json, xml, csv, tsv")
        return fmt
    best = request.accept_mimetypes.best_match(list(SELECT_MEDIA))
    return SELECT_MEDIA[best] if best and request.accept_mimetypes[best] else "json"


# ---------------------------------------------------------------- the endpoint


@bp.route("/sparql", methods=["GET", "POST"])
def endpoint():
    query = _query_text()
    if query is None or not query.strip():
        if request.method == "GET" and request.accept_mimetypes.best_match(
                ["application/json", "text/html"]) == "text/html" and not request.args:
            return render_template("sparql.html")
        raise MissingParameter("query: a SPARQL query is required")
    if request.values.getlist("default-graph-uri") or request.values.getlist("named-graph-uri"):
        raise InvalidParameter("default-graph-uri / named-graph-uri are not supported; "
                          "the default graph is the union of all graphs")
    form = parse(query)
    fmt = _result_format(form)
    config = current_app.config
    limit, timeout = int(config["SPARQL_LIMIT"]), float(config["SPARQL_TIMEOUT"])
    try:
        body, truncated = run(rdf_store(get_kb()), query, form, fmt, limit, timeout)
    except _Expired:
        raise QueryTimeout(f"the query ran longer than the {timeout:g} s time limit "
                       "and was stopped", headers={"Retry-After": "1"}) from None
    media = GRAPH_FORMAT_MEDIA[fmt] if form == "graph" else SELECT_FORMAT_MEDIA[fmt]
    response = Response(body, content_type=media)
    response.headers["X-SPARQL-Result-Limit"] = str(limit)
    if truncated:
        response.headers["X-SPARQL-Truncated"] = "true"
    response.headers["Vary"] = "Accept"
    return response


# ---------------------------------------------------------------- execution with limits


def run(store, query: str, form: str, fmt: str, limit: int, timeout: float) -> tuple[bytes, bool]:
    """Run ``query`` in a forked child; (serialized body, truncated) or _Expired/KBError."""
    if not hasattr(os, "fork"):  # pragma: no cover - no fork: run inline (no hard time limit)
        return execute(store, query, form, fmt, limit, time.monotonic() + timeout)
    read_fd, write_fd = os.pipe()
    deadline = time.monotonic() + timeout
    pid = os.fork()
    if pid == 0:  # child: compute, write, exit without running the parent's cleanup
        code = 0
        try:
            os.close(read_fd)
            try:
                payload = ("ok", execute(store, query, form, fmt, limit, deadline))
            except Exception as err:  # noqa: BLE001 - reported to the parent
                payload = ("error", f"{type(err).__name__}: {err}")
            data = pickle.dumps(payload)
            view = memoryview(data)
            while view:
                written = os.write(write_fd, view)
                view = view[written:]
        except BaseException:  # noqa: BLE001
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    chunks = []
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Expired()
            ready, _, _ = select.select([read_fd], [], [], remaining)
            if not ready:
                raise _Expired()
            data = os.read(read_fd, 1 << 16)
            if not data:
                break
            chunks.append(data)
    except _Expired:
        _kill(pid)
        raise
    finally:
        os.close(read_fd)
    os.waitpid(pid, 0)
    if not chunks:
        raise APIError(500, "internal_error", "the query process ended without an answer")
    status, value = pickle.loads(b"".join(chunks))
    if status == "error":
        raise QueryFailed(f"the query failed: {value}")
    return value


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


def execute(store, query: str, form: str, fmt: str, limit: int, deadline: float) -> tuple[bytes, bool]:
    results = store.query(query, use_default_graph_as_union=True)
    if form == "ask":
        return _ask_body(bool(results), fmt), False
    if form == "graph":
        triples, truncated = _take(results, limit, deadline)
        return ox.serialize(triples, format=GRAPH_FORMATS[fmt]), truncated
    variables = [v.value for v in results.variables]
    rows, truncated = _take(results, limit, deadline)
    rows = [[row[v] for v in variables] for row in rows]
    return SELECT_WRITERS[fmt](variables, rows), truncated


def _take(iterator, limit: int, deadline: float) -> tuple[list, bool]:
    out = []
    for item in iterator:
        if len(out) == limit:
            return out, True
        if time.monotonic() > deadline:
            raise _Expired()
        out.append(item)
    return out, False


# ---------------------------------------------------------------- result writers


def _json_term(term) -> dict:
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Literal):
        out = {"type": "literal", "value": term.value}
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype and term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            out["datatype"] = term.datatype.value
        return out
    return {"type": "triple", "value": str(term)}


def _json(variables, rows) -> bytes:
    bindings = [{v: _json_term(t) for v, t in zip(variables, row) if t is not None} for row in rows]
    return json.dumps({"head": {"vars": variables}, "results": {"bindings": bindings}},
                      ensure_ascii=False).encode()


def _xml_term(term) -> str:
    if isinstance(term, ox.NamedNode):
        return f"<uri>{xml_escape(term.value)}</uri>"
    if isinstance(term, ox.BlankNode):
        return f"<bnode>{xml_escape(term.value)}</bnode>"
    if isinstance(term, ox.Literal):
        if term.language:
            return f"<literal xml:lang={quoteattr(term.language)}>{xml_escape(term.value)}</literal>"
        if term.datatype and term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            return f"<literal datatype={quoteattr(term.datatype.value)}>{xml_escape(term.value)}</literal>"
        return f"<literal>{xml_escape(term.value)}</literal>"
    return f"<literal>{xml_escape(str(term))}</literal>"


XML_HEAD = '<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n'


def _xml(variables, rows) -> bytes:
    out = [XML_HEAD, "<head>", *(f"<variable name={quoteattr(v)}/>" for v in variables), "</head>\n<results>\n"]
    for row in rows:
        out.append("<result>")
        out.extend(f"<binding name={quoteattr(v)}>{_xml_term(t)}</binding>"
                   for v, t in zip(variables, row) if t is not None)
        out.append("</result>\n")
    out.append("</results>\n</sparql>\n")
    return "".join(out).encode()


def _csv(variables, rows) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(variables)
    for row in rows:
        writer.writerow(["" if t is None else (f"_:{t.value}" if isinstance(t, ox.BlankNode) else t.value)
                         for t in row])
    return buffer.getvalue().encode()


def _tsv(variables, rows) -> bytes:
    lines = ["\t".join(f"?{v}" for v in variables)]
    lines.extend("\t".join("" if t is None else str(t) for t in row) for row in rows)
    return ("\n".join(lines) + "\n").encode()


SELECT_WRITERS = {"json": _json, "xml": _xml, "csv": _csv, "tsv": _tsv}


def _ask_body(value: bool, fmt: str) -> bytes:
    if fmt == "xml":
        return f"{XML_HEAD}<head/>\n<boolean>{'true' if value else 'false'}</boolean>\n</sparql>\n".encode()
    if fmt in ("csv", "tsv"):
        return ("true" if value else "false").encode() + b"\n"
    return json.dumps({"head": {}, "boolean": value}).encode()
