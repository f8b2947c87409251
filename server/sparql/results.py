"""Running a checked query on an Oxigraph store and writing its answer: SPARQL JSON, XML, CSV and TSV
for SELECT/ASK; Turtle, N-Triples and JSON-LD for CONSTRUCT/DESCRIBE. Used by the query process
(``server.sparql.local``) on the snapshot's store and, on rows parsed back from a SPARQL server's
answer, by ``server.sparql.remote``, so both give the same bytes.
"""
from __future__ import annotations

import csv
import io
import json
import time
from xml.sax.saxutils import escape as xml_escape, quoteattr

import pyoxigraph as ox

GRAPH_FORMATS = {"ttl": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "jsonld": ox.RdfFormat.JSON_LD}


class Expired(Exception):
    """The query ran past its deadline (answered as QueryTimeout)."""


def write(results, formats: dict[str, str], limit: int, deadline: float) -> tuple[str, str, bytes, bool]:
    """(form, format, serialized body, truncated) of a query's results (QueryBoolean / QuerySolutions /
    QueryTriples); ``formats`` gives the format wanted for each form."""
    form = form_of(results)
    fmt = formats[form]
    if form == "ask":
        return form, fmt, _ask_body(bool(results), fmt), False
    if form == "graph":
        triples, truncated = _take(results, limit, deadline)
        return form, fmt, ox.serialize(triples, format=GRAPH_FORMATS[fmt]), truncated
    variables = [v.value for v in results.variables]
    rows, truncated = _take(results, limit, deadline)
    rows = [[row[v] for v in variables] for row in rows]
    return form, fmt, SELECT_WRITERS[fmt](variables, rows), truncated


def form_of(results) -> str:
    if isinstance(results, ox.QueryBoolean):
        return "ask"
    return "select" if isinstance(results, ox.QuerySolutions) else "graph"


def _take(iterator, limit: int, deadline: float) -> tuple[list, bool]:
    out = []
    for item in iterator:
        if len(out) == limit:
            return out, True
        if time.monotonic() > deadline:
            raise Expired()
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
