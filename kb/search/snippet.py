"""Snippets: a hit's original text, escaped, around the query's matches, with <mark> tags."""
from __future__ import annotations

import re
from bisect import bisect_left

from kb.memo import peek, per_owner
from kb.search import tokenize as tk

SNIPPET = 160


_SPECIAL = re.compile("[&<>\"']")  # what ``escape`` changes


def escape(text: str) -> str:
    """html.escape's output (quotes too): a chain of ``str.replace`` (``&`` first), several times
    faster than ``str.translate`` with a table on the text of a snippet."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&#x27;"))


def standalone(text: str, name: str) -> bool:
    """A one-character name (昼, 夜) counts when no kanji touches it (not 真夜中, not 昼夜); a short
    kana name (よる, やま) when no kana or kanji touches it."""
    touching = tk.KANJI if len(name) == 1 and not tk.KANA_ONLY.match(name) else tk.JA_CHAR
    for found in re.finditer(re.escape(name), text):
        before = text[found.start() - 1] if found.start() else " "
        after = text[found.end()] if found.end() < len(text) else " "
        if not (touching.match(before) or touching.match(after)):
            return True
    return False


class Marker:
    """Highlights query terms in a document's original text and picks the best window."""

    def __init__(self, query: str, terms: dict[str, float], mechanic_names: list[str], owner: object = None):
        self.owner = owner  # what a document's analysed text is memoised on (kb.memo; None: not kept)
        self.stems: set[str] = {t for t in terms if tk.namespace(t) == "w" and not t.startswith(tk.RULE_TOKEN)}
        self.rules = {t[1:] for t in terms if t.startswith(tk.RULE_TOKEN)}
        text = tk.norm(query)
        runs = [tk.fold(r) for r in tk.JA_RUN.findall(text)]
        subs = set(runs)
        subs.update(t for t in self.stems if tk.HAS_JA.search(t) and (len(t) >= 2 or tk.KANJI.match(t)))
        for name in mechanic_names:
            n = tk.fold(tk.norm(name))
            if tk.HAS_JA.search(n):
                subs.add(n)
            else:
                self.stems.update(tk.stem(w) for w in tk.EN_WORD.findall(n) if w not in tk.STOP_EN)
        self.subs = sorted((s for s in subs if s), key=len, reverse=True)
        self.has_ja = bool(self.subs) or any(tk.HAS_JA.search(t) for t in self.stems)

    def spans(self, normed: str, analysed: "Analysed | None" = None) -> list[tuple[int, int, str]]:
        text = analysed or Analysed(normed, [])
        out = text.words_of(self.stems)
        for number in self.rules:
            for m in re.finditer(rf"(?<![\d.]){re.escape(number)}(?![\d])", normed):
                out.append((m.start(), m.end(), number))
        if self.has_ja and text.has_ja:
            for sub in self.subs:
                start = normed.find(sub)
                while start >= 0:
                    out.append((start, start + len(sub), sub))
                    start = normed.find(sub, start + len(sub))
            out.extend(text.morphemes_of(self.stems))
        return _merge(out)

    def snippet(self, original: str) -> str:
        analysed = prepared(self.owner, original) if self.owner is not None else None
        if analysed is None:
            analysed = analyse(original) if self.owner is None else \
                per_owner(self.owner, ("snippet-text", original), lambda: analyse(original))
        normed, where = analysed.normed, analysed.where
        spans = self.spans(normed, analysed)
        if len(original) <= SNIPPET + 40:
            a, b = 0, len(original)
        else:
            a, b = _window(spans, normed, where, len(original))
        parts = ["…" if a > 0 else ""]
        pos = a
        esc = escape if _SPECIAL.search(original, a, b) else str  # most windows have nothing to escape
        for s, e, _ in spans:
            s, e = where[s], where[e - 1] + 1
            if s < a or e > b:
                continue
            parts.append(esc(original[pos:s]))
            parts.append(f"<mark>{esc(original[s:e])}</mark>")
            pos = e
        parts.append(esc(original[pos:b]))
        if b < len(original):
            parts.append("…")
        return "".join(parts).replace("\n", " ")


class Analysed:
    """What a snippet needs of one document's text whatever the query: the normalised text with
    each character's source offset (a ``range`` when they are 1:1), where each English word stem
    occurs (stop words out) and, on first need, where each Japanese content morpheme's folded
    surface and folded normalised lemma occur. The same for every query, so made once per text:
    for every document of an index before serving (``prepare``), else memoised per index (kb.memo).
    Looking a query's stems up in these maps finds the same spans as scanning every word and
    morpheme of the text did (``spans`` merges them in sorted order either way)."""

    __slots__ = ("normed", "where", "has_ja", "_words", "_morphemes")

    def __init__(self, normed: str, where):
        self.normed = normed
        self.where = range(len(where)) if where == list(range(len(where))) else where
        words: dict[str, list[tuple[int, int, str]]] = {}
        for m in tk.EN_WORD.finditer(normed):
            if m.group() not in tk.STOP_EN:
                stem = tk.stem(m.group())
                words.setdefault(stem, []).append((m.start(), m.end(), stem))
        self._words = words
        self.has_ja = bool(tk.HAS_JA.search(normed))
        self._morphemes: dict[str, list[tuple[int, int, str]]] | None = None

    def words_of(self, stems) -> list[tuple[int, int, str]]:
        """(start, end, stem) of each word of the text whose stem is one of ``stems``."""
        found = self._words
        return [w for stem in stems if stem in found for w in found[stem]]

    def morphemes_of(self, stems) -> list[tuple[int, int, str]]:
        """(start, end, folded normalised lemma) of each content morpheme whose folded surface or
        lemma is one of ``stems`` (one with both listed comes twice: merging makes it one span)."""
        found = self.morphemes()
        return [m for stem in stems if stem in found for m in found[stem]]

    def morphemes(self) -> dict[str, list[tuple[int, int, str]]]:
        if self._morphemes is None:
            found: dict[str, list[tuple[int, int, str]]] = {}
            for run in tk.JA_RUN.finditer(self.normed):
                for b, e, surface, lemma in tk.morphemes(run.group()):
                    s, l = tk.fold(surface), tk.fold(tk.norm(lemma))
                    span = (run.start() + b, run.start() + e, l)
                    found.setdefault(s, []).append(span)
                    if l != s:
                        found.setdefault(l, []).append(span)
            self._morphemes = found
        return self._morphemes


def analyse(original: str) -> Analysed:
    return Analysed(*tk.norm_with_map(original))


PREPARED = "snippet-prepared"  # the kb.memo key of an owner's analysed texts, all made at once


def prepare(owner: object, texts) -> int:
    """Analyse every text now (Japanese morphemes included) and keep them for ``owner``'s snippets:
    a first search then costs what a repeated one does. Returns how many texts."""
    def make() -> dict[str, Analysed]:
        out: dict[str, Analysed] = {}
        for text in texts:
            if text not in out:
                analysed = out[text] = analyse(text)
                if analysed.has_ja:
                    analysed.morphemes()
        return out
    return len(per_owner(owner, PREPARED, make))


def prepared(owner: object, original: str) -> Analysed | None:
    found = peek(owner, PREPARED)
    return found.get(original) if found else None


def _merge(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    spans.sort()
    merged: list[tuple[int, int, str]] = []
    for s, e, term in spans:
        if merged and s < merged[-1][1]:
            ps, pe, pt = merged[-1]
            merged[-1] = (ps, max(pe, e), pt)
        else:
            merged.append((s, e, term))
    return merged


def _window(spans, normed, where, length) -> tuple[int, int]:
    """Original-text [start, end) of ~SNIPPET characters holding the most distinct matched terms
    (the first such window, each starting 40 characters before a span). Spans are merged, so their
    original starts and ends both ascend: the spans inside a window are one run, found by bisection."""
    starts = [where[s] for s, _, _ in spans]
    ends = [where[e - 1] for _, e, _ in spans]
    terms = [t for _, _, t in spans]
    best, best_start = -1, 0
    for first in starts:
        start = max(0, first - 40)
        inside = set(terms[bisect_left(starts, start):bisect_left(ends, start + SNIPPET)])
        if len(inside) > best:
            best, best_start = len(inside), start
    start = best_start
    end = min(length, start + SNIPPET)
    if end == length:
        start = max(0, end - SNIPPET)
    return start, end
