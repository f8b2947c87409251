"""Ranked search over rules, glossary, rulings, quotes, mechanics and cards, Japanese and English.

    index = SearchIndex.build(docs, mechanic_names={...}, current_editions={"2026-04-17"})
    hits = index.search("唱えなかった")          # -> [Hit(doc, score, snippet), ...]
    blob = index.dumps(); SearchIndex.loads(blob)   # stored in the snapshot

Ranking is BM25 over one token stream per document (see ``search_tokenize``): title tokens count
twice, ``expansions`` (text the lead adds for the other language: mechanic and card names) 0.6,
each mechanic key the document is about is a token ``m:<key>``. A query that names a mechanic
(in any language, by any alias in ``mechanic_names``) also asks for ``m:<key>``, so an English
query finds Japanese rulings about the same mechanic and the reverse.

A query of several words reranks the best BM25 candidates (``_rerank``): a keyword query (3-6
words) prefers documents holding more of its words (idf-weighted coverage), and a rule already
shown (an EN rule's JA translation) counts less again, so the top hits are distinct rules. In a
longer query, plain game terms lose their bridge except specific ones (a name of several words,
"state-based actions", or of one rare word, "unlock"), at SPECIFIC_TERM weight.

Glossary bridge: a phrase of the query that names a current EN glossary entry (stemmed, "dies" /
"died" / "dying" for "Dies"; or the main part of a name, "summoning sickness" for "Summoning
Sickness Rule") adds to the rules the entry cites and, less, their subrules, graded by how rare the
name's words are ("legend rule", "dies": much; "creature", "spell", "card": nothing).

A query that is a rule number goes straight to that rule (exactly: 702.6 is never 702.60), then its
subrules, then the documents that cite it.

The index is plain dicts and ``array`` postings, pure Python; documents that pass the
``current_only`` filter are numbered first, so a current-only query scans a prefix of each
posting list.
"""
from __future__ import annotations

import marshal
import re
from array import array
from bisect import bisect_left
from collections import defaultdict

import numpy as np

from kb.search import scoring
from kb.search import tokenize as tk
from kb.search.indexing import IndexBuilder
from kb.search.rerank import rerank
from kb.search.rows import (FORMAT, GLOSS, GLOSS_JA, GLOSS_MAX_WORDS, Hit, MECH_SAME_LANG,
                             QUERY_WEIGHT, RARE_TERM_DF, RERANK_POOL, Row, SECOND_SENSE,
                             SPECIFIC_TERM, SearchDoc, TERM_QUERY_WORDS, VERSIONED_KINDS)
from kb.search.snippet import Marker, standalone
from kb.search.tokenize import is_rule_number  # re-exported: part of this module's interface
from kb.text import is_title

__all__ = ["SearchDoc", "Hit", "SearchIndex", "is_rule_number"]

class SearchIndex(IndexBuilder):
    def __init__(self) -> None:
        self._rows: list[Row] = []  # documents are made on demand (fast load)
        self._made: dict[int, SearchDoc] = {}
        self.n_current = 0  # docs[:n_current] pass the current-edition filter
        self._ids = array("i")  # every posting list, one after another
        self._ws = array("f")
        self.postings: dict[str, tuple[int, int]] = {}  # term -> [start, end) in _ids/_ws
        self.by_rule: dict[str, list[int]] = {}
        self.rule_numbers: list[tuple[str, int]] = []  # sorted, for subrule prefixes
        self.mech_en: dict[str, tuple[str, ...]] = {}  # stemmed EN name -> keys
        self.mech_ja: dict[str, tuple[str, ...]] = {}  # folded JA name -> keys
        self.mech_names: dict[str, tuple[str, ...]] = {}  # key -> display names (for highlights)
        self.term_keys: frozenset[str] = frozenset()  # mechanic keys that are plain game terms
        # stemmed name (or the main part of one) -> [(share of the name's idf, entry no)]
        self.gloss_names: dict[str, tuple[tuple[float, int], ...]] = {}
        # entry no -> (idf grade 0..1, ((rule number, weight), ...))
        self.gloss_entries: list[tuple[float, tuple]] = []
        self.gloss_ja: dict[str, tuple[tuple[float, int], ...]] = {}  # folded JA glossary name -> entries
        self._pair_cache: dict[int, frozenset] = {}

    def _is_heading(self, number: str) -> bool:
        """A rule whose text is only a title ("Deathtouch", "Copying Objects")."""
        for i in self.by_rule.get(number, ()):
            row = self._rows[i]
            if row[1] == "rule" and row[2] == "en" and i < self.n_current:
                return is_title(row[4])
        return False

    def _glossary_terms(self, query: str) -> dict[str, float]:
        """The glossary bridge of a query: rule number -> weight 0..1 (GLOSS_IDF grade of the
        entry's name * the share of it matched * 1.0 cited / GLOSS_CHILD subrule). Query phrases
        are matched longest first, each word in one phrase only."""
        if not self.gloss_names:
            return {}
        return self._entry_rules(self.glossary_entries(tk.en_stems(query)))

    def glossary_entries(self, stems: list[str]) -> dict[int, float]:
        """Glossary entries named in the stemmed words -> the share of the name matched (phrases of
        at most GLOSS_MAX_WORDS, longest first, each word in one phrase)."""
        found: dict[int, float] = {}
        for _, _, got in scoring.phrases(self, "gloss", self.gloss_names, stems, GLOSS_MAX_WORDS):
            for share, no in got:
                found[no] = max(found.get(no, 0.0), share)
        return found

    def _entry_rules(self, found: dict[int, float]) -> dict[str, float]:
        rules: dict[str, float] = {}
        for no, share in found.items():
            weight, cited = self.gloss_entries[no]
            w = weight * share
            if w > 0:
                for number, rw in cited:
                    rules[number] = max(rules.get(number, 0.0), w * rw)
        return rules

    def _glossary_ja(self, query: str) -> dict[str, float]:
        """The JA glossary bridge: rule number -> weight 0..1, from the JA glossary names inside the
        query (folded, spaces and ・ ignored): a name inside a longer matched one does not count
        (夜 in 真夜中), a short kana name only standing alone."""
        folded = tk.fold(tk.norm(query)).replace(" ", "").replace("・", "")
        if not self.gloss_ja or not tk.HAS_JA.search(folded):
            return {}
        matched = scoring.names_inside(self, "gloss-ja", self.gloss_ja, tk.JA_RUN.findall(folded))
        found: dict[int, float] = {}
        for name in matched:
            if any(name != other and name in other for other in matched):
                continue
            if len(name) <= 3 and tk.KANA_ONLY.match(name) and not standalone(folded, name):
                continue
            for share, no in self.gloss_ja[name]:
                found[no] = max(found.get(no, 0.0), share)
        return self._entry_rules(found)

    # ------------------------------------------------------------------ storage

    def dumps(self) -> bytes:
        state = {"format": FORMAT, "stemmer": tk.STEMMER, "rows": [tuple(r) for r in self._rows],
                 "ids": (self._ids.typecode, self._ids.tobytes()), "ws": (self._ws.typecode, self._ws.tobytes()),
                 "n_current": self.n_current, "postings": self.postings, "by_rule": self.by_rule,
                 "rule_numbers": self.rule_numbers, "mech_en": self.mech_en,
                 "mech_ja": self.mech_ja, "mech_names": self.mech_names, "term_keys": self.term_keys,
                 "gloss_names": self.gloss_names, "gloss_entries": self.gloss_entries, "gloss_ja": self.gloss_ja}
        return marshal.dumps(state)

    @classmethod
    def loads(cls, blob: bytes) -> "SearchIndex":
        """A snapshot's index. marshal, not pickle: it reads plain values and runs nothing, so a
        snapshot folder from anyone else cannot run code here (damaged bytes: ValueError/EOFError)."""
        state = marshal.loads(blob)
        if not isinstance(state, dict) or state.get("format") != FORMAT or state.get("stemmer") != tk.STEMMER:
            raise ValueError("search index written by another version: rebuild the snapshot")
        self = cls()
        self._rows = [Row._make(r) for r in state["rows"]]
        self._ids, self._ws = array(state["ids"][0]), array(state["ws"][0])
        self._ids.frombytes(state["ids"][1])
        self._ws.frombytes(state["ws"][1])
        for name in ("n_current", "postings", "by_rule", "rule_numbers", "mech_en", "mech_ja",
                     "mech_names", "term_keys", "gloss_names", "gloss_entries", "gloss_ja"):
            setattr(self, name, state[name])
        return self

    def __len__(self) -> int:
        return len(self._rows)

    def doc(self, i: int) -> SearchDoc:
        made = self._made.get(i)
        if made is None:
            made = self._made[i] = SearchDoc(*self._rows[i])
        return made

    @property
    def docs(self) -> list[SearchDoc]:
        """Every document, current-edition ones first (materialises them all: not for hot paths)."""
        return [self.doc(i) for i in range(len(self._rows))]

    # ------------------------------------------------------------------ query

    def mechanics_in(self, query: str) -> set[str]:
        """Mechanic keys named in the query, by any JA/EN name or alias (longest names first)."""
        return set(self.mechanic_weights(query))

    def mechanic_weights(self, query: str) -> dict[str, float]:
        """Mechanic keys named in the query -> weight: a name's first mechanic (the best attested
        sense, see ``build``) 1.0, its other senses SECOND_SENSE ("部屋": Room cards, then dungeon rooms)."""
        return {k: w for k, (w, _) in self._mechanic_matches(query).items()}

    def _mechanic_matches(self, query: str) -> dict[str, tuple[float, bool]]:
        """As ``mechanic_weights``, with whether the name is specific: an English name of several
        words ("state-based actions", "combat damage", "remove from combat") or of one rare word
        ("unlock", "door"), as opposed to a word nearly every rule uses ("creature", "spell")."""
        text = tk.norm(query)
        found: dict[str, tuple[float, bool]] = {}

        def add(keys: tuple[str, ...], specific: bool = False) -> None:
            for rank, key in enumerate(keys):
                w = 1.0 if rank == 0 else SECOND_SENSE
                old = found.get(key, (0.0, False))
                found[key] = (max(old[0], w), old[1] or specific)
        words = [tk.stem(w) for w in tk.EN_WORD.findall(tk.JA_RUN.sub(" ", text))]
        for i, n, keys in scoring.phrases(self, "mech-en", self.mech_en, words, 5):
            add(keys, n > 1 or self._rare(words[i]))
        folded = tk.fold(text).replace(" ", "")
        if tk.HAS_JA.search(folded):
            matched = scoring.names_in(self, "mech-ja", self.mech_ja, folded)
            for name in matched:
                if any(name != other and name in other for other in matched):
                    continue  # 夜 inside 真夜中 is not the mechanic 夜
                short = len(name) == 1 or (len(name) <= 3 and tk.KANA_ONLY.match(name))
                if short and not standalone(folded, name):
                    continue
                add(self.mech_ja[name])
        return found

    def _rare(self, stem: str) -> bool:
        start, end = self.postings.get(stem, (0, 0))
        return end - start <= RARE_TERM_DF * len(self._rows)

    def _query_terms(self, query: str) -> tuple[dict[str, float], set[str]]:
        terms: dict[str, float] = defaultdict(float)
        for t in tk.tokens(query, query=True):
            terms[t] += QUERY_WEIGHT[tk.namespace(t)]
        matches = self._mechanic_matches(query)
        query_ja = bool(tk.HAS_JA.search(query))
        # A query of a name or two ("パーマネント", "部屋のドア") asks about what it names. In a longer
        # one, a plain game term is just a word of the sentence ("...パーマネントが戦場を離れる..."):
        # its bridge (a rare token on the few rules that define the term) would outweigh the rest.
        # A specific English term keeps its bridge ("state-based actions", "unlock").
        if len({t for t in terms if tk.namespace(t) == "w"}) > TERM_QUERY_WORDS:
            weights = {k: w * (SPECIFIC_TERM if k in self.term_keys else 1.0)
                       for k, (w, specific) in matches.items()
                       if k not in self.term_keys or (specific and not query_ja)}
        else:
            weights = {k: w for k, (w, _) in matches.items()}
        for key, weight in weights.items():
            for lang in ("en", "ja"):
                same = (lang == "ja") == query_ja
                terms[f"{tk.MECH}{lang}:{key}"] += QUERY_WEIGHT["m"] * weight * (MECH_SAME_LANG if same else 1.0)
        return terms, set(weights)

    def search(self, query: str, *, lang: str | None = None, kinds: set[str] | None = None,
               limit: int = 10, current_only: bool = True, snippets: bool = True) -> list[Hit]:
        """Ranked hits; ``snippets=False`` leaves each hit's snippet empty (a caller that only
        ranks, the question retriever, spends a third of its time on snippets otherwise)."""
        if not query or not query.strip() or limit <= 0:
            return []
        number = is_rule_number(query)
        if number:
            return self._rule_hits(number, lang, kinds, limit, current_only)
        terms, mechanics = scoring.shared(("terms", query), lambda: self._query_terms(query))
        n_docs = len(self._rows)
        cut = self.n_current if current_only else n_docs
        prefer = lang or ("ja" if tk.HAS_JA.search(query) else "en")
        best = self._scored(query, terms, lang, kinds, prefer, cut, max(limit, RERANK_POOL))
        stems = tk.en_stems(query)
        pairs = list(dict.fromkeys(p for p in zip(stems, stems[1:]) if p[0] != p[1]))
        top = rerank(self, best, terms, limit, pairs, prefer)
        if not snippets:
            return [Hit(self.doc(d), s, "") for s, d in top]
        marker = Marker(query, terms, self._names_for(mechanics), owner=self)
        return [Hit(self.doc(d), s, marker.snippet(self._rows[d].text)) for s, d in top]

    def _columns(self):
        """numpy views of the postings and per-document columns (made once per index, kb.memo)."""
        return scoring.columns(self)

    def _scored(self, query: str, terms: dict[str, float], lang, kinds, prefer: str, cut: int,
                k: int) -> list[tuple[float, int]]:
        """The ``k`` best (score, document) by BM25, best first (ties: the later document first).
        The scores (``_pass``) are shared by the searches of one answer (kb.search.scoring)."""
        scores, touched = scoring.shared(("pass", query, cut), lambda: self._pass(query, terms, cut))
        # An English query is answered by the EN rules: their JA translations (every rule has
        # one) would only compete through the English words they quote (接死／Deathtouch).
        mask = scoring.allowed(self, lang, kinds, prefer == "en", VERSIONED_KINDS)
        docs = np.nonzero(touched if mask is None else touched & mask)[0]
        values = scores[docs] * scoring.factors(self, None if lang else prefer)[docs]
        return scoring.top(values, docs, k)

    def _pass(self, query: str, terms: dict[str, float], cut: int) -> tuple[np.ndarray, np.ndarray]:
        """(score, touched) of every document: the postings of the query's terms summed in the order
        the terms come (kb.search.scoring.sums), then the glossary bridges."""
        scores, touched = scoring.sums(self, terms, cut)
        # The glossary bridge lifts the cited rules themselves, not the rules citing them (the
        # §-token form measured worse), and counts in no coverage or highlight.
        rules = self._glossary_terms(query) if GLOSS else {}
        rows = self._rows
        # (each addition in the order the loop over the rules made it: np.add.at adds one at a time)
        lifted = [(d, GLOSS * w) for number, w in rules.items() for d in self.by_rule.get(number, ())
                  if d < cut and rows[d].kind == "rule"]
        if lifted:
            at = [d for d, _ in lifted]
            np.add.at(scores, at, [x for _, x in lifted])
            touched[at] = True
        # The JA bridge is relative to the best BM25 score: a JA query's score is a sum over many
        # words and bigrams, so a fixed amount would mean nothing in one query and all in another.
        rules_ja = self._glossary_ja(query) if GLOSS_JA else {}
        if rules_ja:  # a query of only a reading (とうそつしゃぜい) may match no word: it still finds them
            top = float(scores[touched].max()) if touched.any() else 1.0
            lifted = [(d, GLOSS_JA * w * top) for number, w in rules_ja.items() for d in self.by_rule.get(number, ())
                      if d < cut and rows[d].kind == "rule"]
            if lifted:
                at = [d for d, _ in lifted]
                np.add.at(scores, at, [x for _, x in lifted])
                touched[at] = True
        scores.setflags(write=False)
        touched.setflags(write=False)
        return scores, touched

    def _names_for(self, mechanics: set[str]) -> list[str]:
        return [n for key in mechanics for n in self.mech_names.get(key, ())]

    def _rule_hits(self, number: str, lang, kinds, limit, current_only) -> list[Hit]:
        """The rule itself, then its subrules, then documents citing it."""
        rows = self._rows

        def ok(i: int) -> bool:
            return (not lang or rows[i].lang == lang) and (not kinds or rows[i].kind in kinds)

        def rank(i: int) -> tuple:
            r = rows[i]
            return (i >= self.n_current, r.kind != "rule", r.lang != (lang or "en"), r.edition or "")

        exact = sorted((i for i in self.by_rule.get(number, ()) if ok(i)), key=rank)
        if current_only and any(i < self.n_current for i in exact):
            exact = [i for i in exact if i < self.n_current]
        chosen = list(exact)
        seen = set(chosen)
        prefix = number + ("." if "." not in number else "")
        start = bisect_left(self.rule_numbers, (prefix, -1))
        children = []
        for rn, i in self.rule_numbers[start:]:
            if not rn.startswith(prefix):
                break
            rest = rn[len(prefix):]
            is_child = rest.isalpha() if "." in number else rest.split(".")[-1].isdigit()
            if is_child and i not in seen and ok(i) and (not current_only or i < self.n_current):
                children.append(i)
        children.sort(key=lambda i: (rank(i), _number_key(rows[i].rule_number)))
        for i in children:
            if len(chosen) >= limit * 4:
                break
            chosen.append(i)
            seen.add(i)
        cut = self.n_current if current_only else len(rows)
        start, end = self.postings.get(tk.RULE_TOKEN + number, (0, 0))
        citing = sorted(((w, i) for i, w in zip(self._ids[start:end], self._ws[start:end])
                         if i not in seen and i < cut and ok(i)), reverse=True)
        chosen.extend(i for _, i in citing)
        marker = Marker(number, {tk.RULE_TOKEN + number: 1.0}, [], owner=self)
        hits = []
        for rank_no, i in enumerate(chosen[:limit]):
            d = self.doc(i)
            score = 3.0 if i in exact else (2.0 if d.rule_number else 1.0)
            hits.append(Hit(d, score - rank_no * 1e-3, marker.snippet(d.text)))
        return hits


def _number_key(number: str) -> tuple:
    parts = re.findall(r"\d+|[a-z]+", number)
    return tuple(int(p) if p.isdigit() else p for p in parts)
