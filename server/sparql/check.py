"""What a SPARQL request is, read before any parser sees it: one linear pass over the query's tokens.

The pass follows SPARQL's own lexical grammar, so a word inside a string, an IRI or a comment, a
variable (``?service``) or a prefixed name (``ex:from``) is never taken for a keyword:

- the query form, from the first keyword after the prologue (BASE / PREFIX): ``select``, ``ask``
  or ``graph`` (CONSTRUCT, DESCRIBE); an update keyword there (INSERT, DELETE, LOAD, CLEAR, …)
  makes it an update, refused before anything else is read;
- its size (bytes) and nesting depth of ``(`` ``{`` ``[``: over the limits it is refused before
  parsing, because the parser recurses and an unbounded query can exhaust its stack;
- the keywords SERVICE (a federated query: no network from here) and FROM / FROM NAMED (the
  dataset is fixed: the union of the snapshot's graphs), which the grammar allows only as those
  clauses, refused wherever they appear.
Anything else (a syntax error) is left to the real parser, which runs under the time limit.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.errors import InvalidQuery, PayloadTooLarge, UpdateRefused

UPDATE = {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}
FORMS = {"SELECT": "select", "ASK": "ask", "CONSTRUCT": "graph", "DESCRIBE": "graph"}
REFUSED = {"SERVICE": "SERVICE (a federated query) is not allowed here: the endpoint reaches no other service",
           "FROM": "FROM / FROM NAMED are not allowed here: the dataset is fixed (the union of the snapshot's graphs)"}

# One token per match, longest first; strings, IRIs and comments are skipped whole.
TOKEN = re.compile(r'''
    (?P<space>\s+)
  | (?P<comment>\#[^\n]*)
  | (?P<string>"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^'\\]|\\.|'(?!''))*\'\'\'
               |"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')
  | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
  | (?P<var>[?$][\w\u00b7\u0300-\u036f\u203f-\u2040\u00c0-\uffff]*)
  | (?P<pname>[\w\u00c0-\uffff][\w.\-\u00b7\u00c0-\uffff]*:[^\s(){}\[\],;"'<>]*|:[^\s(){}\[\],;"'<>]*)
  | (?P<word>[A-Za-z_][\w\-]*)
  | (?P<open>[({\[])
  | (?P<close>[)}\]])
  | (?P<other>.)
''', re.VERBOSE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class Checked:
    form: str | None  # "select" | "ask" | "graph"; None when the parser must say what is wrong


def _update_refused() -> UpdateRefused:
    return UpdateRefused("this SPARQL endpoint is read-only: updates are refused")


def check(query: str, max_bytes: int, max_depth: int) -> Checked:
    """The query's form, or the error that refuses it (413 size, 403 update, 400 depth/SERVICE/FROM)."""
    if len(query) > max_bytes or len(query.encode("utf-8")) > max_bytes:
        raise PayloadTooLarge(f"the query is larger than {max_bytes} bytes")
    form = None
    prologue = True
    depth = 0
    expect_prologue_args = 0
    for found in TOKEN.finditer(query):
        kind = found.lastgroup
        if kind in ("space", "comment"):
            continue
        if prologue:
            word = found.group().upper() if kind == "word" else None
            if expect_prologue_args:
                expect_prologue_args -= 1
                continue
            if word in ("BASE", "PREFIX"):
                expect_prologue_args = 1 if word == "BASE" else 2
                continue
            prologue = False
            if word in UPDATE:
                raise _update_refused()
            form = FORMS.get(word or "")
        if kind == "open":
            depth += 1
            if depth > max_depth:
                raise InvalidQuery(f"the query nests brackets deeper than {max_depth} levels")
        elif kind == "close":
            depth -= 1
        elif kind == "word":
            word = found.group().upper()
            if word in REFUSED:
                raise InvalidQuery(REFUSED[word])
    return Checked(form)
