"""SPARQL 1.1 Protocol endpoint at /sparql: read-only, with size, nesting, time, memory and result limits.

- Requests: GET ``?query=``, POST form ``query=``, POST ``application/sparql-query``. Results: JSON,
  XML, CSV, TSV for SELECT/ASK; Turtle, N-Triples, JSON-LD for CONSTRUCT/DESCRIBE; by ``Accept``
  or ``?format=``. The default graph is the union of all graphs.
- Checked before any parser sees it (``server.sparql.check``, one linear pass over its tokens):
  over ``SPARQL_MAX_BYTES`` is a 413, brackets nested deeper than ``SPARQL_MAX_DEPTH`` a 400, an
  update (``update=``, ``application/sparql-update``, or INSERT/DELETE/LOAD/… as the query) a 403,
  SERVICE or FROM a 400.
- The deadline (``SPARQL_TIMEOUT``) starts when the request arrives; parsing, planning and running
  all happen inside it, in a query process of their own (embedded store: ``server.sparql.local``,
  capped at ``SPARQL_MEMORY`` bytes) or on the SPARQL server (``SPARQL_ENDPOINT``:
  ``server.sparql.remote``). Past it the answer is 503 ``query_timeout`` and the work is stopped.
  A syntax error is a 400 naming line and column; any other failure of a query a 400
  ``query_failed``; never a 500.
- Result limit (``SPARQL_LIMIT``): at most that many rows or triples; a cut answer carries
  ``X-SPARQL-Truncated: true`` (``X-SPARQL-Result-Limit`` is always sent).
"""
from __future__ import annotations

import time

from flask import Blueprint, Response, current_app, render_template, request

from kb.errors import (InvalidParameter, InvalidQuery, MissingParameter, QueryTimeout, UnsupportedMediaType,
                       UpdateRefused)
from server.errors import APIError
from server.sparql.check import check
from server.sparql.remote import Unreachable
from server.sparql.results import GRAPH_FORMATS, Expired

bp = Blueprint("sparql", __name__)

SELECT_MEDIA = {
    "application/sparql-results+json": "json", "application/json": "json",
    "application/sparql-results+xml": "xml", "application/xml": "xml",
    "text/csv": "csv", "text/tab-separated-values": "tsv",
}
SELECT_FORMAT_MEDIA = {"json": "application/sparql-results+json", "xml": "application/sparql-results+xml",
                       "csv": "text/csv; charset=utf-8", "tsv": "text/tab-separated-values; charset=utf-8"}
GRAPH_MEDIA = {"text/turtle": "ttl", "application/n-triples": "nt", "application/ld+json": "jsonld"}
GRAPH_FORMAT_MEDIA = {v: k for k, v in GRAPH_MEDIA.items()}

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


def _formats(form: str | None) -> dict[str, str]:
    """The answer format for each query form the query may turn out to be (its first keyword
    usually says; a query the parser must judge gets the defaults of every form)."""
    out = {}
    for each in ("select", "ask", "graph") if form is None else (form,):
        try:
            out[each] = _result_format(each)
        except InvalidParameter:
            if form is not None:
                raise
    return out


def _update_refused() -> APIError:
    return UpdateRefused("this SPARQL endpoint is read-only: updates are refused")


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
    deadline = time.monotonic() + float(current_app.config["SPARQL_TIMEOUT"])  # before anything is read
    query = _query_text()
    if query is None or not query.strip():
        if request.method == "GET" and request.accept_mimetypes.best_match(
                ["application/json", "text/html"]) == "text/html" and not request.args:
            return render_template("sparql.html")
        raise MissingParameter("query: a SPARQL query is required")
    if request.values.getlist("default-graph-uri") or request.values.getlist("named-graph-uri"):
        raise InvalidParameter("default-graph-uri / named-graph-uri are not supported; "
                          "the default graph is the union of all graphs")
    config = current_app.config
    checked = check(query, int(config["SPARQL_MAX_BYTES"]), int(config["SPARQL_MAX_DEPTH"]))
    formats = _formats(checked.form)
    limit, timeout = int(config["SPARQL_LIMIT"]), float(config["SPARQL_TIMEOUT"])
    try:
        form, fmt, body, truncated = current_app.extensions["sparql_runner"].run(query, formats, limit, deadline)
    except Expired:
        raise QueryTimeout(f"the query ran longer than the {timeout:g} s time limit "
                           "and was stopped", headers={"Retry-After": "1"}) from None
    except Unreachable as err:
        raise APIError(503, "unavailable", err.message, headers={"Retry-After": "5"}) from None
    except KeyError:  # the parser found another form than the query's first keyword said
        raise InvalidQuery("the query's form could not be told from its first keyword") from None
    media = GRAPH_FORMAT_MEDIA[fmt] if form == "graph" else SELECT_FORMAT_MEDIA[fmt]
    response = Response(body, content_type=media)
    response.headers["X-SPARQL-Result-Limit"] = str(limit)
    if truncated:
        response.headers["X-SPARQL-Truncated"] = "true"
    response.headers["Vary"] = "Accept"
    return response


