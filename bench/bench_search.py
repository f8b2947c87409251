"""Search quality and speed on the real data.

    python bench/bench_search.py [--home DIR] [--verbose] [--baseline REV]

Searches the documents the KB build makes (kb.search.docs.build_index over the model), so what
is measured is what `kb search` and the server answer. The model is built from rules_src and
every file in ../shared/data (every EN edition, the JA excerpts, card names), or, with --home,
loaded from that KB home's current snapshot (`kb build` first) — the index is rebuilt either
way, with this checkout's code. Then runs bench/search_queries.json (short EN and JA queries)
bench/search_queries_ja.json (219 Japanese search-box queries over every chapter, by chapter too)
and bench/search_questions_en.json (long, scenario-based English judge questions, reported
separately, rules only) and prints recall@5, success@5 and MRR (a query's expected rules are current-edition rule numbers; a hit counts when
it is a rule document with one of those numbers), p50/p99 latency of search() with snippets,
build, dump and load time.

``--baseline REV`` (e.g. ``main``) first runs this same benchmark with the code of git revision REV
(``git archive`` into a temporary directory; the working tree is not touched) on the same model,
then this checkout's: before and after, in one run on the same machine load.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gitrev import run_at  # noqa: E402  (bench/ is the script's own folder)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.search.index import SearchIndex  # noqa: E402
from kb.search.docs import build_index  # noqa: E402

QUERIES = Path(__file__).with_name("search_queries.json")
QUESTIONS = Path(__file__).with_name("search_questions_en.json")
QUERIES_JA = Path(__file__).with_name("search_queries_ja.json")


def evaluate(index: SearchIndex, queries: list[dict], *, kinds: set[str] | None, k: int = 5,
             verbose: bool = False) -> dict:
    recall, success, rr = [], [], []
    misses = []
    for item in queries:
        expected = set(item["expected"])
        hits = index.search(item["q"], kinds=kinds, limit=20)
        ranked = [h.doc.rule_number for h in hits if h.doc.kind == "rule"] if kinds is None else \
            [h.doc.rule_number for h in hits]
        ranked_all = [h.doc.rule_number if h.doc.kind == "rule" else None for h in hits]
        top = set(ranked_all[:k])
        found = expected & top
        recall.append(len(found) / len(expected))
        success.append(1.0 if found else 0.0)
        first = next((i for i, n in enumerate(ranked_all, 1) if n in expected), None)
        rr.append(1 / first if first else 0.0)
        if len(found) < len(expected):
            misses.append((item["q"], sorted(expected - top), ranked_all[:k], first))
        if verbose:
            print(f"  {'OK ' if found == expected else ('~  ' if found else 'MISS')} {item['q']}"
                  f" -> {[f'{h.doc.kind}:{h.doc.rule_number or h.doc.title[:20]}' for h in hits[:k]]}")
    n = len(queries)
    return {"recall@5": sum(recall) / n, "success@5": sum(success) / n, "mrr": sum(rr) / n,
            "misses": misses, "n": n, "ranked": ranked}


def carried(model, data: dict) -> list[dict]:
    """The file's queries with their expected numbers (of the file's ``edition``) carried to today's
    numbers by lineage, so the benchmark follows new editions without being rewritten."""
    from kb.store.lineage import Lineage
    lineage = Lineage(model)
    out = []
    for item in data["queries"]:
        today = {lineage.forward(n, data["edition"])[0] for n in item["expected"]
                 if ("en", data["edition"], n) in model.rules} - {None}
        out.append(item | {"expected": sorted(today) or item["expected"]})
    return out


def latency(index: SearchIndex, queries: list[str], rounds: int = 5) -> tuple[float, float, float]:
    times = []
    for _ in range(rounds):
        for q in queries:
            start = time.perf_counter()
            index.search(q, limit=10)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1], times[-1]


def load_model(home: Path | None):
    """The KB model: from a snapshot in ``home``, else built from rules_src + the shared data."""
    from kb import config as settings
    from kb.store import snapshot
    if home is not None:
        path = snapshot.current(home / "snapshots")
        if path is None:
            sys.exit(f"no snapshot in {home}/snapshots: run `MTG_KB_HOME={home} kb build` first")
        return snapshot.load_model(path)
    import tempfile
    from kb.build import pipeline
    from kb.sources.files import discover
    current = settings.current()
    with tempfile.TemporaryDirectory(prefix="bench-search-") as tmp:  # a whole build, as `kb build` makes it
        path = pipeline.build(discover(current.default_sources(), current.rules_src), Path(tmp) / "snapshots")
        return snapshot.load_model(path)


def run_baseline(rev: str, home: Path | None) -> None:
    """This benchmark as revision ``rev`` wrote it, with that revision's code, in a subprocess."""
    root = Path(__file__).resolve().parent.parent
    short = subprocess.run(["git", "rev-parse", "--short", rev], cwd=root, capture_output=True, text=True)
    print(f"===== baseline: {rev} ({short.stdout.strip()})", flush=True)
    if run_at(rev, ["{rev_root}/bench/bench_search.py", *(["--home", str(home)] if home else [])], paths=(),
              capture=False) is None:
        sys.exit(f"bench_search: cannot read revision {rev!r}")
    print("===== this checkout", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, help="load the model from this KB home's snapshot")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--baseline", metavar="REV", help="first run the benchmark of git revision REV (e.g. main)")
    args = parser.parse_args()
    if args.baseline:
        run_baseline(args.baseline, args.home)

    data = json.loads(QUERIES.read_text(encoding="utf-8"))
    start = time.perf_counter()
    model = load_model(args.home)
    t_corpus = time.perf_counter() - start
    queries = carried(model, data)
    start = time.perf_counter()
    index = build_index(model)
    t_build = time.perf_counter() - start
    names = {n for key in index.mech_names.values() for n in key}
    current = sorted({e for e in (model.current("en"), model.current("ja")) if e})
    start = time.perf_counter()
    blob = index.dumps()
    t_dump = time.perf_counter() - start
    start = time.perf_counter()
    index = SearchIndex.loads(blob)
    t_load = time.perf_counter() - start
    print(f"editions {sorted(model.editions)}")
    print(f"docs {len(index)} (current {index.n_current}), terms {len(index.postings)}, "
          f"mechanic names {len(names)}, current editions {current}")
    print(f"model {t_corpus:.2f} s, index build {t_build:.2f} s, dumps {t_dump:.2f} s "
          f"({len(blob) / 1e6:.1f} MB), loads {t_load:.3f} s")

    n_ja = sum(q["lang"] == "ja" for q in queries)
    print(f"queries {len(queries)} (ja {n_ja}, en {len(queries) - n_ja})")
    for label, kinds in (("rules only", {"rule"}), ("all kinds", None)):
        for lang in ("en", "ja", None):
            subset = [q for q in queries if lang is None or q["lang"] == lang]
            r = evaluate(index, subset, kinds=kinds, verbose=args.verbose and lang is None)
            print(f"[{label:10}] {lang or 'all':3} n={r['n']:3}  recall@5 {r['recall@5']:.3f}  "
                  f"success@5 {r['success@5']:.3f}  MRR {r['mrr']:.3f}")
            if lang is None:
                for q, missing, top, first in r["misses"]:
                    print(f"      miss {missing} for {q!r}: top5 {top}, first expected at {first}")

    ja_queries = carried(model, json.loads(QUERIES_JA.read_text(encoding="utf-8")))
    for label, kinds in (("rules only", {"rule"}), ("all kinds", None)):
        r = evaluate(index, ja_queries, kinds=kinds)
        print(f"[JA set    ] ja  n={r['n']:3}  recall@5 {r['recall@5']:.3f}  success@5 {r['success@5']:.3f}  "
              f"MRR {r['mrr']:.3f}   ({QUERIES_JA.name}, {label})")
    by_chapter: dict[str, list[dict]] = {}
    for q in ja_queries:
        by_chapter.setdefault(str(q.get("chapter")), []).append(q)
    print("[JA set    ] by chapter (all kinds): " + ", ".join(
        f"{c} n={len(qs)} r@5 {evaluate(index, qs, kinds=None)['recall@5']:.2f}" for c, qs in sorted(by_chapter.items())))
    if args.verbose:
        for q, missing, top, first in evaluate(index, ja_queries, kinds=None)["misses"]:
            print(f"      ja miss {missing} for {q!r}: top5 {top}, first expected at {first}")

    questions = carried(model, json.loads(QUESTIONS.read_text(encoding="utf-8")))
    r = evaluate(index, questions, kinds={"rule"}, verbose=args.verbose)
    print(f"[questions ] en  n={r['n']:3}  recall@5 {r['recall@5']:.3f}  "
          f"success@5 {r['success@5']:.3f}  MRR {r['mrr']:.3f}   ({QUESTIONS.name}, rules only)")
    for q, missing, top, first in r["misses"]:
        print(f"      miss {missing} for {q!r}: top5 {top}, first expected at {first}")

    # warm-up (Sudachi, caches), then every query (both files) plus short and rule-number ones
    latency_queries = [q["q"] for q in queries] + [q["q"] for q in ja_queries] + [q["q"] for q in questions] + ["702.6", "rule 601.2f", "７０２．６", "cast", "a",
                                                    "the creature", "唱える", "カード"]
    latency(index, latency_queries, rounds=1)
    p50, p99, worst = latency(index, latency_queries)
    print(f"latency search(limit=10) with snippets: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {worst:.2f} ms")


if __name__ == "__main__":
    main()
