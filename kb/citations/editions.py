"""Which edition a document's citations mean (what each cited rule is called today: kb.store.lineage).

The edition of a document: the one it says it quotes; else the one in force at its date (unless
its quoted rules clearly match another edition better); else the edition its quoted text matches;
else the current edition. Each step is recorded as the method, so a user can see why.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from rapidfuzz import fuzz

from kb.citations.extract import find_citations
from kb.parse.records import ParsedDocument, QuotedRule
from kb.sources.editions import loaded
from kb.store.lineage import Lineage
from kb.text import normalize



@dataclass(slots=True, frozen=True)
class EditionChoice:
    edition: str | None
    method: str  # stated-by-document | document-date | quoted-text | nearest-edition | current-edition
    detail: str = ""


class EditionChooser:
    """Which loaded EN edition a document's citations mean, by the Lineage object's editions."""

    def __init__(self, lineage: Lineage):
        self.lineage = lineage
        self.editions = lineage.editions
        self.rules = lineage.rules
        self.held = loaded((e, e) for e in lineage.editions)

    @property
    def current(self) -> str | None:
        return self.lineage.current

    def in_force(self, on: str) -> str | None:
        found = self.held.in_force(on)
        return found.effective if found else None

    # ---------------------------------------------------------------- edition of a document

    def quote_score(self, quotes: list[QuotedRule], edition: str) -> float:
        """How well a document's quoted rules fit an edition (0..1), language-independently:
        EN quotes by text; any quote by the rule numbers it cites matching that edition's rule."""
        if not quotes:
            return 0.0
        total = 0.0
        for quote in quotes:
            rule = self.rules.get(("en", edition, quote.number))
            if rule is None:
                continue
            if quote.lang == "en":
                total += fuzz.ratio(normalize(quote.text), normalize(rule["text"])) / 100
                continue
            cited_quote = {n for c in find_citations(quote.text) for n in c.numbers}
            cited_rule = set(rule["refs"])
            if cited_quote or cited_rule:
                total += 0.3 + 0.7 * len(cited_quote & cited_rule) / max(1, len(cited_quote | cited_rule))
            else:
                total += 0.5  # exists, nothing else to compare
        return total / len(quotes)

    def choose_edition(self, parsed: ParsedDocument) -> EditionChoice:
        doc = parsed.document
        if not self.editions:
            return EditionChoice(None, "no-edition-loaded")
        if doc.quotes_edition:
            if doc.quotes_edition in self.editions:
                return EditionChoice(doc.quotes_edition, "stated-by-document")
        scores = {e: self.quote_score(parsed.quoted_rules, e) for e in self.editions}
        best = max(self.editions, key=lambda e: (scores[e], e)) if parsed.quoted_rules else None
        if doc.date:
            dated = self.in_force(doc.date.isoformat())
            if dated and (best is None or scores[dated] >= scores[best] - 0.1):
                return EditionChoice(dated, "document-date", f"in force on {doc.date.isoformat()}")
            if best is not None and scores[best] > 0:
                # Of the editions the quotes fit equally well, the one nearest the document's date.
                tied = [e for e in self.editions if scores[e] >= scores[best] - 1e-9]
                best = min(tied, key=lambda e: (abs((date.fromisoformat(e) - doc.date).days), e))
                why = (f"edition in force on {doc.date.isoformat()} ({dated or 'none loaded'}) fits the "
                       f"quoted rules worse ({scores.get(dated, 0):.2f} vs {scores[best]:.2f})"
                       + (f"; of {len(tied)} editions that fit equally, the nearest to its date" if len(tied) > 1 else ""))
                return EditionChoice(best, "quoted-text", why)
            if dated is None:
                return EditionChoice(self.editions[0], "nearest-edition",
                                     f"no edition loaded before {doc.date.isoformat()}")
        if best is not None and scores[best] > 0:
            tied = [e for e in self.editions if scores[e] >= scores[best] - 1e-9]
            span = f" in {len(tied)} editions, {tied[0]} to {tied[-1]}; the last is used" if len(tied) > 1 else ""
            return EditionChoice(best, "quoted-text", f"quoted rules fit best ({scores[best]:.2f}){span}")
        return EditionChoice(self.current, "current-edition", "the document gives no date or quote")
