"""The one citation builder: every answer's sources in one shape (rule, edition, document, locator
a user can follow: lines and section)."""
from __future__ import annotations

from kb.store.rows import Model, RuleKey


def locator(loc: dict, **extra) -> dict:
    """A record's locator (document, lines, section) as a citation, with ``extra`` fields."""
    return {"document": loc["document"], "document_title": loc["document_title"], "locator": loc["locator"],
            "line_start": loc["line_start"], "line_end": loc["line_end"], "section": loc["section"]} | extra


def rule(model: Model, key: RuleKey) -> dict:
    return {"rule": key[2], "edition": key[1], "lang": key[0]} | locator(model.rules[key]["locator"])


def document(model: Model, doc_id: str) -> dict:
    doc = model.documents.get(doc_id, {})
    return {"document": doc_id, "document_title": doc.get("title"), "path": doc.get("path")}
