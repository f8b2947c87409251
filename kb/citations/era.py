"""The era of an undated text, from all its evidence together, and what each citation means in it.

A text with no date is not assumed to be of the newest edition. Every loaded EN edition is scored
by everything the text says (log-odds, summed):

- each citation: are its numbers rules of that edition (a number that does not exist there
  speaks against it); does the title written with it (〔変身〕, "Transform") name that rule there;
  do the words around it share the words of that rule, its parent and its section there ("rule
  717.1 ... reverse ... illegal" fits 2011's Handling Illegal Actions, not today's Attraction
  Cards; JA words count through the JA/EN names of the knowledge base: 変身 -> transform);
- the text's vocabulary: a glossary term of the CR used in the text that the rules did not have
  yet in an edition speaks strongly against that edition, one they no longer have, weakly;
- the rules the text quotes: how well each quote fits that edition's rule.

The scores give a weight to each edition (softmax). The citations of the text share these weights;
a citation whose own evidence clearly contradicts them (a title that fits only other editions) is
read by its own. A citation's reading (status and today's number) is worked out in every edition
of weight and grouped: one reading carrying most of the weight is the answer, with that weight as
its confidence; otherwise the citation is ``ambiguous`` and every reading is shown with its editions.
Only loaded editions are candidates; an official edition newer than the newest loaded one is named.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from kb.memo import per_owner
from kb.text import normalize

CONTRADICTS = 3.0   # a citation's own best edition beats the era's by this much: read by its own
SURE = 0.8          # one reading with this share of the weight is the answer
AFTER_NEWEST = 0.25  # per loaded edition after the one that brought the text's newest term
KEEP = 1e-4         # editions below this share of the weight are not read
_WORD = re.compile(r"[a-z][a-z'’]{3,}")


@dataclass(slots=True)
class Reading:
    outcome: tuple            # ((status, today's number), ...) per number
    editions: list[str]       # loaded editions giving it, oldest first
    weight: float

    def as_json(self, numbers: list[str]) -> dict:
        return {"from": self.editions[0], "to": self.editions[-1], "editions": len(self.editions),
                "weight": round(self.weight, 3), "best_edition": self.editions[-1],
                "resolved": [{"number": n, "status": s, "current": today}
                             for n, (s, today) in zip(numbers, self.outcome)]}


@dataclass(slots=True)
class CitationEra:
    edition: str              # the loaded edition the answer is read in (the likeliest of its reading)
    readings: list[Reading]   # by weight, largest first
    own: bool                 # read by its own evidence (it contradicts the text's era)
    evidence: list[str] = field(default_factory=list)

    @property
    def weight(self) -> float:
        return self.readings[0].weight if self.readings else 0.0

    @property
    def ambiguous(self) -> bool:
        return len(self.readings) > 1 and self.weight < SURE


def stems(text: str, common: frozenset[str]) -> set[str]:
    return {w[:6] for w in _WORD.findall(normalize(text).lower())} - common


def _common(model, edition: str) -> frozenset[str]:
    """The words nearly every rule uses (a stop list from the rules themselves)."""
    def build():
        counts = Counter()
        for rule in model.edition_rules("en", edition).values():
            counts.update({w[:6] for w in _WORD.findall(rule["text"].lower())})
        return frozenset(w for w, _ in counts.most_common(60))
    return per_owner(model, ("era-common", edition), build)


def vocabulary(model, editions: list[str]) -> dict[str, tuple[int, int, str]]:
    """Glossary terms (normalised) that not every loaded edition has: (first, last) index of the
    editions that define them and the term as the glossary writes it."""
    def build():
        spans: dict[str, list] = {}
        for i, e in enumerate(editions):
            for term in model.glossary.edition("en", e):
                key = normalize(term).lower()
                span = spans.setdefault(key, [i, i, term])
                span[1] = i
        return {k: (a, b, t) for k, (a, b, t) in spans.items()
                if (a > 0 or b < len(editions) - 1) and len(k) >= 4}
    return per_owner(model, ("era-vocabulary", tuple(editions)), build)


class EraInference:
    """The era of one undated text (see the module doc)."""

    def __init__(self, answers, editions: list[str], text: str, quote_fit=None):
        """``quote_fit(quote, number, edition)``: how well a quote fits that rule (0..1, None: no rule)."""
        self.answers = answers
        self.quote_fit = quote_fit
        self.model = answers.model
        self.lineage = answers.lineage
        self.editions = editions
        self.index = {e: i for i, e in enumerate(editions)}
        self.common = _common(self.model, editions[-1])
        self.text = text
        self.scores = [0.0] * len(editions)
        self.why: list[tuple[float, str, str]] = []   # (strength, en, ja)
        self._rule_stems: dict[int, set[str]] = {}
        self._outcomes: dict[str, list] = {}
        self.ja_names: dict[str, set[str]] = {}
        self.per_citation: list[list[float]] = []

    # ------------------------------------------------------------ evidence

    def use_names(self, titles) -> None:
        """JA words of the text that have EN names in the knowledge base (変身 -> transform): a JA
        citation's surrounding words are compared with the EN rules through them."""
        self.ja_names = {j: set().union(*(stems(en, self.common) for en in ens))
                         for j, ens in titles.ja_to_en.items() if len(j) >= 2 and j in self.text}
        self.ja_names = {j: s for j, s in self.ja_names.items() if s}

    def words_of(self, window: str) -> set[str]:
        found = stems(window, self.common)
        for j, en in self.ja_names.items():
            if j in window:
                found |= en
        return found

    def add_vocabulary(self, titles) -> None:
        """Glossary terms in the text (EN by the word, JA by their JA names) not every edition has."""
        spans = vocabulary(self.model, self.editions)
        low = " " + normalize(self.text).lower() + " "
        found: dict[str, tuple[int, int, str, str]] = {}
        for key, (a, b, term) in spans.items():
            if re.search(rf"(?<![a-z]){re.escape(key)}(?![a-z])", low):
                found[key] = (a, b, term, term)
        for ja in (j for j in titles.ja_to_en if len(j) >= 2 and j in self.text):
            for en in titles.ja_to_en[ja]:
                if en.lower() in spans and en.lower() not in found:
                    a, b, term = spans[en.lower()]
                    found[en.lower()] = (a, b, term, ja)
        newest = max((a for a, _, _, _ in found.values()), default=0)
        if newest >= 5:
            # the newest term a text uses dates it from then on (terminus post quem), and a text is
            # most often written while its newest words are new: later editions weigh less and less
            for i in range(newest + 1, len(self.editions)):
                self.scores[i] -= AFTER_NEWEST * (i - newest)
            term = next(t for a, _, t, _ in found.values() if a == newest)
            self.why.append((2.5, f"its newest CR term, “{term}”, came with CR {self.editions[newest]}: "
                                  f"texts are most often written while their words are new",
                             f"使われている最も新しい用語「{term}」は CR {self.editions[newest]} から：文章はふつう"
                             f"その用語が新しいうちに書かれる"))
        for a, b, term, written in found.values():
            for i in range(len(self.editions)):
                self.scores[i] += -3.0 if i < a else -0.7 if i > b else 0.0
            if a >= 5:  # coined after the first few loaded editions: it says something of the era
                self.why.append((3.0, f"uses {written!s} (“{term}”), a glossary term of the CR from "
                                      f"{self.editions[a]} on",
                                 f"「{written}」（{term}）を使っている：総合ルールの用語集にあるのは {self.editions[a]} 以降"))

    def add_citation(self, numbers: list[str], title: str | None, words: str, weight: float,
                     raw: str, quote=None) -> None:
        """One citation's evidence, kept per citation (to tell when it contradicts the text's era)."""
        own = [0.0] * len(self.editions)
        context = self.words_of(words)
        overlap = [0] * len(self.editions)
        for i, e in enumerate(self.editions):
            missing = sum(("en", e, n) not in self.model.rules for n in numbers)
            own[i] -= 2.5 * weight * missing / len(numbers)
            if len(numbers) == 1 and not missing:
                if title:
                    match = self.answers.title_matches(title, numbers[0], e)
                    own[i] += 2.5 if match is True else -2.0 if match is False else 0.0
                if context:
                    overlap[i] = len(context & self._stems_of(e, numbers[0]))
                    named = self._title_stems(e, numbers[0])
                    if named and named <= context:  # the text names the rule's title (Cipher, 変身)
                        own[i] += 2.0
                if quote is not None and self.quote_fit is not None:
                    own[i] += 6.0 * (self.quote_fit(quote, numbers[0], e) or 0.0)
        best = max(overlap)
        if best >= 2:  # the words around it name what the rule is about in some editions only
            for i, k in enumerate(overlap):
                if ("en", self.editions[i], numbers[0]) in self.model.rules:
                    own[i] += 0.9 * (min(k, 6) - min(best, 6))
        for i, s in enumerate(own):
            self.scores[i] += s
        self.per_citation.append(own)
        top = max(own)
        spread = top - min(own)
        if spread >= 2.0:
            span = [e for e, s in zip(self.editions, own) if s >= top - 0.5]
            what = "titled " + title if title else "the words around it" if best >= 2 else "its numbers exist"
            what_ja = f"見出し「{title}」" if title else "周りの語" if best >= 2 else "番号の有無"
            self.why.append((spread, f"{raw}: {what} fit CR {span[0]} to {span[-1]}",
                             f"{raw}：{what_ja}が合うのは CR {span[0]}〜{span[-1]}"))

    def _title_stems(self, e: str, number: str) -> set[str]:
        titles = self.answers.titles.of_rule(self.model, e, number)
        return set().union(*(stems(t, frozenset()) for t in titles)) if titles else set()

    def _stems_of(self, e: str, number: str) -> set[str]:
        rule = self.model.rules.get(("en", e, number))
        parts = [rule["text"]]
        parent = rule.get("parent")
        while parent:
            row = self.model.rules.get(("en", e, parent))
            if row is None:
                break
            parts.append(row["text"])
            parent = row.get("parent") if row["kind"] not in ("section", "chapter") else None
        key = hash(tuple(parts))
        found = self._rule_stems.get(key)
        if found is None:
            found = self._rule_stems[key] = stems(" ".join(parts), self.common)
        return found

    # ------------------------------------------------------------ weights and readings

    def weights(self, scores: list[float]) -> list[float]:
        top = max(scores)
        raw = [math.exp(s - top) for s in scores]
        total = sum(raw)
        return [r / total for r in raw]

    def era(self) -> tuple[list[float], str, str, list[str], list[str]]:
        """The text's weights, the span of editions that carry them, and why (EN, JA)."""
        prior = [0.3 * i / max(1, len(self.editions) - 1) for i in range(len(self.editions))]
        self.doc = self.weights([s + p for s, p in zip(self.scores, prior)])
        kept = [e for e, w in zip(self.editions, self.doc) if w >= max(self.doc) * math.exp(-2)]
        why = sorted(self.why, key=lambda t: -t[0])[:4]
        if not why:
            why = [(0, "nothing in the text points at an era: every loaded edition is a candidate",
                    "文章に時期を示す手がかりがないため、読み込み済みのすべての版が候補です")]
        return self.doc, kept[0], kept[-1], [w[1] for w in why], [w[2] for w in why]

    def citation(self, k: int, numbers: list[str]) -> CitationEra:
        own = self.per_citation[k]
        weights, own_reading = self.doc, False
        era_best = max(s for s, w in zip(own, self.doc) if w >= KEEP)
        if max(own) - era_best >= CONTRADICTS:
            weights, own_reading = self.weights(own), True
        groups: dict[tuple, Reading] = {}
        for i, (e, w) in enumerate(zip(self.editions, weights)):
            if w < KEEP:
                continue
            outcome = self._outcome(numbers, i)
            r = groups.setdefault(outcome, Reading(outcome, [], 0.0))
            r.editions.append(e)
            r.weight += w
        total = sum(r.weight for r in groups.values()) or 1.0
        readings = sorted(groups.values(), key=lambda r: -r.weight)
        for r in readings:
            r.weight /= total
        best = readings[0]
        edition = max(best.editions, key=lambda e: (weights[self.index[e]], e))
        return CitationEra(edition, readings, own_reading)

    def _outcome(self, numbers: list[str], i: int) -> tuple:
        return tuple(self._one(n, i) for n in numbers)

    def _one(self, number: str, i: int) -> tuple:
        """(status, today's number) of ``number`` in edition i: worked out newest first once per
        number, an edition whose rule goes on unchanged under the same number to the next one
        taking the next one's answer."""
        table = self._outcomes.get(number)
        if table is None:
            table = self._outcomes[number] = [None] * len(self.editions)
            later = None
            for j in range(len(self.editions) - 1, -1, -1):
                e = self.editions[j]
                link = self.lineage.next_link.get(("en", e, number))
                if later is not None and link is not None and link[0] == number and not link[3]:
                    table[j] = later
                else:
                    s = self.answers.status(number, e)
                    table[j] = (s["status"], (s["current"] or {}).get("number"))
                later = table[j]
        return table[i]
