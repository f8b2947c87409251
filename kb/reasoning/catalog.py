"""Every question type, and the answer to a question: outcome, trace, rulings, citations.

Importing this module registers each question type (one sub-package per type, listed here).
"""
from __future__ import annotations

from kb.reasoning import casting, day_night, dfc, manifest, rooms, sba, copies, facedown, mdfc, meld, split  # noqa: F401  (each registers itself)
from kb.reasoning.engine import (SituationError, UnreachableRule, is_registered, reachable, registered, registered_all,
                                 solve)
from kb.memo import per_owner
from kb.reasoning.rulebook import RuleBook
from kb.reasoning.rulings import checked_rulings, classify_rulings
from kb.reasoning.rulings import ruling_rules  # noqa: F401  (part of this module's interface)

QUESTION_TYPES = ("cast", "day-night", "double-faced-card", "manifest", "room")


def question_keys() -> frozenset[str]:
    """The key of every registered question type (what ``list_mechanics`` lists, without the schemas)."""
    return frozenset(m.key for m in registered_all())


def is_question_key(key: str) -> bool:
    """``key in question_keys()``, without making the set (asked on every question)."""
    return is_registered(key)


def prepare(book: RuleBook) -> int:
    """Before serving: what every question of a type needs whatever its situation, made now (each is
    memoised per rule book, kb.memo): the CR pins, the rules the type may reach and its rulings with
    their checks run. Otherwise the first question of each type pays for them (tens of ms) in every
    worker. Returns how many question types."""
    types = registered_all()
    for m in types:
        reachable(book, m)
        checked_rulings(book, m)
    return len(types)


def list_mechanics() -> list[dict]:
    return [{"key": m.key, "name_en": m.name_en, "name_ja": m.name_ja, "schema": m.schema,
             "entry_rules": list(m.entry_rules),
             "examples": [{"title_ja": ja, "title_en": en, "situation": sit} for ja, en, sit in m.examples],
             "procedures": [{"key": p.key, "title_ja": p.title_ja, "title_en": p.title_en, "steps": list(p.steps)}
                            for p in m.procedures]} for m in registered_all()]


def procedure(book: RuleBook, mechanic: str, key: str | None = None, trace: list | None = None) -> dict:
    """Every step of one of the mechanic's CR procedures, in order, each with its rule text and
    citation; ``trace`` (a simulated case's steps) marks what each step did in that case."""
    m = registered(mechanic)
    if not m.procedures:
        raise SituationError("procedure", f"{m.key} has no procedure in the CR",
                             message_ja="この種類の質問には手順がありません", label_ja="手順")
    chosen = next((p for p in m.procedures if p.key == key), None) if key else m.procedures[0]
    if chosen is None:
        raise SituationError("procedure", f"unknown procedure {key!r}; one of: "
                             + ", ".join(p.key for p in m.procedures),
                             message_ja="次のいずれかを選んでください: " + "、".join(p.title_ja for p in m.procedures),
                             label_ja="手順")
    did = {}
    for step in trace or ():
        did.setdefault(step["rule"], step["did"])
    edition = book.edition
    steps = [{"rule": n, "text_en": en, "text_ja": ja, "in_this_case": did.get(n),
              "citation": {"rule": n, "edition": edition, "document": document, "locator": locator}}
             for n, en, ja, document, locator in _step_texts(book, m.key, chosen)]
    return {"mechanic": m.key, "edition": book.edition, "procedure": chosen.key, "title_ja": chosen.title_ja,
            "title_en": chosen.title_en, "steps": steps, "citations": [s["citation"] for s in steps]}


def _step_texts(book: RuleBook, key: str, chosen) -> list[tuple]:
    """(rule, EN text, JA text, document, locator) of each step of a procedure, once per rule book."""
    def make() -> list[tuple]:
        out = []
        for n in chosen.steps:
            r = book.rule(n)
            if r is None:  # a renumbered CR must fail loudly, as a broken pin does
                raise UnreachableRule(f"{key}: procedure {chosen.key} names rule {n}, missing from CR {book.edition}", n)
            out.append((n, r.text_en, r.text_ja, r.document, r.locator))
        return out
    return per_owner(book, ("procedure-steps", key, chosen.key), make)


def ask(book: RuleBook, mechanic: str, situation: dict | str, *, rulings: bool = True) -> dict:
    situation, outcome, ctx = solve(book, mechanic, situation)
    m = registered(mechanic)
    trace = [{"rule": s.rule, "edition": s.edition, "text_en": s.text_en, "text_ja": s.text_ja, "did": s.did}
             for s in ctx.trace]  # TraceStep.as_dict, without a call per step
    applied = ctx.rules_applied()
    classified = classify_rulings(book, m, applied) if rulings else \
        {"agree": [], "disagree": [], "superseded": [], "unchecked": []}
    citations = []
    for n in applied:
        r = book.rule(n)
        citations.append({"rule": n, "edition": book.edition, "document": r.document, "locator": r.locator})
    for group in ("agree", "disagree", "superseded"):
        for r in classified[group]:
            citations.append({"ruling": r["id"], "date": r["date"], "document": r["document"],
                              "locator": r["locator"]})
    procs = [procedure(book, m.key, p.key, trace) for p in m.procedures if p.applies(situation)]
    for c in ctx.cards:  # real cards the situation named, as the loaded card data has them
        citations.append({"card": c["key"], "name_ja": c.get("name_ja"), "name_en": c.get("name_en"),
                          "documents": c.get("sources", [])})
    return {"mechanic": m.key, "edition": book.edition, "situation": situation, "outcome": outcome,
            "trace": trace, "procedure": procs[0] if procs else None, "cards": list(ctx.cards),
            "rulings": classified, "citations": citations}
