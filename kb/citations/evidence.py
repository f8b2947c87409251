"""Which edition each citation means, from evidence, per citation (not one per document).

Candidates are the official editions (kb.citations.official; the loaded ones when no list is
shipped). Each is scored from: the document's date (the edition in force then; for a rules-change
article or update bulletin, the edition it announces - the next one effective within a few weeks -
and the one before it for what "was"), the tense around the citation ("was", "formerly", 「だった」,
「今まで」 lean to the older edition; "new rule", 「新設」 to the announced one), whether the cited
numbers exist in the edition, the title written with the number, and a quoted rule's text (fuzzy,
EN word by word; JA by the rule numbers it cites). The answer keeps every piece of evidence, the
runner-up and whether the top two are close (``ambiguous``). An edition that is not loaded is
resolved through the nearest loaded edition holding the numbers, and says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date as Date

from rapidfuzz import fuzz

from kb.citations.wording import ja
import kb.sources.editions as editions
from kb.sources.editions import Edition, Editions
from kb.sources.official import OfficialList
from kb.store.lineage import Lineage
from kb.text import normalize

CHANGES = re.compile(r"Comprehensive Rules? (?:Changes|Update)|Rulebook Changes|Update Bulletin|Rules Changes"
                     r"|総合ルール(?:の)?(?:変更|更新)|ルール変更|変更点", re.I)
PAST = re.compile(r"(?<![A-Za-z])(?:was|were|used to|formerly|previously|had been|existing|the old|old"
                  r"|no longer)(?![A-Za-z])"
                  r"|だった|でした|今まで|これまで|以前|旧|かつて|ていた|ありました", re.I)
NEW = re.compile(r"(?<![A-Za-z])(?:new rule|new subrule|now|added|introduc\w+)(?![A-Za-z])|新設|新しい|新ルール|追加",
                 re.I)
CLOSE = 0.5  # top two within this many points: ambiguous
PREVIEW_DAYS = 28  # FAQs and release notes come out up to a few weeks before the rules they describe


@dataclass(slots=True)
class DocumentFacts:
    date: str | None
    changes: bool                      # a rules-change article or update bulletin
    in_force: Edition | None           # the official (or loaded) edition in force on the date
    announced: Edition | None          # for a changes article: the edition it announces
    previous: Edition | None           # the edition before the announced one
    anchor: str | None                 # the edition the document's own date points at
    candidates: list[Edition] = field(default_factory=list)
    official_list: bool = False


def document_facts(text: str, when: str | None, official: OfficialList, lineage: Lineage,
                   held: Editions | None = None) -> DocumentFacts:
    """``held``: the loaded editions with their file dates (kb.citations.official.held); an
    edition is one edition whether the list or the loaded file names it by the other date."""
    listed = bool(official)
    held = held if held is not None else editions.loaded((e, e) for e in lineage.editions)
    pool = editions.merge(official, held) if listed else held
    candidates = list(pool)
    changes = bool(CHANGES.search(text[:3000]))
    if when is None:
        return DocumentFacts(None, changes, None, None, None, None, candidates, listed)
    in_force = pool.in_force(when)
    announced = previous = None
    if changes:
        near = pool.near(when, 7, 28)
        announced = near[0] if near else None
        previous = pool.preceding(announced.effective) if announced else None
    anchor = (announced or in_force).effective if (announced or in_force) else None
    return DocumentFacts(when, changes, in_force, announced, previous, anchor, candidates, listed)


@dataclass(slots=True)
class Verdict:
    edition: str            # the edition meant (effective date), loaded or not
    file_date: str
    loaded: bool
    resolve_with: str | None  # the loaded edition the numbers are read in
    method: str
    score: float
    evidence: list[str]
    runner_up: dict | None
    ambiguous: bool
    caveat: str | None = None
    caveat_ja: str | None = None

    def as_json(self) -> dict:
        return {"edition": self.edition, "file_date": self.file_date, "loaded": self.loaded,
                "resolved_with": self.resolve_with, "method": self.method, "score": round(self.score, 2),
                "evidence": self.evidence, "evidence_ja": [ja(line) for line in self.evidence], "runner_up": self.runner_up, "ambiguous": self.ambiguous,
                "caveat": self.caveat, "caveat_ja": self.caveat_ja}


class Chooser:
    """Scores the candidate editions of one document's citations."""

    def __init__(self, lineage: Lineage, facts: DocumentFacts, title_matches=None, quotes=None):
        self.lineage = lineage
        self.rules = lineage.rules
        self.facts = facts
        self.loaded = set(lineage.editions)
        self.held = editions.loaded((e, e) for e in lineage.editions)
        self.order = [e.effective for e in facts.candidates]
        self.position = {e: i for i, e in enumerate(self.order)}
        self.by_date = {e.effective: e for e in facts.candidates}
        self.title_matches = title_matches  # (title, number, edition) -> True / False / None
        self.quotes = {}  # number -> a quote of it in the same document: how the document numbers it
        for q in quotes or ():
            self.quotes.setdefault(q.number, q)
        self._around: dict[str, tuple[str | None, str | None]] = {}
        self._verdicts: dict[tuple, Verdict] = {}
        self.quoted_edition, self.quoted_fit, self.anchor_fit = self._document_quotes()

    # ------------------------------------------------------------ pieces of evidence

    def _steps(self, a: str, b: str) -> int:
        return abs(self.position[a] - self.position[b])

    def _prior(self, e: str, tense: str) -> tuple[float, str | None]:
        f = self.facts
        if self.quoted_edition and e == self.quoted_edition and not f.announced:
            return 3.5, (f"the document's quoted rules fit CR {e} best ({self.quoted_fit:.2f}; the edition of "
                         f"its date {self.anchor_fit:.2f})")
        if f.anchor is None:
            current = self.order[-1]
            return (1.0, "no date: the newest edition") if e == current else (0.0, None)
        if f.announced and f.previous and e == f.previous.effective:
            if tense == "past":
                return 3.5, f"the edition before the one the article announces, and the text says it was ({f.date})"
            return 2.0, "the edition before the one the article announces"
        if e == f.anchor:
            if f.announced:
                bonus = 0.5 if tense == "new" else 0.0
                return 3.0 + bonus, f"the edition this changes article of {f.date} announces (effective {e})"
            if not f.official_list:  # never "in force" for an edition that may not have been
                return 3.0, (f"the newest loaded edition on the text's date {f.date} (no official list: editions "
                             f"that are not loaded may have come in between)")
            return 3.0, f"in force on the text's date {f.date}"
        steps = self._steps(e, f.anchor)
        return {1: 1.5, 2: 0.5}.get(steps, 0.0 if steps <= 5 else -1.0), None

    def _exists(self, numbers: list[str], e: str) -> tuple[float, str | None]:
        if e in self.loaded:
            missing = [n for n in numbers if ("en", e, n) not in self.rules]
            if not missing:
                return 0.0, None
            return -1.25 * len(missing) / len(numbers), f"{', '.join(missing)} not in CR {e}"
        before, after = self.loaded_around(e)
        held = [x for x in (before, after) if x and all(("en", x, n) in self.rules for n in numbers)]
        if held:
            return 0.0, None
        return -0.75, f"not in the loaded editions around {e}"

    def _changed_before(self, numbers: list[str], e: str) -> tuple[float, str | None]:
        """A changes article speaks of rules that changed. When the announced edition's rule of the
        number is only the previous edition's rule of another number moved up or down unchanged,
        and the previous edition's rule of that number was removed or moved, the article means the
        previous edition's rule (Ixalan's 704.5j: the removed uniqueness rule, not the shifted one)."""
        f = self.facts
        if not (f.announced and f.previous) or e != f.previous.effective or len(numbers) != 1:
            return 0.0, None
        number = numbers[0]
        new = f.announced.effective if f.announced.effective in self.loaded else \
            self.resolve(f.announced.effective, numbers, "")
        old = e if e in self.loaded else self.resolve(e, numbers, "past")
        if not new or not old or old >= new or ("en", new, number) not in self.rules \
                or ("en", old, number) not in self.rules:
            return 0.0, None
        was = self.lineage.backward(number, new, old)
        if was is None or was == number:
            return 0.0, None
        carried, steps = self.lineage.forward(was, old, new)
        if carried != number or any(s["text_changed"] for s in steps):
            return 0.0, None
        went = self.lineage.carry(number, old, new)
        if went == number:
            return 0.0, None
        fate = "removed" if went is None else f"moved to {went}"
        return 1.5, (f"{number} of CR {new} is {was} of CR {old} renumbered, text unchanged, while {number} of "
                     f"CR {old} was {fate}: a changes article speaks of the rule that changed")

    def loaded_around(self, e: str) -> tuple[str | None, str | None]:
        found = self._around.get(e)
        if found is None:
            found = self._around[e] = tuple(x.effective if x else None for x in self.held.neighbours(e))
        return found

    def _quote(self, quote, number: str, e: str) -> float | None:
        rule_e = e if e in self.loaded else self.resolve(e, [number], "")
        rule = self.rules.get(("en", rule_e, number)) if rule_e else None
        if rule is None:
            return 0.0
        if quote.lang == "en":
            return fuzz.ratio(normalize(quote.text), normalize(rule["text"])) / 100
        cited = set(quote.cites)
        refs = set(rule["refs"])
        if cited or refs:
            return 0.3 + 0.7 * len(cited & refs) / max(1, len(cited | refs))
        return 0.5  # the rule exists; nothing else to compare

    def _document_quotes(self) -> tuple[str | None, float, float]:
        """The loaded edition the document's quotes fit best as a whole, if clearly better (by more
        than 0.1 of mean fit) than the edition its date points at: (edition, its fit, the date's)."""
        quotes = list(self.quotes.values())
        if not quotes:
            return None, 0.0, 0.0

        def fit(e: str) -> float:
            return sum(self._quote(q, q.number, e) or 0.0 for q in quotes) / len(quotes)
        fits = {e: fit(e) for e in self.lineage.editions}
        best = max(fits.values())
        anchor = self.facts.anchor
        tied = [e for e, f in fits.items() if f >= best - 1e-9]
        if anchor:
            day = Date.fromisoformat(anchor)
            tied.sort(key=lambda e: abs((Date.fromisoformat(e) - day).days))
        else:
            tied.sort(reverse=True)
        at_anchor = fit(anchor) if anchor and anchor in self.loaded else self._unloaded_fit(anchor, fits) \
            if anchor else 0.0
        if best - at_anchor > 0.1:
            return tied[0], best, at_anchor
        return None, best, at_anchor

    def _unloaded_fit(self, anchor: str, fits: dict[str, float]) -> float:
        """How well the quotes fit the unloaded edition the date points at, as far as it is known:
        the better of its loaded neighbours - but when the next loaded edition takes effect within
        PREVIEW_DAYS of the document's date (a set's FAQ, release notes), the text quoted may be the
        coming edition's, so the edition before stands for the one in force."""
        before, after = self.loaded_around(anchor)
        date = self.facts.date
        if before and after and date and 0 <= (Date.fromisoformat(after) - Date.fromisoformat(date)).days <= PREVIEW_DAYS:
            return fits[before]
        return max((fits[x] for x in (before, after) if x), default=0.0)

    # ------------------------------------------------------------ one citation

    def choose(self, numbers: list[str], *, title: str | None = None, context: str = "",
               quote=None) -> Verdict:
        """The verdict for one citation; the same citation in the same tense is scored once per
        document (a list of thousands of numbers repeats a few), each caller given its own copy."""
        tense = "past" if PAST.search(context) else "new" if NEW.search(context) else ""
        key = (tuple(numbers), title, tense, id(quote) if quote is not None else None)
        found = self._verdicts.get(key)
        if found is None:
            found = self._verdicts[key] = self._choose(numbers, title, tense, quote)
        return replace(found, evidence=list(found.evidence))

    def _choose(self, numbers: list[str], title: str | None, tense: str, quote) -> Verdict:
        scored = []
        quote_scores, weight, top = {}, 8.0, None
        if quote is None and len(numbers) == 1 and numbers[0] in self.quotes:
            quote, weight = self.quotes[numbers[0]], 4.0  # the document quotes this rule elsewhere
        if quote is not None:
            quote_scores = {e: self._quote(quote, numbers[0], e) for e in self.order}
            top = max((s for s in quote_scores.values() if s is not None), default=None)
        for e in self.order:
            evidence = []
            score, why = self._prior(e, tense)
            if why:
                evidence.append(why)
            s, why = self._exists(numbers, e)
            score += s
            if why:
                evidence.append(why)
            s, why = self._changed_before(numbers, e)
            score += s
            if why:
                evidence.append(why)
            if title and self.title_matches and len(numbers) == 1:
                rule_e = e if e in self.loaded else self.resolve(e, numbers, tense)
                match = self.title_matches(title, numbers[0], rule_e) if rule_e else None
                if match is True:
                    score += 1.5
                    evidence.append(f"titled {title} in CR {rule_e}")
                elif match is False:
                    score -= 1.0
                    evidence.append(f"not titled {title} in CR {rule_e}")
            q = quote_scores.get(e)
            if q is not None and top is not None:
                score += weight * (q - top)
                evidence.append(("quote" if weight == 8.0 else "the document's quote of it")
                                + f" fits {q:.2f}" + (" (best)" if q == top else f" (best {top:.2f})"))
            if tense and e == self.facts.anchor:
                evidence.append("tense: " + ("past ('was', 「だった」)" if tense == "past" else "new rule"))
            scored.append((score, e, evidence))
        anchor = self.facts.anchor or self.order[-1]
        # ties: an edition whose text can be read (loaded), then the nearest to the document's date
        scored.sort(key=lambda t: (-round(t[0], 6), t[1] not in self.loaded, self._steps(t[1], anchor), t[1] < anchor))
        best, second = scored[0], scored[1] if len(scored) > 1 else None
        e = best[1]
        resolve = e if e in self.loaded else self.resolve(e, numbers, tense)
        edition = self.by_date[e]
        method = self._method(e, best[2], quote_scores.get(e), tense)
        runner = {"edition": second[1], "score": round(second[0], 2), "loaded": second[1] in self.loaded} \
            if second else None
        ambiguous = bool(second and best[0] - second[0] < CLOSE)
        caveat = None if e in self.loaded else self.caveat(e, resolve)
        caveat_ja = None if e in self.loaded else self.caveat(e, resolve, ja=True)
        return Verdict(e, edition.file_date, e in self.loaded, resolve, method, best[0], best[2], runner,
                       ambiguous, caveat, caveat_ja)

    def caveat(self, e: str, resolve: str | None, read_as: str | None = None, ja: bool = False) -> str:
        before, after = (x or "none" for x in self.loaded_around(e))
        if ja:
            return (f"{e} 版は読み込まれていません（最も近い読み込み済みの版は {before} と {after}）。{resolve or 'none'} 版"
                    f"{f'の {read_as}' if read_as else ''}として読んだため、結果が誤っている可能性があります"
                    f"（kb fetch --history）")
        return (f"edition of {e} not loaded; nearest loaded {before} and {after}; "
                f"read in {resolve or 'none'}{f' as {read_as}' if read_as else ''}, so results may be wrong "
                f"(kb fetch --history)")

    def _method(self, e: str, evidence: list[str], quote: float | None, tense: str) -> str:
        f = self.facts
        if (quote is not None and quote >= 0.9 and e != f.anchor) or (e == self.quoted_edition and not f.announced):
            return "quoted-text"
        if f.announced and e == f.announced.effective:
            return "announced-edition"
        if f.previous and e == f.previous.effective:
            return "previous-edition" if tense == "past" else "edition-before-announced"
        if f.anchor and e == f.anchor:
            return "document-date"
        if f.anchor is None:
            return "current-edition" if e == self.order[-1] else "rule-numbers"
        return "rule-numbers"

    def resolve(self, e: str, numbers: list[str], tense: str) -> str | None:
        """The loaded edition an unloaded edition's numbers are read in: of the loaded editions
        just before and after it that hold the numbers, the one whose text of a rule the document
        quotes fits best; else the nearer in time - when both are about as near, the earlier if it
        holds the numbers already (an existing rule keeps its number more often than a new one
        arrives shifted)."""
        before, after = self.loaded_around(e)
        held = [x for x in (before, after) if x and all(("en", x, n) in self.rules for n in numbers)]
        if not held:
            return after or before
        if len(held) == 1:
            return held[0]
        quote = self.quotes.get(numbers[0]) if len(numbers) == 1 else None
        if quote is not None:
            fits = {x: self._quote_in(quote, numbers[0], x) for x in held}
            if fits[before] is not None and fits[after] is not None and abs(fits[before] - fits[after]) > 0.05:
                return max(held, key=lambda x: fits[x])
        day = Date.fromisoformat(e)
        gap_before = (day - Date.fromisoformat(before)).days
        gap_after = (Date.fromisoformat(after) - day).days
        if tense == "past" or gap_before <= gap_after + 60:
            return before
        return after

    def _quote_in(self, quote, number: str, x: str) -> float | None:
        rule = self.rules.get(("en", x, number))
        if rule is None:
            return None
        if quote.lang == "en":
            return fuzz.ratio(normalize(quote.text), normalize(rule["text"])) / 100
        cited, refs = set(quote.cites), set(rule["refs"])
        return 0.3 + 0.7 * len(cited & refs) / max(1, len(cited | refs)) if cited or refs else None
