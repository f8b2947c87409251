"""Which edition a document's citations mean, and what each cited rule is called today.

The edition of a document: the one it says it quotes; else the one in force at its date (unless
its quoted rules clearly match another edition better); else the edition its quoted text matches;
else the current edition. Each step is recorded as the method, so a user can see why.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from rapidfuzz import fuzz

from kb.extract.citations import find_citations
from kb.records import ParsedDocument, QuotedRule
from kb.text import normalize

STATUSES = ("current", "renumbered", "text-changed", "removed", "never-existed", "ambiguous")


@dataclass(slots=True, frozen=True)
class EditionChoice:
    edition: str | None
    method: str  # stated-by-document | document-date | quoted-text | nearest-edition | current-edition
    detail: str = ""


class Resolver:
    """Lineage-aware lookups over the loaded EN editions (oldest first)."""

    def __init__(self, editions: list[str], rules: dict[tuple[str, str, str], dict],
                 next_link: dict[tuple[str, str, str], tuple]):
        self.editions = editions  # EN edition keys, oldest first
        self.rules = rules
        self.next_link = next_link

    @property
    def current(self) -> str | None:
        return self.editions[-1] if self.editions else None

    def in_force(self, on: str) -> str | None:
        before = [e for e in self.editions if e <= on]
        return before[-1] if before else None

    def carry_forward(self, number: str, edition: str) -> tuple[str | None, list[dict]]:
        """Follow lineage to the current edition: (current number or None if removed, steps)."""
        steps, key = [], ("en", edition, number)
        while key[1] != self.current:
            link = self.next_link.get(key)
            if link is None:
                return None, steps
            new_number, method, score, changed = link
            nxt = self.editions[self.editions.index(key[1]) + 1]
            steps.append({"from": key[2], "from_edition": key[1], "to": new_number, "to_edition": nxt,
                          "method": method, "score": score, "text_changed": changed})
            key = ("en", nxt, new_number)
        return key[2], steps

    def status(self, number: str, edition: str | None) -> dict:
        """Resolution of one cited number in one edition, carried forward to today."""
        if edition is None or ("en", edition, number) not in self.rules:
            return {"number": number, "edition": edition, "status": "never-existed", "current": None,
                    "steps": []}
        current, steps = self.carry_forward(number, edition)
        if current is None:
            status = "removed"
        elif current != number:
            status = "renumbered"
        elif any(s["text_changed"] for s in steps):
            status = "text-changed"
        else:
            status = "current"
        return {"number": number, "edition": edition, "status": status,
                "current": {"number": current, "edition": self.current} if current else None, "steps": steps}

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
