"""Rules for real judge-style questions: recall@10, success@10, MRR and latency, beside two baselines.

    python bench/bench_judge.py --home DIR [--verbose] [--no-dense] [--ablate]

Questions: bench/judge_questions.json (176 scenarios in player wording, EN and JA, that name cards
and describe a game state; the rules a judge would cite were read from the CR, numbered as in its
``edition`` and carried to today's numbers by lineage). The KB is the snapshot in DIR (`kb build`
first); what is measured is what `kb search` answers (KB.search_rules).

Baselines over the same rule texts (today's EN sections, rules and subrules, each with its
section title, as the dense retriever reads them): a plain BM25 (lower-cased words) and a BM25
with Snowball stemming and English stop words, both k1=1.2, b=0.75 — the "100-line BM25".

Halves: the questions are split by a fixed rule, odd ids the tuning half and even ids the held-out
half (57 EN + 31 JA each); every figure is printed per half as well as over all, and a change to
the retriever is judged on the tuning half only (the held-out half is read, never tuned on).

Metrics: recall@10 (share of a question's expected rules in the top 10), success@10 (at least one
in the top 10), MRR (1 / rank of the first expected rule, 0 past 100). Latency: the whole
retrieval per question in-process, p50/p99, after one warm-up pass and the preparation a server
does before serving (KB.prepare_search); the first pass is printed unprepared, as a fresh `kb search`.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import snowballstemmer  # noqa: E402

from kb.lookup.kb import KB  # noqa: E402
from kb.search.dense import rule_passages  # noqa: E402
from kb.store.lineage import Lineage  # noqa: E402

QUESTIONS = Path(__file__).with_name("judge_questions.json")
STOP = frozenset("a an and are as at be by for from has have if in into is it its of on or that the their "
                 "then there these they this to was were will with you your i my me can do does what when".split())


class BM25:
    def __init__(self, numbers, texts, analyse, k1=1.2, b=0.75):
        self.numbers, self.analyse, self.k1, self.b = numbers, analyse, k1, b
        self.docs = [Counter(analyse(t)) for t in texts]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.lengths) / max(1, len(self.lengths))
        self.postings = defaultdict(list)
        for i, d in enumerate(self.docs):
            for term, tf in d.items():
                self.postings[term].append((i, tf))
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()}

    def search(self, query, limit=100):
        scores = defaultdict(float)
        for term in set(self.analyse(query)):
            for i, tf in self.postings.get(term, ()):
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
                scores[i] += self.idf[term] * tf * (self.k1 + 1) / (tf + norm)
        return [self.numbers[i] for i, _ in sorted(scores.items(), key=lambda kv: -kv[1])[:limit]]


WORD = re.compile(r"[a-z0-9]+")
_stemmer = snowballstemmer.stemmer("english")


def plain(text):
    return WORD.findall(text.lower())


def stemmed(text):
    return _stemmer.stemWords([w for w in WORD.findall(text.lower()) if w not in STOP])


def evaluate(ranker, questions, k=10):
    recall, success, rr = [], [], []
    per = []
    for q in questions:
        ranked = ranker(q["q"])
        expected = set(q["expected"])
        top = set(ranked[:k]) & expected
        recall.append(len(top) / len(expected))
        success.append(1.0 if top else 0.0)
        first = next((i for i, n in enumerate(ranked[:100], 1) if n in expected), None)
        rr.append(1 / first if first else 0.0)
        per.append((q, ranked[:k], first))
    n = len(questions)
    return {"recall": sum(recall) / n, "success": sum(success) / n, "mrr": sum(rr) / n, "per": per}


def _half(q) -> str:
    """The fixed split: odd ids tune, even ids are held out."""
    return "tune" if int(re.sub(r"\D", "", q["id"])) % 2 else "held-out"


def carried(kb, data):
    lineage = Lineage(kb.model)
    out = []
    for item in data["questions"]:
        today = sorted({lineage.forward(n, data["edition"])[0] for n in item["expected"]
                        if ("en", data["edition"], n) in kb.model.rules} - {None})
        out.append(item | {"expected": today or item["expected"]})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, required=True, help="KB home with a snapshot (kb build)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--ablate", action="store_true", help="also score each retriever switched off")
    parser.add_argument("--no-dense", action="store_true", help="leave the dense retriever out")
    args = parser.parse_args()

    start = time.perf_counter()
    kb = KB.load(args.home)
    questions = carried(kb, json.loads(QUESTIONS.read_text(encoding="utf-8")))
    retriever = kb.retriever(dense=not args.no_dense)
    print(f"editions {len(kb.model.editions)} (current EN {kb.model.current('en')}), "
          f"dense {'on' if retriever.dense is not None else 'off'}, load {time.perf_counter() - start:.1f} s")
    numbers, texts = rule_passages(kb.model)
    baselines = {"BM25 plain": BM25(numbers, texts, plain), "BM25 stemmed": BM25(numbers, texts, stemmed)}

    def ours(q):
        return [h.number for h in retriever.search(q, limit=100).rules]

    def bm25_index(q):
        return [h.doc.rule_number for h in kb.search_index.search(q, kinds={"rule"}, limit=100) if h.doc.rule_number]

    systems = {name: b.search for name, b in baselines.items()}
    systems["kb BM25 index alone"] = bm25_index
    if args.ablate:
        for off in retriever.weights:
            def without(q, off=off):
                saved = retriever.weights[off]
                retriever.weights[off] = 0.0
                try:
                    return ours(q)
                finally:
                    retriever.weights[off] = saved
            systems[f"kb hybrid without {off}"] = without
    systems["kb hybrid (kb search)"] = ours
    ours("What happens when a spell resolves and its only target has become illegal?")  # warm-up: Sudachi, the dense model
    cold = []  # first pass: every named card's rulings list computed on first use (kb.memo)
    for q in questions:
        t = time.perf_counter()
        retriever.search(q["q"], limit=10)
        cold.append((time.perf_counter() - t) * 1000)
    cold.sort()
    t = time.perf_counter()
    kb.prepare_search()  # what a server does before serving: every ruling's rules, snippets, stem pairs
    prepared = time.perf_counter() - t
    results = {}
    groups = [("all", None, None), ("en", "en", None), ("ja", "ja", None),
              ("tune", None, "tune"), ("held-out", None, "held-out")]
    for name, ranker in systems.items():
        for label, lang, half in groups:
            subset = [q for q in questions if (lang is None or q["lang"] == lang) and (half is None or _half(q) == half)]
            r = evaluate(ranker, subset)
            results[(name, label)] = r
            print(f"{name:28} {label:8} n={len(subset):3}  recall@10 {r['recall']:.3f}  "
                  f"success@10 {r['success']:.3f}  MRR {r['mrr']:.3f}")
    for label in ("all", "tune", "held-out"):
        base = results[("BM25 stemmed", label)]
        mine = results[("kb hybrid (kb search)", label)]
        print(f"hybrid / stemmed baseline ({label}): recall@10 x{mine['recall'] / max(base['recall'], 1e-9):.2f}, "
              f"success@10 x{mine['success'] / max(base['success'], 1e-9):.2f}")
    mine = results[("kb hybrid (kb search)", "all")]
    if args.verbose:
        for q, top, first in results[("kb hybrid (kb search)", "tune")]["per"]:
            missing = sorted(set(q["expected"]) - set(top))
            if missing:
                print(f"  {q['id']} {q['lang']} miss {missing} first@{first} top {top[:10]}  {q['q'][:90]!r}")

    def timed(fn, rounds=2):
        times = []
        for _ in range(rounds):
            for q in questions:
                t = time.perf_counter()
                fn(q["q"])
                times.append((time.perf_counter() - t) * 1000)
        times.sort()
        return statistics.median(times), times[int(len(times) * 0.99) - 1]
    for name, fn in (("BM25 stemmed", baselines["BM25 stemmed"].search), ("kb BM25 index alone", bm25_index),
                     ("kb hybrid (kb search)", lambda q: retriever.search(q, limit=10))):
        p50, p99 = timed(fn)
        print(f"latency {name:24} p50 {p50:7.2f} ms  p99 {p99:7.2f} ms")
    print(f"latency {'kb hybrid, first pass':24} p50 {statistics.median(cold):7.2f} ms  "
          f"p99 {cold[int(len(cold) * 0.99) - 1]:7.2f} ms  (unprepared, as one `kb search` in a fresh "
          f"process: each card's and ruling's rules made on first use)")
    print(f"preparation before serving (KB.prepare_search, as `kb serve` does): {prepared:.2f} s; "
          f"the latencies above are after it")
    if retriever.dense is not None:
        p50, p99 = timed(lambda q: retriever.dense.embed_query(q), rounds=1)
        print(f"latency {'(dense query embedding)':24} p50 {p50:7.2f} ms  p99 {p99:7.2f} ms")


if __name__ == "__main__":
    main()
