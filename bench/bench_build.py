"""Build and load benchmark with every edition loaded: full build (cold and warm cache), adding one
edition, cost per edition, snapshot load, rule lookups, the NetworkX view, peak memory, and the build
with a card file the size of MTGJSON's AtomicCards (bench/big_cards.py).

    python bench/bench_build.py [--repeat 5] [--adds 3] [--no-big-cards]

Wall and CPU seconds are both printed: on a shared machine the wall time of a step is mostly
what the other processes take, while its CPU time (user+sys of the build process, its threads
included) and peak memory are its own; the load average is printed at each step.

Each measurement runs in a fresh subprocess so peak memory (ru_maxrss) is that step's own. Every
figure is printed beside its baseline measured in the same run. Targets (issue 41, on 2 cores):
the default build (rules_src + every file of ../shared/data) from scratch < 45 s and < 1.2 GB
(baseline: rules_src alone); adding one edition < 10 s (baseline: the warm rebuild); snapshot load
< 1 s (baseline: rules_src's snapshot); with the ~33k-card file < 150 s and < 1.5 GB (baseline:
the default build).
"""
from __future__ import annotations

import argparse
import json
import os
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
    phases, cpu, last = {}, {}, [t0, time.process_time(), "read sources"]
    def progress(message):
        if message.startswith("parse "):
            message = "parse"
        elif message.startswith("write RDF store"):
            message = "write RDF store"
        now, now_cpu = time.perf_counter(), time.process_time()
        phases[last[2]] = phases.get(last[2], 0) + now - last[0]
        cpu[last[2]] = cpu.get(last[2], 0) + now_cpu - last[1]
        last[:] = [now, now_cpu, message]
    final = pipeline.build(discover(paths, config.current().rules_src), home / "snapshots", progress)
    progress("end")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out = {"seconds": time.perf_counter() - t0, "cpu": usage.ru_utime + usage.ru_stime, "phases": phases,
           "cpu_phases": cpu, "store": json.loads((final / "meta.json").read_text())["store"]}
elif mode == "load-base":  # the baseline: rules_src's snapshot, loaded only (it holds no 2011 edition)
    from kb.lookup.kb import KB
    kb = KB.load(home)
    out["load"] = time.perf_counter() - t0
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
out["load_avg"] = open("/proc/loadavg").read().split()[0]
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


def phases(result: dict, kind: str = "phases") -> str:
    return ", ".join(f"{k} {v:.1f}" for k, v in result[kind].items())


def forget_store(home: Path) -> None:
    """Make the next build of ``home`` write everything but the parses and lineage pairs again, as
    every warm rebuild did before the store was kept: no store-parts.json or older editions' keys in
    the current snapshot, no cached rows, N-Triples, search tokens, stems, JA nouns, learnt word
    pairs, graph view reads, documents' term frequencies or JA alignment."""
    current = home / "snapshots" / (home / "snapshots" / "CURRENT").read_text().strip()
    (current / "store-parts.json").unlink()
    (current / "editions" / "keys.json").unlink(missing_ok=True)  # older editions' files written again too
    for kind in ("rows", "nt", "tokens", "stems", "nouns", "translations", "view", "postings", "ja-align"):
        shutil.rmtree(home / "cache" / kind, ignore_errors=True)


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


TARGETS = {"cold": (45, 1200), "add": 10, "load": 1, "big": (150, 1500)}  # seconds, MB


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--adds", type=int, default=3, help="times the one-edition add is measured")
    parser.add_argument("--no-big-cards", action="store_true", help="skip the build with the ~33k-card file")
    args = parser.parse_args()
    data = config.shared_data_dir()
    files = sorted([*data.glob("cr-en-*.txt"), *data.glob("cr-archive/cr-en-*.txt")])
    newest = max(files, key=lambda p: p.name)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = run("build", tmp / "base", [])
        full = run("build", tmp / "full", [data])
        same = run("build", tmp / "full", [data])
        forget_store(tmp / "full")
        warm = run("build", tmp / "full", [data])
        n = len(files)
        print(f"{'build':<52} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'load':>5}")

        def line(label: str, r: dict, note: str = "") -> None:
            print(f"{label:<52} {r['seconds']:7.2f} {r['cpu']:7.2f} {r['peak_mb']:8.0f} {r['load_avg']:>5}{note}")
        wall, mb = TARGETS["cold"]
        line("rules_src only (baseline)", base)
        line(f"everything, cold cache ({n} EN editions + JA)", full,
             f"   target < {wall} s, < {mb} MB: {verdict(full['seconds'] < wall and full['peak_mb'] < mb)}"
             f" (CPU {verdict(full['cpu'] < wall)})")
        line("everything again, warm parse cache, store from scratch", warm)
        line("everything again, nothing new (store kept)", same)
        per = (full["seconds"] - base["seconds"]) / n
        print(f"cost per edition (cold): {per:.2f} s = {per / max(base['seconds'], 1e-9):.2f}x the baseline build")
        print("phases of the cold build (s):  " + phases(full))
        print("phases of the warm rebuild, store from scratch (s):  " + phases(warm))
        print("  the same, CPU seconds:  " + phases(warm, "cpu_phases"))
        print("phases of the cold build, CPU seconds:  " + phases(full, "cpu_phases"))
        if not args.no_big_cards:
            big_cards(tmp, data, full)
        # one new edition: a home whose snapshot and cache hold every edition but the newest
        others = tmp / "others"
        others.mkdir()
        for f in files:
            if f != newest:
                shutil.copy(f, others / f.name)
        for extra in [p for p in data.glob("cr-ja-*.txt")] + [data / "cards"]:
            (shutil.copytree if extra.is_dir() else shutil.copy)(extra, others / extra.name)
        run("build", tmp / "others-home", [others])
        shutil.copy(newest, others / newest.name)
        grown = []
        for i in range(args.adds):  # each time from the same snapshot of the others (a hard-linked copy)
            home = tmp / f"grow-{i}"
            shutil.copytree(tmp / "others-home", home, copy_function=os.link)
            grown.append(run("build", home, [others]))
            shutil.rmtree(home)
        walls, cpus = [g["seconds"] for g in grown], [g["cpu"] for g in grown]
        print(f"\nadding {newest.name} to a snapshot of the others, {args.adds} times "
              f"(seconds; p50 / p99 / max), beside the warm rebuild of the same run:")
        print(f"  wall {statistics.median(walls):6.2f} / {pct(walls, 99):6.2f} / {max(walls):6.2f}   "
              f"CPU {statistics.median(cpus):6.2f} / {pct(cpus, 99):6.2f} / {max(cpus):6.2f}   "
              f"peak {max(g['peak_mb'] for g in grown):.0f} MB   target < {TARGETS['add']} s: "
              f"{verdict(statistics.median(walls) < TARGETS['add'])} (CPU {verdict(statistics.median(cpus) < TARGETS['add'])})")
        print(f"  = {statistics.median(walls) / warm['seconds']:.2f}x the warm rebuild's wall time "
              f"({warm['seconds']:.2f} s), {statistics.median(cpus) / warm['cpu']:.2f}x its CPU time ({warm['cpu']:.2f} s)")
        store = grown[0]["store"]
        print(f"  store: {store['parts_kept']} parts kept from the previous snapshot, {store['parts_written']} written")
        middle = sorted(grown, key=lambda g: g["seconds"])[len(grown) // 2]
        print("  phases (wall s):  " + phases(middle))
        print("  phases (CPU s):   " + phases(middle, "cpu_phases"))
        loads = [run("load", tmp / "full", []) for _ in range(args.repeat)]
        print(f"\nload of the full snapshot, {args.repeat} fresh processes (seconds; p50 / p99 / max):")
        for key, label in (("load", "snapshot loaded"), ("first_rule", "+ first rule (all its history)"),
                           ("old_rule", "+ a 2011 rule"), ("with_search", "+ search index"),
                           ("graph_view", "NetworkX view built")):
            vals = [x[key] for x in loads]
            print(f"  {label:<32} {statistics.median(vals):6.3f} / {pct(vals, 99):6.3f} / {max(vals):6.3f}")
        base_loads = [run("load-base", tmp / "base", []) for _ in range(args.repeat)]
        print(f"  baseline, rules_src's snapshot: loaded {statistics.median(x['load'] for x in base_loads):.3f}, "
              f"peak {max(x['peak_mb'] for x in base_loads):.0f} MB")
        print(f"  load target < {TARGETS['load']} s: "
              f"{verdict(statistics.median(x['load'] for x in loads) < TARGETS['load'])}; "
              f"peak memory {max(x['peak_mb'] for x in loads):.0f} MB; view {loads[0]['graph_size']['nodes']} nodes, "
              f"{loads[0]['graph_size']['edges']} edges")
        for label in ("current", "old edition"):
            times = loads[-1]["lookups"][label]
            print(f"  kb.rule warm, {label:<12} p50 {pct(times, 50):.3f} ms  p99 {pct(times, 99):.3f} ms")


def big_cards(tmp: Path, data: Path, full: dict) -> None:
    """The default build plus a card file the size of MTGJSON's AtomicCards, beside the default build."""
    from bench.big_cards import make
    folder = tmp / "big-cards"
    folder.mkdir()
    made = make(data / "cards", folder / "AtomicCards.json")
    big = run("build", tmp / "big", [data, folder])
    wall, mb = TARGETS["big"]
    print(f"\nwith a card file of {made['cards']} cards, {made['rulings']} rulings ({made['bytes'] / 2**20:.0f} MB, "
          f"renamed copies of the shipped sets: bench/big_cards.py), cold:")
    print(f"  wall {big['seconds']:.2f} s, CPU {big['cpu']:.2f} s, peak {big['peak_mb']:.0f} MB (load {big['load_avg']}); "
          f"default build of this run: wall {full['seconds']:.2f} s, CPU {full['cpu']:.2f} s, peak {full['peak_mb']:.0f} MB")
    print(f"  target < {wall} s, < {mb} MB: {verdict(big['seconds'] < wall and big['peak_mb'] < mb)} "
          f"(CPU {verdict(big['cpu'] < wall)})")
    print("  phases (CPU s):  " + phases(big, "cpu_phases"))
    shutil.rmtree(tmp / "big", ignore_errors=True)


if __name__ == "__main__":
    main()
