"""Which documents hold which adjacent pair of English content-word stems, for the rerank's phrase
count (kb.search.rerank): the pairs of a document's title and of its text (``rerank.pairs_of``),
inverted into one sorted array of pair codes with the sorted documents of each, in numpy.

Made per index before serving (``prepare``, kb.search.index ``prepare_search`` callers): about
0.7 s for every document and a few MiB of arrays, shared by forked workers (an array's pages are
never written, so they stay shared; a frozenset per document would be copied into each worker as
reference counts change). Without it, the rerank asks ``pairs_of`` per candidate, as before; both
count the same pairs (tests/search/test_scoring.py).
"""
from __future__ import annotations

import numpy as np

from kb.memo import peek, per_owner
from kb.search import tokenize as tk

KEY = "stem-pairs"
_SHIFT = 32  # a pair's code: first stem's number << 32 | second's


class PairIndex:
    __slots__ = ("stems", "codes", "starts", "docs")

    def __init__(self, rows) -> None:
        self.stems: dict[str, int] = {}
        codes: list[int] = []
        docs: list[int] = []
        number = self.stems.setdefault
        for d, row in enumerate(rows):
            held: set[int] = set()
            for text in (row[3], row[4]):
                ids = [number(s, len(self.stems)) for s in tk.en_stems(text)]
                held.update((a << _SHIFT) | b for a, b in zip(ids, ids[1:]))
            codes.extend(held)
            docs.extend([d] * len(held))
        code_arr = np.array(codes, dtype=np.int64)
        doc_arr = np.array(docs, dtype=np.int32)
        order = np.lexsort((doc_arr, code_arr))
        code_arr, self.docs = code_arr[order], doc_arr[order]
        self.codes, self.starts = np.unique(code_arr, return_index=True)
        self.starts = np.append(self.starts, len(code_arr))
        for arr in (self.docs, self.codes, self.starts):
            arr.setflags(write=False)

    def counts(self, candidates: list[int], pairs) -> list[int]:
        """For each candidate document, how many of ``pairs`` (stem tuples) it holds: a document is
        listed once under each pair it holds, so the count is how often it occurs in the lists of
        the pairs asked (one bincount, not a search per pair: a question has ~20)."""
        stems = self.stems
        wanted = [(stems[a] << _SHIFT) | stems[b] for a, b in pairs if a in stems and b in stems]
        if not wanted or not candidates:
            return [0] * len(candidates)
        codes = np.array(wanted, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.codes, codes), len(self.codes) - 1)
        held = at[self.codes[at] == codes].tolist()
        if not held:
            return [0] * len(candidates)
        starts = self.starts
        holding = np.concatenate([self.docs[starts[i]:starts[i + 1]] for i in held])
        docs = np.asarray(candidates, dtype=np.int64)
        return np.bincount(holding, minlength=int(docs.max()) + 1)[docs].tolist()


def prepare(index) -> PairIndex:
    return per_owner(index, KEY, lambda: PairIndex(index._rows))


def prepared(index) -> PairIndex | None:
    return peek(index, KEY)
