"""Helpers shared by the document parsers: lines as splitlines() counts them, exact text spans,
section paths, and building records whose citations/cards are the document-level ones."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from kb.parse.card_mentions import iter_cards
from kb.citations.extract import find_citations, line_starts
from kb.parse.records import (CardMention, CitationMention, Document, Locator, ParsedDocument,
                        QuotedRule, Ruling, Section)
from kb.text import normalize


class Lines:
    """The document's lines (1-based) with their offsets, so records can slice exact text."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines()
        self.starts = line_starts(text)

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, n: int) -> str:
        return self.lines[n - 1]

    def offset(self, n: int, col: int = 0) -> int:
        return self.starts[n - 1] + col

    def span(self, first: int, last: int, col: int = 0) -> tuple[int, int]:
        """Offsets from column ``col`` of line ``first`` to the end of line ``last``."""
        return self.offset(first, col), self.offset(last) + len(self.lines[last - 1])


class SectionPath:
    """Heading stack: push(level, title) returns the new path."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str]] = []

    def push(self, level: int, title: str) -> tuple[str, ...]:
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, title))
        return self.path

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(t for _, t in self.stack)


@dataclass
class Builder:
    """Collects records for one document; rulings are numbered in document order."""

    document: Document
    is_card: Callable[[str], bool] | None = None
    lines: Lines = field(init=False)
    out: ParsedDocument = field(init=False)
    _cites: list[CitationMention] = field(init=False)
    _cards: list[tuple[int, int, CardMention]] = field(init=False)
    _seen: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        text = self.document.text
        self.lines = Lines(text)
        self.out = ParsedDocument(self.document)
        self._cites = find_citations(text, exclude_line_heads=True)
        self._cards = list(iter_cards(text, is_card=self.is_card))
        self.out.citations = list(self._cites)
        self.out.cards = [c for _, _, c in self._cards]

    def locator(self, first: int, last: int, path: tuple[str, ...]) -> Locator:
        return Locator(self.document.id, first, last, path)

    def section(self, title: str, level: int, path: tuple[str, ...], line: int) -> Section:
        sec = Section(title, level, path, self.locator(line, line, path[:-1]))
        self.out.sections.append(sec)
        return sec

    def citations_in(self, start: int, end: int) -> list[CitationMention]:
        return [c for c in self._cites if start <= c.start < end]

    def cards_in(self, start: int, end: int) -> list[CardMention]:
        return [c for s, _, c in self._cards if start <= s < end]

    def first_time(self, kind: str, text: str) -> bool:
        """False for a repeat of an earlier record (the FAQ page repeats itself)."""
        key = kind + "\0" + normalize(text)
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def ruling(self, first: int, last: int, col: int, path: tuple[str, ...], kind: str = "ruling",
               depth: int = 1, parent: str | None = None, links: list[str] | None = None) -> Ruling:
        """A ruling whose text runs from ``col`` of line ``first`` to the end of line ``last``."""
        start, end = self.lines.span(first, last, col)
        rid = f"{self.document.id}#r{len(self.out.rulings) + 1}"
        ruling = Ruling(rid, self.document.id, self.document.text[start:end],
                        self.locator(first, last, path), kind=kind, depth=depth, parent=parent,
                        citations=self.citations_in(start, end), cards=self.cards_in(start, end),
                        links=list(links or []))
        self.out.rulings.append(ruling)
        return ruling

    def quoted_rule(self, raw_number: str, number: str, first: int, last: int, col: int,
                    path: tuple[str, ...], lang: str, edition: str | None,
                    heading_line: int | None = None) -> QuotedRule:
        """Text from ``col`` of ``first`` to the end of ``last``; the locator starts at
        ``heading_line`` when the number stands on a line of its own above the text."""
        start, end = self.lines.span(first, last, col)
        quote = QuotedRule(number, self.document.text[start:end], lang,
                           self.locator(heading_line or first, last, path), edition, raw_number,
                           citations=self.citations_in(start, end))
        self.out.quoted_rules.append(quote)
        return quote


def is_japanese(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)
