"""Rule lineage: the same rule across consecutive editions, matched by text, not by number alone.

Rules are renumbered often (transform: 701.25 in 2011, 701.28 in 2023, 701.27 in 2026) and a
number can be reused by an unrelated rule (2011's 711 is today's 712; today's 711 is Leveler
Cards). Matching goes level by level (chapters, sections, rules, subrules) so that a child
prefers candidates under its parent's match, in passes from surest to loosest:

1. same number, same text            -> "same-number-same-text"
2. same text elsewhere, unique        -> "text"           (moved; rules and subrules are one pool,
                                                            so 110.5g -> 111.8 and 903.11 -> 903.11a)
3. same number, similar text          -> "same-number-similar-text" (edited in place)
4. most similar text among the rest   -> "text-fuzzy"     (under the parent's match, or anywhere in
                                                            the pool above a high bar)
5. same number, reworded              -> "same-number-reworded" (what is left at the same number,
                                                            under the same parent, loosely similar)
6. a duplicated text kept once        -> "text-merged"    (two rules of the old edition said the same
                                                            thing; the new one keeps it once: both link
                                                            to it, the first link is its predecessor)
7. a rule split in two keeps its number where its subrules stay -> "same-number-children-kept"
   (Eldraine's 601.3: its second sentence became 601.4, the longer text, but 601.3a-d stayed under
   601.3 with the first sentence reworded: 601.3 is still 601.3, 601.4 is new)

Text is compared after normalisation and with rule numbers masked, so a rule whose only change
is a moved cross-reference ("see rule 701.25" -> "see rule 701.27") still counts as the same text.
"""
from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from kb.parse.records import Rule
from kb.text import normalize

NUMBER = re.compile(r"\b\d{3}(?:\.\d+[a-z]?)?\b")
WORD = re.compile(r"[a-z0-9#]+(?:'[a-z]+)?")
LEVELS = ("chapter", "section", "rule", "subrule")
POOL = {"chapter": ("chapter",), "section": ("section",), "rule": ("rule", "subrule"), "subrule": ("rule", "subrule")}
SIMILAR_SAME_NUMBER = 70.0  # % similarity to accept an in-place edit
SIMILAR_REWORDED = 60.0  # % similarity for what is left at the same number under the same parent
SIMILAR_MOVED = 85.0  # % similarity to accept a fuzzy move anywhere
SIMILAR_UNDER_PARENT = 45.0  # TF-IDF cosine (%) to accept a move under the parent's match
PARENT_BONUS = 10.0  # prefer candidates under the parent's match


@dataclass(slots=True, frozen=True)
class Link:
    old: str  # rule number in the older edition
    new: str  # rule number in the newer edition
    method: str
    score: float  # 0..1 text similarity (masked, normalised)
    text_changed: bool  # original texts differ (beyond white space)


@functools.lru_cache(maxsize=65536)
def masked(text: str) -> str:
    # 2011's plain text marks italics with underscores (_Magic_); later editions don't.
    return NUMBER.sub("#", normalize(text.replace("_", "")))


class _TfIdf:
    """Cosine of TF-IDF word vectors. Under a parent's match, rewrites keep the words that tell
    siblings apart ("back face" vs "front face"), which character ratios blur."""

    def __init__(self, texts: list[str]):
        self.df = Counter(w for t in texts for w in set(WORD.findall(t)))
        self.n = len(texts)
        self._vectors: dict[str, tuple[dict[str, float], float]] = {}

    def _vector(self, text: str) -> tuple[dict[str, float], float]:
        found = self._vectors.get(text)
        if found is None:
            tf = Counter(WORD.findall(text))
            vec = {w: (1 + math.log(c)) * math.log(self.n / (1 + self.df[w])) for w, c in tf.items()}
            found = self._vectors[text] = (vec, math.sqrt(sum(x * x for x in vec.values())) or 1.0)
        return found

    def cosine(self, a: str, b: str) -> float:
        (va, na), (vb, nb) = self._vector(a), self._vector(b)
        return sum(x * vb.get(w, 0.0) for w, x in va.items()) / (na * nb)


def similarity(a: str, b: str) -> float:
    """0..100. Rewrites that add a clause keep most words: token-set similarity, discounted."""
    score = fuzz.ratio(a, b)
    if min(a.count(" "), b.count(" ")) >= 6:
        score = max(score, 0.9 * fuzz.token_set_ratio(a, b))
    return score


def _key(rule: Rule) -> str:
    return masked(rule.text + " " + " ".join(e.text for e in rule.examples))


def match_editions(old_rules: list[Rule], new_rules: list[Rule]) -> list[Link]:
    """Links from rules of an older edition to their versions in the next edition."""
    links: dict[str, Link] = {}
    taken: set[str] = set()
    old_by_level = {lvl: [r for r in old_rules if r.kind == lvl] for lvl in LEVELS}
    new_by_level = {lvl: [r for r in new_rules if r.kind == lvl] for lvl in LEVELS}
    new_text = {r.number: normalize(r.text) for r in new_rules}
    old_keys = {r.number: _key(r) for r in old_rules}
    new_keys = {r.number: _key(r) for r in new_rules}
    tfidf = _TfIdf(list(old_keys.values()) + list(new_keys.values()))

    def link(old: Rule, new: Rule, method: str, score: float) -> None:
        if method == "text" and old.number == new.number:
            method = "same-number-same-text"
        links[old.number] = Link(old.number, new.number, method, round(score, 3),
                                 normalize(old.text) != new_text[new.number])
        taken.add(new.number)

    def parent_ok(old: Rule, new: Rule) -> bool:
        mapped = links.get(old.parent) if old.parent else None
        return mapped is None or mapped.new == new.parent

    for level in LEVELS:
        olds = old_by_level[level]
        new_by_number = {r.number: r for r in new_by_level[level]}
        pool_new = [r for lvl in POOL[level] for r in new_by_level[lvl]]
        # 1. same number, same text (and the parent did not move elsewhere)
        for old in olds:
            new = new_by_number.get(old.number)
            if new and new.number not in taken and old_keys[old.number] == new_keys[new.number] \
                    and parent_ok(old, new):
                link(old, new, "same-number-same-text", 1.0)
        # 2. the same text under another number (any level of the pool), unique on both sides;
        #    done once per pool, at its first level, so a subrule's text can claim a rule's number
        if level == POOL[level][0]:
            _same_text([r for lvl in POOL[level] for r in old_by_level[lvl]], pool_new, old_keys, new_keys,
                       links, taken, link)
        # 3. same number, similar text, consistent parent
        for old in olds:
            new = new_by_number.get(old.number)
            if old.number in links or not new or new.number in taken or not parent_ok(old, new):
                continue
            # a plain character ratio: a looser score here would beat a rule that moved to make room
            score = fuzz.ratio(old_keys[old.number], new_keys[new.number])
            if score >= SIMILAR_SAME_NUMBER:
                link(old, new, "same-number-similar-text", score / 100)
        # 4. best fuzzy candidate among what is left: under the parent's match a looser score will do
        _fuzzy([r for r in olds if r.number not in links], [r for r in pool_new if r.number not in taken],
               old_keys, new_keys, links, taken, tfidf, link)
        # 5. reworded in place: the same number is still free under the same parent
        for old in olds:
            new = new_by_number.get(old.number)
            if old.number in links or not new or new.number in taken or not _same_parent(old, new, links):
                continue
            score = similarity(old_keys[old.number], new_keys[new.number])
            if score >= SIMILAR_REWORDED:
                link(old, new, "same-number-reworded", score / 100)
    _merged(old_rules, new_rules, old_keys, new_keys, links, link)
    _children_kept(old_rules, new_rules, old_keys, new_keys, links, taken, link)
    return list(links.values())


def _children_kept(old_rules, new_rules, old_keys, new_keys, links, taken, link) -> None:
    """A rule matched by a fuzzy score to another number (not one of its own number's subrules),
    while most of its subrules stayed under its own number, that number's new rule having no
    predecessor and being loosely similar: the rule was split and kept its number; the other part
    is a new rule."""
    children: dict[str, list[str]] = {}
    for r in old_rules:
        if r.parent:
            children.setdefault(r.parent, []).append(r.number)
    new_by_number = {r.number: r for r in new_rules}
    new_parent = {r.number: r.parent for r in new_rules}
    for old in old_rules:
        found = links.get(old.number)
        kids = children.get(old.number, [])
        if found is None or found.method != "text-fuzzy" or found.new == old.number or not kids \
                or new_parent.get(found.new) == old.number:  # its text went into a subrule of its
            continue                                         # own number (2020's 903.9 -> 903.9b): moved
        own = new_by_number.get(old.number)
        if own is None or own.kind != old.kind or any(l.new == own.number for l in links.values()):
            continue
        stayed = sum(1 for k in kids if k in links and new_parent.get(links[k].new) == own.number)
        if stayed * 2 <= len(kids):
            continue
        score = similarity(old_keys[old.number], new_keys[own.number])
        if score >= SIMILAR_REWORDED:
            taken.discard(found.new)
            link(old, own, "same-number-children-kept", score / 100)


def _merged(old_rules, new_rules, old_keys, new_keys, links, link) -> None:
    old_count = Counter(old_keys[r.number] for r in old_rules if r.kind in POOL["rule"])
    new_by_key: dict[str, list[Rule]] = {}
    for new in new_rules:
        if new.kind in POOL["rule"]:
            new_by_key.setdefault(new_keys[new.number], []).append(new)
    for old in old_rules:
        key = old_keys[old.number]
        found = new_by_key.get(key, [])
        if old.number not in links and old.kind in POOL["rule"] and old_count[key] > 1 and len(found) == 1:
            link(old, found[0], "text-merged", 1.0)


def _same_parent(old: Rule, new: Rule, links: dict[str, Link]) -> bool:
    """Both top level, or the old parent's match is the new parent."""
    if old.parent is None or new.parent is None:
        return old.parent is None and new.parent is None
    mapped = links.get(old.parent)
    return mapped is not None and mapped.new == new.parent


def _same_text(olds, news, old_keys, new_keys, links, taken, link) -> None:
    by_text: dict[str, list[Rule]] = {}
    for new in news:
        if new.number not in taken:
            by_text.setdefault(new_keys[new.number], []).append(new)
    old_text_count = Counter(old_keys[old.number] for old in olds)
    for old in olds:
        if old.number in links:
            continue
        key = old_keys[old.number]
        candidates = by_text.get(key, [])
        if len(candidates) == 1 and old_text_count[key] == 1 and candidates[0].number not in taken:
            link(old, candidates[0], "text", 1.0)


def _fuzzy(rest_old, rest_new, old_keys, new_keys, links, taken, tfidf, link) -> None:
    if not rest_old or not rest_new:
        return
    choices = [new_keys[r.number] for r in rest_new]
    under: dict[str | None, list[int]] = {}
    for index, new in enumerate(rest_new):
        under.setdefault(new.parent, []).append(index)
    scored = []
    for old in rest_old:
        key = old_keys[old.number]
        parent_match = links[old.parent].new if old.parent in links else None
        siblings = set(under.get(parent_match, ())) if parent_match else set()
        anywhere = {i for _, _, i in process.extract(key, choices, scorer=fuzz.ratio, limit=5,
                                                     score_cutoff=SIMILAR_MOVED)}
        for index in siblings | anywhere:
            under_parent = index in siblings
            score = similarity(key, choices[index])
            if under_parent:
                score = max(score if score >= SIMILAR_MOVED else 0.0, 100 * tfidf.cosine(key, choices[index]))
            if score >= SIMILAR_MOVED or (under_parent and score >= SIMILAR_UNDER_PARENT):
                scored.append((score + (PARENT_BONUS if under_parent else 0.0), score, old, rest_new[index]))
    for _, score, old, new in sorted(scored, key=lambda s: (-s[0], s[2].number, s[3].number)):
        if old.number not in links and new.number not in taken:
            link(old, new, "text-fuzzy", score / 100)
