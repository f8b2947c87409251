"""Check every rule citation in any text (a wiki page, a blog post, a judge's answer; JA or EN).

For each citation: as written, where (line, column), the edition it refers to and how that was
decided, the rule then and today (number and text, JA/EN), a status (current / renumbered /
text-changed / removed / never-existed / ambiguous) and the lineage steps between. A line that
opens with a rule number and goes on with text is a quote of that rule: it is compared with the
official text of that edition (EN word by word, JA character by character).

Pieces reused: ``find_citations`` and ``rule_heading`` (kb.citations.extract) find citations and
quotes; ``EditionChooser.choose_edition`` picks the edition from a ParsedDocument built here, and
``Lineage.status`` carries each number forward.
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date as Date

from kb.citations.editions import EditionChooser
from kb.citations.extract import find_citations
from kb.citations.quotes import diff, find_quotes
from kb.citations.reading import reading_check
from kb.citations.titles import Titles, titles_for
from kb.parse.common import is_japanese
from kb.parse.records import Document, ParsedDocument, QuotedRule
from kb.errors import InvalidDate, InvalidLang

STATUS_ORDER = ("never-existed", "removed", "ambiguous", "renumbered", "text-changed", "current")


def parse_date(value) -> Date | None:
    """None, a date, "YYYY-MM-DD" or "YYYYMMDD"; anything else is InvalidDate."""
    if value is None or value == "":
        return None
    if isinstance(value, Date):
        return value
    text = unicodedata.normalize("NFKC", str(value)).strip()
    m = re.fullmatch(r"(\d{4})-?(\d{2})-?(\d{2})", text)
    try:
        if m:
            return Date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        pass
    raise InvalidDate("date: expected YYYY-MM-DD", value=str(value))


# ---------------------------------------------------------------- the checker


class _Checker:
    def __init__(self, kb):
        self.kb = kb
        self.model = kb.model
        self.lineage = kb.lineage
        self.resolver = EditionChooser(kb.lineage)

    # ------------------------------------------------------------ rules then and now

    def rule_text(self, key) -> str | None:
        rule = self.model.rules.get(key)
        return rule["text"] if rule else None

    def ja_text(self, edition: str, number: str) -> tuple[tuple, str] | None:
        """The official JA text of (edition, number), if a JA edition of that date holds it."""
        key = self.model.ja_of.get(("en", edition, number)) or ("ja", edition, number)
        rule = self.model.rules.get(key)
        return (key, rule["text"]) if rule else None

    def versions(self, edition: str, number: str) -> list[tuple[str, str]]:
        """(edition, number) of the same rule in every other edition it reaches, nearest first."""
        eds = self.lineage.editions
        pos = eds.index(edition) if edition in eds else 0
        others = [k for k in self.lineage.chain(number, edition) if k[1] != edition]
        return [(k[1], k[2]) for k in sorted(others, key=lambda k: (abs(eds.index(k[1]) - pos), k[1] < edition))]

    def current_block(self, status: dict) -> dict | None:
        cur = status.get("current")
        if not cur:
            return None
        key = ("en", cur["edition"], cur["number"])
        ja_key = self.lineage.ja_for(key)
        return {"number": cur["number"], "edition": cur["edition"], "text_en": self.rule_text(key),
                "text_ja": self.rule_text(ja_key) if ja_key else None,
                "text_ja_edition": ja_key[1] if ja_key else None}

    # ------------------------------------------------------------ titles

    @property
    def titles(self) -> "Titles":
        if not hasattr(self, "_titles"):
            self._titles = titles_for(self.model)
        return self._titles

    def title_check(self, title: str, number: str, edition: str) -> dict | None:
        """Does the title written with a citation name the rule with that number in ``edition``?"""
        if not title or edition is None:
            return None
        wanted = self.titles.english(title)
        if not wanted:
            return {"title": title, "matches": None, "note": "title not known in EN or JA"}
        own = self.titles.of_rule(self.model, edition, number)
        if own & wanted:
            return {"title": title, "matches": True}
        others = [n for n in self.titles.rules_titled(self.model, edition, wanted) if n != number]
        # the same number with that title in another edition: the writer used that edition's numbering
        other_editions = [e for e in self.model.en_editions()
                          if e != edition and self.titles.of_rule(self.model, e, number) & wanted]
        return {"title": title, "matches": False, "rule_title": self._title(edition, number),
                "titled_rules": others, "same_number_titled_in": other_editions}

    # ------------------------------------------------------------ one citation

    def entry(self, *, raw: str, line: int, column: int, numbers: list[str], title: str | None,
              edition: str | None, method: str, kind: str) -> dict:
        statuses = [self.lineage.status(n, edition) for n in numbers]
        first = statuses[0]
        status = min((s["status"] for s in statuses), key=STATUS_ORDER.index)
        out = {"kind": kind, "raw": raw, "line": line, "column": column, "numbers": list(numbers),
               "title": title, "edition": edition, "method": method, "status": status,
               "rule_then": {"number": numbers[0], "edition": edition,
                             "text": self.rule_text(("en", edition, numbers[0])) if edition else None},
               "current": self.current_block(first), "steps": first["steps"]}
        if len(numbers) > 1:
            out["resolved"] = [{"number": s["number"], "status": s["status"],
                                "current": (s["current"] or {}).get("number")} for s in statuses]
        if status == "never-existed":
            elsewhere = sorted({e for e in self.lineage.editions for n in numbers
                                if n in self.model.edition_rules("en", e)})
            if elsewhere:
                out["note"] = f"not in CR {edition}; a rule {numbers[0]} exists in {', '.join(elsewhere)}"
        check = self.title_check(title, numbers[0], edition) if len(numbers) == 1 else None
        if check:
            out["title_check"] = check
            if check["matches"] is False and check["titled_rules"]:
                out["status"] = "ambiguous"
                out["candidates"] = [self._candidate(numbers[0], edition, "number as written")] + [
                    self._candidate(n, edition, f"titled {title}") for n in check["titled_rules"]] + [
                    self._candidate(numbers[0], e, f"rule {numbers[0]} was titled {title} in CR {e}")
                    for e in check["same_number_titled_in"]]
        return out

    def _candidate(self, number: str, edition: str, why: str) -> dict:
        s = self.lineage.status(number, edition)
        return {"number": number, "edition": edition, "why": why, "title": self._title(edition, number),
                "status": s["status"], "current": (s["current"] or {}).get("number")}

    def _title(self, edition: str, number: str) -> str | None:
        return self.rule_text(("en", edition, number)) if self.titles.of_rule(self.model, edition, number) else None

    # ------------------------------------------------------------ one quote

    def compare_quote(self, quote: QuotedRule, edition: str | None, context: str) -> dict:
        number = quote.number
        if edition is None:
            return {"status": "no-edition"}
        if quote.lang == "en":
            official = self.rule_text(("en", edition, number))
            if official is None:
                return {"status": "no-official-text", "note": f"CR {edition} has no rule {number}"}
            return {"status": "compared", "against": {"lang": "en", "edition": edition, "number": number}} \
                | diff(quote.text, official, words=True)
        found = self.ja_text(edition, number)
        if found:
            key, text = found
            return {"status": "compared", "against": {"lang": "ja", "edition": key[1], "number": key[2]}} \
                | diff(quote.text, text, words=False)
        for ed, n in self.versions(edition, number):
            found = self.ja_text(ed, n)
            if found:
                key, text = found
                # Differences may be rule changes; the quote is also read for input errors on its own.
                suspects = reading_check(self.model, quote.text, context)
                out = {"status": "no-official-ja-text-for-edition",
                       "note": f"no official JA text of CR {edition}; compared with the JA text of rule "
                               f"{key[2]} in CR {key[1]} (the same rule through lineage), so differences "
                               f"may also be changes to the rule",
                       "against": {"lang": "ja", "edition": key[1], "number": key[2]}} \
                    | diff(quote.text, text, words=False)
                out["suspects"] = suspects
                if suspects:
                    out["summary"] += "; suspected typos: " + "; ".join(f"{x['quoted']} → {x['likely']}" for x in suspects)
                return out
        suspects = reading_check(self.model, quote.text, context)
        en = self.rule_text(("en", edition, number))
        out = {"status": "no-official-ja-text",
               "note": f"no JA text of rule {number} (CR {edition}) or of the same rule in any loaded JA "
                       f"edition; the quote's wording was checked against JA texts in the knowledge base "
                       f"by reading (suspected input-conversion errors), not against an official text",
               "against": {"lang": "en", "edition": edition, "number": number, "text": en} if en else None,
               "ops": [["suspect", s["quoted"], s["likely"]] for s in suspects], "suspects": suspects,
               "similarity": None, "identical": False}
        out["summary"] = ("suspected typos: " + "; ".join(f"{s['quoted']} → {s['likely']}" for s in suspects)
                          if suspects else "no official JA text to compare with; no suspect wording found")
        return out


# ---------------------------------------------------------------- entry point


def check_citations(kb, text: str, date=None, lang: str | None = None) -> dict:
    """Every citation and quoted rule in ``text``, checked against the loaded CR editions."""
    if lang not in (None, "ja", "en"):
        raise InvalidLang(f"lang={lang!r}: expected one of ja, en")
    when = parse_date(date)
    text = text or ""
    lang = lang or ("ja" if is_japanese(text) else "en")
    checker = _Checker(kb)
    quotes = find_quotes(text)
    doc = Document(id="text", title="checked text", kind="article", lang=lang, path="", text=text, date=when)
    parsed = ParsedDocument(doc, quoted_rules=[q for q, _ in quotes])
    choice = checker.resolver.choose_edition(parsed)
    edition = choice.edition
    citations = []
    for c in find_citations(text, exclude_line_heads=True):
        citations.append(checker.entry(raw=c.raw, line=c.line, column=c.column, numbers=list(c.numbers),
                                       title=c.title, edition=edition, method=choice.method, kind="citation"))
    lines = text.splitlines()
    quote_summaries = []
    for q, column in quotes:
        line = q.locator.line_start
        entry = checker.entry(raw=q.raw_number, line=line, column=column, numbers=[q.number], title=None,
                              edition=edition, method=choice.method, kind="quote")
        context = "\n".join(lines[:line - 1] + lines[q.locator.line_end:])
        # the page may quote the rule twice (the FAQ repeats itself): a repeat is not a reference
        context = context.replace(q.text, "")
        entry["quote"] = {"text": q.text, "line": line, "lang": q.lang}
        d = entry["quote_check"] = checker.compare_quote(q, edition, context)
        # quote_diff only when there is something to show (the CLI prints it as a difference)
        entry["quote_diff"] = d if d.get("ops") else None
        citations.append(entry)
        quote_summaries.append({"number": q.number, "line": line, "column": column, "lang": q.lang,
                                "comparison": d["status"], "similarity": d.get("similarity"),
                                "summary": d.get("summary")})
    citations.sort(key=lambda c: (c["line"], c["column"]))
    counts: dict[str, int] = {}
    for c in citations:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    return {"edition": edition, "method": choice.method, "detail": choice.detail, "lang": lang,
            "date": when.isoformat() if when else None, "current_edition": checker.resolver.current,
            "counts": counts, "citations": citations, "quotes": quote_summaries}
