"""How BM25 scores are computed and the best documents picked (the query side of kb.search.index):
the same doubles and the same order as summing every posting in a Python loop and sorting every
scored document, with less work per query.

- Per-index columns, made once per index (kb.memo) and shared by forked workers: the postings as
  numpy views, their weights already widened to float64 (``astype`` per term per query was a
  tenth of a search), each document's ranking factor, and one boolean mask per filter (language,
  kinds, "an English query skips the JA translations of versioned documents"): there are only a
  handful of filters, each mask made on first use instead of comparing string columns per query.
- ``one_pass()``: within one answer, the scoring pass of a query (its terms and summed postings)
  is made once and shared by every search of the same text and edition cut. A search answer for a
  question ranks the hits and, for the question retriever, the same text again over rules only:
  the same sums, filtered differently. Kept in a ``ContextVar`` for the duration of the ``with``
  block only (one request, one thread): never a cache across requests.
- ``top(values, docs, k)``: the ``k`` best by value, ties the later document first, as a full
  ``lexsort`` gives them, after ``np.partition`` keeps only the documents at or above the k-th
  value (ties at the boundary included).
"""
from __future__ import annotations

import contextlib
from bisect import bisect_left
from contextvars import ContextVar
from typing import Callable, Iterator

import numpy as np

from kb.memo import per_owner
from kb.search.rows import NON_CURRENT, OTHER_LANGUAGE, STATEMENT_KINDS

_PASSES: ContextVar[dict | None] = ContextVar("kb_search_passes", default=None)


@contextlib.contextmanager
def one_pass() -> Iterator[None]:
    """Share each query's scoring pass between the searches inside the block (one answer)."""
    token = _PASSES.set({})
    try:
        yield
    finally:
        _PASSES.reset(token)


def shared(key, compute: Callable[[], object]):
    """``compute()``, once per ``key`` inside a ``one_pass`` block (every time outside one)."""
    passes = _PASSES.get()
    if passes is None:
        return compute()
    found = passes.get(key)
    if found is None:
        found = passes[key] = compute()
    return found


def columns(index) -> dict:
    """numpy views of the index's postings and per-document columns (made once per index)."""
    def make():
        rows = index._rows
        ids = np.frombuffer(index._ids, dtype=np.int32) if len(index._ids) else np.zeros(0, np.int32)
        ws = np.frombuffer(index._ws, dtype=np.float32) if len(index._ws) else np.zeros(0, np.float32)
        return {"ids": ids, "ws": ws, "ws64": ws.astype(np.float64),
                "kind": np.array([r.kind for r in rows]), "lang": np.array([r.lang for r in rows]),
                "factor": np.array([r.boost * (NON_CURRENT if i >= index.n_current else 1.0)
                                    for i, r in enumerate(rows)], dtype=np.float64)}
    return per_owner(index, "columns", make)


def factors(index, prefer: str | None) -> np.ndarray:
    """Each document's ranking factor for a query in ``prefer`` (None: no language preferred): the
    row's factor, and OTHER_LANGUAGE for a statement in the other language of an English query."""
    if prefer != "en" or OTHER_LANGUAGE == 1.0:
        return columns(index)["factor"]

    def make():
        cols = columns(index)
        other = (cols["lang"] != prefer) & np.isin(cols["kind"], list(STATEMENT_KINDS))
        out = cols["factor"] * np.where(other, OTHER_LANGUAGE, 1.0)
        out.setflags(write=False)
        return out
    return per_owner(index, ("factors", prefer), make)


def sums(index, terms: dict[str, float], cut: int) -> tuple[np.ndarray, np.ndarray]:
    """(score per document, whether any term touched it): each term's postings below ``cut`` times
    its query weight, summed per document in the order the terms come (bincount adds in input
    order, so each sum is the double a loop over the postings makes). Every posting weight and
    query weight is positive, so a document is touched exactly when its sum is above 0."""
    cols = columns(index)
    n_docs = len(index._rows)
    all_ids, postings, ids_col, ws64 = index._ids, index.postings, cols["ids"], cols["ws64"]
    pieces, weights, query_weights, lengths = [], [], [], []
    for t, qw in terms.items():
        posting = postings.get(t)
        if posting is None:
            continue
        start, end = posting
        if cut < n_docs:
            end = bisect_left(all_ids, cut, start, end)
        if end > start:
            pieces.append(ids_col[start:end])
            weights.append(ws64[start:end])
            query_weights.append(qw)
            lengths.append(end - start)
    if not pieces:
        return np.zeros(n_docs), np.zeros(n_docs, dtype=bool)
    if len(pieces) == 1:
        ids, products = pieces[0], weights[0] * query_weights[0]
    else:  # one multiply for every term (the same products as one per term)
        ids = np.concatenate(pieces)
        products = np.concatenate(weights) * np.repeat(query_weights, lengths)
    scores = np.bincount(ids, weights=products, minlength=n_docs)
    return scores, scores > 0


def allowed(index, lang: str | None, kinds, skip_ja_versioned: bool, versioned) -> np.ndarray | None:
    """The documents a filter lets through (None: all), one mask per filter per index."""
    if not (lang or kinds or skip_ja_versioned):
        return None
    key = ("filter", lang, frozenset(kinds) if kinds else None, skip_ja_versioned)

    def make():
        cols = columns(index)
        keep = np.ones(len(index._rows), dtype=bool)
        if lang:
            keep &= cols["lang"] == lang
        if kinds:
            keep &= np.isin(cols["kind"], list(kinds))
        if skip_ja_versioned:
            keep &= ~((cols["lang"] == "ja") & np.isin(cols["kind"], list(versioned)))
        keep.setflags(write=False)
        return keep
    return per_owner(index, key, make)


def top(values: np.ndarray, docs: np.ndarray, k: int) -> list[tuple[float, int]]:
    """The ``k`` best (value, document), best first, ties the later document first."""
    n = len(values)
    if n > k > 0:
        kth = np.partition(values, n - k)[n - k]
        near = np.nonzero(values >= kth)[0]
        values, docs = values[near], docs[near]
    order = np.lexsort((-docs, -values))[:k]
    return list(zip(values[order].tolist(), docs[order].tolist()))


def names_inside(index, key: str, names, runs, shortest: int = 2) -> set[str]:
    """Every substring of ``shortest`` or more characters of the ``runs`` that is one of ``names``, as
    checking each substring up to the longest name did: a substring that begins no name ends the
    scan from its start (the prefixes of the names, made once per index and ``key``)."""
    prefixes = per_owner(index, ("name-prefixes", key, shortest),
                         lambda: frozenset(name[:j] for name in names for j in range(shortest, len(name) + 1)))
    found = set()
    for run in runs:
        for i in range(len(run) - shortest + 1):
            for j in range(i + shortest, len(run) + 1):
                sub = run[i:j]
                if sub not in prefixes:
                    break
                if sub in names:
                    found.add(sub)
    return found


def names_in(index, key: str, names: dict, text: str) -> list[str]:
    """``[name for name in names if name in text]`` (the names in their order), by the prefix scan."""
    if "" in names:
        return [name for name in names if name in text]
    rank = per_owner(index, ("name-rank", key), lambda: {name: i for i, name in enumerate(names)})
    return sorted(names_inside(index, key, names, [text], shortest=1), key=rank.__getitem__)


def phrases(index, key: str, names: dict, words: list[str], longest: int) -> list[tuple[int, int, object]]:
    """(start, length, ``names[phrase]``) of each phrase of ``words`` (joined by spaces) that is a
    name, longest first and then left to right, each word in one phrase only. A phrase is looked up
    only when its first word begins a name of that many words or more (the longest name beginning
    with each word, made once per index and ``key``): most words begin none."""
    starting = per_owner(index, ("phrase-lengths", key), lambda: _longest_from(names))
    used = [False] * len(words)
    found = []
    for n in range(min(longest, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            if starting.get(words[i], 0) < n or any(used[i:i + n]):
                continue
            got = names.get(" ".join(words[i:i + n]))
            if got:
                used[i:i + n] = [True] * n
                found.append((i, n, got))
    return found


def _longest_from(names) -> dict[str, int]:
    out: dict[str, int] = {}
    for name in names:
        parts = name.split(" ")
        out[parts[0]] = max(out.get(parts[0], 0), len(parts))
    return out
