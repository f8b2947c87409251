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

import heapq
import html
import math
import pickle
import re
from array import array
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable

from kb import search_tokenize as tk
from kb.search_tokenize import is_rule_number  # re-exported: part of this module's interface

__all__ = ["SearchDoc", "Hit", "SearchIndex", "is_rule_number"]

FORMAT = 5
K1 = 1.2
B = {"w": 0.75, "g": 0.75, "u": 0.5, "m": 0.3}
FIELD_WEIGHT = {"title": 1.0, "text": 1.0, "expansions": 0.6}
RULE_SELF_TF = 3.0  # a rule's own number, as a token of that rule
QUERY_WEIGHT = {"w": 1.0, "g": 0.35, "u": 1.0, "m": 1.5}
SECOND_SENSE = 0.4  # a name's less attested senses
MECH_SAME_LANG = 0.3  # in the query's own language the words themselves carry the meaning
TERM_QUERY_WORDS = 2  # a game term's bridge counts in a query of at most this many words (see _query_terms)
RARE_TERM_DF = 0.03  # a one-word term name on at most this share of documents is specific
SPECIFIC_TERM = 0.3  # weight of a specific term's bridge in a long query (measured: 0.3-0.5)
RERANK_POOL = 50  # candidates the coverage/duplicate rerank sees
# Coverage counts in a keyword query (3-6 distinct words: each word is meant); in a longer question
# many words are incidental ("my opponent", "a creature") and coverage measured worse.
COVER_MIN_WORDS, COVER_MAX_WORDS = 3, 6
COVER_POW = 0.5  # score * (idf share of the query's words the document has) ** COVER_POW
PHRASE = 0.1  # score * (1 + PHRASE * share of the query's adjacent word pairs adjacent in the doc)
MERGED = 0.5  # a rule found in both languages: its better score + MERGED * the other's
NON_CURRENT = 0.8  # current_only=False: older editions rank a little below current ones
SNIPPET = 160
# Glossary bridge (see ``_glossary_terms``): a query phrase that is a current EN glossary term (or
# most of one) adds GLOSS * grade to the rules the entry cites, grade 0..1 by the idf of the name's
# rarest word, so "creature", "spell", "card" add nothing. Measured (bench_search, 2026-04-17):
# GLOSS 1 long questions MRR .621->.624, short EN .778->.798, JA unchanged; 2+ and the §-token
# form (which also lifts every rule citing it) worse. The definitions' words as a weak query
# expansion measured unstable (long MRR up to .65 but recall@5 .74->.67-.73): left out.
GLOSS = 1.0
GLOSS_CHILD = 0.3  # a cited rule's direct subrules, relative (a title-only rule's: 1.0)
GLOSS_IDF = (3.0, 7.0)  # a name's best idf at or below the first counts nothing, at or above the second fully
GLOSS_PARTIAL = 0.6  # a part of a term's name counts when it carries this share of the name's idf
GLOSS_MAX_WORDS = 6
VERSIONED_KINDS = frozenset({"rule", "glossary"})


@dataclass(slots=True)
class SearchDoc:
    id: str
    kind: str  # "rule" | "glossary" | "ruling" | "quote" | "mechanic" | "card"
    lang: str  # "en" | "ja"
    title: str
    text: str  # original, for display
    rule_number: str | None = None
    edition: str | None = None
    mechanics: tuple[str, ...] = ()  # mechanic keys the doc is about (the cross-lingual bridge)
    expansions: str = ""  # searchable, never displayed (e.g. EN names of a JA ruling's mechanics)
    citation: dict = field(default_factory=dict)  # opaque, returned with hits
    boost: float = 1.0


@dataclass(slots=True)
class Hit:
    doc: SearchDoc
    score: float
    snippet: str  # HTML: escaped original text with <mark>…</mark> around matched terms


def _row(d: SearchDoc) -> tuple:
    return (d.id, d.kind, d.lang, d.title, d.text, d.rule_number, d.edition, tuple(d.mechanics),
            d.expansions, d.citation, d.boost)


def _namespace(token: str) -> str:
    if token.startswith(tk.GRAM):
        return "g"
    if token.startswith(tk.UNI):
        return "u"
    if token.startswith(tk.MECH):
        return "m"
    return "w"


LENGTH_CLASSES = ("w", "wj", "g", "u", "m")


def _length_class(token: str) -> str:
    """Words are normalised by the length of the words of their own language: an EN rule's JA
    expansions (names, quotes citing it) must not make its English words count for less."""
    ns = _namespace(token)
    return "wj" if ns == "w" and tk.HAS_JA.search(token) else ns


class SearchIndex:
    def __init__(self) -> None:
        self._rows: list[tuple] = []  # SearchDoc fields; documents are made on demand (fast load)
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
        self._pair_cache: dict[int, frozenset] = {}

    # ------------------------------------------------------------------ build

    @classmethod
    def build(cls, docs: Iterable[SearchDoc], *, mechanic_names: dict[str, str | tuple[str, ...]] | None = None,
              current_editions: set[str] | None = None, term_keys: Iterable[str] = (),
              glossary: Iterable[tuple[str, str, Iterable[str]]] = ()) -> "SearchIndex":
        """``current_editions``: editions whose rules/glossary count as current; an entry may be
        qualified by language ("ja:2026-01-16"). None or empty: every edition is current.
        ``term_keys``: mechanics that are plain game terms (permanent, battlefield, target).
        ``glossary``: the current EN glossary as (term, definition, cited rule numbers)."""
        self = cls()
        self.term_keys = frozenset(term_keys)
        docs = list(docs)
        current = set(current_editions or ())

        def is_current(d: SearchDoc) -> bool:
            return (not current or d.kind not in VERSIONED_KINDS or d.edition is None
                    or d.edition in current or f"{d.lang}:{d.edition}" in current)

        flags = [is_current(d) for d in docs]
        ordered = [d for d, f in zip(docs, flags) if f] + [d for d, f in zip(docs, flags) if not f]
        self._rows = [_row(d) for d in ordered]
        self._made = dict(enumerate(ordered))
        self.n_current = sum(flags)

        # Streaming: each document's term frequencies go straight into per-term posting arrays
        # (raw tf now, BM25 weight in place once the average lengths are known), so no per-document
        # dict outlives its document (they were most of the build's peak memory).
        cache: dict[str, tuple[tuple[str, int], ...]] = {}  # editions repeat most rule texts
        intern: dict[str, str] = {}

        def counts(text: str) -> tuple[tuple[str, int], ...]:
            got = cache.get(text)
            if got is None:
                c: dict[str, int] = {}
                for t in (tk.tokens(text) if text else ()):
                    t = intern.setdefault(t, t)
                    c[t] = c.get(t, 0) + 1
                got = cache[text] = tuple(c.items())
            return got

        n_docs = len(ordered)
        lengths = {c: array("d", bytes(8 * n_docs)) for c in LENGTH_CLASSES}
        ids: dict[str, array] = {}
        tfs: dict[str, array] = {}
        for i, d in enumerate(ordered):
            tf: dict[str, float] = defaultdict(float)
            for name, text in (("title", d.title), ("text", d.text), ("expansions", d.expansions)):
                weight = FIELD_WEIGHT[name]
                for t, n in counts(text):
                    tf[t] += weight * n
            for key in d.mechanics:  # per language: the bridge matters most across languages
                tf[f"{tk.MECH}{d.lang}:{key}"] = 1.0
            if d.rule_number:
                tf[tk.RULE_TOKEN + d.rule_number] += RULE_SELF_TF
            for t, n in tf.items():
                lengths[_length_class(t)][i] += n
                got = ids.get(t)
                if got is None:
                    t = intern.setdefault(t, t)
                    got = ids[t] = array("i")
                    tfs[t] = array("d")
                got.append(i)
                tfs[t].append(n)
        cache.clear()
        intern.clear()

        # Average over the documents that have words of that class (most have no JA words).
        avg = {c: (sum(l) / (sum(1 for x in l if x) or 1)) or 1.0 for c, l in lengths.items()}
        total = n_docs or 1
        for t in list(ids):
            doc_ids, raw = ids.pop(t), tfs.pop(t)
            ns, c = _namespace(t), _length_class(t)
            idf = math.log(1 + (total - len(doc_ids) + 0.5) / (len(doc_ids) + 0.5))
            length, a, b = lengths[c], avg[c], B[ns]
            weights = array("f", (idf * n * (K1 + 1) / (n + K1 * (1 - b + b * length[doc] / a))
                                  for doc, n in zip(doc_ids, raw)))
            start = len(self._ids)
            self._ids.extend(doc_ids)
            self._ws.extend(weights)
            self.postings[t] = (start, len(self._ids))

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
        return self

    def _idf(self, token: str) -> float:
        start, end = self.postings.get(token, (0, 0))
        n = len(self._rows) or 1
        return math.log(1 + (n - (end - start) + 0.5) / (end - start + 0.5))

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

    def _is_heading(self, number: str) -> bool:
        """A rule whose text is only a title ("Deathtouch", "Copying Objects")."""
        for i in self.by_rule.get(number, ()):
            row = self._rows[i]
            if row[1] == "rule" and row[2] == "en" and i < self.n_current:
                text = row[4].strip()
                return len(text) < 80 and not text.endswith((".", ":", "”", '"')) and "\n" not in text
        return False

    def _glossary_terms(self, query: str) -> dict[str, float]:
        """The glossary bridge of a query: rule number -> weight 0..1 (GLOSS_IDF grade of the
        entry's name * the share of it matched * 1.0 cited / GLOSS_CHILD subrule). Query phrases
        are matched longest first, each word in one phrase only."""
        if not self.gloss_names:
            return {}
        stems = tk.en_stems(query)
        used = [False] * len(stems)
        found: dict[int, float] = {}
        for n in range(min(GLOSS_MAX_WORDS, len(stems)), 0, -1):
            for i in range(len(stems) - n + 1):
                if any(used[i:i + n]):
                    continue
                got = self.gloss_names.get(" ".join(stems[i:i + n]))
                if got:
                    used[i:i + n] = [True] * n
                    for share, no in got:
                        found[no] = max(found.get(no, 0.0), share)
        rules: dict[str, float] = {}
        for no, share in found.items():
            weight, cited = self.gloss_entries[no]
            w = weight * share
            if w > 0:
                for number, rw in cited:
                    rules[number] = max(rules.get(number, 0.0), w * rw)
        return rules

    # ------------------------------------------------------------------ storage

    def dumps(self) -> bytes:
        state = {"format": FORMAT, "stemmer": tk.STEMMER, "rows": self._rows,
                 "ids": self._ids, "ws": self._ws,
                 "n_current": self.n_current, "postings": self.postings, "by_rule": self.by_rule,
                 "rule_numbers": self.rule_numbers, "mech_en": self.mech_en,
                 "mech_ja": self.mech_ja, "mech_names": self.mech_names, "term_keys": self.term_keys,
                 "gloss_names": self.gloss_names, "gloss_entries": self.gloss_entries}
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def loads(cls, blob: bytes) -> "SearchIndex":
        """Only for blobs this module wrote (the KB snapshot): pickle trusts its input."""
        state = pickle.loads(blob)
        if state.get("format") != FORMAT or state.get("stemmer") != tk.STEMMER:
            raise ValueError("search index written by another version: rebuild the snapshot")
        self = cls()
        self._rows, self._ids, self._ws = state["rows"], state["ids"], state["ws"]
        for name in ("n_current", "postings", "by_rule", "rule_numbers", "mech_en", "mech_ja",
                     "mech_names", "term_keys", "gloss_names", "gloss_entries"):
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
        used = [False] * len(words)
        for n in range(min(5, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                if any(used[i:i + n]):
                    continue
                keys = self.mech_en.get(" ".join(words[i:i + n]))
                if keys:
                    add(keys, n > 1 or self._rare(words[i]))
                    used[i:i + n] = [True] * n
        folded = tk.fold(text).replace(" ", "")
        if tk.HAS_JA.search(folded):
            matched = [name for name in self.mech_ja if name in folded]
            for name in matched:
                if any(name != other and name in other for other in matched):
                    continue  # 夜 inside 真夜中 is not the mechanic 夜
                short = len(name) == 1 or (len(name) <= 3 and tk.KANA_ONLY.match(name))
                if short and not _standalone(folded, name):
                    continue
                add(self.mech_ja[name])
        return found

    def _rare(self, stem: str) -> bool:
        start, end = self.postings.get(stem, (0, 0))
        return end - start <= RARE_TERM_DF * len(self._rows)

    def _query_terms(self, query: str) -> tuple[dict[str, float], set[str]]:
        terms: dict[str, float] = defaultdict(float)
        for t in tk.tokens(query, query=True):
            terms[t] += QUERY_WEIGHT[_namespace(t)]
        matches = self._mechanic_matches(query)
        query_ja = bool(tk.HAS_JA.search(query))
        # A query of a name or two ("パーマネント", "部屋のドア") asks about what it names. In a longer
        # one, a plain game term is just a word of the sentence ("...パーマネントが戦場を離れる..."):
        # its bridge (a rare token on the few rules that define the term) would outweigh the rest.
        # A specific English term keeps its bridge ("state-based actions", "unlock").
        if len({t for t in terms if _namespace(t) == "w"}) > TERM_QUERY_WORDS:
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
               limit: int = 10, current_only: bool = True) -> list[Hit]:
        if not query or not query.strip() or limit <= 0:
            return []
        number = is_rule_number(query)
        if number:
            return self._rule_hits(number, lang, kinds, limit, current_only)
        terms, mechanics = self._query_terms(query)
        n_docs = len(self._rows)
        cut = self.n_current if current_only else n_docs
        acc: dict[int, float] = {}
        get = acc.get
        all_ids, all_ws = self._ids, self._ws
        for t, qw in terms.items():
            posting = self.postings.get(t)
            if posting is None:
                continue
            start, end = posting
            if cut < n_docs:
                end = bisect_left(all_ids, cut, start, end)
            for d, w in zip(all_ids[start:end], all_ws[start:end]):
                acc[d] = get(d, 0.0) + qw * w
        rows = self._rows
        # The glossary bridge lifts the cited rules themselves, not the rules citing them (the
        # §-token form measured worse), and counts in no coverage or highlight.
        rules = self._glossary_terms(query) if GLOSS else {}
        if rules:
            by_rule = self.by_rule
            for number, w in rules.items():
                for d in by_rule.get(number, ()):
                    if d < cut and rows[d][1] == "rule":
                        acc[d] = get(d, 0.0) + GLOSS * w
        prefer = lang or ("ja" if tk.HAS_JA.search(query) else "en")
        if lang or kinds or prefer == "en":
            # An English query is answered by the EN rules: their JA translations (every rule has
            # one) would only compete through the English words they quote (接死／Deathtouch).
            acc = {d: s for d, s in acc.items()
                   if (not lang or rows[d][2] == lang) and (not kinds or rows[d][1] in kinds)
                   and not (prefer == "en" and rows[d][2] == "ja" and rows[d][1] in VERSIONED_KINDS)}
        n_current = self.n_current
        scored = ((s * rows[d][10] * (NON_CURRENT if d >= n_current else 1.0), d)
                  for d, s in acc.items())
        stems = tk.en_stems(query)
        pairs = list(dict.fromkeys(p for p in zip(stems, stems[1:]) if p[0] != p[1]))
        top = self._rerank(heapq.nlargest(max(limit, RERANK_POOL), scored), terms, limit, pairs, prefer)
        marker = _Marker(query, terms, self._names_for(mechanics))
        return [Hit(self.doc(d), s, marker.snippet(rows[d][4])) for s, d in top]

    def _pairs(self, d: int) -> frozenset[tuple[str, str]]:
        """Adjacent English content-word stems of a document's title and text (cached)."""
        got = self._pair_cache.get(d)
        if got is None:
            if len(self._pair_cache) > 20_000:
                self._pair_cache.clear()
            row = self._rows[d]
            got = frozenset()
            for text in (row[3], row[4]):
                stems = tk.en_stems(text)
                got |= frozenset(zip(stems, stems[1:]))
            self._pair_cache[d] = got
        return got

    def _rerank(self, top: list[tuple[float, int]], terms: dict[str, float], limit: int,
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
        words = [t for t in terms if _namespace(t) == "w" and not t.startswith(tk.RULE_TOKEN)]
        if COVER_MIN_WORDS <= len(words) <= COVER_MAX_WORDS and COVER_POW:
            n = len(self._rows)
            spans, idfs = [], []
            for t in words:
                start, end = self.postings.get(t, (0, 0))
                if end > start:
                    spans.append((start, end))
                    idfs.append(math.log(1 + (n - (end - start) + 0.5) / (end - start + 0.5)) * terms[t])
            total = sum(idfs)
            if total:
                ids = self._ids
                rescored = []
                for s, d in top:
                    have = 0.0
                    for (start, end), idf in zip(spans, idfs):
                        j = bisect_left(ids, d, start, end)
                        if j < end and ids[j] == d:
                            have += idf
                    rescored.append((s * (have / total) ** COVER_POW, d))
                top = sorted(rescored, reverse=True)
        if pairs and PHRASE:  # (pairs weighted by their words' idf measured no better)
            top = sorted(((s * (1 + PHRASE * sum(p in self._pairs(d) for p in pairs) / len(pairs)), d)
                          for s, d in top), reverse=True)
        rows = self._rows
        merged: dict = {}  # today's rule number (older editions: with the edition) -> index in ``adjusted``
        adjusted = []
        for s, d in sorted(top, reverse=True):
            number = rows[d][5] if rows[d][1] == "rule" else None
            if number and d >= self.n_current:
                number = (rows[d][6], number)
            if number is None:
                adjusted.append((s, d))
            elif number in merged:  # the same rule in the other language: one hit, in the query's
                at = merged[number]
                shown = d if rows[adjusted[at][1]][2] != prefer and rows[d][2] == prefer else adjusted[at][1]
                adjusted[at] = (adjusted[at][0] + MERGED * s, shown)
            else:
                merged[number] = len(adjusted)
                adjusted.append((s, d))
        return sorted(adjusted, reverse=True)[:limit]

    def _names_for(self, mechanics: set[str]) -> list[str]:
        return [n for key in mechanics for n in self.mech_names.get(key, ())]

    def _rule_hits(self, number: str, lang, kinds, limit, current_only) -> list[Hit]:
        """The rule itself, then its subrules, then documents citing it."""
        rows = self._rows

        def ok(i: int) -> bool:
            return (not lang or rows[i][2] == lang) and (not kinds or rows[i][1] in kinds)

        def rank(i: int) -> tuple:
            r = rows[i]
            return (i >= self.n_current, r[1] != "rule", r[2] != (lang or "en"), r[6] or "")

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
        children.sort(key=lambda i: (rank(i), _number_key(rows[i][5])))
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
        marker = _Marker(number, {tk.RULE_TOKEN + number: 1.0}, [])
        hits = []
        for rank_no, i in enumerate(chosen[:limit]):
            d = self.doc(i)
            score = 3.0 if i in exact else (2.0 if d.rule_number else 1.0)
            hits.append(Hit(d, score - rank_no * 1e-3, marker.snippet(d.text)))
        return hits


def _number_key(number: str) -> tuple:
    parts = re.findall(r"\d+|[a-z]+", number)
    return tuple(int(p) if p.isdigit() else p for p in parts)


def _standalone(text: str, name: str) -> bool:
    """A one-character name (昼, 夜) counts when no kanji touches it (not 真夜中, not 昼夜); a short
    kana name (よる, やま) when no kana or kanji touches it."""
    touching = tk._KANJI if len(name) == 1 and not tk.KANA_ONLY.match(name) else tk.JA_CHAR
    for found in re.finditer(re.escape(name), text):
        before = text[found.start() - 1] if found.start() else " "
        after = text[found.end()] if found.end() < len(text) else " "
        if not (touching.match(before) or touching.match(after)):
            return True
    return False


class _Marker:
    """Highlights query terms in a document's original text and picks the best window."""

    def __init__(self, query: str, terms: dict[str, float], mechanic_names: list[str]):
        self.stems: set[str] = {t for t in terms if _namespace(t) == "w" and not t.startswith(tk.RULE_TOKEN)}
        self.rules = {t[1:] for t in terms if t.startswith(tk.RULE_TOKEN)}
        text = tk.norm(query)
        runs = [tk.fold(r) for r in tk.JA_RUN.findall(text)]
        subs = set(runs)
        subs.update(t for t in self.stems if tk.HAS_JA.search(t) and (len(t) >= 2 or tk._KANJI.match(t)))
        for name in mechanic_names:
            n = tk.fold(tk.norm(name))
            if tk.HAS_JA.search(n):
                subs.add(n)
            else:
                self.stems.update(tk.stem(w) for w in tk.EN_WORD.findall(n) if w not in tk.STOP_EN)
        self.subs = sorted((s for s in subs if s), key=len, reverse=True)
        self.has_ja = bool(self.subs) or any(tk.HAS_JA.search(t) for t in self.stems)

    def spans(self, normed: str) -> list[tuple[int, int, str]]:
        out: list[tuple[int, int, str]] = []
        for m in tk.EN_WORD.finditer(normed):
            word = m.group()
            if word not in tk.STOP_EN and tk.stem(word) in self.stems:
                out.append((m.start(), m.end(), tk.stem(word)))
        for number in self.rules:
            for m in re.finditer(rf"(?<![\d.]){re.escape(number)}(?![\d])", normed):
                out.append((m.start(), m.end(), number))
        if self.has_ja and tk.HAS_JA.search(normed):
            for sub in self.subs:
                start = normed.find(sub)
                while start >= 0:
                    out.append((start, start + len(sub), sub))
                    start = normed.find(sub, start + len(sub))
            for run in tk.JA_RUN.finditer(normed):
                for b, e, surface, lemma in tk.morphemes(run.group()):
                    s, l = tk.fold(surface), tk.fold(tk.norm(lemma))
                    if s in self.stems or l in self.stems:
                        out.append((run.start() + b, run.start() + e, l))
        return _merge(out)

    def snippet(self, original: str) -> str:
        normed, where = tk.norm_with_map(original)
        spans = self.spans(normed)
        if len(original) <= SNIPPET + 40:
            a, b = 0, len(original)
        else:
            a, b = _window(spans, normed, where, len(original))
        parts = ["…" if a > 0 else ""]
        pos = a
        for s, e, _ in spans:
            s, e = where[s], where[e - 1] + 1
            if s < a or e > b:
                continue
            parts.append(html.escape(original[pos:s]))
            parts.append(f"<mark>{html.escape(original[s:e])}</mark>")
            pos = e
        parts.append(html.escape(original[pos:b]))
        if b < len(original):
            parts.append("…")
        return "".join(parts).replace("\n", " ")


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
    """Original-text [start, end) of ~SNIPPET characters holding the most distinct matched terms."""
    best, best_start = -1, 0
    for s, _, _ in spans:
        start = max(0, where[s] - 40)
        terms = {t for s2, e2, t in spans if where[s2] >= start and where[e2 - 1] < start + SNIPPET}
        if len(terms) > best:
            best, best_start = len(terms), start
    start = best_start
    end = min(length, start + SNIPPET)
    if end == length:
        start = max(0, end - SNIPPET)
    return start, end
