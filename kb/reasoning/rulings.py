"""Rulings checked by computing them: each source ruling's own situation is run through the engine
and its claim compared with the computed outcome (agree / disagree / superseded)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kb.memo import per_owner
from kb.reasoning.engine import Mechanic, SituationError, UnreachableRule, registered_all, related_mechanics, solve
from kb.reasoning.registry import check_pins
from kb.reasoning.rulebook import RulingView
from kb.text import normalize


@dataclass(frozen=True)
class RulingCheck:
    """A ruling's own claim, checked by computing its situation with the current rules.

    Not a table of answers: ``situation`` is what the ruling describes and ``claims`` is a
    predicate over the COMPUTED outcome stating what the ruling says happens. The engine computes
    the outcome from the registered rule logic; the claim is only compared with it. A ruling whose
    claim fails against the current edition is "superseded" (dated before the edition) or
    "disagree". ``fingerprint`` is a distinctive substring of the ruling's text in its source.
    """

    fingerprint: str
    mechanic: str
    situation: dict
    claims: Callable[[dict], bool]
    says: str  # the claim in a few words, for the report


def _ruling_dict(r: RulingView) -> dict:
    return {"id": r.id, "document": r.document, "document_title": r.document_title, "date": r.date,
            "text": r.text, "locator": r.locator, "kind": r.kind, "cited_rules": list(r.cited_rules)}


def _run_check(book, check: RulingCheck) -> tuple[bool, list[str], str | None]:
    def run() -> tuple[bool, list[str], str | None]:
        try:
            _, outcome, ctx = solve(book, check.mechanic, check.situation)
            return bool(check.claims(outcome)), [s.rule for s in ctx.trace], None
        except (UnreachableRule, SituationError, KeyError, TypeError, ValueError) as e:
            # A broken check must not break the answer it decorates; it is reported, not hidden.
            return False, [], f"{type(e).__name__}: {e}"
    return per_owner(book, ("check", check.mechanic, check.fingerprint), run)


def _matched_rulings(book, m: Mechanic) -> list[tuple[RulingView, list[RulingCheck]]]:
    """The mechanic's (and related mechanics') rulings, each with every check whose fingerprint it
    holds (a paragraph or a quoted rule with its example can make several claims)."""
    def match() -> list[tuple[RulingView, list[RulingCheck]]]:
        keys = [m.key] + related_mechanics(book, m.key)
        by_key = {x.key: x for x in registered_all()}
        checks = [(normalize(c.fingerprint), c) for k in keys if k in by_key for c in by_key[k].checks]
        seen, out = set(), []
        for k in keys:
            for r in book.rulings(k):
                if r.id not in seen:
                    seen.add(r.id)
                    text = normalize(r.text)
                    out.append((r, [c for f, c in checks if f in text]))
        return out
    return per_owner(book, ("rulings", m.key), match)


def ruling_rules(book) -> dict[str, dict[str, list[str]]]:
    """Ruling id -> the rules that decide the case it describes, computed, not looked up.

    For every registered mechanic, each source ruling matched to RulingChecks has its checks' own
    situations run through the engine (``_run_check``, cached per book). ``deciding``: the rule
    that decided each check's case (the first of its trace); ``rules``: every rule of the checks'
    traces, the deciding ones first. A check that errors contributes nothing; a claim that no
    longer holds still names the rules that decide its case (a superseded ruling is about them
    too). Raises PinError when the loaded CR no longer says what the logic assumes.
    """
    per_owner(book, "pins", lambda: check_pins(book))
    traces: dict[str, list[list[str]]] = {}
    for m in registered_all():
        for r, checks in _matched_rulings(book, m):
            for check in checks:
                _, rules, error = _run_check(book, check)
                if rules and not error and rules not in traces.setdefault(r.id, []):
                    traces[r.id].append(rules)
    out = {}
    for rid, ts in traces.items():
        if ts:
            deciding = list(dict.fromkeys(t[0] for t in ts))
            out[rid] = {"deciding": deciding, "rules": list(dict.fromkeys(deciding + [n for t in ts for n in t]))}
    return out


def checked_rulings(book, m: Mechanic) -> list[tuple[RulingView, frozenset, list[tuple]]]:
    """The mechanic's matched rulings with what their checks computed (``_run_check``: the same for
    every question), as (ruling, its cited rules, [(check, holds, rules, their set, error)]), made once
    per rule book and mechanic (kb.memo): a question only compares them with the rules it applied."""
    def make() -> list[tuple[RulingView, frozenset, list[tuple]]]:
        out = []
        for r, checks in _matched_rulings(book, m):
            results = []
            for check in checks:
                holds, rules, error = _run_check(book, check)
                results.append((check, holds, rules, frozenset(rules), error))
            out.append((r, frozenset(r.cited_rules), results))
        return out
    return per_owner(book, ("checked-rulings", m.key), make)


def _prepared(book, m: Mechanic) -> tuple[dict[str, list[int]], list[tuple]]:
    """``checked_rulings`` made ready for ``classify_rulings``, once per rule book and mechanic:
    rule -> positions of the rulings a question applying that rule may list (a ruling under none of
    the applied rules is skipped by every branch of ``classify_rulings``, so it is not looked at),
    and per ruling (ruling, cited rules, [(check, holds, rules, their set, error, rules once each)],
    its fields as ``_ruling_dict`` gives them)."""
    def make() -> tuple[dict[str, list[int]], list[tuple]]:
        index: dict[str, set[int]] = {}
        entries = []
        for i, (r, cited, results) in enumerate(checked_rulings(book, m)):
            if not results:
                anchors = set(sorted(cited)[:1]) if r.cited_rules else set()  # cited <= applied: any one cited
            else:
                anchors = {rules[0] for _, _, rules, _, error in results if rules and not error}
                if any(error for *_, error in results):
                    anchors |= cited  # listed unchecked when it shares a rule with the question
            for n in anchors:
                index.setdefault(n, set()).add(i)
            entries.append((r, cited, [(*x, tuple(dict.fromkeys(x[2]))) for x in results], _ruling_dict(r)))
        return {n: sorted(ids) for n, ids in index.items()}, entries
    return per_owner(book, ("rulings-prepared", m.key), make)


def classify_rulings(book, m: Mechanic, trace_rules: list[str]) -> dict:
    out = {"agree": [], "disagree": [], "superseded": [], "unchecked": []}
    applied = set(trace_rules)
    index, entries = _prepared(book, m)
    picked: set[int] = set()
    for n in applied:
        found = index.get(n)
        if found:
            picked.update(found)
    for i in sorted(picked):
        r, cited, results, fields = entries[i]
        if not results:
            if r.cited_rules and cited <= applied:
                out["unchecked"].append({**fields, "cited_rules": list(r.cited_rules)})
            continue
        relevant, failed, errors = [], [], []
        for check, holds, rules, rule_set, error, once in results:
            if error:
                errors.append(error)
            # Relevant when this question applied the rule that decided the claim's own case (the
            # first in its trace) and at least half of the rules that case needed.
            elif rules and rules[0] in applied and 2 * len(applied & rule_set) >= len(rule_set):
                relevant.append((check, once))
                if not holds:
                    failed.append((check, once))
        if not relevant:
            if errors and applied & cited:
                out["unchecked"].append({**fields, "cited_rules": list(r.cited_rules), "check_error": errors[0]})
            continue
        chosen = failed or relevant
        if len(chosen) == 1:
            rules = list(chosen[0][1])
            claims = "; ".join([chosen[0][0].says])
        else:
            rules = list(dict.fromkeys(n for _, once in chosen for n in once))
            claims = "; ".join([c.says for c, _ in chosen])
        d = {**fields, "cited_rules": list(r.cited_rules), "claims": claims, "rules": rules}
        if not failed:
            out["agree"].append(d)
        elif r.date and r.date < book.edition:
            d["superseded_by"], d["edition"] = rules, book.edition
            out["superseded"].append(d)
        else:
            d["current_rules"] = rules
            out["disagree"].append(d)
    return out
