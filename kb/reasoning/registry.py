"""Logic registered per CR rule, pinned to the words of that rule's current text.

Every function that encodes game behaviour says which rule it implements and which words of that
rule it relies on. ``check_pins`` verifies, against the loaded edition, that each rule still
exists and still says those words; if a new CR renumbers or rewrites a rule, loading fails loudly
instead of answering from stale logic.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kb.text import normalize


# The CR edition whose words the pins quote. A newer edition that breaks a pin means stale logic
# (the build fails); an older one was never what the logic reasons about (kb.store.snapshot.link_rulings).
WRITTEN_FOR = "2026-06-19"


class PinError(RuntimeError):
    """One or more registered rules are missing or no longer say what their logic assumes."""

    def __init__(self, failures: list[str]):
        super().__init__("rule logic no longer matches the loaded CR:\n  " + "\n  ".join(failures))
        self.failures = failures


@dataclass(frozen=True, slots=True)
class Pin:
    rule: str
    words: tuple[str, ...]
    mechanic: str
    fn: Callable

    @property
    def name(self) -> str:
        return f"{self.fn.__module__}.{self.fn.__qualname__}"


_REGISTRY: dict[str, list[Pin]] = {}
_CHOSEN: dict[tuple, tuple[Pin, ...]] = {}  # (rule, mechanic, using) -> chosen_pins; emptied on registering


def implements(rule: str, *words: str, mechanic: str):
    """Register ``fn(state, ctx, **kw) -> str | None`` as the logic of CR ``rule``.

    ``words`` must all occur in the rule's text (normalized: case, width, quotes). The function
    returns what it did (a short EN sentence) or None when the rule did not apply.
    """
    if not words:
        raise ValueError(f"{rule}: a pin needs at least one word from the rule's text")

    def register(fn):
        pins = _REGISTRY.setdefault(rule, [])
        if not any(p.fn is fn for p in pins):
            pins.append(Pin(rule=rule, words=tuple(words), mechanic=mechanic, fn=fn))
            _CHOSEN.clear()
        return fn

    return register


def pins_for(rule: str) -> list[Pin]:
    return list(_REGISTRY.get(rule, ()))


def chosen_pins(rule: str, mechanic: str, using: str | None = None) -> tuple[Pin, ...]:
    """The logic ``Context.apply`` runs for ``rule`` in a question of ``mechanic``: the pins named
    ``using`` (any when None), the mechanic's own if it has any, else the other mechanics'.
    Kept per (rule, mechanic, using): every question applying a rule chose the same."""
    key = (rule, mechanic, using)
    found = _CHOSEN.get(key)
    if found is None:
        pins = [p for p in _REGISTRY.get(rule, ()) if using is None or p.fn.__name__ == using]
        own = [p for p in pins if p.mechanic == mechanic]
        found = _CHOSEN[key] = tuple(own or pins)
    return found


def all_pins() -> list[Pin]:
    return [p for pins in _REGISTRY.values() for p in pins]


def check_pins(book) -> list[Pin]:
    """Every registered rule exists in ``book`` and contains its words; else PinError with all failures."""
    failures: list[str] = []
    checked: list[Pin] = []
    for pin in all_pins():
        rule = book.rule(pin.rule)
        if rule is None:
            failures.append(f"{pin.rule} (edition {book.edition}): rule not found; logic {pin.name}")
            continue
        text = normalize(rule.text_en)
        missing = [w for w in pin.words if normalize(w) not in text]
        if missing:
            failures.append(f"{pin.rule} (edition {book.edition}): text no longer contains "
                            + ", ".join(repr(w) for w in missing) + f"; logic {pin.name}")
            continue
        checked.append(pin)
    if failures:
        raise PinError(failures)
    return checked
