"""Fetching one resource from the kb API for a request, shared by the JSON API and the pages.

Each function reads the request's parameters, calls the kb API (which validates them: its errors,
kb.errors, carry their HTTP status) and turns "not there" into a 404 with suggestions. ``with_citations`` makes sure every answer carries
a top-level ``citations`` list, gathered from the nested ``citation`` fields when the kb API's
answer has none of its own.
"""
from __future__ import annotations

import re

import orjson
from flask import current_app, request

from kb import rulenumbers
from kb.errors import (CardNotFound, DocumentNotFound, InvalidJSON, InvalidParameter, MechanicNotFound,
                       RuleNotFound, RulingNotFound, SituationError, UnsupportedMediaType)
from kb.lookup import cite
from kb.lookup.cards import MAX_NAME_QUERY
from kb.search.tokenize import HAS_JA
from kb.memo import per_owner
from kb.text import json_loads_bounded, read_int
from server.state import get_kb

def arg_lang(name: str = "lang", default: str | None = None) -> str | None:
    """The language a request asks for (kb checks it: an unknown one is InvalidLang)."""
    return get_kb().check_lang(request.args.get(name) or default)


def arg_edition() -> str | None:
    """The edition a request names, as kb resolves it (effective or file date; EditionNotFound)."""
    value = request.args.get("edition") or None
    return get_kb().edition(value) if value else None


def arg_int(name: str, default: int, lo: int, hi: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = read_int(raw)  # ASCII digits only: "１０" is not a limit
    except ValueError:
        raise InvalidParameter(f"{name}={raw!r}: expected an integer") from None
    if not lo <= value <= hi:
        raise InvalidParameter(f"{name}={value}: expected {lo}..{hi}")
    return value


def rule(number: str, edition: str | None = None, lang: str | None = None, serialised: bool = False) -> dict:
    """``serialised``: for an answer only written out as JSON (kb.lookup.rules)."""
    kb = get_kb()
    found = kb.rule(number, edition=edition, lang=lang, serialised=serialised)
    if found is None:
        number = rulenumbers.canonical(number)
        where = f" in edition {edition}" if edition else ""
        where += f" ({lang})" if lang else ""
        raise RuleNotFound(f"no rule {number}{where}", suggestions=kb.suggest(number, edition=edition))
    return found


def brief(number: str, edition: str | None) -> dict | None:
    """Number, kind, title and JA/EN text of a rule (for parent/children lists): a full ``kb.rule``
    answer is far more than a list needs. Memoised per KB (kb.memo)."""
    kb = get_kb()

    def make():
        found = kb.rule(number, edition=edition)
        return None if found is None else {
            "number": found["number"], "edition": found["edition"], "kind": found.get("kind"),
            "title": found.get("title"), "text": found.get("text"),
            "citation": (found.get("citations") or [None])[0]}
    return per_owner(kb, ("brief", number, edition), make)


def mechanic(name: str) -> dict:
    kb = get_kb()
    found = kb.mechanic(name)
    if found is None:
        raise MechanicNotFound(f"no mechanic named {name!r}")
    return found


def card(name: str) -> dict:
    kb = get_kb()
    found = kb.card(name)
    if found is None:
        close = kb.find_cards(name, limit=5) if len(name.strip()) <= MAX_NAME_QUERY else []
        ja = bool(HAS_JA.search(name))  # close names in the language the name was asked in
        raise CardNotFound(f"no card named {name!r}", suggestions=[(c["name_ja"] if ja else None) or c["name_en"]
                                                                    or c["name_ja"] for c in close])
    return found


def ruling(ruling_id: str) -> dict:
    found = get_kb().ruling(ruling_id)
    if found is None:
        raise RulingNotFound(f"no ruling {ruling_id!r}")
    return found


def document(doc_id: str) -> dict:
    found = get_kb().document(doc_id)
    if found is None:
        raise DocumentNotFound(f"no document {doc_id!r}", suggestions=[d.get("id") for d in get_kb().documents()])
    return found


def search(q: str | None, lang: str | None, limit: int) -> dict:
    return get_kb().search(q or "", lang=lang, limit=limit)


def ask(mechanic_name: str, situation) -> dict:
    if not isinstance(situation, dict):
        raise SituationError("situation", "the situation must be a JSON object")
    return get_kb().ask(mechanic_name, situation)


def ask_procedure(mechanic_name: str, key: str | None) -> dict:
    return get_kb().ask_procedure(mechanic_name, key)


def ask_schemas() -> list[dict]:
    return get_kb().ask_schemas()


def ask_schema(mechanic_name: str) -> dict:
    key = get_kb().question_key(mechanic_name)
    return next(s for s in ask_schemas() if s["key"] == key)


def reasoning_key(graph_key: str) -> str | None:
    """The question schema key ("day-night") of a graph mechanic ("day-and-night"), if any."""
    return get_kb().reasoning_key(graph_key)


FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")  # what werkzeug parses as a form


_UNREAD = object()
_LONG_NUMBER = re.compile(r"\d{19}")  # may be an integer beyond 64 bits, which orjson reads as a float


def _read_plainly(text: str, depth: int):
    """What ``json_loads_bounded`` reads from ``text``, by orjson (several times faster), or _UNREAD:
    for a text it would scan for depth, one with a long number, or one orjson refuses (NaN, Infinity,
    out-of-range floats, lone surrogates: the standard library reads those, or words its error)."""
    if text.count("[") + text.count("{") > depth \
            or sum(map(text.count, "0123456789")) >= 19 and _LONG_NUMBER.search(text):  # counting is cheaper
        return _UNREAD
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return _UNREAD


def json_body() -> dict:
    """The request's JSON object, or a 400 that says what is wrong with it."""
    # request.data parses a form body first (leaving it empty); other bodies are read as they are
    mimetype = request.mimetype  # parsed from the header on every read: read once
    form = mimetype in FORM_TYPES
    data = request.data if form else request.get_data()
    if not data:
        raise InvalidJSON("the request body is empty; send a JSON object")
    if mimetype not in ("application/json", "") and not mimetype.endswith("+json"):
        raise UnsupportedMediaType(f"Content-Type {mimetype!r}: send application/json")
    text, depth = data.decode(errors="replace"), int(current_app.config["JSON_MAX_DEPTH"])
    body = _read_plainly(text, depth)
    if body is _UNREAD:
        body = json_loads_bounded(text, depth, what="the body")
    if not isinstance(body, dict):
        raise InvalidJSON(f"expected a JSON object, got {type(body).__name__}")
    return body


_LEAVES = frozenset({str, int, float, bool, type(None)})


def with_citations(answer: dict) -> dict:
    """The answer with its ``citations``: its own, or every nested ``citation`` once (kb.lookup.cite.distinct)."""
    if isinstance(answer, dict) and "citations" in answer:
        return answer
    found: list = []
    met: set = set()  # ids of the citation objects already looked at (one is often met many times)

    def walk_dict(value: dict) -> None:
        for key, sub in value.items():
            if type(sub) in _LEAVES:  # neither a dict nor a list: nothing to walk
                continue
            if isinstance(sub, dict):
                if key == "citation":
                    if id(sub) not in met:
                        met.add(id(sub))
                        found.append(sub)
                else:
                    walk_dict(sub)
            elif isinstance(sub, list):
                walk_list(sub)

    def walk_list(value: list) -> None:
        for item in value:
            if type(item) in _LEAVES:
                continue
            if isinstance(item, dict):
                walk_dict(item)
            elif isinstance(item, list):
                walk_list(item)

    if isinstance(answer, dict):
        walk_dict(answer)
    elif isinstance(answer, list):
        walk_list(answer)
    return {**answer, "citations": cite.distinct(found)}


def max_search_limit() -> int:
    return int(current_app.config["SEARCH_MAX_LIMIT"])
