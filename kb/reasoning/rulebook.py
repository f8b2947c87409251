"""What the reasoning engine may see of the knowledge base: the RuleBook protocol.

The engine never touches RDF or the snapshot directly. ``kb.lookup.kb.KB.rulebook()`` provides a
RuleBook over the loaded graph; ``ParsedRuleBook`` below provides the same over parsed CR files
(for unit tests that should not need a built snapshot).
"""
from __future__ import annotations

from kb import rulenumbers
from dataclasses import dataclass, field
from typing import Protocol



@dataclass(slots=True, frozen=True)
class RuleText:
    number: str
    edition: str  # "2026-04-17"
    text_en: str
    text_ja: str | None = None
    title: str | None = None  # the section title for rule numbers like "712"
    document: str = ""  # source document id (for citations)
    locator: str = ""  # "cr-en-2026-04-17 line 2458"
    references: tuple[str, ...] = ()  # rule numbers this rule's text cites


@dataclass(slots=True, frozen=True)
class RulingView:
    """A statement from a source document, as the engine cites it."""

    id: str
    document: str
    document_title: str
    date: str | None  # ISO date of the document when known
    text: str
    locator: str
    kind: str  # "ruling" | "quoted-rule" | "commentary" | "summary"
    cited_rules: tuple[str, ...] = ()  # citations carried forward to the current edition's numbers
    mechanics: tuple[str, ...] = ()  # mechanic keys the ruling is about


@dataclass(slots=True)
class MechanicView:
    key: str  # "manifest", "day-night", "transform", "double-faced-card", "room", "cast"
    name_en: str
    name_ja: str | None
    rules: tuple[str, ...]  # defining rules (current numbers), e.g. ("701.40",)
    related: tuple[str, ...] = ()  # related mechanic keys
    aliases: tuple[str, ...] = field(default=())


class RuleBook(Protocol):
    edition: str  # the edition the engine reasons against (the newest loaded)

    def rule(self, number: str) -> RuleText | None: ...

    def rule_graph(self): ...  # networkx.DiGraph of the edition's rules (kb.reasoning.reach.rule_graph)

    def children(self, number: str) -> list[str]: ...

    def mechanic(self, key: str) -> MechanicView | None: ...

    def rulings(self, mechanic_key: str) -> list[RulingView]: ...

    # Optional: def card(self, name: str) -> dict | None  (key, name_en, name_ja, sources) — kb.reasoning.cards


class ParsedRuleBook:
    """A RuleBook over parsed CR records (EN edition, optionally JA texts by number)."""

    def __init__(self, edition, ja_texts: dict[str, str] | None = None,
                 mechanics: dict[str, MechanicView] | None = None,
                 rulings: dict[str, list[RulingView]] | None = None, cards: dict[str, dict] | None = None):
        self.edition = edition.edition
        self._rules = {r.number: r for r in edition.rules}
        self._doc = edition.document.id
        self._ja = ja_texts or {}
        self._mechanics = mechanics or {}
        self._rulings = rulings or {}
        self._cards = cards or {}  # any name -> card record (key, name_en, name_ja, sources)
        self._children: dict[str, list[str]] = {}
        self._graph = None
        for r in edition.rules:
            if r.parent:
                self._children.setdefault(r.parent, []).append(r.number)

    def rule(self, number: str) -> RuleText | None:
        r = self._rules.get(number)
        if r is None:
            return None
        refs = tuple(dict.fromkeys(m.group(0) for m in rulenumbers.LOOSE_IN_TEXT.finditer(r.text) if m.group(0) != number))
        return RuleText(number=r.number, edition=self.edition, text_en=r.text, text_ja=self._ja.get(number),
                        title=r.text if r.kind in ("section", "chapter") else None, document=self._doc,
                        locator=r.locator.describe(), references=refs)

    def children(self, number: str) -> list[str]:
        return list(self._children.get(number, []))

    def rule_graph(self):
        from kb.reasoning.reach import rule_graph
        if self._graph is None:
            self._graph = rule_graph((n, r.parent, self.rule(n).references) for n, r in self._rules.items())
        return self._graph

    def mechanic(self, key: str) -> MechanicView | None:
        return self._mechanics.get(key)

    def rulings(self, mechanic_key: str) -> list[RulingView]:
        return list(self._rulings.get(mechanic_key, []))

    def card(self, name: str) -> dict | None:
        return self._cards.get(name)
