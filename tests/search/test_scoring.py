"""The scoring implementation (kb.search.scoring) gives the same doubles and the same order as the
plain definitions: every posting summed in a Python loop in the query's term order, every scored
document sorted; and sharing a pass inside ``one_pass`` changes no search's hits."""
from __future__ import annotations

import random

import numpy as np

from kb.search import scoring
from kb.search.index import SearchIndex
from kb.search.rows import SearchDoc


def _plain_top(values, docs, k):
    return sorted(zip(values.tolist(), docs.tolist()), key=lambda p: (-p[0], -p[1]))[:k]


def test_top_is_the_full_sort_ties_included():
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(0, 400)
        pool = [rng.choice((0.0, 1.0, 2.5)) if rng.random() < 0.5 else rng.random() for _ in range(n)]
        values = np.array(pool, dtype=np.float64)
        docs = np.array(sorted(rng.sample(range(5000), n)), dtype=np.int64)
        k = rng.choice((1, 3, 10, 50, n, n + 5))
        assert scoring.top(values, docs, k) == _plain_top(values, docs, k)


def _index() -> SearchIndex:
    rng = random.Random(11)
    words = "creature damage combat spell target player battlefield graveyard counter token library hand".split()
    docs = []
    for i in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(3, 30)))
        lang = "ja" if i % 5 == 0 else "en"
        docs.append(SearchDoc(f"doc:{i}", rng.choice(("rule", "ruling", "glossary")), lang, f"T{i}",
                              text + (" 戦場 ダメージ" if lang == "ja" else ""), rule_number=f"{100 + i}.1"))
    return SearchIndex.build(docs)


def test_sums_are_the_posting_loop_in_term_order():
    index = _index()
    rng = random.Random(3)
    vocab = [t for t in index.postings]
    for _ in range(100):
        terms = {t: rng.choice((1.0, 0.35, 1.5, 0.45)) for t in rng.sample(vocab, rng.randint(1, 12))}
        cut = rng.choice((len(index), 150))
        scores, touched = scoring.sums(index, terms, cut)
        plain = [0.0] * len(index)
        hit = [False] * len(index)
        for t, qw in terms.items():
            start, end = index.postings[t]
            for d, w in zip(index._ids[start:end], index._ws[start:end]):
                if d < cut:
                    plain[d] += float(w) * qw
                    hit[d] = True
        assert scores.tolist() == plain
        assert touched.tolist() == hit


def test_a_shared_pass_changes_no_hits():
    index = _index()
    queries = ["creature damage", "combat damage to a player", "戦場 ダメージ", "token counter library hand"]
    found = 0
    for q in queries:
        for lang, kinds in ((None, None), ("en", None), (None, {"rule"}), ("ja", {"rule", "glossary"})):
            alone = [(h.doc.id, h.score, h.snippet) for h in index.search(q, lang=lang, kinds=kinds)]
            with scoring.one_pass():
                index.search(q, kinds={"ruling"}, snippets=False)  # another filter first: the pass is shared
                shared = [(h.doc.id, h.score, h.snippet) for h in index.search(q, lang=lang, kinds=kinds)]
            assert shared == alone
            found += bool(alone)
    assert found >= 10


def test_the_pair_index_counts_what_pairs_of_holds():
    from kb.search import pairs as stem_pairs
    from kb.search.rerank import pairs_of

    index = _index()
    table = stem_pairs.PairIndex(index._rows)
    rng = random.Random(8)
    vocab = sorted({p for d in range(len(index)) for p in pairs_of(index, d)})
    assert vocab
    for _ in range(200):
        asked = list(dict.fromkeys(rng.sample(vocab, rng.randint(1, 6)) + [("nosuch", "pair"), ("creatur", "nosuch")]))
        docs = rng.sample(range(len(index)), rng.randint(1, 60))
        assert table.counts(docs, asked) == [sum(p in pairs_of(index, d) for p in asked) for d in docs]


def test_names_inside_are_every_substring_that_is_a_name():
    rng = random.Random(4)
    alphabet = "あいうえお夜昼真中"
    names = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(80)}
    longest = max(map(len, names))
    owner = type("Owner", (), {})()
    for _ in range(300):
        runs = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25))) for _ in range(rng.randint(1, 3))]
        plain = {run[i:j] for run in runs for i in range(len(run))
                 for j in range(i + 2, min(len(run), i + longest) + 1) if run[i:j] in names}
        assert scoring.names_inside(owner, "t", names, runs) == plain


def test_names_in_is_the_ordered_substring_test():
    rng = random.Random(6)
    alphabet = "あい夜昼真中x "
    owner = type("Owner", (), {})()
    names = dict.fromkeys("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))) for _ in range(120))
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert scoring.names_in(owner, "n", names, text) == [name for name in names if name in text]


def test_defined_terms_bm25_is_the_generator_sum():
    from collections import Counter

    from kb.search.terms import B, K1, _BM25

    rng = random.Random(9)
    words = [f"w{i}" for i in range(40)]
    docs = {f"r{i}": Counter(rng.choice(words) for _ in range(rng.randint(1, 30))) for i in range(60)}
    bm25 = _BM25(docs)
    for _ in range(200):
        query = Counter(rng.choice(words + ["none"]) for _ in range(rng.randint(1, 15)))
        keys = rng.sample(list(docs), 20) + ["missing"]
        plains = []
        for key in keys:
            tf = docs.get(key)
            if not tf:
                plain = 0.0
            else:
                norm = K1 * (1 - B + B * bm25.lengths[key] / bm25.avg)
                plain = sum(bm25.idf[t] * tf[t] * (K1 + 1) / (tf[t] + norm) for t in query if t in tf)
            assert bm25.score(key, query) == plain and type(bm25.score(key, query)) is type(plain)
            plains.append(plain)
        together = bm25.scores(keys, query)  # many keys at once, in any order: each its own sum
        assert together == plains and [type(v) for v in together] == [type(v) for v in plains]


class _Owner:
    """What kb.memo keeps values for (weakly referenceable)."""


def test_phrases_are_the_longest_first_scan_of_every_phrase():
    """scoring.phrases looks a phrase up only when its first word begins a name that long: the same
    matches, in the same order, as looking every phrase up."""
    def every_phrase(names, words, longest):
        used, found = [False] * len(words), []
        for n in range(min(longest, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                if any(used[i:i + n]):
                    continue
                got = names.get(" ".join(words[i:i + n]))
                if got:
                    used[i:i + n] = [True] * n
                    found.append((i, n, got))
        return found

    rng = random.Random(21)
    vocab = "a b c d e f g".split()
    for trial in range(300):
        owner = _Owner()  # a new owner each time: the lengths are made per owner and key
        names = {" ".join(rng.choices(vocab, k=rng.randint(1, 4))): (trial, j) for j in range(rng.randint(0, 12))}
        words = rng.choices(vocab, k=rng.randint(0, 14))
        longest = rng.randint(1, 5)
        assert scoring.phrases(owner, "names", names, words, longest) == every_phrase(names, words, longest)


def test_held_is_the_idf_sum_of_the_words_holding_each_candidate():
    from kb.search.rerank import _held

    index = _index()
    rng = random.Random(5)
    vocab = list(index.postings)
    for _ in range(200):
        words = rng.sample(vocab, rng.randint(1, 6))
        spans = [index.postings[w] for w in words]
        idfs = [rng.uniform(0.1, 5.0) for _ in words]
        top = [(1.0, d) for d in rng.sample(range(len(index)), rng.randint(1, 50))]
        plain = []
        for _, d in top:
            total = 0.0
            for (start, end), idf in zip(spans, idfs):
                total += idf if d in index._ids[start:end] else 0.0
            plain.append(total)
        assert _held(index, top, spans, idfs) == plain
