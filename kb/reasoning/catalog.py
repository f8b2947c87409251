"""Every question type, and the answer to a question: outcome, trace, rulings, citations.

Importing this module registers each question type (one sub-package per type, listed here).
"""
from __future__ import annotations

from kb.reasoning import casting, day_night, dfc, manifest, rooms  # noqa: F401  (each registers itself)
from kb.reasoning.engine import registered, registered_all, solve
from kb.reasoning.rulebook import RuleBook
from kb.reasoning.rulings import classify_rulings
from kb.reasoning.rulings import ruling_rules  # noqa: F401  (part of this module's interface)

QUESTION_TYPES = ("cast", "day-night", "double-faced-card", "manifest", "room")


def list_mechanics() -> list[dict]:
    return [{"key": m.key, "name_en": m.name_en, "name_ja": m.name_ja, "schema": m.schema,
             "entry_rules": list(m.entry_rules)} for m in registered_all()]


def ask(book: RuleBook, mechanic: str, situation: dict | str, *, rulings: bool = True) -> dict:
    situation, outcome, ctx = solve(book, mechanic, situation)
    m = registered(mechanic)
    trace = [s.as_dict() for s in ctx.trace]
    classified = classify_rulings(book, m, ctx.rules_applied()) if rulings else \
        {"agree": [], "disagree": [], "superseded": [], "unchecked": []}
    citations = []
    for n in ctx.rules_applied():
        r = book.rule(n)
        citations.append({"rule": n, "edition": book.edition, "document": r.document, "locator": r.locator})
    for group in ("agree", "disagree", "superseded"):
        for r in classified[group]:
            citations.append({"ruling": r["id"], "date": r["date"], "document": r["document"],
                              "locator": r["locator"]})
    return {"mechanic": m.key, "edition": book.edition, "situation": situation, "outcome": outcome,
            "trace": trace, "rulings": classified, "citations": citations}
