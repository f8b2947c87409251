"""What the search index holds: documents, hits, the stored row, and the ranking constants both
the index builder and the query side use (each measured in bench/bench_search.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from kb.search import tokenize as tk

FORMAT = 7  # 7: marshal instead of pickle
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
NON_CURRENT = 0.8  # current_only=False: older editions rank a little below current ones
# Glossary bridge (see ``_glossary_terms``): a query phrase that is a current EN glossary term (or
# most of one) adds GLOSS * grade to the rules the entry cites, grade 0..1 by the idf of the name's
# rarest word, so "creature", "spell", "card" add nothing. Measured (bench_search, 2026-04-17):
# GLOSS 1 long questions MRR .621->.624, short EN .778->.798, JA unchanged; 2+ and the §-token
# form (which also lifts every rule citing it) worse. The definitions' words as a weak query
# expansion measured unstable (long MRR up to .65 but recall@5 .74->.67-.73): left out.
GLOSS = 1.0
# The JA glossary bridge (headwords and readings in a JA query): GLOSS_JA * grade * the query's best
# BM25 score (a JA query's score sums many words and bigrams: a fixed amount means nothing in one
# query and everything in another). Measured (bench_search --baseline main, 2026-06-19): JA set
# recall@5 .674->.685, MRR .582->.593, short JA MRR .721->.757; EN unchanged; flat over 0.2-0.5.
GLOSS_JA = 0.3
GLOSS_CHILD = 0.3  # a cited rule's direct subrules, relative (a title-only rule's: 1.0)
GLOSS_IDF = (3.0, 7.0)  # a name's best idf at or below the first counts nothing, at or above the second fully
GLOSS_PARTIAL = 0.6  # a part of a term's name counts when it carries this share of the name's idf
GLOSS_MAX_WORDS = 6
VERSIONED_KINDS = frozenset({"rule", "glossary"})
# An English query ranks the Japanese statements (wiki rulings, quoted rules) at this factor: they
# carry English words of their own (the page's title "「予示」(Manifest)", the mechanics' and cards'
# EN names) on top of the mechanic bridge, so at 1.0 "manifest" put 25 of them above rule 701.40a.
# Measured (bench_search, short EN queries, all kinds): recall@5 .762 at 1.0, .887 at 0.7, .900 at
# 0.5, .912 at 0.35; rules-only, JA and long-question figures unchanged. 0.5: the mechanic and its
# rules first for "manifest", and a wiki ruling still above a weakly matching English one.
OTHER_LANGUAGE = 0.5
STATEMENT_KINDS = frozenset({"ruling", "quote"})


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


class Row(NamedTuple):
    """A document as the index holds it (stored as a plain tuple; SearchDoc is made on demand)."""

    id: str
    kind: str
    lang: str
    title: str
    text: str
    rule_number: str | None
    edition: str | None
    mechanics: tuple[str, ...]
    expansions: str
    citation: dict
    boost: float


def row_of(d: SearchDoc) -> Row:
    return Row(d.id, d.kind, d.lang, d.title, d.text, d.rule_number, d.edition, tuple(d.mechanics),
               d.expansions, d.citation, d.boost)


LENGTH_CLASSES = ("w", "wj", "g", "u", "m")


def length_class(token: str) -> str:
    """Words are normalised by the length of the words of their own language: an EN rule's JA
    expansions (names, quotes citing it) must not make its English words count for less."""
    ns = tk.namespace(token)
    return "wj" if ns == "w" and tk.HAS_JA.search(token) else ns
