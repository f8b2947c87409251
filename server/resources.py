"""Fetching one resource from the kb API for a request, shared by the JSON API and the pages.

Each function validates the request's input (a 400 that names the problem), calls the kb API and
turns "not there" into a 404 with suggestions. ``with_citations`` makes sure every answer carries
a top-level ``citations`` list, gathered from the nested ``citation`` fields when the kb API's
answer has none of its own.
"""
from __future__ import annotations

import re

from flask import current_app, request

from . import get_kb
from .errors import APIError, bad_request, not_found

RULE_NUMBER = re.compile(r"\d|\d{3}|\d{3}\.\d{1,3}[a-z]?")
LANGS = ("en", "ja")
EDITION = re.compile(r"\d{4}-\d{2}-\d{2}")


def check_rule_number(number: str) -> str:
    number = number.strip().rstrip(".")
    if not RULE_NUMBER.fullmatch(number):
        raise bad_request("invalid_rule_number",
                          f"{number!r} is not a rule number; expected a chapter (7), a section (702), "
                          "a rule (702.145) or a subrule (601.2c)")
    return number


def arg_lang(name: str = "lang", default: str | None = None) -> str | None:
    value = request.args.get(name) or default
    if value is not None and value not in LANGS:
        raise bad_request("invalid_lang", f"{name}={value!r}: expected one of {', '.join(LANGS)}")
    return value


def arg_edition() -> str | None:
    value = request.args.get("edition") or None
    if value is None:
        return None
    if not EDITION.fullmatch(value):
        raise bad_request("invalid_edition", f"edition={value!r}: expected an effective date YYYY-MM-DD")
    known = {e.get("edition") for e in get_kb().editions()}
    if value not in known:
        raise not_found("edition_not_found", f"no edition {value} is loaded",
                        sorted(k for k in known if k))
    return value


def arg_int(name: str, default: int, lo: int, hi: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise bad_request("invalid_parameter", f"{name}={raw!r}: expected an integer") from None
    if not lo <= value <= hi:
        raise bad_request("invalid_parameter", f"{name}={value}: expected {lo}..{hi}")
    return value


def rule(number: str, edition: str | None = None, lang: str | None = None) -> dict:
    number = check_rule_number(number)
    kb = get_kb()
    found = kb.rule(number, edition=edition, lang=lang)
    if found is None:
        where = f" in edition {edition}" if edition else ""
        where += f" ({lang})" if lang else ""
        raise not_found("rule_not_found", f"no rule {number}{where}",
                        kb.suggest(number, edition=edition))
    return found


def brief(number: str, edition: str | None) -> dict | None:
    """Number, kind, title and JA/EN text of a rule (for parent/children lists), memoized per
    process: the snapshot is read-only and a full ``kb.rule`` answer is far more than a list needs."""
    memo = current_app.extensions.setdefault("rule_briefs", {})
    key = (number, edition)
    if key not in memo:
        found = get_kb().rule(number, edition=edition)
        memo[key] = None if found is None else {
            "number": found["number"], "edition": found["edition"], "kind": found.get("kind"),
            "title": found.get("title"), "text": found.get("text"),
            "citation": (found.get("citations") or [None])[0]}
        if len(memo) > 50_000:
            memo.clear()
    return memo[key]


def mechanic(name: str) -> dict:
    kb = get_kb()
    found = kb.mechanic(name)
    if found is None:
        raise not_found("mechanic_not_found", f"no mechanic named {name!r}",
                        [m.get("key") for m in kb.find_mechanics(name)][:10])
    return found


def card(name: str) -> dict:
    found = get_kb().card(name)
    if found is None:
        hits = get_kb().search(name, limit=5).get("hits", []) if hasattr(get_kb(), "search") else []
        raise not_found("card_not_found", f"no card named {name!r}",
                        [h["id"] for h in hits if h.get("kind") == "card"])
    return found


def ruling(ruling_id: str) -> dict:
    found = get_kb().ruling(ruling_id)
    if found is None:
        raise not_found("ruling_not_found", f"no ruling {ruling_id!r}")
    return found


def document(doc_id: str) -> dict:
    found = get_kb().document(doc_id)
    if found is None:
        raise not_found("document_not_found", f"no document {doc_id!r}",
                        [d.get("id") for d in get_kb().documents()])
    return found


def search(q: str | None, lang: str | None, limit: int) -> dict:
    if not q or not q.strip():
        raise bad_request("missing_parameter", "q: the search text is required")
    if len(q) > 500:
        raise bad_request("invalid_parameter", f"q: at most 500 characters (got {len(q)})")
    return get_kb().search(q.strip(), lang=lang, limit=limit)


def ask(mechanic_name: str, situation) -> dict:
    from kb.reasoning.engine import SituationError

    key = mechanic_key(mechanic_name)
    if not isinstance(situation, dict):
        raise bad_request("invalid_situation", "the situation must be a JSON object",
                          field="situation")
    try:
        return get_kb().ask(key, situation)
    except SituationError as err:
        raise bad_request("invalid_situation", f"{err.field}: {err.message}", field=err.field) from None


def ask_schemas() -> list[dict]:
    return get_kb().ask_schemas()


def ask_schema(mechanic_name: str) -> dict:
    key = mechanic_key(mechanic_name)
    return next(s for s in ask_schemas() if s["key"] == key)


def reasoning_key(graph_key: str) -> str | None:
    """The question schema key ("day-night") of a graph mechanic ("day-and-night"), if any."""
    kb = get_kb()
    if hasattr(kb, "reasoning_key"):
        return kb.reasoning_key(graph_key)
    keys = {s["key"] for s in ask_schemas()}
    if graph_key in keys:
        return graph_key
    book = kb.rulebook() if hasattr(kb, "rulebook") else None
    return getattr(book, "_reasoning_of", {}).get(graph_key)


def mechanic_key(name: str) -> str:
    """A question schema key from a schema key or any name of the mechanic; 404 otherwise."""
    keys = sorted(s["key"] for s in ask_schemas())
    if name in keys:
        return name
    for found in get_kb().find_mechanics(name, limit=5) if name.strip() else []:
        key = reasoning_key(found["key"])
        if key:
            return key
    raise not_found("mechanic_not_answerable",
                    f"no question form for {name!r}; ask about one of: {', '.join(keys)}", keys)


def json_body() -> dict:
    """The request's JSON object, or a 400 that says what is wrong with it."""
    if not request.data:
        raise bad_request("invalid_json", "the request body is empty; send a JSON object")
    if request.mimetype not in ("application/json", "") and not request.mimetype.endswith("+json"):
        raise APIError(415, "unsupported_media_type",
                       f"Content-Type {request.mimetype!r}: send application/json")
    import json

    try:
        body = json.loads(request.get_data(as_text=True))
    except json.JSONDecodeError as err:
        raise bad_request("invalid_json",
                          f"the body is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except UnicodeDecodeError:
        raise bad_request("invalid_json", "the body is not UTF-8") from None
    if not isinstance(body, dict):
        raise bad_request("invalid_json", f"expected a JSON object, got {type(body).__name__}")
    return body


def with_citations(answer: dict) -> dict:
    if isinstance(answer, dict) and "citations" in answer:
        return answer
    found: list = []
    seen: set = set()

    def walk(value):
        if isinstance(value, dict):
            for key, sub in value.items():
                if key == "citation" and isinstance(sub, dict):
                    marker = repr(sorted(sub.items()))
                    if marker not in seen:
                        seen.add(marker)
                        found.append(sub)
                else:
                    walk(sub)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(answer)
    return {**answer, "citations": found}


def max_search_limit() -> int:
    return int(current_app.config["SEARCH_MAX_LIMIT"])
