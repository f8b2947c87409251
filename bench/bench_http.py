"""HTTP load test with wrk on 127.0.0.1: the app beside a trivial Flask JSON view (the baseline,
the most a Flask view can do), both served by the same gunicorn configuration
(server.serve.gunicorn_options), measured in the same run.

    python bench/bench_http.py                       # the built snapshot (every edition), 64 and 256 connections
    python bench/bench_http.py --tiny -d 3 --repeat 1 -c 64
    python bench/bench_http.py --home /tmp/kb-home --workers 2 --json

Targets: rule lookup (GET /api/rules/601.2c), mechanic page (GET /mechanics/予示, HTML), search
(GET /api/search?q=manifest), ask (POST /api/ask/day-night, via a wrk Lua script) and a mix of
random rules, searches, mechanic pages and editions. The cached runs hit the app's per-process
answer cache (server/cache.py); the uncached ones go to a second instance with the cache off, as a
user's first visit does, and each request picks at random from many different URLs (every rule of
the current edition, every mechanic page, the search benches' queries, the reasoning bench's
questions of every type), so no per-KB memo of one rule or page stands in for the work; 601.2c
(34 editions of history) and 予示 are also measured alone; the searches are also run split into
keyword lookups and questions (a question also runs the question retriever).
Each target run follows its own baseline run (the machine may be shared), repeated ``--repeat``
times; the pair with the median ratio is printed: req/s, p50/p99/max, errors (non-2xx + socket),
and the workers' memory before and after all runs. Targets (issue 14): uncached rule lookup >= 60%
of the baseline's req/s, uncached mechanic page >= 30%, uncached search >= 30%, ask >= 60%; no errors.
Posted questions are also printed against the trivial view's POST form answering the same bodies
from the same wrk script (what reading a body costs gunicorn and wrk is then in both); the targets
are judged on the GET baseline, as the issue states them.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.serving import (free_port, run_wrk, server_cpu, start, status_of, stop, wait,  # noqa: E402
                           workers_memory)

ASK_BODY = {"event": "untap-step", "designation": "day", "previous_turn_spells": []}
MECHANIC = "/mechanics/" + quote("予示")
TARGETS = [
    ("rule lookup", "GET", "/api/rules/601.2c", None),
    ("mechanic page", "GET", MECHANIC, None),
    ("search", "GET", "/api/search?q=manifest", None),
    ("ask", "POST", "/api/ask/day-night", ASK_BODY),
]
MIX_EXTRA = [f"/api/search?q={quote(q)}" for q in ("manifest", "予示", "ward", "呪禁", "day night", "昼夜",
                                                   "priority", "優先権", "combat damage", "戦闘ダメージ")] + [
    "/mechanics/" + quote(m) for m in ("予示", "manifest", "ward", "day-night", "昼夜")] + ["/api/editions"]
GOALS = {"rules, uncached": 0.6, "mechanic pages, uncached": 0.3, "searches, uncached": 0.3, "questions": 0.6}


def _goal(level: dict, goal_name: str) -> dict:
    """The run a goal is judged on (its name is the run's name up to the count)."""
    return next(r for name, r in level.items() if name.split(" (")[0] == goal_name)


def _mechanic_paths(home: str, env: dict) -> list[str]:
    import subprocess
    code = ("import json; from pathlib import Path; from kb.lookup.kb import KB\n"
            f"kb = KB.load(Path({home!r}))\n"
            "print(json.dumps(sorted(kb.model.mechanics)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return ["/mechanics/" + quote(k) for k in json.loads(out.stdout)]


def _search_paths() -> list[str]:
    queries = []
    for name in ("search_queries.json", "search_queries_ja.json"):
        queries += [q["q"] for q in json.loads((REPO / "bench" / name).read_text(encoding="utf-8"))["queries"]]
    return [f"/api/search?q={quote(q)}" for q in dict.fromkeys(queries)]


def _question_paths(paths: list[str]) -> set[str]:
    """The search paths whose query reads as a question (kb.search.retrieval.is_question: what the
    question retriever also answers)."""
    from urllib.parse import unquote

    from kb.search.retrieval import is_question
    return {p for p in paths if is_question(unquote(p.split("q=", 1)[1]))}


def _questions() -> list[tuple]:
    from bench.bench_reasoning import QUESTIONS
    return [("POST", f"/api/ask/{key}", situation) for key, situation in QUESTIONS.values() if situation]


def _rule_paths(home: str, env: dict) -> list[str]:
    """Every rule number of the current EN edition, as API paths (read through the kb API)."""
    import subprocess
    code = ("import json; from pathlib import Path; from kb.lookup.kb import KB\n"
            f"kb = KB.load(Path({home!r}))\n"
            "numbers, todo = [], ['1','2','3','4','5','6','7','8','9']\n"
            "while todo:\n"
            "    n = todo.pop(); r = kb.rule(n)\n"
            "    if r: numbers.append(n); todo.extend(r['children'])\n"
            "print(json.dumps(sorted(numbers)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return [f"/api/rules/{n}" for n in json.loads(out.stdout)]


def _answering(base: str, paths: list[str]) -> list[str]:
    """The paths the app answers with 200 (a corpus may lack some mechanic or search word)."""
    return [p for p in paths if status_of(base + p) == 200]


def _posted_ceiling(paths: list | None) -> list | None:
    """For a run of posted questions: the same bodies posted to the trivial view (its POST form),
    so that what gunicorn and wrk spend on a body is in the baseline too. Printed beside the GET
    ratio the targets are judged on."""
    posts = [p for p in paths or () if not isinstance(p, str)]
    return [("POST", "/json", body) for _method, _path, body in posts] if posts else None


def _measured(proc, url: str, *wrk_args, **wrk_kwargs) -> dict:
    """One wrk run, with the server's CPU time per request during it (``cpu_ms``)."""
    before = server_cpu(proc)
    got = run_wrk(url, *wrk_args, **wrk_kwargs)
    got["cpu_ms"] = (server_cpu(proc) - before) / max(1, got["requests"]) * 1000
    return got


def _median_pair(pairs: list[tuple[dict, dict]]) -> dict:
    """The run whose ratio to its paired baseline is the median, with the baseline's numbers."""
    pairs = sorted(pairs, key=lambda p: p[1]["rps"] / p[0]["rps"])
    top, got = pairs[len(pairs) // 2]
    return dict(got, ratio=got["rps"] / top["rps"], base_rps=top["rps"], base_p50_ms=top["p50_ms"],
                base_p99_ms=top["p99_ms"], base_max_ms=top["max_ms"],
                base_errors=top["non_2xx"] + top["socket_errors"], base_cpu_ms=top["cpu_ms"],
                ratios=[round(g["rps"] / t["rps"], 3) for t, g in pairs])


def _table(connections: int, results: dict) -> None:
    print(f"\n{connections} connections{'':30}{'req/s':>7}{'p50':>7}{'p99':>7}{'max':>7}{'err':>5}{'cpu':>6}"
          f" | {'base':>6}{'p50':>6}{'p99':>6}{'max':>7}{'err':>4}{'cpu':>6} |{'ratio':>6}  ratios (ms; cpu: server"
          f" CPU ms a request)")
    for name, r in results.items():
        print(f"  {name:44}{r['rps']:>7.0f}{r['p50_ms']:>7.1f}{r['p99_ms']:>7.1f}{r['max_ms']:>7.0f}"
              f"{r['non_2xx'] + r['socket_errors']:>5}{r['cpu_ms']:>6.2f} | {r['base_rps']:>6.0f}{r['base_p50_ms']:>6.1f}"
              f"{r['base_p99_ms']:>6.1f}{r['base_max_ms']:>7.0f}{r['base_errors']:>4}{r['base_cpu_ms']:>6.2f} |"
              f"{r['ratio']:>6.0%}  {r['ratios']}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-d", "--duration", type=int, default=5)
    parser.add_argument("-c", "--connections", default="64,256", help="comma-separated: one table each")
    parser.add_argument("-t", "--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="baseline/target pairs per target (median ratio)")
    parser.add_argument("--home", help="the KB home with the snapshot (default: kb.config.home_dir())")
    parser.add_argument("--tiny", action="store_true", help="use the server tests' tiny corpus")
    parser.add_argument("--json", action="store_true", help="print the results as JSON too")
    parser.add_argument("--only", help="comma-separated words: only the runs whose name has one of them")
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed")
    levels = [int(c) for c in args.connections.split(",")]

    import os
    env = dict(os.environ)
    cleanup = None
    if args.tiny:
        from tests.server.corpus import write_corpus

        cleanup = Path(tempfile.mkdtemp(prefix="mtg-kb-bench-http-"))
        env["MTG_KB_DATA"] = str(write_corpus(cleanup / "data"))
        home = str(cleanup / "home")
    else:
        from kb import config as settings

        home = args.home or str(settings.home_dir())

    results: dict = {"connections": {}, "memory": {}}
    procs = {}
    try:
        ports = {kind: free_port() for kind in ("ceiling", "app", "uncached")}
        procs["ceiling"] = start("ceiling", ports["ceiling"], args.workers, None, env)
        procs["app"] = start("app", ports["app"], args.workers, home, env)  # builds the snapshot if none
        wait(f"http://127.0.0.1:{ports['ceiling']}/json", procs["ceiling"])
        wait(f"http://127.0.0.1:{ports['app']}/api/editions", procs["app"])
        procs["uncached"] = start("uncached", ports["uncached"], args.workers, home, env)
        wait(f"http://127.0.0.1:{ports['uncached']}/api/editions", procs["uncached"])
        base = {kind: f"http://127.0.0.1:{port}" for kind, port in ports.items()}
        with urllib.request.urlopen(base["app"] + "/api/editions", timeout=10) as response:
            editions = len(json.loads(response.read())["editions"])
        rules = _rule_paths(home, env)
        mix = rules[:: max(1, len(rules) // 200)] + _answering(base["app"], MIX_EXTRA)
        mechanics = _answering(base["app"], _mechanic_paths(home, env))
        searches = _answering(base["app"], _search_paths())
        questions = [q for q in _questions() if status_of(base["app"] + q[1], q[0], q[2]) == 200]
        for _name, method, path, body in TARGETS:  # fail early on errors
            if status_of(base["app"] + path, method, body) != 200:
                raise SystemExit(f"{method} {path} did not answer 200")
        results["memory"]["before"] = {kind: workers_memory(procs[kind]) for kind in ("app", "uncached")}
        print(f"wrk -t{args.threads} -d{args.duration}s, gunicorn gthread x{args.workers}, {editions} editions, "
              f"corpus: {'tiny' if args.tiny else home}; baseline: trivial Flask JSON view, same config")
        runs = [(name, base["app"] + path, method, body, None) for name, method, path, body in TARGETS]
        runs.append((f"mix of {len(mix)} (cache hits after 1st)", base["app"] + "/", "GET", None, mix))
        runs += [(f"{name}, uncached, one URL", base["uncached"] + path, method, body, None)
                 for name, method, path, body in TARGETS[:3]]
        for name, paths in (("rules, uncached", rules), ("mechanic pages, uncached", mechanics),
                            ("searches, uncached", searches), ("questions", questions)):
            runs.append((f"{name} (random of {len(paths)})", base["uncached"] + "/", "GET", None, paths))
        # The search goal is judged on all of them; split, they show where a search's cost lies (a
        # question also runs the question retriever).
        asked = _question_paths(searches)
        for name, paths in (("keywords", [p for p in searches if p not in asked]), ("questions", asked)):
            runs.append((f"searches, uncached: {name} (random of {len(paths)})", base["uncached"] + "/", "GET",
                         None, paths))
        runs.append((f"mix of {len(mix)}, uncached", base["uncached"] + "/", "GET", None, mix))
        if args.only:
            words = args.only.split(",")
            runs = [r for r in runs if any(w in r[0] for w in words)]
        for connections in levels:
            level = results["connections"][connections] = {}
            for name, url, method, body, paths in runs:
                pairs = []
                posted = _posted_ceiling(paths)
                served_by = procs[next(k for k, b in base.items() if url.startswith(b + "/"))]
                for _ in range(args.repeat):
                    top = _measured(procs["ceiling"], base["ceiling"] + "/json", args.duration, connections,
                                    args.threads)
                    got = _measured(served_by, url, args.duration, connections, args.threads, method, body, paths)
                    if posted:  # the same bodies posted to the trivial view, driven by the same script
                        got["posted_base_rps"] = run_wrk(base["ceiling"] + "/", args.duration, connections,
                                                         args.threads, paths=posted)["rps"]
                    pairs.append((top, got))
                level[name] = _median_pair(pairs)
            _table(connections, level)
            for name, r in level.items():
                if "posted_base_rps" in r:
                    print(f"  {name}: {r['rps'] / r['posted_base_rps']:.0%} of the trivial view answering the same "
                          f"posted bodies ({r['posted_base_rps']:.0f} req/s in that run; it is "
                          f"{r['posted_base_rps'] / r['base_rps']:.0%} of the GET baseline)")
        results["memory"]["after"] = {kind: workers_memory(procs[kind]) for kind in ("app", "uncached")}
    finally:
        for proc in procs.values():
            stop(proc)
        if cleanup:
            shutil.rmtree(cleanup, ignore_errors=True)

    print("\nworker memory (MiB, all workers of an instance; PSS counts pages shared since the fork once)")
    for kind in ("app", "uncached"):
        before, after = results["memory"]["before"][kind], results["memory"]["after"][kind]
        print(f"  {kind:9} {before['processes']} processes: RSS {before['rss_mib']:.0f} -> {after['rss_mib']:.0f}, "
              f"PSS {before['pss_mib']:.0f} -> {after['pss_mib']:.0f}, largest RSS {before['max_rss_mib']:.0f}"
              f" -> {after['max_rss_mib']:.0f}")
    ok = True
    for connections, level in results["connections"].items():
        errors = sum(r["non_2xx"] + r["socket_errors"] for r in level.values())
        judged = {name: _goal(level, name) for name in GOALS if any(n.split(" (")[0] == name for n in level)}
        met = [f"{name} {r['ratio']:.0%} (>= {GOALS[name]:.0%})" + ("" if r["ratio"] >= GOALS[name] else " NOT met")
               for name, r in judged.items()]
        ok &= errors == 0 and len(judged) == len(GOALS) and all(r["ratio"] >= GOALS[n] for n, r in judged.items())
        print(f"targets at {connections} connections: {'; '.join(met)}; errors {errors}")
    if args.json:
        print(json.dumps(results, indent=2, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
