"""The reasoning engine: a mechanic plus a situation -> outcome, trace, rulings, citations.

Flow of ``ask``: validate the situation against the mechanic's schema (SituationError names the
field); check once per book that every registered rule still says what its logic assumes
(registry.check_pins); collect the rules reachable from the mechanic's defining rules by following
references (both directions), lineage (parent/children) and related mechanics; run the mechanic's
``solve``, which may only apply logic of reachable rules (``Context.apply``); then classify the
source rulings by running each ruling's own situation (see ``RulingCheck``).
"""
from __future__ import annotations

import json
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

import jsonschema

from kb.text import normalize
from kb.reasoning.registry import check_pins, pins_for
from kb.reasoning.rulebook import RuleBook, RulingView
from kb.reasoning.schema import check_labels, fill_defaults

MAX_DEPTH = 3  # link hops from a mechanic's defining rules (children free): 731.2 -> 502 -> 503 -> 603


class SituationError(ValueError):
    """The situation is not valid for the mechanic's schema. ``field`` is a path like ``permanents[0].face``."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class UnknownMechanic(SituationError):
    def __init__(self, key: str):
        super().__init__("mechanic", f"unknown mechanic {key!r}; known: {', '.join(sorted(_MECHANICS))}")


class UnreachableRule(RuntimeError):
    """Logic was applied for a rule the link-following never reached: a wiring bug, not user error."""


@dataclass(slots=True)
class TraceStep:
    rule: str
    edition: str
    text_en: str
    text_ja: str | None
    did: str

    def as_dict(self) -> dict:
        return {"rule": self.rule, "edition": self.edition, "text_en": self.text_en,
                "text_ja": self.text_ja, "did": self.did}


@dataclass(slots=True)
class Context:
    book: RuleBook
    state: dict
    reachable: frozenset | set
    mechanic: str = ""
    trace: list[TraceStep] = field(default_factory=list)

    def apply(self, rule: str, *, using: str | None = None, **kwargs) -> str | None:
        """Run the logic registered for ``rule`` on ``self.state``; record it in the trace if it applied."""
        if rule not in self.reachable:
            raise UnreachableRule(f"{self.mechanic}: rule {rule} is not reachable from the mechanic's rules "
                                  "by references, lineage or related mechanics")
        pins = [p for p in pins_for(rule) if using is None or p.fn.__name__ == using]
        own = [p for p in pins if p.mechanic == self.mechanic]
        pins = own or pins  # another mechanic's logic for the same rule runs only when this one has none
        if not pins:
            raise UnreachableRule(f"no logic registered for rule {rule}" + (f" named {using}" if using else ""))
        slot = len(self.trace)  # nested applies land after this step, keeping the order of starting
        done = [d for p in pins if (d := p.fn(self.state, self, **kwargs)) is not None]
        if not done:
            return None
        did = "; ".join(done)
        text = self.book.rule(rule)
        self.trace.insert(slot, TraceStep(rule, self.book.edition, text.text_en, text.text_ja, did))
        return did

    def fixpoint(self, rules: tuple[str, ...] | list[str], limit: int = 20) -> int:
        """Apply ``rules`` in order until none of them changes anything; returns the rounds taken."""
        for round_ in range(1, limit + 1):
            if not any(self.apply(r) is not None for r in rules):
                return round_
        raise RuntimeError(f"{self.mechanic}: rules {rules} did not settle in {limit} rounds")

    def rules_applied(self) -> list[str]:
        return list(dict.fromkeys(s.rule for s in self.trace))


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


@dataclass
class Mechanic:
    key: str
    schema: dict
    solve: Callable[[dict, Context], dict]
    entry_rules: tuple[str, ...]
    name_en: str
    name_ja: str
    checks: list[RulingCheck] = field(default_factory=list)
    validator: Any = None


_MECHANICS: dict[str, Mechanic] = {}


def register_mechanic(key: str, *, schema: dict, solve: Callable[[dict, Context], dict],
                      entry_rules: tuple[str, ...] = (), name_en: str | None = None,
                      name_ja: str | None = None, checks: list[RulingCheck] | None = None) -> Mechanic:
    check_labels(schema, key)
    jsonschema.Draft202012Validator.check_schema(schema)
    m = Mechanic(key, schema, solve, tuple(entry_rules), name_en or schema.get("title_en", key),
                 name_ja or schema.get("title_ja", key), list(checks or []),
                 jsonschema.Draft202012Validator(schema))
    _MECHANICS[key] = m
    return m


def add_ruling_checks(key: str, checks: list[RulingCheck]) -> None:
    _MECHANICS[key].checks.extend(checks)


def _mechanic(key: str) -> Mechanic:
    from kb.reasoning import mechanics  # noqa: F401  (importing registers every mechanic)
    if key not in _MECHANICS:
        raise UnknownMechanic(key)
    return _MECHANICS[key]


def list_mechanics() -> list[dict]:
    from kb.reasoning import mechanics  # noqa: F401
    return [{"key": m.key, "name_en": m.name_en, "name_ja": m.name_ja, "schema": m.schema,
             "entry_rules": list(m.entry_rules)} for m in sorted(_MECHANICS.values(), key=lambda m: m.key)]


# ---------------------------------------------------------------- validation


def _path(parts) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "$"


def validate(m: Mechanic, situation: dict | str) -> dict:
    if isinstance(situation, str):
        try:
            situation = json.loads(situation)
        except json.JSONDecodeError as e:
            raise SituationError("$", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    if not isinstance(situation, dict):
        raise SituationError("$", "the situation must be a JSON object")
    errors = sorted(m.validator.iter_errors(situation), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if errors:
        e = errors[0]
        where = list(e.absolute_path)
        if e.validator == "required":
            missing = [r for r in e.validator_value if r not in e.instance]
            raise SituationError(_path(where + missing[:1]), f"required field is missing ({e.message})")
        if e.validator == "additionalProperties":
            known = set((e.schema.get("properties") or {}))
            extra = [k for k in e.instance if k not in known]
            raise SituationError(_path(where + extra[:1]), "unknown field; allowed: " + ", ".join(sorted(known)))
        raise SituationError(_path(where), e.message)
    return fill_defaults(m.schema, situation)


# ---------------------------------------------------------------- link following

_BOOK_CACHE: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


def _cache(book) -> dict:
    try:
        c = _BOOK_CACHE.get(book)
        if c is None:
            c = _BOOK_CACHE[book] = {}
        return c
    except TypeError:  # a book that can't be weak-referenced: no caching
        return {}


def _cited_by(book, cache: dict) -> dict[str, set[str]]:
    """Reverse references over the whole book, walking chapters 1-9 by children()."""
    if "cited_by" not in cache:
        rev: dict[str, set[str]] = {}
        stack = [str(n) for n in range(1, 10)]
        while stack:
            n = stack.pop()
            stack.extend(book.children(n))
            r = book.rule(n)
            for ref in (r.references if r else ()):
                rev.setdefault(ref, set()).add(n)
        cache["cited_by"] = rev
    return cache["cited_by"]


def entry_rules(book, m: Mechanic) -> tuple[str, ...]:
    view = book.mechanic(m.key)
    return tuple(view.rules) if view and view.rules else m.entry_rules


def related_mechanics(book, key: str) -> list[str]:
    view = book.mechanic(key)
    return list(view.related) if view else []


def reachable_rules(book, m: Mechanic) -> frozenset:
    """Rules within MAX_DEPTH hops of the mechanic's (and its related mechanics') defining rules.

    Hops: a reference either way, a subrule to its rule, a ruling's citation; children are free.
    """
    cache = _cache(book)
    key = ("reach", m.key)
    if key in cache:
        return cache[key]
    rev = _cited_by(book, cache)
    starts = list(entry_rules(book, m))
    for rel in related_mechanics(book, m.key):
        other = _MECHANICS.get(rel)
        view = book.mechanic(rel)
        starts += list(view.rules if view else (other.entry_rules if other else ()))
    seen: dict[str, int] = {s: 0 for s in starts if book.rule(s)}
    # Rules the mechanic's rulings cite are one hop away (a ruling is a link, e.g. "CR:304.4").
    for k in [m.key] + related_mechanics(book, m.key):
        for r in book.rulings(k):
            for n in r.cited_rules:
                if n not in seen and book.rule(n):
                    seen[n] = 1
    # 0-1 BFS: children cost nothing, so a rule's depth is its cheapest path, not its first one.
    queue = deque(seen)
    while queue:
        n = queue.popleft()
        depth = seen[n]
        r = book.rule(n)
        links = list(r.references) + sorted(rev.get(n, ()))
        parent = _parent(n)
        if parent:
            links.append(parent)
        for link, step in [(c, 0) for c in book.children(n)] + [(x, 1) for x in links]:
            d = depth + step
            if d <= MAX_DEPTH and d < seen.get(link, MAX_DEPTH + 1) and book.rule(link):
                seen[link] = d
                (queue.appendleft if step == 0 else queue.append)(link)
    cache[key] = frozenset(seen)
    return cache[key]


def _parent(n: str) -> str | None:
    """Lineage within a rule: 712.8e -> 712.8. Never up to a section (701 holds every keyword action)."""
    return n[:-1] if "." in n and n[-1].isalpha() else None


# ---------------------------------------------------------------- rulings


def _ruling_dict(r: RulingView) -> dict:
    return {"id": r.id, "document": r.document, "document_title": r.document_title, "date": r.date,
            "text": r.text, "locator": r.locator, "kind": r.kind, "cited_rules": list(r.cited_rules)}


def _run_check(book, check: RulingCheck) -> tuple[bool, list[str], str | None]:
    cache = _cache(book)
    key = ("check", check.mechanic, check.fingerprint)
    if key not in cache:
        try:
            result = ask(book, check.mechanic, check.situation, rulings=False)
            cache[key] = (bool(check.claims(result["outcome"])), [s["rule"] for s in result["trace"]], None)
        except (UnreachableRule, SituationError, KeyError, TypeError, ValueError) as e:
            # A broken check must not break the answer it decorates; it is reported, not hidden.
            cache[key] = (False, [], f"{type(e).__name__}: {e}")
    return cache[key]


def _matched_rulings(book, m: Mechanic) -> list[tuple[RulingView, list[RulingCheck]]]:
    """The mechanic's (and related mechanics') rulings, each with every check whose fingerprint it
    holds (a paragraph or a quoted rule with its example can make several claims)."""
    cache = _cache(book)
    key = ("rulings", m.key)
    if key not in cache:
        keys = [m.key] + related_mechanics(book, m.key)
        checks = [(normalize(c.fingerprint), c) for k in keys if k in _MECHANICS for c in _MECHANICS[k].checks]
        seen, out = set(), []
        for k in keys:
            for r in book.rulings(k):
                if r.id not in seen:
                    seen.add(r.id)
                    text = normalize(r.text)
                    out.append((r, [c for f, c in checks if f in text]))
        cache[key] = out
    return cache[key]


def ruling_rules(book) -> dict[str, dict[str, list[str]]]:
    """Ruling id -> the rules that decide the case it describes, computed, not looked up.

    For every registered mechanic, each source ruling matched to RulingChecks has its checks' own
    situations run through the engine (``_run_check``, cached per book). ``deciding``: the rule
    that decided each check's case (the first of its trace); ``rules``: every rule of the checks'
    traces, the deciding ones first. A check that errors contributes nothing; a claim that no
    longer holds still names the rules that decide its case (a superseded ruling is about them
    too). Raises PinError when the loaded CR no longer says what the logic assumes.
    """
    from kb.reasoning import mechanics  # noqa: F401  (importing registers every mechanic)
    cache = _cache(book)
    if "pins" not in cache:
        cache["pins"] = check_pins(book)
    traces: dict[str, list[list[str]]] = {}
    for key in sorted(_MECHANICS):
        for r, checks in _matched_rulings(book, _MECHANICS[key]):
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


def classify_rulings(book, m: Mechanic, trace_rules: list[str]) -> dict:
    out = {"agree": [], "disagree": [], "superseded": [], "unchecked": []}
    applied = set(trace_rules)
    for r, checks in _matched_rulings(book, m):
        if not checks:
            if r.cited_rules and set(r.cited_rules) <= applied:
                out["unchecked"].append(_ruling_dict(r))
            continue
        relevant, errors = [], []
        for check in checks:
            holds, rules, error = _run_check(book, check)
            if error:
                errors.append(error)
            # Relevant when this question applied the rule that decided the claim's own case (the
            # first in its trace) and at least half of the rules that case needed.
            elif rules and rules[0] in applied and 2 * len(applied & set(rules)) >= len(set(rules)):
                relevant.append((check, holds, rules))
        if not relevant:
            if errors and applied & set(r.cited_rules):
                out["unchecked"].append(_ruling_dict(r) | {"check_error": errors[0]})
            continue
        failed = [(c, rules) for c, holds, rules in relevant if not holds]
        chosen = failed or [(c, rules) for c, _, rules in relevant]
        rules = list(dict.fromkeys(n for _, rs in chosen for n in rs))
        d = _ruling_dict(r) | {"claims": "; ".join(c.says for c, _ in chosen), "rules": rules}
        if not failed:
            out["agree"].append(d)
        elif r.date and r.date < book.edition:
            out["superseded"].append(d | {"superseded_by": rules, "edition": book.edition})
        else:
            out["disagree"].append(d | {"current_rules": rules})
    return out


# ---------------------------------------------------------------- ask


def ask(book: RuleBook, mechanic: str, situation: dict | str, *, rulings: bool = True) -> dict:
    m = _mechanic(mechanic)
    situation = validate(m, situation)
    cache = _cache(book)
    if "pins" not in cache:
        cache["pins"] = check_pins(book)
    ctx = Context(book=book, state={}, reachable=reachable_rules(book, m), mechanic=m.key)
    outcome = m.solve(situation, ctx)
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
