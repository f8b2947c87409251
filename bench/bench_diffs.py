"""Cost of history spans and edition diffs over the real KB (no asserts), beside a plain rule
lookup measured in the same run as the baseline.

    MTG_KB_HOME=... python bench/bench_diffs.py [N]

Uses the snapshot in MTG_KB_HOME (build one first with `kb build`). Diffs are memoised per KB, so
each diff here is computed uncached (``KB._diff``): every consecutive pair (what `kb changes`
costs on first use), and the widest pair (oldest -> newest loaded edition). ``history_spans`` and
``rule`` (which carries the spans) are timed over N rules of the current edition, uncached.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.lookup.kb import KB  # noqa: E402


def _ms(fn) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def _line(label: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{label:<44} n={len(samples):<5} p50 {statistics.median(samples):8.2f} ms   p99 {p99:8.2f} ms   "
          f"max {samples[-1]:8.2f} ms")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 300
    started = time.perf_counter()
    kb = KB.load()
    kb.lineage  # noqa: B018  (load the lineage links before timing)
    print(f"snapshot loaded in {time.perf_counter() - started:.2f} s; {len(kb.lineage.editions)} EN editions")
    current = kb.current_edition()
    numbers = sorted(k[2] for k in kb.model.rules if k[:2] == ("en", current))
    picked = random.Random(8).sample(numbers, min(n, len(numbers)))

    # baseline: the rule lookup without its history (the same rows, no lineage walk)
    _line("baseline: history (steps) of a rule", [_ms(lambda r=r: kb.history(r, current)) for r in picked])
    _line("history_spans of a rule", [_ms(lambda r=r: kb.history_spans(r, current)) for r in picked])
    _line("rule() with history and history_spans", [_ms(lambda r=r: kb.rule(r, edition=current)) for r in picked])

    editions = kb.lineage.editions
    pairs = list(zip(editions, editions[1:]))
    _line("diff of consecutive editions (kb changes)", [_ms(lambda a=a, b=b: kb._diff(a, b)) for a, b in pairs])
    wide = kb._diff(editions[0], editions[-1])
    _line(f"diff {editions[0]} -> {editions[-1]}", [_ms(lambda: kb._diff(editions[0], editions[-1])) for _ in range(3)])
    print(f"  ({len(wide['entries'])} entries: " + ", ".join(f"{v} {k}" for k, v in wide["counts"].items()) + ")")


if __name__ == "__main__":
    main()
