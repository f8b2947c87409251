"""Names found by part or by a close spelling, fast enough for every search (kb.lookup.cards).

Card data has ~63,000 EN and JA names (cards and faces). Checking each one in Python costs
70-120 ms a query; here:

- ``parts(query)``: every name containing the query and, when none does, every name whose form
  without spaces and punctuation contains the query's ("護国卿ウルザ" in 護国卿、ウルザ, "urzalord" in
  "urza, lord protector"). Each match says whether it is whole words ("Red Ward" for "ward") or
  inside a word ("Coward"). Only the names holding every character trigram of the query's bare form
  (two characters: a trigram beginning with both) are looked at, from the trigram index below: a
  name containing the query contains them, so this finds what one ``str.find`` scan of all names
  joined by newlines finds (the scan is kept for a one-character query), at a small part of the cost
  (0.4 ms a JA query that is no card's name, scanning 300,000 characters twice).
- ``close(query)``: names spelt nearly like the query (rapidfuzz ``ratio``, 0-100, over the names
  without punctuation), scored only for the names sharing the most character trigrams with it
  (an inverted index of trigrams in numpy: a few hundred candidates instead of every name).

Names are given already folded (kb.text.normalize_kana); the matcher never changes them.
"""
from __future__ import annotations

import marshal
import re
from bisect import bisect_right
from collections.abc import Mapping

import numpy as np
from rapidfuzz import fuzz, process

from kb.text import normalize_kana

PUNCTUATION = re.compile(r"[\W_]+")  # spaces, commas, 、・ and the like: not letters, kana or kanji
CANDIDATES = 300  # names scored by rapidfuzz: those sharing the most trigrams with the query
MAX_PARTS = 2000  # occurrences looked at per scan ("a" is in most names)
SHARED_SHARE = 3  # a candidate shares at least a third of the query's known trigrams
_WORDY = re.compile(r"[A-Za-z0-9]")
_HAS_ASCII = re.compile(r"[\x00-\x7f]")
# Names are scanned in three groups, so that an ASCII query scans one byte per character (a string
# with one JA character is four times as long to scan): ASCII names, names mixing ASCII and other
# characters (accented EN names, JA names with Latin letters), names with no ASCII character.
_ASCII, _MIXED, _WIDE = "ascii", "mixed", "wide"
SNAPSHOT_FILE = "cardnames.bin"  # in a snapshot: the card names' matcher, written by the build


def _groups(names: list[str]) -> dict[str, tuple[str, list[int], list[int]]]:
    """Per group: its names joined by newlines, where each starts, and their indices."""
    members: dict[str, list[int]] = {_ASCII: [], _MIXED: [], _WIDE: []}
    for i, n in enumerate(names):
        members[_ASCII if n.isascii() else _MIXED if _HAS_ASCII.search(n) else _WIDE].append(i)
    out = {}
    for kind, ids in members.items():
        starts, at = [], 0
        for i in ids:
            starts.append(at)
            at += len(names[i]) + 1
        out[kind] = ("\n".join(names[i] for i in ids), starts, ids)
    return out


def _scan_orders(scans: dict, bare_scans: dict, count: int) -> tuple[list[int], list[int]]:
    """Each name's place in the scans (group, then place in its group, as one integer), of the
    names and of their bare forms: where the scan meets it."""
    out = []
    for groups in (scans, bare_scans):
        order = [0] * count
        for rank, kind in enumerate((_ASCII, _MIXED, _WIDE)):
            for place, i in enumerate(groups[kind][2]):
                order[i] = (rank << 32) | place
        out.append(order)
    return out[0], out[1]


def bare(name: str) -> str:
    return PUNCTUATION.sub("", name)


def _trigrams(text: str) -> set[str]:
    padded = f" {text} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def _codes(grams: list[str]) -> np.ndarray:
    """A trigram as one integer: its three code points (21 bits each)."""
    return np.array([(ord(g[0]) << 42) | (ord(g[1]) << 21) | ord(g[2]) for g in grams], dtype=np.int64)


def _trigram_index(names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sorted distinct trigram codes, where each one's run starts in ``ids``, the name ids of every
    run, each run sorted): the trigrams of each name padded with a space at both ends, each once per
    name, made over all names at once in numpy (a Python loop took 0.7 s for 63,000 names)."""
    padded = "".join(f" {n} \n" for n in names)
    points = np.frombuffer(padded.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    owner = np.cumsum(points == ord("\n")) if len(points) else points  # name of each position
    first, second, third = points[:-2], points[1:-1], points[2:]
    keep = (first != ord("\n")) & (second != ord("\n")) & (third != ord("\n"))
    codes = ((first << 42) | (second << 21) | third)[keep]
    ids = owner[:-2][keep]
    order = np.lexsort((ids, codes))  # by code, then name
    codes, ids = codes[order], ids[order]
    if len(codes):
        once = np.concatenate(([True], (codes[1:] != codes[:-1]) | (ids[1:] != ids[:-1])))
        codes, ids = codes[once], ids[once]  # a trigram twice in one name counts once
    grams, starts = np.unique(codes, return_index=True)
    starts = np.append(starts, len(codes))
    name_ids = ids.astype(np.int32)
    for arr in (grams, starts, name_ids):
        arr.setflags(write=False)
    return grams, starts, name_ids


class NameMatcher:
    __slots__ = ("names", "bare", "_scans", "_bare_scans", "_grams", "_starts", "_ids", "_order")

    def __init__(self, names: list[str]):
        self.names = names
        self.bare = [bare(n) for n in names]
        self._scans = _groups(names)
        self._bare_scans = _groups(self.bare)
        self._grams, self._starts, self._ids = _trigram_index(self.bare)
        self._order = _scan_orders(self._scans, self._bare_scans, len(names))

    def dumps(self) -> bytes:
        """The matcher as bytes: made once by the build (~1 s for 63,000 names), read in ~0.05 s."""
        arrays = [(a.dtype.str, a.tobytes()) for a in (self._grams, self._starts, self._ids)]
        return marshal.dumps((self.names, self.bare, self._scans, self._bare_scans, arrays))

    @classmethod
    def loads(cls, data: bytes) -> NameMatcher:
        names, bare_names, scans, bare_scans, arrays = marshal.loads(data)
        matcher = cls.__new__(cls)
        matcher.names, matcher.bare, matcher._scans, matcher._bare_scans = names, bare_names, scans, bare_scans
        # frombuffer views are read-only, as the index made in __init__ is
        matcher._grams, matcher._starts, matcher._ids = (np.frombuffer(raw, dtype=np.dtype(kind))
                                                         for kind, raw in arrays)
        matcher._order = _scan_orders(scans, bare_scans, len(names))
        return matcher

    def parts(self, query: str) -> list[tuple[int, bool]]:
        """(name index, whole words) of every name containing ``query`` (or, if none does, whose
        form without punctuation contains the query's), each name once, in name order."""
        if "\n" in query:  # names are joined by newlines in the scan: a part never holds one
            return []
        squeezed = bare(query)
        candidates = self._holding(squeezed)  # the same for both looks
        found = self._found(query, candidates, words=True)
        if not found and squeezed:
            found = self._found(squeezed, candidates, words=False)
        return sorted(found.items())

    def _found(self, query: str, candidates: np.ndarray | None, words: bool) -> dict[int, bool]:
        names, (scans, order) = (self.names, (self._scans, self._order[0])) if words else \
            (self.bare, (self._bare_scans, self._order[1]))
        if candidates is None:
            return self._scan(query, scans, names, words)
        return self._check(query, sorted(candidates.tolist(), key=order.__getitem__), order, names, words)

    def _holding(self, squeezed: str) -> np.ndarray | None:
        """The names whose bare form holds every trigram of ``squeezed`` (two characters: a trigram
        that begins with both), or None for a query too short to say (the scan then looks)."""
        grams, starts, ids = self._grams, self._starts, self._ids
        if len(squeezed) < 2 or not len(grams):
            return None
        if len(squeezed) == 2:
            low = (ord(squeezed[0]) << 42) | (ord(squeezed[1]) << 21)
            first, last = np.searchsorted(grams, [low, low + (1 << 21)]).tolist()
            return np.unique(ids[starts[first]:starts[last]])
        codes = np.unique(_codes([squeezed[i:i + 3] for i in range(len(squeezed) - 2)]))
        at = np.searchsorted(grams, codes)
        if (at >= len(grams)).any() or (grams[np.minimum(at, len(grams) - 1)] != codes).any():
            return ids[:0]  # a trigram no name has: no name holds the query
        runs = sorted((ids[starts[i]:starts[i + 1]] for i in at.tolist()), key=len)
        held = runs[0]
        for run in runs[1:]:
            held = np.intersect1d(held, run, assume_unique=True)
            if not len(held):
                break
        return held

    @staticmethod
    def _check(query: str, candidates: list[int], order: list[int], names: list[str], words: bool) -> dict[int, bool]:
        """``_scan`` over the candidates only, in the scan's order (its groups, then name order), with
        the same bound of MAX_PARTS occurrences per group."""
        out: dict[int, bool] = {}
        group, seen = -1, 0
        for i in candidates:
            if order[i] >> 32 != group:
                group, seen = order[i] >> 32, 0
            name = names[i]
            at = name.find(query)
            while at >= 0 and seen < MAX_PARTS:
                seen += 1
                whole = not words or _whole_words(name, at, at + len(query))
                out[i] = out.get(i, False) or whole
                at = name.find(query, at + 1)
        return out

    @staticmethod
    def _scan(query: str, groups: dict, names: list[str], words: bool) -> dict[int, bool]:
        out: dict[int, bool] = {}
        if "\n" in query:
            return out
        for kind in (_ASCII, _MIXED) if query.isascii() else (_MIXED, _WIDE) if not _HAS_ASCII.search(query) \
                else (_MIXED,):
            joined, starts, ids = groups[kind]
            at = joined.find(query)
            for _ in range(MAX_PARTS):
                if at < 0:
                    break
                j = bisect_right(starts, at) - 1
                i, local = ids[j], at - starts[j]
                whole = not words or _whole_words(names[i], local, local + len(query))
                out[i] = out.get(i, False) or whole
                at = joined.find(query, at + 1)
        return out

    def close(self, query: str, limit: int, cutoff: float) -> list[tuple[int, float]]:
        """(name index, rapidfuzz ratio) of the names spelt most like ``query``, best first."""
        squeezed = bare(query)
        if not squeezed or not len(self._grams):
            return []
        codes = _codes(sorted(_trigrams(squeezed)))
        at = np.searchsorted(self._grams, codes)
        at = at[(at < len(self._grams)) & (self._grams[np.minimum(at, len(self._grams) - 1)] == codes)]
        spans = [(self._starts[i], self._starts[i + 1]) for i in at.tolist()]
        if not spans:
            return []
        ids = np.concatenate([self._ids[s:e] for s, e in spans])
        best, shared = _sharing(ids, len(self.names), max(1, len(spans) // SHARED_SHARE))
        if len(best) > CANDIDATES:
            best = best[np.argpartition(-shared, CANDIDATES - 1)[:CANDIDATES]]
            best.sort()  # name order: ties in rapidfuzz's answer then follow the names' order
        found = process.extract(squeezed, [self.bare[i] for i in best], scorer=fuzz.ratio, limit=limit,
                                score_cutoff=cutoff)
        return [(int(best[j]), float(score)) for _, score, j in found]


def _sharing(ids: np.ndarray, n_names: int, least: int) -> tuple[np.ndarray, np.ndarray]:
    """(names, trigrams each shares) of the names in ``ids`` at least ``least`` times, in name order.
    Most queries' trigrams list a few dozen names: counting those (np.unique) instead of a count for
    each of the ~63,000 names (np.bincount, kept for long lists) made ``close`` ~2x faster; both give
    the same arrays, so the same candidates."""
    if len(ids) * 16 < n_names:
        names, counts = np.unique(ids, return_counts=True)
        keep = counts >= least
        return names[keep].astype(np.intp), counts[keep]
    counts = np.bincount(ids)
    names = np.flatnonzero(counts >= least)
    return names, counts[names]


def _whole_words(name: str, start: int, end: int) -> bool:
    """Whether name[start:end] neither begins nor ends inside a Latin word ("ward" in "Red Ward",
    not in "Coward"); Japanese has no word breaks, so a JA part always counts as whole."""
    before = start > 0 and _WORDY.match(name[start - 1]) and _WORDY.match(name[start])
    after = end < len(name) and _WORDY.match(name[end]) and _WORDY.match(name[end - 1])
    return not (before or after)


def card_name_matcher(card_names: Mapping[str, str]) -> tuple[NameMatcher, list[str]]:
    """The matcher over a model's card names (``Model.card_names``: name -> card key), folded
    (kb.text.normalize_kana), and the card key of each name, in the same order."""
    names, keys = [], []
    for name, key in card_names.items():
        names.append(normalize_kana(name))
        keys.append(key)
    return NameMatcher(names), keys


def dumps_card_names(card_names: Mapping[str, str]) -> bytes:
    matcher, keys = card_name_matcher(card_names)
    return marshal.dumps((keys, matcher.dumps()))


def loads_card_names(data: bytes) -> tuple[NameMatcher, list[str]]:
    keys, matcher = marshal.loads(data)
    return NameMatcher.loads(matcher), keys
