"""Build and load benchmark with every edition loaded: full build (cold and warm cache), adding one
edition, cost per edition, snapshot load, rule lookups, the NetworkX view, peak memory.

    python bench/bench_build.py [--repeat 5]

Each measurement runs in a fresh subprocess so peak memory (ru_maxrss) is that step's own. The
baseline measured in the same run is a build of rules_src alone (no CR edition). Targets (issue 8,
on 2 cores): every file of ../shared/data + rules_src from scratch < 60 s and < 1 GB; adding one
edition < 10 s; snapshot load < 1 s; rule lookup speed unchanged.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb import config  # noqa: E402

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
mode, home = sys.argv[1], Path(sys.argv[2])
paths = [Path(p) for p in sys.argv[3:]]
t0 = time.perf_counter()
out = {}
if mode == "build":
    from kb import config
    from kb.build import pipeline
    from kb.sources.files import discover
    phases, last = {}, [t0, "read sources"]
    def progress(message):
        if message.startswith("parse "):
            message = "parse"
        now = time.perf_counter()
        phases[last[1]] = phases.get(last[1], 0) + now - last[0]
        last[:] = [now, message]
    pipeline.build(discover(paths, config.current().rules_src), home / "snapshots", progress)
    phases[last[1]] = phases.get(last[1], 0) + time.perf_counter() - last[0]
    out = {"seconds": time.perf_counter() - t0, "phases": phases}
elif mode == "load":
    from kb.lookup.kb import KB
    kb = KB.load(home)
    out["load"] = time.perf_counter() - t0
    kb.rule("601.2c")
    out["first_rule"] = time.perf_counter() - t0
    kb.rule("701.25", edition="2011-09-30")
    out["old_rule"] = time.perf_counter() - t0
    kb.search("予示")
    out["with_search"] = time.perf_counter() - t0
    t = time.perf_counter(); view = kb.graph_view(); view.graph; out["graph_view"] = time.perf_counter() - t
    out["graph_size"] = view.stats()
    lookups = {}
    for label, number, edition in (("current", "601.2c", None), ("old edition", "711.2b", "2011-09-30")):
        times = []
        for _ in range(200):
            t = time.perf_counter(); kb.rule(number, edition=edition); times.append((time.perf_counter() - t) * 1000)
        lookups[label] = sorted(times)
    out["lookups"] = lookups
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(mode: str, home: Path, paths: list[Path]) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, mode, str(home), *map(str, paths)],
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        sys.exit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    data = config.shared_data_dir()
    files = sorted([*data.glob("cr-en-*.txt"), *data.glob("cr-archive/cr-en-*.txt")])
    newest = max(files, key=lambda p: p.name)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = run("build", tmp / "base", [])
        full = run("build", tmp / "full", [data])
        warm = run("build", tmp / "full", [data])
        n = len(files)
        print(f"{'build':<44} {'seconds':>8} {'peak MB':>8}")
        print(f"{'rules_src only (baseline)':<44} {base['seconds']:8.2f} {base['peak_mb']:8.0f}")
        print(f"{f'everything, cold cache ({n} EN editions + JA)':<44} {full['seconds']:8.2f} {full['peak_mb']:8.0f}"
              f"   target < 60 s, < 1 GB: {verdict(full['seconds'] < 60 and full['peak_mb'] < 1024)}")
        print(f"{'everything again, warm cache':<44} {warm['seconds']:8.2f} {warm['peak_mb']:8.0f}")
        per = (full["seconds"] - base["seconds"]) / n
        print(f"cost per edition (cold): {per:.2f} s = {per / max(base['seconds'], 1e-9):.2f}x the baseline build")
        print("phases of the cold build (s):  " + ", ".join(f"{k} {v:.1f}" for k, v in full["phases"].items()))
        # one new edition: a home whose snapshot and cache hold every edition but the newest
        others = tmp / "others"
        others.mkdir()
        for f in files:
            if f != newest:
                shutil.copy(f, others / f.name)
        for extra in [p for p in data.glob("cr-ja-*.txt")] + [data / "cards"]:
            (shutil.copytree if extra.is_dir() else shutil.copy)(extra, others / extra.name)
        run("build", tmp / "grow", [others])
        shutil.copy(newest, others / newest.name)
        grown = run("build", tmp / "grow", [others])
        print(f"{'adding ' + newest.name + ' to the others':<44} {grown['seconds']:8.2f} {grown['peak_mb']:8.0f}"
              f"   target < 10 s: {verdict(grown['seconds'] < 10)}")
        loads = [run("load", tmp / "full", []) for _ in range(args.repeat)]
        print(f"\nload of the full snapshot, {args.repeat} fresh processes (seconds; p50 / p99 / max):")
        for key, label in (("load", "snapshot loaded"), ("first_rule", "+ first rule (all its history)"),
                           ("old_rule", "+ a 2011 rule"), ("with_search", "+ search index"),
                           ("graph_view", "NetworkX view built")):
            vals = [x[key] for x in loads]
            print(f"  {label:<32} {statistics.median(vals):6.3f} / {pct(vals, 99):6.3f} / {max(vals):6.3f}")
        print(f"  load target < 1 s: {verdict(statistics.median(x['load'] for x in loads) < 1)}; "
              f"peak memory {max(x['peak_mb'] for x in loads):.0f} MB; view {loads[0]['graph_size']['nodes']} nodes, "
              f"{loads[0]['graph_size']['edges']} edges")
        for label in ("current", "old edition"):
            times = loads[-1]["lookups"][label]
            print(f"  kb.rule warm, {label:<12} p50 {pct(times, 50):.3f} ms  p99 {pct(times, 99):.3f} ms")


if __name__ == "__main__":
    main()
