"""Lineage benchmark: precision and recall of the links between consecutive editions against
bench/lineage_truth.json (233 hand-checked links), per kind, for the current algorithm
(kb/build/lineage.py) beside the previous one (kb/build/lineage.py at commit e62e7b6, read from git), in the same run, and
the time each takes for every consecutive pair of the loaded EN editions.

    python bench/bench_lineage.py [--data ../shared/data] [--misses]

A truth link is (edition A, rule) -> rule in edition B (``to`` null: removed): the next edition of
the 34 the truth set was written over, or, for kind ``long-range``, the newest. The answer follows
the chain of links across every loaded edition from A to B.
recall    = truth links answered correctly / truth links of that kind
precision = right links / links the algorithm gave for those rules (a link for a removed rule
            is a false positive; no link is no answer)
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb import config as settings  # noqa: E402
from kb.build import lineage as current  # noqa: E402
from kb.parse.cr_en import parse_cr_en  # noqa: E402
from kb.sources.files import classify  # noqa: E402
from kb.text import normalize  # noqa: E402

BASELINE_COMMIT = "e62e7b6"  # kb/build/lineage.py before the issue-8 lineage work


def _baseline_module():
    """The previous algorithm, read from the repository's history (not a copy kept in the tree)."""
    import subprocess
    import types
    try:
        source = subprocess.run(["git", "show", f"{BASELINE_COMMIT}:kb/build/lineage.py"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        sys.exit(f"bench_lineage: the baseline needs git history ({BASELINE_COMMIT}): {exc}")
    module = sys.modules["lineage_baseline"] = types.ModuleType("lineage_baseline")  # dataclasses look it up
    exec(compile(source, f"{BASELINE_COMMIT}:kb/build/lineage.py", "exec"), module.__dict__)
    return module


baseline = _baseline_module()

TRUTH = ROOT / "bench" / "lineage_truth.json"


def load_editions(data: Path) -> list[tuple[str, list]]:
    """Every EN CR under ``data`` (recursively), parsed as `kb build` parses it, oldest first."""
    found = {}
    for path in sorted(data.rglob("*.txt")):
        source = classify(path)
        if source is None or source.format != "cr-en":
            continue
        edition = parse_cr_en(source.document.text, source.document)
        found[edition.edition] = edition.rules
    return sorted(found.items())


def cold(algorithm) -> None:
    """Empty the caches both algorithms share (kb.text.normalize) or keep (masked), so neither
    run profits from the other's."""
    normalize.cache_clear()
    algorithm.masked.cache_clear()


def run(algorithm, editions) -> tuple[dict, list[float]]:
    """{(old edition, old number): new number} for each consecutive pair, and seconds per pair."""
    cold(algorithm)
    links, seconds = {}, []
    for (old_ed, old_rules), (new_ed, new_rules) in zip(editions, editions[1:]):
        t0 = time.perf_counter()
        found = algorithm.match_editions(old_rules, new_rules)
        seconds.append(time.perf_counter() - t0)
        for link in found:
            links[(old_ed, link.old)] = link.new
    return links, seconds


def predict(links: dict, truth: dict, order: list[str]) -> str | None | bool:
    """The algorithm's answer for one truth link (False: the rule is not in the loaded edition)."""
    if truth["from_edition"] not in order:
        return False
    if truth["to_edition"] not in order:
        return False
    # every kind follows the chain of links to the truth's edition: with more editions loaded than
    # the truth set was written over, a link of the truth spans several loaded steps
    number = truth["from"]
    for edition in order[order.index(truth["from_edition"]):order.index(truth["to_edition"])]:
        number = links.get((edition, number))
        if number is None:
            return None
    return number


def score(links: dict, truths: list[dict], order: list[str]) -> tuple[dict, list]:
    """Per kind: [truth links, links given, links given that are right, answers that are right]."""
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses = []
    for t in truths:
        got = predict(links, t, order)
        if got is False:
            continue
        row = per_kind[t["kind"]]
        row[0] += 1
        row[1] += got is not None
        row[2] += got is not None and got == t["to"]
        row[3] += got == t["to"]
        if got != t["to"]:
            misses.append((t, got))
    return per_kind, misses


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def table(per_kind: dict) -> dict:
    """kind -> (n, precision or None when no link was given, recall)."""
    total = [sum(r[i] for r in per_kind.values()) for i in range(4)]
    return {kind: (n, right_links / given if given else None, right / n if n else 1.0)
            for kind, (n, given, right_links, right) in sorted(per_kind.items()) + [("ALL", total)]}


def fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=settings.shared_data_dir())
    parser.add_argument("--rounds", type=int, default=2, help="timing rounds, algorithms alternating")
    parser.add_argument("--misses", action="store_true", help="list the truth links the current algorithm gets wrong")
    args = parser.parse_args()
    t0 = time.perf_counter()
    editions = load_editions(args.data)
    order = [e for e, _ in editions]
    print(f"{len(editions)} EN editions ({order[0]} .. {order[-1]}), parsed in {time.perf_counter() - t0:.1f} s; "
          f"{len(editions) - 1} consecutive pairs")
    truths = json.loads(TRUTH.read_text(encoding="utf-8"))["links"]
    results, timings = {}, {"baseline": [], "current": []}
    for _ in range(args.rounds):
        for name, algorithm in (("baseline", baseline), ("current", current)):
            links, seconds = run(algorithm, editions)
            timings[name].extend(seconds)
            per_kind, misses = score(links, truths, order)
            results[name] = (table(per_kind), seconds, misses, len(links))
    kinds = list(results["current"][0])
    print(f"\n{'kind':<24}{'n':>4}   {'baseline P':>10} {'R':>6}   {'current P':>10} {'R':>6}")
    for kind in kinds:
        n, bp, br = results["baseline"][0][kind]
        _, cp, cr = results["current"][0][kind]
        print(f"{kind:<24}{n:>4}   {fmt(bp):>10} {br:>6.3f}   {fmt(cp):>10} {cr:>6.3f}")
    print("\n(precision = right links / links given; for 'removed' any link is wrong, so its precision is 0 or —)")
    print(f"\n{'time per pair':<24}{'s/round':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'links':>8}"
          f"   ({args.rounds} rounds, alternating, caches emptied before each)")
    for name, (_, _, _, n_links) in results.items():
        seconds = timings[name]
        print(f"{name:<24}{sum(seconds) / args.rounds:>8.2f} {1000 * statistics.median(seconds):>8.0f} "
              f"{1000 * pct(seconds, 95):>8.0f} {1000 * max(seconds):>8.0f} {n_links:>8}")
    if args.misses:
        print("\ncurrent algorithm's misses:")
        for t, got in results["current"][2]:
            print(f"  {t['kind']:<22} {t['from_edition']} {t['from']:<8} -> {t['to']!s:<8} got {got!s:<8}  {t['evidence'][:70]}")


if __name__ == "__main__":
    main()
