"""How big the citation checker's answer is for its input, and how long a large input takes.

    python bench/bench_check_size.py [--home DIR] [--baseline REV] [--sizes 0.0625,0.25,1] [--runs 3]
                                     [--budget 60]

Input: the benchmark texts of bench/citations/ (JA and EN, 2008-2021), each checked alone with
its date (what `POST /api/citations/check` gets one at a time), and all of them repeated into one
text of each of ``--sizes`` MiB, checked ``--runs`` times (what `kb check-citations` gets for a
big file). Printed: bytes out (the JSON answer, UTF-8) / bytes in, per text (median, max) and per
size, with the time per run (p50, max). The same is measured at ``--baseline`` (default: `git
merge-base HEAD main`) in a subprocess importing that revision's `kb` (extracted with `git
archive`) against the same snapshot, so both rows come from one machine state. Sizes go up in
order and stop after a run slower than ``--budget`` seconds (the checker before this bench read
each JA quote against the whole document again, so its time grew with the square of the size).
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

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).with_name("citations")


def _texts() -> list[tuple[str, str]]:
    truth = json.loads((DATA / "truth.json").read_text(encoding="utf-8"))["texts"]
    return [((DATA / t["file"]).read_text(encoding="utf-8"), t["date"]) for t in truth]


def _size(report: dict) -> int:
    return len(json.dumps(report, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def measure(home: str | None, sizes: list[float], runs: int, budget: float) -> dict:
    from kb.lookup.kb import KB
    kb = KB.load(Path(home) if home else None)
    texts = _texts()
    for body, date in texts:  # caches warm (titles, rule numbers, the JA reading index)
        kb.check_citations(body, date=date)
    ratios = [_size(kb.check_citations(body, date=date)) / len(body.encode("utf-8")) for body, date in texts]
    one = "\n\n".join(body for body, _ in texts)
    big, found = one, []
    for mib in sorted(sizes):
        while len(big.encode("utf-8")) < mib * 1024 * 1024:
            big += "\n\n" + one
        times, out, report = [], 0, {"citations": []}
        for _ in range(runs):
            t0 = time.perf_counter()
            report = kb.check_citations(big, date="2019-09-27")
            times.append(time.perf_counter() - t0)
            out = _size(report)
            if times[-1] > budget:
                break
        found.append({"mib": mib, "in": len(big.encode("utf-8")), "out": out, "times": times,
                      "citations": len(report["citations"])})
        if max(times) > budget:
            break
    return {"ratios": ratios, "sizes": found}


def baseline(rev: str, args) -> dict | None:
    out = run_at(rev, [__file__, "--emit", "--sizes", args.sizes, "--runs", str(args.runs), "--budget", str(args.budget),
                       *(["--home", args.home] if args.home else [])])
    if out is None:
        return None
    if out.returncode:
        print(f"baseline {rev} failed:\n{out.stderr[-2000:]}")
        return None
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home")
    ap.add_argument("--baseline")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--sizes", default="0.0625,0.25,1", help="MiB of input, comma-separated")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget", type=float, default=60.0, help="seconds: no larger size after a slower run")
    ap.add_argument("--emit", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.emit:
        json.dump(measure(args.home, _sizes(args.sizes), args.runs, args.budget), sys.stdout)
        return
    sys.path.insert(0, str(ROOT))
    from kb import config
    args.home = args.home or str(config.home_dir())
    rows = [("this checkout", measure(args.home, _sizes(args.sizes), args.runs, args.budget))]
    if not args.no_baseline:
        rev = args.baseline or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT,
                                              capture_output=True, text=True).stdout.strip()
        found = baseline(rev, args) if rev else None
        if found:
            rows.append((f"baseline {rev[:10]}", found))
    print("one text at a time (11 texts): bytes out / bytes in")
    print(f"{'code':<22} {'p50':>7} {'max':>7}")
    for name, r in rows:
        print(f"{name:<22} {statistics.median(r['ratios']):7.1f} {max(r['ratios']):7.1f}")
    print("one big text: size, answer, time per run")
    print(f"{'code':<22} {'in MiB':>7} {'out MiB':>8} {'out/in':>7} {'cites':>6} {'runs':>5} {'p50 s':>7} {'max s':>7}")
    for name, r in rows:
        for z in r["sizes"]:
            print(f"{name:<22} {z['in'] / 2**20:7.2f} {z['out'] / 2**20:8.2f} {z['out'] / z['in']:7.1f}"
                  f" {z['citations']:6d} {len(z['times']):5d} {statistics.median(z['times']):7.2f}"
                  f" {max(z['times']):7.2f}")
        asked = _sizes(args.sizes)
        if len(r["sizes"]) < len(asked):
            print(f"{name:<22} larger sizes not run: the last took over {args.budget:.0f} s")


def _sizes(text: str) -> list[float]:
    return [float(x) for x in text.split(",") if x.strip()]


if __name__ == "__main__":
    main()
