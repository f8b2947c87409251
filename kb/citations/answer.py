"""One citation's answer: the rule then (EN, and JA when loaded) and today, its status, the
lineage steps between, the title written with it checked, and a quoted rule compared with the
official text of its edition (EN word by word, JA character by character)."""
from __future__ import annotations

import re

from rapidfuzz import fuzz

from kb.citations.quotes import diff
from kb.citations.reading import reading_check
from kb.citations.titles import Titles, titles_for
from kb.parse.records import QuotedRule
from kb.text import normalize

# A list of names ("Clue, Equipment, Food, and Treasure"): it grows with every set, the rule stays.
_NAMES = re.compile(r"(?:[A-Z][\w’'\-]*(?: [A-Z][\w’'\-]*)*(?: \([^)]*\))?, ){3,}(?:and |or )?"
                    r"[A-Z][\w’'\-]*(?: [A-Z][\w’'\-]*)*")


def similarity(then: str, now: str) -> float:
    """0..100: how alike two texts of one rule are, lists of names masked."""
    a, b = normalize(_NAMES.sub("NAMES", then)), normalize(_NAMES.sub("NAMES", now))
    return 100.0 if a == b else fuzz.ratio(a, b)


def editorial(then: str, now: str) -> bool:
    """Two texts of one rule that differ only editorially (by words, order kept)."""
    return similarity(then, now) >= EDITORIAL


# At or above this, a change of wording is editorial (he or she -> they, a reworded clause, a list
# grown by names): on the benchmark's hand-checked rules, "current" ones (same rule) keep 52-100,
# rules whose content changed 57-80; 65 keeps the common case right and shows the score.
EDITORIAL = 65
STATUS_ORDER = ("never-existed", "removed", "ambiguous", "renumbered", "text-changed", "current")


def _changed(step: dict) -> bool:
    return step["from"] != step["to"] or step["text_changed"] or step["method"] != "same-number-same-text"


def changes(steps: list[dict]) -> list[dict]:
    """The lineage steps where something happened (a number or a text changed, a looser match);
    the steps that carried the rule unchanged to the next edition are only counted."""
    return [s for s in steps if _changed(s)]


class Answers:
    def __init__(self, kb):
        self.kb = kb
        self.model = kb.model
        self.lineage = kb.lineage
        self.texts: dict[str, str] = {}  # the answer's one table of rule texts: "en/2026-06-19/601.2f" -> text
        self._statuses: dict[tuple[str, str | None], dict] = {}  # one check's statuses, each found once

    def ref(self, key) -> str | None:
        """A rule's text put in the answer's table once; citations carry its key ("lang/edition/number")."""
        text = self.rule_text(key) if key else None
        if text is None:
            return None
        ref = "/".join(key)
        self.texts[ref] = text
        return ref

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
        return {"number": cur["number"], "edition": cur["edition"], "text_en_ref": self.ref(key),
                "text_ja_ref": self.ref(ja_key), "text_ja_edition": ja_key[1] if ja_key else None}

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

    def title_matches(self, title: str, number: str, edition: str) -> bool | None:
        """For edition choice: does ``title`` name rule ``number`` of ``edition``? None: unknown."""
        wanted = self.titles.english(title)
        if not wanted or ("en", edition, number) not in self.model.rules:
            return None
        return bool(self.titles.of_rule(self.model, edition, number) & wanted)

    def status(self, number: str, edition: str | None) -> dict:
        """Lineage's status, with "text-changed" kept for a change of content: a rule whose words
        today are nearly those it had then (he or she -> they, a list grown by one name) is current."""
        found = self._statuses.get((number, edition))
        if found is None:
            found = self._statuses[(number, edition)] = self._status(number, edition)
        return found

    def _status(self, number: str, edition: str | None) -> dict:
        s = self.lineage.status(number, edition)
        if s["status"] != "text-changed":
            return s
        then = self.rule_text(("en", edition, number)) or ""
        now = self.rule_text(("en", s["current"]["edition"], s["current"]["number"])) or ""
        if editorial(then, now):
            s = dict(s, status="current", note=f"only editorial changes since (wording {similarity(then, now):.0f}% alike)")
        return s

    def entry(self, *, raw: str, line: int, column: int, numbers: list[str], title: str | None,
              edition: str | None, method: str, kind: str, verdict=None,
              read_as: dict[str, str] | None = None) -> dict:
        """``read_as``: a written number read as another number of ``edition`` (the rule the text
        names, kb.citations.named); the answer keeps the number as written."""
        read_as = read_as or {}
        statuses = [self._read_status(n, read_as.get(n, n), edition) for n in numbers]
        first = statuses[0]
        status = min((s["status"] for s in statuses), key=STATUS_ORDER.index)
        out = {"kind": kind, "raw": raw, "line": line, "column": column, "numbers": list(numbers),
               "title": title, "edition": edition, "method": method, "status": status,
               "rule_then": self.rule_then(read_as.get(numbers[0], numbers[0]), edition),
               "current": self.current_block(first), **self._steps(first)}
        if verdict is not None:
            out["edition_meant"] = verdict.as_json()
        out["resolved"] = [{"number": n, "status": s["status"], "current": (s["current"] or {}).get("number"),
                            **({"read_as": read_as[n]} if n in read_as else {}),
                            "text_then_ref": self.ref(("en", edition, read_as.get(n, n))) if edition else None,
                            "text_today_ref": self.ref(("en", s["current"]["edition"], s["current"]["number"]))
                            if s["current"] else None} for n, s in zip(numbers, statuses)]
        if status == "never-existed":
            elsewhere = sorted({e for e in self.lineage.editions for n in numbers
                                if n in self.model.edition_rules("en", e)})
            if elsewhere:
                out["note"] = f"not in CR {edition}; a rule {numbers[0]} exists in {', '.join(elsewhere[:6])}" + (
                    f" and {len(elsewhere) - 6} more" if len(elsewhere) > 6 else "")
        check = self.title_check(title, read_as.get(numbers[0], numbers[0]), edition) if len(numbers) == 1 else None
        if check:
            out["title_check"] = check
            if check["matches"] is False and check["titled_rules"]:
                out["status"] = "ambiguous"
                out["candidates"] = [self._candidate(numbers[0], edition, "number as written")] + [
                    self._candidate(n, edition, f"titled {title}") for n in check["titled_rules"]] + [
                    self._candidate(numbers[0], e, f"rule {numbers[0]} was titled {title} in CR {e}")
                    for e in check["same_number_titled_in"]]
        return out

    def _steps(self, status: dict) -> dict:
        """The lineage steps where something happened, and how many carried the rule unchanged:
        the same for every citation of one number in one edition, so found once per check."""
        key = ("steps", status["number"], status["edition"])
        if key not in self._statuses:
            steps = status["steps"]
            self._statuses[key] = {"steps": changes(steps), "steps_unchanged": sum(1 for s in steps if not _changed(s))}
        return self._statuses[key]

    def _read_status(self, written: str, number: str, edition: str | None) -> dict:
        s = self.status(number, edition)
        if number != written and s["status"] == "current":  # today's number is not the one written
            s = dict(s, status="renumbered")
        return s

    def rule_then(self, number: str, edition: str | None) -> dict:
        ja = self.ja_text(edition, number) if edition else None
        return {"number": number, "edition": edition, "text_ref": self.ref(("en", edition, number)) if edition else None,
                "text_ja_ref": self.ref(ja[0]) if ja else None, "text_ja_edition": ja[0][1] if ja else None}

    def _candidate(self, number: str, edition: str, why: str) -> dict:
        s = self.lineage.status(number, edition)
        return {"number": number, "edition": edition, "why": why, "title": self._title(edition, number),
                "status": s["status"], "current": (s["current"] or {}).get("number")}

    def _title(self, edition: str, number: str) -> str | None:
        return self.rule_text(("en", edition, number)) if self.titles.of_rule(self.model, edition, number) else None

    # ------------------------------------------------------------ one quote

    def compare_quote(self, quote: QuotedRule, edition: str | None, reference) -> dict:
        """``reference``: the JA wording a quote is read against for slips (kb.citations.reading.Reference)."""
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
                suspects = reading_check(self.model, quote.text, reference=reference)
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
        suspects = reading_check(self.model, quote.text, reference=reference)
        en = self.ref(("en", edition, number))
        out = {"status": "no-official-ja-text",
               "note": f"no JA text of rule {number} (CR {edition}) or of the same rule in any loaded JA "
                       f"edition; the quote's wording was checked against JA texts in the knowledge base "
                       f"by reading (suspected input-conversion errors), not against an official text",
               "against": {"lang": "en", "edition": edition, "number": number, "text_ref": en} if en else None,
               "ops": [["suspect", s["quoted"], s["likely"]] for s in suspects], "suspects": suspects,
               "similarity": None, "identical": False}
        out["summary"] = ("suspected typos: " + "; ".join(f"{s['quoted']} → {s['likely']}" for s in suspects)
                          if suspects else "no official JA text to compare with; no suspect wording found")
        return out


