"""Rulings about situations like the question's, whichever cards they are about: a learnt bridge
from the way a game event is told to the rules that govern it.

A question says what happens ("it's sacrificed", "the trigger goes on the stack", "he goes to 0
loyalty"); the rule a judge cites is written in the CR's general words and the question rarely
shares them. Official card rulings are written about real game situations in both vocabularies
("...is put into its owner's graveyard as a state-based action"), and the rules BM25 finds for
a ruling's own text are what that situation is about. So every ruling of the card data becomes a
pair (its words, the rules its text finds); a question is matched to the rulings that share its
rarest words (idf over the rulings themselves, so "sacrificed" or "loyalty" weighs more than
"creature"), and the rules of the few most alike form one more ranked list for the fusion.

This is the named cards' ``ruled`` list (kb.search.retrieval) without the card restriction: the
named cards' rulings say how *those* cards meet the game, these say how the game treats the
situation asked, from any card that met it. Nothing is hand-listed: the pairs are the card data's
rulings and the index's own answers for them. A ruling's rules are computed on first use and kept
(kb.memo, by the ruling's text), shared with the ``ruled`` list; a server computes all of them before
serving (``prepare``, ~550 texts, under a second), not ``kb build``: they depend on today's rules, so
every added edition would redo them, about 1.5 s of an add.
"""
from __future__ import annotations

import math
from collections import defaultdict

from kb.memo import per_owner
from kb.search import tokenize as tk


RULES_PER_RULING = 3  # the rules one ruling's text brings (tuning half: 2-5 within 0.01, 3 best)


def ruling_rules(index, text: str) -> list[str]:
    """The rules one ruling's text finds: today's EN rules, best first, one per rule."""
    hits = index.search(text, kinds={"rule"}, lang="en", limit=RULES_PER_RULING, snippets=False)
    return list(dict.fromkeys(h.doc.rule_number for h in hits if h.doc.rule_number))


class SimilarRulings:
    def __init__(self, cards):
        self.cards = cards  # kb.search.cardnames.CardNames
        self._table = None

    def _built(self):
        """(ruling -> (card key, index among the card's rulings)), postings by stem, idf by stem:
        made on the first question (a few tens of ms), not at load."""
        if self._table is None:
            model = self.cards.model
            where: list[tuple[str, int]] = []
            postings: dict[str, list[int]] = defaultdict(list)
            for key, card in model.cards.items():
                texts = self.cards.ruling_texts_of(key) if card.get("rulings") else []
                # a ruling repeated for several cards (meld pairs) counts for each: one per text
                # measured recall@10 -0.004 on the tuning half
                for i, text in enumerate(texts):
                    for stem in frozenset(tk.en_stems(text)):
                        postings[stem].append(len(where))
                    where.append((key, i))
            n = len(where)
            idf = {s: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for s, p in postings.items()}
            self._table = (where, dict(postings), idf)
        return self._table

    def __len__(self) -> int:
        return len(self._built()[0])

    def like(self, words: str, limit: int) -> list[tuple[str, int]]:
        """The ``limit`` rulings sharing the most of the English question's rare stems (the sum
        of their idf), best first, as (card key, index among its rulings); ties by data order."""
        where, postings, idf = self._built()
        score: dict[int, float] = defaultdict(float)
        for stem in set(tk.en_stems(words)):
            weight = idf.get(stem)
            if weight:
                for r in postings[stem]:
                    score[r] += weight
        return [where[r] for r in sorted(score, key=lambda r: (-score[r], r))[:limit]]

    def rules_of(self, index, key: str, i: int) -> list[str]:
        """The rules ruling ``i`` of card ``key`` finds (``ruling_rules``), computed once per text
        and ``index`` (kb.memo: a ruling printed for several cards, as meld pairs are, is asked once)."""
        text = self.cards.ruling_texts_of(key)[i]
        return per_owner(index, ("ruling-rules", text), lambda: ruling_rules(index, text))

    def prepare(self, index) -> int:
        """Before serving: every ruling's rules, so that no question computes them. Returns how
        many rulings."""
        count = 0
        for key, card in self.cards.model.cards.items():
            if card.get("rulings"):
                for i in range(len(self.cards.ruling_texts_of(key))):
                    self.rules_of(index, key, i)
                    count += 1
        return count
