"""How the citation checker scales with the length of a list of citations (issue 40.1).

    python bench/bench_check_scaling.py [--home DIR] [--sizes 300,1000,3000,12500] [--undated]

Checks `"601.2a, " * n` (the hostile input: 12,500 items are 100 KB) and a list of n distinct
rule numbers of the current edition, each with the date 2020-01-22 (or none, with --undated),
beside a small baseline input from the same run (one real sentence with two citations). Prints
the wall time of one check, the time per item, and the peak of Python allocations during a second
check of the same input (tracemalloc; the first check is timed without it).
"""
from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BASELINE = "Under rule 601.2a the spell moves to the stack; see also rule 601.2f for the total cost.\n"


def measure(kb, text: str, date: str | None) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    report = kb.check_citations(text, date=date)
    seconds = time.perf_counter() - t0
    tracemalloc.start()
    kb.check_citations(text, date=date)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / 2**20, len(report["citations"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home", help="KB home with a built snapshot (default: the configured home)")
    ap.add_argument("--sizes", default="300,1000,3000,12500")
    ap.add_argument("--undated", action="store_true", help="check without a date (the era is inferred)")
    args = ap.parse_args()
    from kb.lookup.kb import KB
    kb = KB.load(Path(args.home) if args.home else None)
    date = None if args.undated else "2020-01-22"
    kb.check_citations(BASELINE, date=date)  # caches warm (titles, rule numbers), as in a running server
    current = kb.lineage.current
    distinct = sorted(n for n in kb.model.edition_rules("en", current) if "." in n)
    print(f"CR {current} loaded; date {date or 'none (undated)'}")
    print(f"{'input':<28} {'chars':>8} {'found':>6} {'seconds':>8} {'ms/item':>8} {'peak MiB':>9}")
    rows = [("baseline (1 sentence)", BASELINE, 1)]
    for n in (int(x) for x in args.sizes.split(",")):
        rows.append((f'"601.2a, " x {n}', "601.2a, " * n, n))
        rows.append((f"{n} distinct numbers", ", ".join((distinct * (n // len(distinct) + 1))[:n]), n))
    for name, text, n in rows:
        seconds, peak, found = measure(kb, text, date)
        print(f"{name:<28} {len(text):8d} {found:6d} {seconds:8.2f} {seconds * 1000 / n:8.2f} {peak:9.1f}",
              flush=True)


if __name__ == "__main__":
    main()
