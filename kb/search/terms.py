"""The rules that define the game terms a question uses: what the question is about, learned from
the CR's own glossary.

A real question rarely names the rule a judge cites ("...and the Bolt resolves" -> 608.2b; "...does
it die?" -> 700.4), but it uses the game's terms, and the CR's glossary says which rules define
each term ("Dies: ... See rule 700.4", "Resolve: ... See rule 608"). A phrase of the question that
names a glossary entry (stemmed: "resolves", "resolving" -> Resolve; longest phrase first, each
word in one phrase) brings the rules the entry cites and their subrules; they are ordered by how
well each one's own text matches the question (BM25 over today's English rule passages, scored
only for those candidates), so "an effect resolving with an illegal target" reaches 608.2b rather
than 608.1.

The index's glossary bridge (kb.search.index) gives the same entries a weight by how rare their
names are, so in a long question a common term ("spell", "resolve") adds nothing there; here every
matched term counts, as one more ranked list fused by rank (kb.search.retrieval). Nothing is
hand-listed: names and cited rules are the glossary's, the order the question's words.

A Japanese question is matched against the JA glossary's names (解決する, 死亡する; longest first,
a name inside a longer matched one not counted), each taken to its EN entry through the English
term the translation gives, so the rules come with today's numbers and never the translation's
stale ones (夜 -> 729 in the JA glossary, Subgames today); candidates are ordered by how well the
official JA text of each rule (carried to today's number by lineage) shares the question's
character bigrams.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict

import numpy as np

from kb.search import scoring
from kb.search import tokenize as tk
from kb.store.lineage import Lineage
from kb.text import normalize

K1, B = 1.2, 0.75
LIMIT = 30  # rules in the list
BASE = 0.2  # a matched entry counts at least this much, however common its name (its idf grade adds)


def bigrams(text: str) -> list[str]:
    """Character bigrams of the Japanese runs of ``text`` (katakana folded to hiragana)."""
    out = []
    for run in tk.JA_RUN.findall(tk.fold(normalize(text))):
        out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out


class _BM25:
    """BM25 over a fixed set of documents, scored only for the candidates asked about."""

    def __init__(self, docs: dict[str, Counter]):
        self.docs = docs
        df: Counter = Counter()
        for tf in docs.values():
            df.update(tf.keys())
        n = max(1, len(docs))
        self.idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self.lengths = {k: sum(tf.values()) for k, tf in docs.items()}
        self.avg = sum(self.lengths.values()) / n
        self.norms = {k: K1 * (1 - B + B * length / self.avg) for k, length in self.lengths.items()}
        # Each document's term weights, the same for every query, inverted: term -> (rows, weights).
        self._row = {key: i for i, key in enumerate(docs)}
        rows: dict[str, list[int]] = defaultdict(list)
        weights: dict[str, list[float]] = defaultdict(list)
        for i, (key, tf) in enumerate(docs.items()):
            norm = self.norms[key]
            for t, f in tf.items():
                rows[t].append(i)
                weights[t].append(self.idf[t] * f * (K1 + 1) / (f + norm))
        self._inverted = {t: (np.array(rows[t], dtype=np.int32), np.array(weights[t])) for t in rows}

    def score(self, key: str, query: Counter) -> float:
        return self.scores([key], query)[0]

    def scores(self, keys, query: Counter) -> list[float]:
        """``score`` of each key: the sum over the query's terms in their order, as sum() of a
        generator adds them (from 0: an int 0 when it shares none). Every document's sums at once, by
        one bincount over the query's terms' lists in their order (a document is in each list once):
        a question with the named cards' text has ~20-40 terms and ~100 candidates."""
        found = [self._inverted[t] for t in query if t in self._inverted]
        if not found:
            return [0.0 if key not in self._row or not self.docs[key] else 0 for key in keys]
        rows = np.concatenate([r for r, _ in found]) if len(found) > 1 else found[0][0]
        weights = np.concatenate([w for _, w in found]) if len(found) > 1 else found[0][1]
        totals = np.bincount(rows, weights=weights, minlength=len(self._row))
        at = [self._row.get(key) for key in keys]
        picked = totals[[0 if i is None else i for i in at]].tolist()  # the ~100 asked, not every rule
        # every weight is positive: a sum of 0.0 shares no term
        return [0.0 if i is None or not self.docs[key] else (total or 0) for key, i, total in zip(keys, at, picked)]


class DefinedTerms:
    def __init__(self, index, model):
        self.index = index
        self.gloss_names = index.gloss_names  # stemmed name -> ((share of the name's idf, entry no), ...)
        self.gloss_entries = index.gloss_entries  # entry no -> (idf grade, ((rule, weight), ...))
        current = model.current("en")
        en: dict[str, Counter] = {}
        self.children: dict[str, list[str]] = defaultdict(list)
        for (lang, edition, number), rule in model.rules.items():
            if lang != "en" or edition != current or rule["kind"] == "chapter":
                continue
            en[number] = Counter(tk.en_stems(rule["text"]))
            parent = rule.get("parent")
            if parent:
                self.children[parent].append(number)
        self.en = _BM25(en)
        self.ja_names: dict[str, str] = {}  # folded JA glossary name -> its EN entry's stemmed name
        ja: dict[str, Counter] = {}
        ja_edition = model.current("ja")
        lineage = Lineage(model) if ja_edition else None
        for (lang, edition, key), entry in model.glossary.items():
            if lang == "ja" and edition == ja_edition and entry.get("term_en"):
                name = " ".join(tk.en_stems(entry["term_en"]))
                if name in self.gloss_names and len(key) >= 2:
                    self.ja_names[tk.fold(normalize(key))] = name
        for (lang, edition, number), rule in model.rules.items():
            if lang == "ja" and edition == ja_edition and rule["kind"] != "chapter":
                today = lineage.forward(number, edition)[0] if ("en", edition, number) in model.rules else number
                if today in en:
                    ja[today] = Counter(bigrams(rule["text"]))
        self.ja = _BM25(ja)

    def entries(self, stems: list[str]) -> dict[int, float]:
        """Glossary entries named in the stemmed words -> the share of the name matched."""
        return self.index.glossary_entries(stems)

    def ja_entries(self, query: str) -> dict[int, float]:
        """Glossary entries a Japanese question names (by their JA names), as ``entries``."""
        folded = tk.fold(normalize(query))
        matched = scoring.names_in(self.index, "ja-gloss-names", self.ja_names, folded)
        found: dict[int, float] = {}
        for name in matched:
            if any(name != other and name in other for other in matched):
                continue
            for share, no in self.gloss_names.get(self.ja_names[name], ()):
                found[no] = max(found.get(no, 0.0), share)
        return found

    def rules(self, query: str, limit: int = LIMIT) -> list[str]:
        """Today's EN rules defining the terms ``query`` uses, best matching the question first."""
        stems = tk.en_stems(query)
        found = self.entries(stems)
        ja = bool(tk.HAS_JA.search(query))
        if ja:
            for no, share in self.ja_entries(query).items():
                found[no] = max(found.get(no, 0.0), share)
        if not found:
            return []
        weight: dict[str, float] = {}
        for no, share in found.items():
            grade, cited = self.gloss_entries[no]
            for number, rw in cited:
                weight[number] = max(weight.get(number, 0.0), (BASE + grade) * share * rw)
        candidates = dict.fromkeys(n for n in weight if n in self.en.docs)
        for number in list(candidates):
            candidates.update(dict.fromkeys(self.children.get(number, ())))
        bm25, words = (self.ja, Counter(bigrams(query))) if ja else (self.en, Counter(stems))
        scored = [(score, weight.get(n, 0.0), n) for score, n in zip(bm25.scores(candidates, words), candidates)]
        scored.sort(key=lambda s: (-s[0], -s[1], s[2]))
        return [n for s, _, n in scored if s > 0 or n in weight][:limit]
