"""The CR's own examples as a second index of situations: a question is told like an example.

Every ``Example:`` paragraph of today's EN CR (and every 例 of the current JA CR, its rule carried to
today's number by lineage) tells a game situation in concrete words — cards, a player, what
happens — and sits under the rule that decides it. A question is matched against them (BM25: the
English stems, or the character bigrams of a Japanese question) and the rules of the best-matching
examples, best first, are one more ranked list for the fusion (kb.search.retrieval). The rule text
itself says it in general words ("an object", "a player"); the example shares the question's.

``hidden``: examples to leave out, by (today's rule number, index of the example under its rule),
both languages at once (a JA example is the translation of the EN one): for a bench whose queries
are the examples themselves (bench/bench_external.py), never set in use.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict

from kb.search import tokenize as tk
from kb.search.terms import bigrams
from kb.store.lineage import Lineage

K1, B = 1.2, 0.75
EXAMPLES = 8  # the best-matching examples whose rules form the list


def _terms(text: str) -> list[str]:
    return bigrams(text) if tk.HAS_JA.search(text) else tk.en_stems(text)


class CRExamples:
    def __init__(self, entries: list[tuple[tuple[str, int], str, str]]):
        """``entries``: ((today's rule number, index under its rule), lang, text)."""
        self.keys = [key for key, _, _ in entries]
        self.langs = [lang for _, lang, _ in entries]
        self.texts = [text for _, _, text in entries]
        self.hidden: frozenset = frozenset()
        self._table = None

    @classmethod
    def from_model(cls, model) -> "CRExamples":
        current = model.current("en")
        entries: list[tuple[tuple[str, int], str, str]] = []
        if current is None:
            return cls(entries)
        today = model.rules.edition("en", current)
        lineage = Lineage(model)
        for lang in ("en", "ja"):
            edition = model.current(lang)
            if edition is None:
                continue
            for number, rule in model.rules.edition(lang, edition).items():
                if not rule["examples"]:
                    continue
                now = number if lang == "en" and edition == current else (
                    lineage.forward(number, edition)[0] if ("en", edition, number) in model.rules else None)
                if now and now in today:
                    entries.extend(((now, i), lang, x["text"]) for i, x in enumerate(rule["examples"]))
        return cls(entries)

    def __len__(self) -> int:
        return len(self.keys)

    def _built(self):
        """Postings and idf per language, made on the first question (not at load)."""
        if self._table is None:
            postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
            lengths = []
            for i, text in enumerate(self.texts):
                counts = Counter(_terms(text))
                lengths.append(sum(counts.values()))
                for term, tf in counts.items():
                    postings[term].append((i, tf))
            n = max(1, len(self.texts))
            idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in postings.items()}
            self._table = (dict(postings), idf, lengths, sum(lengths) / n if lengths else 1.0)
        return self._table

    def like(self, query: str, limit: int = EXAMPLES) -> list[int]:
        """The ``limit`` examples most like the question (BM25), best first, as indexes."""
        postings, idf, lengths, avg = self._built()
        scores: dict[int, float] = defaultdict(float)
        for term in set(_terms(query)):
            weight = idf.get(term)
            if not weight:
                continue
            for i, tf in postings[term]:
                norm = K1 * (1 - B + B * lengths[i] / avg)
                scores[i] += weight * tf * (K1 + 1) / (tf + norm)
        ranked = sorted(scores, key=lambda i: (-scores[i], i))
        return [i for i in ranked if self.keys[i] not in self.hidden][:limit]

    def rules(self, query: str, limit: int = EXAMPLES) -> list[str]:
        """The rules of the examples most like the question, best first, each once."""
        return list(dict.fromkeys(self.keys[i][0] for i in self.like(query, limit)))
