"""Building the search index: documents -> BM25 postings per token namespace (EN words, JA words,
character n-grams, mechanic tokens), the rule-number map and the glossary bridge. A mixin of
kb.search.index.SearchIndex (which holds the query side)."""
from __future__ import annotations

import math
import re
from array import array
from collections import Counter, defaultdict
from typing import Iterable

import numpy as np

from kb.search import tokenize as tk
from kb.search.rows import (K1, B, FIELD_WEIGHT, GLOSS_MAX_WORDS, GLOSS_PARTIAL, GLOSS_IDF, GLOSS_CHILD, LENGTH_CLASSES,
                            RULE_SELF_TF, VERSIONED_KINDS, SearchDoc, length_class, row_of)


class _Intern(dict):
    """One string object per distinct token (``intern[t]``)."""

    def __missing__(self, token: str) -> str:
        self[token] = token
        return token


class _Terms(dict):
    """token -> its number, numbered in the order first seen (``order``)."""

    def __init__(self, intern: _Intern):
        super().__init__()
        self.order: list[str] = []
        self.intern = intern

    def __missing__(self, token: str) -> int:
        token = self.intern[token]
        number = self[token] = len(self.order)
        self.order.append(token)
        return number


SEP = "\x1f"  # between the terms of a document's kept frequencies


class IndexBuilder:
    # ------------------------------------------------------------------ build

    @classmethod
    def build(cls, docs: Iterable[SearchDoc], *, mechanic_names: dict[str, str | tuple[str, ...]] | None = None,
              current_editions: set[str] | None = None, term_keys: Iterable[str] = (),
              glossary: Iterable[tuple[str, str, Iterable[str]]] = (),
              glossary_ja: Iterable[tuple[Iterable[str], Iterable[str]]] = (), tokens=tk.tokens,
              postings=None) -> "IndexBuilder":
        """``current_editions``: editions whose rules/glossary count as current; an entry may be
        qualified by language ("ja:2026-01-16"). None or empty: every edition is current.
        ``term_keys``: mechanics that are plain game terms (permanent, battlefield, target).
        ``glossary``: the current EN glossary as (term, definition, cited rule numbers);
        ``glossary_ja``: the current JA glossary as (its names and readings, cited rules as today's
        EN numbers). ``tokens``: tk.tokens or a memo of it. ``postings``: None, or ``postings(fields,
        frequencies)``: what ``frequencies`` (below) returns for those document fields, kept across
        builds (kb.build.cache.KeptMemo): a new edition changes few documents' words."""
        self = cls()
        self.term_keys = frozenset(term_keys)
        docs = list(docs)
        current = set(current_editions or ())

        def is_current(d: SearchDoc) -> bool:
            return (not current or d.kind not in VERSIONED_KINDS or d.edition is None
                    or d.edition in current or f"{d.lang}:{d.edition}" in current)

        flags = [is_current(d) for d in docs]
        ordered = [d for d, f in zip(docs, flags) if f] + [d for d, f in zip(docs, flags) if not f]
        self._rows = [row_of(d) for d in ordered]
        self._made = dict(enumerate(ordered))
        self.n_current = sum(flags)

        # Each document's term frequencies go straight into three flat posting columns (term no,
        # document no, raw tf), so no per-document dict outlives its document (they were most of the
        # build's peak memory); lengths, the grouping by term and the BM25 weights are then computed
        # column-wise (numpy), in the same order and the same double arithmetic as term by term,
        # so the index is bit for bit what a loop over the postings makes.
        intern = _Intern()  # editions repeat most rule texts and words: one string each
        cache: dict[str, tuple[tuple[str, int], ...]] = {}

        def counts(text: str) -> tuple[tuple[str, int], ...]:
            got = cache.get(text)
            if got is None:
                got = cache[text] = tuple(Counter(map(intern.__getitem__, tokens(text) if text else ())).items())
            return got

        def frequencies(fields: tuple) -> tuple[str | tuple[str, ...], bytes]:
            """A document's (title, text, expansions, mechanics, lang, rule number) -> its terms, joined
            by SEP (a tuple if a term holds SEP), and their weighted frequencies as doubles."""
            title, text, expansions, mechanics, lang, rule_number = fields
            tf: dict[str, float] = defaultdict(float)
            for name, value in (("title", title), ("text", text), ("expansions", expansions)):
                weight = FIELD_WEIGHT[name]
                for t, n in counts(value):
                    tf[t] += weight * n
            for key in mechanics:  # per language: the bridge matters most across languages
                tf[f"{tk.MECH}{lang}:{key}"] = 1.0
            if rule_number:
                tf[tk.RULE_TOKEN + rule_number] += RULE_SELF_TF
            names = tuple(tf)
            joined = names if any(SEP in t for t in names) else SEP.join(names)
            return joined, array("d", tf.values()).tobytes()

        n_docs = len(ordered)
        terms = _Terms(intern)
        post_t, post_d, post_n = array("i"), array("i"), array("d")
        for i, d in enumerate(ordered):
            fields = (d.title, d.text, d.expansions, tuple(d.mechanics), d.lang, d.rule_number)
            names, weights = postings(fields, frequencies) if postings else frequencies(fields)
            if type(names) is str:
                names = names.split(SEP) if names else ()
            post_t.extend(map(terms.__getitem__, names))
            post_d.extend([i] * len(names))
            post_n.frombytes(weights)
        cache.clear()
        intern.clear()
        self._weigh(terms.order, np.frombuffer(post_t, dtype=np.int32), np.frombuffer(post_d, dtype=np.int32),
                    np.frombuffer(post_n, dtype=np.float64), n_docs)

        for i, d in enumerate(ordered):
            if d.rule_number:
                self.by_rule.setdefault(d.rule_number, []).append(i)
        self.rule_numbers = sorted((d.rule_number, i) for i, d in enumerate(ordered) if d.rule_number)

        en: dict[str, dict[str, None]] = defaultdict(dict)  # ordered sets
        ja: dict[str, dict[str, None]] = defaultdict(dict)
        names: dict[str, set[str]] = defaultdict(set)
        for name, keys in (mechanic_names or {}).items():
            if not name.strip():
                continue
            for key in ((keys,) if isinstance(keys, str) else keys):  # a name may name several
                names[key].add(name)
                if tk.HAS_JA.search(name):
                    ja[tk.fold(tk.norm(name)).replace(" ", "")][key] = None
                else:
                    stemmed = tk.en_name_key(name)
                    if stemmed:
                        en[stemmed][key] = None
        self.mech_en = {k: tuple(v) for k, v in en.items()}  # in the order given: best sense first
        self.mech_ja = {k: tuple(v) for k, v in ja.items()}
        self.mech_names = {k: tuple(sorted(v)) for k, v in names.items()}
        self._build_glossary(glossary)
        self._build_glossary_ja(glossary_ja)
        return self

    def _weigh(self, order: list[str], post_t, post_d, post_n, n_docs: int) -> None:
        """Postings of terms numbered in first-seen order: (term no, doc no, raw tf) columns, in
        document order -> ``postings``, ``_ids`` and the BM25 weights ``_ws``."""
        classes = [length_class(t) for t in order]
        class_no = {c: k for k, c in enumerate(LENGTH_CLASSES)}
        term_class = np.array([class_no[c] for c in classes], dtype=np.int8)
        post_c = term_class[post_t] if len(order) else np.zeros(0, dtype=np.int8)
        lengths = {}
        for c, k in class_no.items():
            mask = post_c == k
            # bincount adds each document's tfs in posting order, as ``length[doc] += n`` did
            lengths[c] = np.bincount(post_d[mask], weights=post_n[mask], minlength=n_docs)
        # Average over the documents that have words of that class (most have no JA words).
        avg = {c: (sum(l.tolist()) / (int(np.count_nonzero(l)) or 1)) or 1.0 for c, l in lengths.items()}
        total = n_docs or 1
        df = np.bincount(post_t, minlength=len(order)).tolist()
        idf = np.array([math.log(1 + (total - n + 0.5) / (n + 0.5)) for n in df], dtype=np.float64)
        b = np.array([B[tk.namespace(t)] for t in order], dtype=np.float64)
        a = np.array([avg[c] for c in classes], dtype=np.float64)
        length = np.zeros(len(post_d), dtype=np.float64)
        for c, k in class_no.items():
            mask = post_c == k
            length[mask] = lengths[c][post_d[mask]]
        by_term = np.argsort(post_t, kind="stable")  # term by term, each in document order
        t, n, length = post_t[by_term], post_n[by_term], length[by_term]
        bt = b[t]
        weights = idf[t] * n * (K1 + 1) / (n + K1 * (1 - bt + bt * length / a[t]))
        self._ids.frombytes(post_d[by_term].astype(np.int32).tobytes())
        self._ws.frombytes(weights.astype(np.float32).tobytes())
        end = 0
        for token, count in zip(order, df):
            self.postings[token] = (end, end + count)
            end += count

    def _idf(self, token: str) -> float:
        start, end = self.postings.get(token, (0, 0))
        n = len(self._rows) or 1
        return math.log(1 + (n - (end - start) + 0.5) / (end - start + 0.5))

    def _ja_idf(self, name: str) -> float:
        """How rare a JA name is: its word token's idf, else its bigrams' mean idf."""
        if name in self.postings:
            return self._idf(name)
        grams = [self._idf(tk.GRAM + name[i:i + 2]) for i in range(len(name) - 1)]
        return sum(grams) / len(grams) if grams else 0.0

    def _build_glossary_ja(self, glossary_ja: Iterable[tuple[Iterable[str], Iterable[str]]]) -> None:
        """The JA glossary's headwords and readings (``都市の承認``, ``としのしょうにん``; each name
        of a list ``共闘、共闘-[テキスト]``) as bridge names to the rules the entry cites, graded as
        the EN ones by rarity; kept in ``gloss_ja`` (folded, no spaces), matched inside a query."""
        rule_set = set(self.by_rule)
        lo, hi = GLOSS_IDF
        names: dict[str, dict[int, float]] = defaultdict(dict)
        for entry_names, refs in glossary_ja:
            rules = {r: 1.0 for r in refs if len(r) >= 3 and r in rule_set}
            if not rules:
                continue
            folded = {tk.fold(tk.norm(re.sub(r"\[.*?\]|[-－]", "", n))).replace(" ", "").replace("・", "")
                      for name in entry_names for n in re.split("[、,]", name)}
            folded = {n for n in folded if len(n) >= 2 and tk.HAS_JA.search(n)}
            if not folded:
                continue
            weight = min(1.0, max(0.0, (max(self._ja_idf(n) for n in folded) - lo) / (hi - lo)))
            if weight <= 0:
                continue
            no = len(self.gloss_entries)
            self.gloss_entries.append((weight, tuple(rules.items())))
            for n in folded:
                names[n][no] = 1.0
        self.gloss_ja = {k: tuple((1.0, no) for no in v) for k, v in names.items()}

    def _build_glossary(self, glossary: Iterable[tuple[str, str, Iterable[str]]]) -> None:
        """Each entry's names (``Kicker, Kicked``; not the obsolete ones), stemmed ("Dies" is
        "dies", "died", "dying"), and their main parts ("summoning sickness" of "Summoning Sickness
        Rule": a part that carries at least GLOSS_PARTIAL of the name's idf, at that share); the
        rules it cites, with their direct subrules (all of a title-only rule's)."""
        rule_set = set(self.by_rule)
        children: dict[str, list[str]] = defaultdict(list)
        for number, _ in self.rule_numbers:
            parent = number[:-1] if number[-1].isalpha() else (number.rsplit(".", 1)[0] if "." in number else None)
            if parent and (not children[parent] or children[parent][-1] != number):
                children[parent].append(number)
        lo, hi = GLOSS_IDF
        names: dict[str, dict[int, float]] = defaultdict(dict)
        for term, _definition, refs in glossary:
            if "obsolete" in term.lower():
                continue
            rules: dict[str, float] = {}
            for ref in refs:
                if len(ref) < 3 or ref not in rule_set:
                    continue  # a whole section ("6") cites too much
                heading = self._is_heading(ref)  # "702.2 Deathtouch": its subrules are what it cites
                if not heading:
                    rules[ref] = 1.0
                for child in children.get(ref, ()):
                    rules[child] = max(rules.get(child, 0.0), 1.0 if heading else GLOSS_CHILD)
            if not rules:
                continue
            no = len(self.gloss_entries)
            best = 0.0
            for name in re.split(r",\s*", re.sub(r"\[.*?\]|[“”\"]", "", term)):
                stems = tk.en_stems(name)
                if not stems or len(stems) > GLOSS_MAX_WORDS:
                    continue
                idfs = [self._idf(s) for s in stems]
                best = max(best, max(idfs))
                total = sum(idfs)
                for i in range(len(stems)):
                    for j in range(i + 1, len(stems) + 1):
                        share = sum(idfs[i:j]) / total if total else 0.0
                        if share >= GLOSS_PARTIAL or (i, j) == (0, len(stems)):
                            key = " ".join(stems[i:j])
                            names[key][no] = max(names[key].get(no, 0.0), 1.0 if (i, j) == (0, len(stems)) else share)
            weight = min(1.0, max(0.0, (best - lo) / (hi - lo)))
            self.gloss_entries.append((weight, tuple(rules.items())))
        self.gloss_names = {k: tuple(sorted(((sh, no) for no, sh in v.items()), reverse=True))
                            for k, v in names.items()}
