"""Citation checking on real dated texts: extraction, edition, today's number, status.

    python bench/bench_citations.py [--home DIR] [--baseline REV] [--official FILE] [--verbose]

Runs `kb.check_citations` (what `kb check-citations` and `POST /api/citations/check` answer) on
every text of bench/citations/ with its date, and scores it against bench/citations/truth.json
(164 hand-checked citations in 11 public texts, JA and EN, 2008-2021; sources in the file).

Scoring is per cited number, matched on (line, number): a text's citation "614.12, 614.16d"
counts two numbers. Extraction recall = truth numbers found / truth numbers; precision = found
numbers that are in the truth / numbers found (the texts' near-misses - dates, prices, set and
page numbers, P/T - are what precision guards). For the numbers found: edition accuracy = the
edition the checker says the writer meant equals the truth's (an edition not loaded counts only
if the checker names it: by effective or file date of the official list); today's-number
accuracy = today's number (or none, for removed / never-existed) equals the truth's; status
accuracy = the status equals the truth's.

The same run measures the code at ``--baseline`` (default: the commit this branch started
from, `git merge-base HEAD main`), in a subprocess that imports that revision's `kb` package
(extracted with `git archive`) against the same snapshot, so both figures come from one
machine state. Latency percentiles are of one check per text.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from gitrev import run_at  # noqa: E402  (bench/ is the script's own folder)

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).with_name("citations")


def truth() -> list[dict]:
    return json.loads((DATA / "truth.json").read_text(encoding="utf-8"))["texts"]


def _aligned(value, n: int) -> list:
    return list(value) if isinstance(value, list) else [value] * n


def expected_numbers(text: dict) -> list[dict]:
    """One row per (line, number) of the truth, with the edition, today's number and status."""
    rows = []
    for c in text["citations"]:
        n = len(c["numbers"])
        for number, today, status in zip(c["numbers"], _aligned(c["today"], n), _aligned(c["status"], n)):
            rows.append({"line": c["line"], "number": number, "edition": c["edition"],
                         "today": today, "status": status, "raw": c["raw"]})
    return rows


def found_numbers(report: dict) -> list[dict]:
    """One row per number the checker reported: its line, the edition it says the writer meant,
    today's number and status (per number for citations of several numbers)."""
    rows = []
    for c in report["citations"]:
        per = c.get("resolved") or [{"number": c["numbers"][0], "status": c["status"],
                                     "current": (c.get("current") or {}).get("number")}]
        meant = c.get("edition_meant") or {}
        # the edition the checker says was meant (by either of its dates); older code: the one it used
        names = {meant.get("edition"), meant.get("file_date")} - {None} if meant else {c.get("edition")}
        for r in per:
            current = r.get("current")
            if isinstance(current, dict):
                current = current.get("number")
            if meant.get("span"):  # an undated text's reading: the loaded editions it holds in
                names = names | {"span", *meant["span"]}
            rows.append({"line": c["line"], "number": r["number"], "editions": names, "today": current,
                         "status": r["status"], "raw": c["raw"], "confidence": c.get("confidence", 1.0)})
    return rows


def score(reports: dict[str, dict], texts: list[dict], verbose: bool = False) -> dict:
    totals = dict.fromkeys(("truth", "found", "matched", "ok_edition", "ok_today", "ok_status", "sure",
                            "wrong_sure"), 0)
    for text in texts:
        want = expected_numbers(text)
        got = found_numbers(reports[text["file"]])
        free = list(range(len(got)))
        totals["truth"] += len(want)
        totals["found"] += len(got)
        for w in want:
            hit = next((i for i in free if got[i]["line"] == w["line"] and got[i]["number"] == w["number"]), None)
            if hit is None:
                if verbose:
                    print(f"  MISSED   {text['file']}:{w['line']} {w['number']} ({w['raw']})")
                continue
            free.remove(hit)
            g = got[hit]
            totals["matched"] += 1
            span = sorted(g["editions"] - {"span"}) if "span" in g["editions"] else None
            ok = (w["edition"] in g["editions"] or bool(span and span[0] <= w["edition"] <= span[-1]),
                  g["today"] == w["today"], g["status"] == w["status"])
            totals["ok_edition"] += ok[0]
            totals["ok_today"] += ok[1]
            totals["ok_status"] += ok[2]
            sure = (g["confidence"] or 0) >= 0.7  # the answer as confident as a user would take it
            totals["sure"] += sure
            totals["wrong_sure"] += sure and not ok[1]
            if verbose and not all(ok):
                print(f"  WRONG    {text['file']}:{w['line']} {w['number']}: edition {sorted(g['editions'])} "
                      f"(truth {w['edition']}), today {g['today']} ({w['today']}), status {g['status']} "
                      f"({w['status']}), confidence {g['confidence']}")
        if verbose:
            for i in free:
                print(f"  EXTRA    {text['file']}:{got[i]['line']} {got[i]['number']} ({got[i]['raw']!r})")
    m = totals["matched"] or 1
    return {"recall": totals["matched"] / totals["truth"], "precision": totals["matched"] / (totals["found"] or 1),
            "edition": totals["ok_edition"] / m, "today": totals["ok_today"] / m, "status": totals["ok_status"] / m,
            **totals}


# Dates as the texts write them (full dates, "September 2017", 「2019年9月」, a year alone in a
# title line is left: it is the era's own vocabulary, not a date the checker reads).
_DATE_WORDS = re.compile(
    r"(?:19|20)\d\d[-/.]\d{1,2}[-/.]\d{1,2}|(?:19|20)\d\d年\d{1,2}月(?:\d{1,2}日)?"
    r"|(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?(?: \d{1,2},)? (?:19|20)\d\d")


def undate(body: str) -> str:
    """The text with its dates blanked (same length, so lines and columns stay)."""
    return _DATE_WORDS.sub(lambda m: " " * len(m.group()), body)


def run_checks(home: str | None, undated: bool = False) -> tuple[dict[str, dict], list[float]]:
    from kb.lookup.kb import KB
    kb = KB.load(Path(home) if home else None)
    texts = truth()
    t0 = time.perf_counter()  # first use builds caches (titles, rule numbers, the JA reading index)
    kb.check_citations("rule 601.2a\n118.3. プレイヤーは、コストを完全に支払うために必要なリソースを持たずに"
                       "そのコストを支払うことはできない。\n", date="2020-01-22")
    print(f"first check (caches cold): {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    reports, times = {}, []
    for text in texts:
        body = (DATA / text["file"]).read_text(encoding="utf-8")
        t0 = time.perf_counter()
        reports[text["file"]] = (kb.check_citations(undate(body)) if undated
                                 else kb.check_citations(body, date=text["date"]))
        times.append(time.perf_counter() - t0)
    return reports, times


def baseline(rev: str, home: str | None, undated: bool = False) -> tuple[dict, list[float]] | None:
    """The checker at ``rev``: its kb package extracted to a temp dir, run in a subprocess."""
    out = run_at(rev, [__file__, "--emit", *(["--home", home] if home else []), *(["--undated"] if undated else [])])
    if out is None:
        return None
    if out.returncode:
        print(f"baseline {rev} failed:\n{out.stderr[-2000:]}")
        return None
    data = json.loads(out.stdout)
    return data["reports"], data["times"]


def _pct(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home", help="KB home with a built snapshot (default: the configured home)")
    ap.add_argument("--baseline", help="git revision to compare with (default: merge-base with main)")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--official", help="official editions list (default: kb/sources/official_editions.json)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--emit", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--undated", action="store_true", help=argparse.SUPPRESS)  # --emit: check without dates
    ap.add_argument("--dated-only", action="store_true", help="skip the undated run")
    args = ap.parse_args()
    if args.emit:  # the baseline subprocess: reports as JSON, nothing else
        reports, times = run_checks(args.home, args.undated)
        json.dump({"reports": reports, "times": times}, sys.stdout, default=list)
        return
    sys.path.insert(0, str(ROOT))
    from kb import config
    args.home = args.home or str(config.home_dir())
    from kb.citations import official
    if args.official:
        official.use(Path(args.official).resolve())
    listed = official.official()
    print(f"official editions list: {len(listed.editions)} editions" + (f" ({args.official or official.LIST_PATH})"
          if listed else " (none installed: editions that are not loaded are unknown)"))
    texts = truth()
    rev = None if args.no_baseline else (args.baseline or subprocess.run(
        ["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True, text=True).stdout.strip())
    rows = []
    for undated in (False,) if args.dated_only else (False, True):
        mode = "undated" if undated else "dated"
        if args.verbose:
            print(f"-- {mode}, this checkout")
        reports, times = run_checks(args.home, undated)
        rows.append((f"{mode}: this checkout", score(reports, texts, args.verbose), times))
        found = baseline(rev, args.home, undated) if rev else None
        if found:
            rows.append((f"{mode}: baseline {rev[:10]}", score(found[0], texts), found[1]))
    n = sum(len(expected_numbers(t)) for t in texts)
    print(f"{len(texts)} texts, {sum(len(t['citations']) for t in texts)} citations, {n} cited numbers"
          + ("" if args.dated_only else "; undated = the same texts with their dates blanked and no date given"))
    print(f"{'code':<30} {'recall':>7} {'precis.':>7} {'edition':>8} {'today':>7} {'status':>7}"
          f" {'found':>6} {'>=0.7':>6} {'wrong>=0.7':>10} {'p50 ms':>7} {'p90 ms':>7} {'max ms':>7}")
    for name, s, t in rows:
        print(f"{name:<30} {s['recall']:7.3f} {s['precision']:7.3f} {s['edition']:8.3f} {s['today']:7.3f}"
              f" {s['status']:7.3f} {s['found']:6d} {s['sure']:6d} {s['wrong_sure']:10d} {_pct(t, .5):7.1f}"
              f" {_pct(t, .9):7.1f} {max(t) * 1000:7.1f}")
    print("targets: recall >= 0.95 at precision >= 0.98; edition >= 0.9; today >= 0.95"
          " (edition/today/status are over the numbers found); undated: today as good as dated,"
          " no wrong today's number at confidence >= 0.7 ('>=0.7': matched numbers answered at that"
          " confidence; the baseline's confidence is the detection's, the only one it gave)")


if __name__ == "__main__":
    main()
