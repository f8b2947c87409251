"""The reasoning engine's core: question types (mechanics), situations, and the context that runs
rule logic. A mechanic plus a valid situation -> outcome and the ordered trace of rules applied.

``solve`` validates the situation against the mechanic's schema (SituationError names the field),
checks once per book that every registered rule still says what its logic assumes
(registry.check_pins), collects the rules reachable from the mechanic's defining rules through the
rule graph (kb.reasoning.reach), and runs the mechanic's ``solve``, which may only apply logic of
reachable rules (``Context.apply``). Rulings are classified in kb.reasoning.rulings; the whole
answer is assembled by kb.reasoning.catalog.ask.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

import jsonschema

from kb.errors import SituationError
from kb.memo import per_owner
from kb.reasoning.reach import reachable_rules
from kb.reasoning.registry import check_pins, chosen_pins
from kb.reasoning.rulebook import RuleBook
from kb.reasoning.compiled import REFUSED, compile_schema
from kb.reasoning.schema import accept_labels, check_labels, label_of
from kb.text import json_loads_number_checked

class UnknownMechanic(SituationError):
    """A question type that is not registered (a situation naming it can't be answered)."""

    def __init__(self, key: str):
        super().__init__("mechanic", f"unknown mechanic {key!r}; known: {', '.join(sorted(_MECHANICS))}")


class UnreachableRule(RuntimeError):
    """Logic was applied for a rule the link-following never reached: a wiring bug, not user error."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule


@dataclass(slots=True)
class TraceStep:
    rule: str
    edition: str
    text_en: str
    text_ja: str | None
    did: str
    logic: tuple = ()  # the registry Pins whose functions wrote ``did`` (each pinned to words of ``rule``)

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
    cards: list = field(default_factory=list)  # cards of the loaded card data the situation named (cited)

    def apply(self, rule: str, *, using: str | None = None, **kwargs) -> str | None:
        """Run the logic registered for ``rule`` on ``self.state``; record it in the trace if it applied."""
        if rule not in self.reachable:
            raise UnreachableRule(f"{self.mechanic}: rule {rule} is not reachable from the mechanic's rules "
                                  "by references, lineage or related mechanics", rule)
        pins = chosen_pins(rule, self.mechanic, using)  # another mechanic's logic only when this one has none
        if not pins:
            raise UnreachableRule(f"no logic registered for rule {rule}" + (f" named {using}" if using else ""), rule)
        slot = len(self.trace)  # nested applies land after this step, keeping the order of starting
        if len(pins) == 1:  # the usual case: its result as "; ".join would give it
            did = pins[0].fn(self.state, self, **kwargs)
            if did is None:
                return None
            if type(did) is not str:
                did = "; ".join((did,))  # fails as the join of many does
            wrote = pins
        else:
            done = [(p, d) for p in pins if (d := p.fn(self.state, self, **kwargs)) is not None]
            if not done:
                return None
            did = "; ".join(d for _, d in done)
            wrote = tuple(p for p, _ in done)
        text = self.book.rule(rule)
        self.trace.insert(slot, TraceStep(rule, self.book.edition, text.text_en, text.text_ja, did, wrote))
        return did

    def fixpoint(self, rules: tuple[str, ...] | list[str], limit: int = 20) -> int:
        """Apply ``rules`` in order until none of them changes anything; returns the rounds taken."""
        for round_ in range(1, limit + 1):
            if not any(self.apply(r) is not None for r in rules):
                return round_
        raise RuntimeError(f"{self.mechanic}: rules {rules} did not settle in {limit} rounds")

    def rules_applied(self) -> list[str]:
        return list(dict.fromkeys(s.rule for s in self.trace))


@dataclass
class Mechanic:
    key: str
    schema: dict
    solve: Callable[[dict, Context], dict]
    entry_rules: tuple[str, ...]
    name_en: str
    name_ja: str
    checks: list = field(default_factory=list)  # kb.reasoning.rulings.RulingCheck
    validator: Any = None
    procedures: tuple = ()  # Procedure: the CR's own ordered steps for an action of this mechanic
    examples: tuple = ()  # (JA title, EN title, situation): example scenarios a form offers
    relies_on: tuple = ()  # rules outside its own sections the logic applies (202.3 mana value): one hop away
    compiled: Any = None  # kb.reasoning.compiled: the schema's checks and defaults made once, for ``validate``


@dataclass(frozen=True)
class Procedure:
    """An action the CR defines as ordered steps (casting 601.2a–i, turning a permanent face up).

    ``steps`` are rule numbers in the CR's order; ``applies(situation)`` says whether a question
    simulates this action, so its answer lists every step beside the steps the case used."""

    key: str
    title_ja: str
    title_en: str
    steps: tuple[str, ...]
    applies: Callable[[dict], bool] = lambda s: False


_MECHANICS: dict[str, Mechanic] = {}


def register_mechanic(key: str, *, schema: dict, solve: Callable[[dict, Context], dict],
                      entry_rules: tuple[str, ...] = (), name_en: str | None = None,
                      name_ja: str | None = None, checks: list | None = None,
                      procedures: tuple = (), relies_on: tuple = (), examples: tuple = ()) -> Mechanic:
    check_labels(schema, key)
    jsonschema.Draft202012Validator.check_schema(schema)
    m = Mechanic(key, schema, solve, tuple(entry_rules), name_en or schema.get("title_en", key),
                 name_ja or schema.get("title_ja", key), list(checks or []),
                 jsonschema.Draft202012Validator(schema), tuple(procedures), tuple(examples), tuple(relies_on),
                 compile_schema(schema))
    _MECHANICS[key] = m
    return m


# ---------------------------------------------------------------- validation


def _path(parts) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "$"


def _ja_message(e, schema: dict) -> str:
    """What is wrong, in Japanese, for the page that shows the form (the EN message stays the API's)."""
    v = e.validator
    if v == "enum":
        labels = e.schema.get("enum_labels_ja") or {}
        return "次のいずれかを選んでください: " + "、".join(labels.get(str(x), str(x)) for x in e.validator_value)
    if v == "type":
        kinds = {"integer": "整数", "string": "文字列", "boolean": "はい／いいえ", "array": "一覧", "object": "項目の組",
                 "null": "空", "number": "数"}
        want = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        return "の形が違います（" + "または".join(kinds.get(w, w) for w in want) + "で入力してください）"
    if v == "pattern":
        shown = e.instance if len(str(e.instance)) <= 80 else f"{str(e.instance)[:40]}…（{len(str(e.instance))}文字）"
        return f"「{shown}」は読めません（マナ・コストは {{2}}{{W}} のように記号で書きます）"
    if v in ("minimum", "maximum"):
        return f"{e.validator_value}{'以上' if v == 'minimum' else '以下'}の値にしてください（入力: {e.instance}）"
    if v == "minItems":
        return f"少なくとも{e.validator_value}つ入力してください"
    return "入力が正しくありません"


def _shortened(message: str, instance) -> str:
    """jsonschema's message quotes the whole value: a 5,000-character one is shown by its start and length."""
    if not isinstance(instance, str) or len(instance) <= 80:
        return message
    return message.replace(repr(instance), f"{instance[:40]!r}… ({len(instance)} characters)", 1)


def validate(m: Mechanic, situation: dict | str) -> dict:
    if isinstance(situation, str):
        try:
            situation = json_loads_number_checked(situation, SituationError)
        except json.JSONDecodeError as e:
            raise SituationError("$", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}",
                                 message_ja=f"JSON として読めません（{e.lineno}行 {e.colno}文字目）") from None
    if not isinstance(situation, dict):
        raise SituationError("$", "the situation must be a JSON object", message_ja="状況は JSON オブジェクトで書きます")
    compiled = m.compiled or compile_schema(m.schema)
    if compiled.step is not None:  # the three walks below in one, for a situation they accept
        found = compiled.step(situation)
        if found is not REFUSED:
            return found
    # accept_labels, walked as compiled (tests compare both)
    situation = compiled.labels(situation) if compiled.labels is not None else accept_labels(m.schema, situation)
    if compiled.valid is not None and compiled.valid(situation):  # what jsonschema would accept (tested)
        return compiled.fill(situation)
    errors = sorted(m.validator.iter_errors(situation), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if errors:
        e = errors[0]
        where = list(e.absolute_path)
        if e.validator == "required":
            missing = [r for r in e.validator_value if r not in e.instance]
            path = where + missing[:1]
            raise SituationError(_path(path), f"required field is missing ({e.message})",
                                 message_ja="入力が必要です", label_ja=label_of(m.schema, path))
        if e.validator == "additionalProperties":
            known = set((e.schema.get("properties") or {}))
            extra = [k for k in e.instance if k not in known]
            raise SituationError(_path(where + extra[:1]), "unknown field; allowed: " + ", ".join(sorted(known)),
                                 message_ja=f"「{extra[0] if extra else ''}」という項目はありません",
                                 label_ja=label_of(m.schema, where) if where else "状況")
        raise SituationError(_path(where), _shortened(e.message, e.instance), message_ja=_ja_message(e, m.schema),
                             label_ja=label_of(m.schema, where))
    return compiled.fill(situation)


def registered(key: str) -> Mechanic:
    """A registered question type (kb.reasoning.catalog imports them all)."""
    if key not in _MECHANICS:
        raise UnknownMechanic(key)
    return _MECHANICS[key]


def is_registered(key: str) -> bool:
    return key in _MECHANICS


def registered_all() -> list[Mechanic]:
    return sorted(_MECHANICS.values(), key=lambda m: m.key)


def related_mechanics(book, key: str) -> list[str]:
    view = book.mechanic(key)
    return list(view.related) if view else []


def entry_rules(book, m: Mechanic) -> tuple[str, ...]:
    view = book.mechanic(m.key)
    return tuple(view.rules) if view and view.rules else m.entry_rules


def reachable(book, m: Mechanic) -> frozenset:
    """Rules the mechanic may apply: reachable from its (and its related mechanics') defining rules;
    the rules its rulings cite are one hop away (a ruling is a link, e.g. "CR:304.4"). Memoised per
    rule book with its inputs: gathering the rulings' cited rules cost most of a question's time."""
    def make() -> frozenset:
        starts = list(entry_rules(book, m))
        for rel in related_mechanics(book, m.key):
            other, view = _MECHANICS.get(rel), book.mechanic(rel)
            starts += list(view.rules if view else (other.entry_rules if other else ()))
        cited = [n for k in [m.key] + related_mechanics(book, m.key) for r in book.rulings(k) for n in r.cited_rules]
        cited += list(m.relies_on)  # declared where the mechanic registers, so the link is written down, not wired
        return reachable_rules(book, starts, cited)
    return per_owner(book, ("reach", m.key), make)


def solve(book: RuleBook, key: str, situation: dict | str) -> tuple[dict, dict, Context]:
    """(validated situation, outcome, context with the trace)."""
    m = registered(key)
    situation = validate(m, situation)
    per_owner(book, "pins", lambda: check_pins(book))
    ctx = Context(book=book, state={}, reachable=reachable(book, m), mechanic=m.key)
    return situation, m.solve(situation, ctx), ctx
