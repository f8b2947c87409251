"""The one citation builder: every answer's sources in one shape (rule, edition, document, locator
a user can follow: lines and section)."""
from __future__ import annotations

from collections.abc import Iterable

from kb.store.rows import Model, RuleKey

_PLAIN = frozenset({str, int, type(None)})  # exact types (a subclass's repr may differ)
_KEYS = frozenset({str})


def locator(loc: dict, **extra) -> dict:
    """A record's locator (document, lines, section) as a citation, with ``extra`` fields."""
    return {"document": loc["document"], "document_title": loc["document_title"], "locator": loc["locator"],
            "line_start": loc["line_start"], "line_end": loc["line_end"], "section": loc["section"]} | extra


def rule(model: Model, key: RuleKey) -> dict:
    return {"rule": key[2], "edition": key[1], "lang": key[0]} | locator(model.rules[key]["locator"])


def document(model: Model, doc_id: str) -> dict:
    doc = model.documents.get(doc_id, {})
    return {"document": doc_id, "document_title": doc.get("title"), "path": doc.get("path")}


def distinct(citations: Iterable[dict]) -> list[dict]:
    """Each citation once, in the order met: two are the same when ``repr`` of their sorted items
    is. While every citation has only string keys and string, int or None values, the sets of their
    items are compared (equal exactly when those reprs are, and no sort); from the first with another
    value on, reprs are compared, those met before included."""
    out: list[dict] = []
    keys: set = set()
    reprs: set | None = None
    for citation in citations:
        if reprs is None:
            if _PLAIN.issuperset(map(type, citation.values())) and _KEYS.issuperset(map(type, citation)):
                key = frozenset(citation.items())
                if key not in keys:
                    keys.add(key)
                    out.append(citation)
                continue
            reprs = {repr(sorted(m.items())) for m in out}
        marker = repr(sorted(citation.items()))
        if marker not in reprs:
            reprs.add(marker)
            out.append(citation)
    return out
