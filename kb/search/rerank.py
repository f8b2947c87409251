"""The second ranking stage: the best BM25 candidates reordered by query-word coverage, phrases,
and one hit per rule (EN and JA merged). Measured in bench/bench_search.py."""
from __future__ import annotations

import math

import numpy as np

from kb.memo import per_owner
from kb.search import pairs as stem_pairs
from kb.search import tokenize as tk

# Coverage counts in a keyword query (3-6 distinct words: each word is meant); in a longer question
# many words are incidental ("my opponent", "a creature") and coverage measured worse.
COVER_MIN_WORDS, COVER_MAX_WORDS = 3, 6
COVER_POW = 0.5  # score * (idf share of the query's words the document has) ** COVER_POW
PHRASE = 0.1  # score * (1 + PHRASE * share of the query's adjacent word pairs adjacent in the doc)
MERGED = 0.5  # a rule found in both languages: its better score + MERGED * the other's
PAIR_CACHE = 20_000


def pairs_of(index, d: int) -> frozenset[tuple[str, str]]:
    """Adjacent English content-word stems of a document's title and text (cached)."""
    got = index._pair_cache.get(d)
    if got is None:
        if len(index._pair_cache) > PAIR_CACHE:
            index._pair_cache.clear()
        row = index._rows[d]
        got = frozenset()
        for text in (row[3], row[4]):
            stems = tk.en_stems(text)
            got |= frozenset(zip(stems, stems[1:]))
        index._pair_cache[d] = got
    return got

def _held(index, top: list[tuple[float, int]], spans: list[tuple[int, int]], idfs: list[float]) -> list[float]:
    """For each candidate, the sum of the idfs of the words whose postings hold it, added in the
    words' order (a loop adding 0.0 for a word it lacks makes the same double): a document is
    listed once in each word's postings, so one bincount over them all, weighted by each word's
    idf, sums them in that order."""
    ids = index._columns()["ids"]
    docs = [d for _, d in top]
    if len(spans) == 1:
        (start, end), = spans
        held, weights = ids[start:end], np.full(end - start, idfs[0])
    else:
        held = np.concatenate([ids[start:end] for start, end in spans])
        weights = np.repeat(idfs, [end - start for start, end in spans])
    return np.bincount(held, weights=weights, minlength=max(docs) + 1)[docs].tolist()


def rerank(index, top: list[tuple[float, int]], terms: dict[str, float], limit: int,
            pairs: list[tuple[str, str]] = (), prefer: str = "en") -> list[tuple[float, int]]:
    """The best BM25 candidates, reordered for a query of several words:

    - coverage: a document that has more of the query's distinct words (weighted by their idf)
      ranks above one that repeats a few of them (a question names several things at once:
      "deathtouch" and "trample" and "damage");
    - phrases: adjacent query words adjacent in the document too ("new object", "combat
      damage", "face up") add a little (more measured worse: the words already count);
    - one hit per rule: the EN rule and its JA translation (both numbered as today) are one
      hit, shown in the query's language (``prefer``), at the better of their scores.
      (Penalising siblings under one parent rule instead measured much worse: the answer is
      often the sibling of the best hit.)"""
    words = [t for t in terms if tk.namespace(t) == "w" and not t.startswith(tk.RULE_TOKEN)]
    if COVER_MIN_WORDS <= len(words) <= COVER_MAX_WORDS and COVER_POW:
        n = len(index._rows)
        spans, idfs = [], []
        for t in words:
            start, end = index.postings.get(t, (0, 0))
            if end > start:
                spans.append((start, end))
                idfs.append(math.log(1 + (n - (end - start) + 0.5) / (end - start + 0.5)) * terms[t])
        total = sum(idfs)
        if total and top:
            rescored = [(s * (have / total) ** COVER_POW, d) for (s, d), have in zip(top, _held(index, top, spans, idfs))]
            top = sorted(rescored, reverse=True)
    if pairs and PHRASE:  # (pairs weighted by their words' idf measured no better)
        table = stem_pairs.prepared(index)  # the same counts as pairs_of's, for all candidates at once
        if table is not None:
            held = table.counts([d for _, d in top], pairs)
        else:  # the pairs are distinct (index.search), so how many a document holds is one intersection
            wanted = frozenset(pairs)
            held = [len(wanted & pairs_of(index, d)) for _, d in top] if len(wanted) == len(pairs) else \
                [sum(p in pairs_of(index, d) for p in pairs) for _, d in top]
        top = sorted(((s * (1 + PHRASE * h / len(pairs)), d) for (s, d), h in zip(top, held)), reverse=True)
    rule_of, lang_of, edition_of = merge_columns(index)
    n_current = index.n_current
    merged: dict = {}  # today's rule number (older editions: with the edition) -> index in ``adjusted``
    adjusted = []
    for s, d in sorted(top, reverse=True):
        number = rule_of[d]
        if number and d >= n_current:
            number = (edition_of[d], number)
        if number is None:
            adjusted.append((s, d))
        elif number in merged:  # the same rule in the other language: one hit, in the query's
            at = merged[number]
            shown = d if lang_of[adjusted[at][1]] != prefer and lang_of[d] == prefer else adjusted[at][1]
            adjusted[at] = (adjusted[at][0] + MERGED * s, shown)
        else:
            merged[number] = len(adjusted)
            adjusted.append((s, d))
    return sorted(adjusted, reverse=True)[:limit]


def merge_columns(index) -> tuple[list, list[str], list]:
    """Each document's rule number (a rule's; None for other kinds), language and edition, as lists
    (made once per index: the merge reads them for every candidate of every query)."""
    def make():
        rows = index._rows
        return ([r.rule_number if r.kind == "rule" else None for r in rows], [r.lang for r in rows],
                [r.edition for r in rows])
    return per_owner(index, "rerank-columns", make)
