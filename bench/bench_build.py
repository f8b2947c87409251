"""Build and load benchmark: build time per edition, full build, snapshot load time, peak memory.

    python bench/bench_build.py [--repeat 5]

Each measurement runs in a fresh subprocess so peak memory (ru_maxrss) is that step's own.
Targets (issue 2, on 2 cores): full build < 20 s, snapshot load < 1 s, peak memory < 500 MB.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb import config as settings  # noqa: E402

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
mode, home = sys.argv[1], Path(sys.argv[2])
paths = [Path(p) for p in sys.argv[3:]]
t0 = time.perf_counter()
if mode == "build":
    from kb import config as settings
    from kb.build import pipeline
    from kb.store import snapshot
    from kb.sources.files import discover
    pipeline.build(discover(paths, settings.rules_src_dir()), home / "snapshots")
    out = {"seconds": time.perf_counter() - t0}
else:
    from kb.lookup.kb import KB
    kb = KB.load(home)
    loaded = time.perf_counter() - t0
    kb.rule("601.2c")
    first = time.perf_counter() - t0
    kb.search("予示")
    searched = time.perf_counter() - t0
    len(kb.store)
    out = {"seconds": loaded, "first_rule": first, "with_search": searched,
           "with_store": time.perf_counter() - t0}
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(mode: str, home: Path, paths: list[Path]) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, mode, str(home), *map(str, paths)],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    data = settings.shared_data_dir()
    editions = sorted(data.glob("cr-en-*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = run("build", tmp / "base", [])
        print(f"{'build':<34} {'seconds':>8} {'peak MB':>8}")
        print(f"{'rules_src only':<34} {base['seconds']:8.2f} {base['peak_mb']:8.0f}")
        for path in editions:
            r = run("build", tmp / path.stem, [path])
            print(f"{'rules_src + ' + path.name:<34} {r['seconds']:8.2f} {r['peak_mb']:8.0f}"
                  f"   (edition alone ≈ {r['seconds'] - base['seconds']:.2f} s)")
        full = run("build", tmp / "full", [data])
        print(f"{'rules_src + all of shared/data':<34} {full['seconds']:8.2f} {full['peak_mb']:8.0f}"
              f"   target < 20 s, < 500 MB: {'ok' if full['seconds'] < 20 and full['peak_mb'] < 500 else 'MISSED'}")
        loads = [run("load", tmp / "full", []) for _ in range(args.repeat)]
        print(f"\nload of the full snapshot, {args.repeat} fresh processes (seconds; p50 / p99 / max):")
        for key, label in (("seconds", "indexes loaded"), ("first_rule", "+ first rule lookup"),
                           ("with_search", "+ search index"), ("with_store", "+ RDF store opened")):
            vals = [l[key] for l in loads]
            print(f"  {label:<24} {statistics.median(vals):6.3f} / {pct(vals, 99):6.3f} / {max(vals):6.3f}")
        peak = max(l["peak_mb"] for l in loads)
        print(f"  peak memory {peak:.0f} MB; load target < 1 s: "
              f"{'ok' if statistics.median(l['with_search'] for l in loads) < 1 else 'MISSED'}")


if __name__ == "__main__":
    main()
