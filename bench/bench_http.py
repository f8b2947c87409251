"""HTTP throughput and p50/p99 latency with wrk on 127.0.0.1, against a trivial Flask JSON view as
the ceiling, both served by the same gunicorn configuration (server.serve.gunicorn_options).

    python bench/bench_http.py                 # the built snapshot (kb build / KB.ensure), 5 s runs
    python bench/bench_http.py --tiny          # the server tests' tiny corpus (no full CR needed)
    python bench/bench_http.py -d 5 -c 10 -t 2 --workers 2

Measured: rule lookup (GET /api/rules/601.2c), mechanic page (GET /mechanics/予示, HTML), search
(GET /api/search?q=manifest), ask (POST /api/ask/day-night with a JSON situation, via a wrk Lua
script). Each target run is paired with a ceiling run just before it (the
machine may be shared), repeated ``--repeat`` times; the median ratio is printed. The app keeps finished GET answers per
process (server/cache.py), so the same lookups are also measured on a second instance with the
cache off, rule lookups there spread at random over every rule of the current edition. Target: rule lookup >= 70% of the
ceiling's requests/s and p99 < 15 ms at 10 connections.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ASK_BODY = {"event": "untap-step", "designation": "day", "previous_turn_spells": []}
TARGETS = [
    ("rule lookup", "GET", "/api/rules/601.2c", None),
    ("mechanic page", "GET", "/mechanics/" + quote("予示"), None),
    ("search", "GET", "/api/search?q=manifest", None),
    ("ask", "POST", "/api/ask/day-night", ASK_BODY),
]


def ceiling_app():
    """The trivial Flask JSON view: the most a Flask view can do under this gunicorn config."""
    from flask import Flask, jsonify

    app = Flask("ceiling")

    @app.get("/json")
    def hello():
        return jsonify({"hello": "world"})

    return app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rule_paths(home: str, env: dict) -> list[str]:
    """Every rule number of the current EN edition, as API paths (read through the kb API)."""
    code = ("import json, sys; from pathlib import Path; from kb.lookup.kb import KB\n"
            f"kb = KB.load(Path({home!r}))\n"
            "numbers, todo = [], ['1','2','3','4','5','6','7','8','9']\n"
            "while todo:\n"
            "    n = todo.pop(); r = kb.rule(n)\n"
            "    if r: numbers.append(n); todo.extend(r['children'])\n"
            "print(json.dumps(sorted(numbers)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return [f"/api/rules/{n}" for n in json.loads(out.stdout)]


def _start(kind: str, port: int, workers: int, home: str | None, env: dict) -> subprocess.Popen:
    code = ("import sys; sys.path.insert(0, %r)\n" % str(REPO)
            + "from server.serve import serve\n"
            + ("from bench.bench_http import ceiling_app\n"
               f"serve('127.0.0.1', {port}, {workers}, app_factory=ceiling_app)\n" if kind == "ceiling" else
               f"serve('127.0.0.1', {port}, {workers}, home={home!r})\n"))
    return subprocess.Popen([sys.executable, "-c", code], cwd=REPO, env=env, start_new_session=True)


def _wait(url: str, proc: subprocess.Popen, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                response.read()
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"no answer from {url} within {timeout} s")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3}


def _ms(value: str) -> float:
    found = re.fullmatch(r"([\d.]+)(us|ms|s)", value.strip())
    return float(found[1]) * UNITS[found[2]]


def parse_wrk(output: str) -> dict:
    """Requests/s, p50 and p99 (ms), requests, non-2xx/3xx and socket errors from ``wrk --latency``."""
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1])
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", output, re.M)[1])
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", output, re.M)[1])
    requests = int(re.search(r"(\d+) requests in", output)[1])
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: (.*)", output)
    return {"rps": rps, "p50_ms": p50, "p99_ms": p99, "requests": requests,
            "non_2xx": int(bad[1]) if bad else 0, "socket_errors": errors[1] if errors else ""}


def run_wrk(url: str, method: str, body, duration: int, connections: int, threads: int,
            paths: list[str] | None = None) -> dict:
    """One bounded wrk run. ``paths``: GET a random one of these per request (a Lua script)."""
    args = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "5s"]
    script = None
    if method != "GET" or paths:
        script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
        if paths:
            listed = ",\n".join(json.dumps(p) for p in paths)
            script.write(f"local paths = {{\n{listed}\n}}\n"
                         "math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))\n"
                         "request = function() return wrk.format(\"GET\", paths[math.random(#paths)]) end\n")
        else:
            payload = json.dumps(body).replace("\\", "\\\\").replace('"', '\\"')
            script.write(f'wrk.method = "{method}"\nwrk.body = "{payload}"\n'
                         'wrk.headers["Content-Type"] = "application/json"\n')
        script.close()
        args += ["-s", script.name]
    try:
        output = subprocess.run(args + [url], capture_output=True, text=True, check=True,
                                timeout=duration + 30).stdout
    finally:
        if script:
            os.unlink(script.name)
    return parse_wrk(output)


def _median_pair(pairs: list[tuple[dict, dict]]) -> dict:
    """The run whose ratio to its paired ceiling is the median; with the ceiling's numbers."""
    pairs = sorted(pairs, key=lambda p: p[1]["rps"] / p[0]["rps"])
    top, got = pairs[len(pairs) // 2]
    return dict(got, ratio=got["rps"] / top["rps"], ceiling_rps=top["rps"], ceiling_p50_ms=top["p50_ms"],
                ceiling_p99_ms=top["p99_ms"], ratios=[round(g["rps"] / t["rps"], 3) for t, g in pairs])


def _check(url: str, method: str, body) -> None:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        if response.status != 200:
            raise SystemExit(f"{method} {url} answered {response.status}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-d", "--duration", type=int, default=5)
    parser.add_argument("-c", "--connections", type=int, default=10)
    parser.add_argument("-t", "--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="ceiling/target pairs per target (median ratio)")
    parser.add_argument("--home", help="MTG_KB_HOME with the snapshot (default: kb.config.home_dir())")
    parser.add_argument("--tiny", action="store_true", help="use the server tests' tiny corpus")
    parser.add_argument("--json", action="store_true", help="print the results as JSON too")
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed")

    env = dict(os.environ)
    cleanup = None
    if args.tiny:
        from tests.server.test_server_fixtures import write_corpus

        cleanup = Path(tempfile.mkdtemp(prefix="mtg-kb-bench-http-"))
        env["MTG_KB_DATA"] = str(write_corpus(cleanup / "data"))
        home = str(cleanup / "home")
    else:
        from kb import config as settings

        home = args.home or str(settings.home_dir())
    env["MTG_KB_HOME"] = home

    results = {}
    procs = []
    try:
        ceiling_port, app_port = _free_port(), _free_port()
        ceiling = _start("ceiling", ceiling_port, args.workers, None, env)
        procs.append(ceiling)
        app = _start("app", app_port, args.workers, home, env)
        procs.append(app)
        _wait(f"http://127.0.0.1:{ceiling_port}/json", ceiling)
        _wait(f"http://127.0.0.1:{app_port}/api/editions", app)
        cold_port = _free_port()  # the same app with its response cache off
        cold = _start("app", cold_port, args.workers, home, dict(env, MTG_KB_RESPONSE_CACHE="0"))
        procs.append(cold)
        _wait(f"http://127.0.0.1:{cold_port}/api/editions", cold)
        paths = _rule_paths(home, env)
        for name, method, path, body in TARGETS:  # warm every worker's caches, fail early on errors
            for _ in range(args.workers * 3):
                _check(f"http://127.0.0.1:{app_port}{path}", method, body)
        print(f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s, gunicorn sync x{args.workers}, "
              f"corpus: {'tiny' if args.tiny else home}")
        ceiling_url = f"http://127.0.0.1:{ceiling_port}/json"
        runs = [(name, f"http://127.0.0.1:{app_port}{path}", method, body, None)
                for name, method, path, body in TARGETS]
        runs.append((f"rules, no cache, random of {len(paths)}", f"http://127.0.0.1:{cold_port}/", "GET", None, paths))
        runs += [(f"{name}, no cache", f"http://127.0.0.1:{cold_port}{path}", method, body, None)
                 for name, method, path, body in TARGETS[:3]]
        # The machine is shared: each target is paired with a ceiling run right before it, and the
        # pair is repeated; the ratio is the median of the per-pair ratios.
        for name, url, method, body, rotate in runs:
            pairs = []
            for _ in range(args.repeat):
                top = run_wrk(ceiling_url, "GET", None, args.duration, args.connections, args.threads)
                got = run_wrk(url, method, body, args.duration, args.connections, args.threads, rotate)
                pairs.append((top, got))
            results[name] = _median_pair(pairs)
    finally:
        for proc in procs:
            _stop(proc)
        if cleanup:
            shutil.rmtree(cleanup, ignore_errors=True)

    print(f"{'':34}{'req/s':>8}{'p50 ms':>8}{'p99 ms':>8}{'ceiling':>9}{'c p99':>7}{'ratio':>7}{'non-2xx':>8}  ratios")
    for name, r in results.items():
        print(f"{name:34}{r['rps']:>8.0f}{r['p50_ms']:>8.2f}{r['p99_ms']:>8.2f}{r['ceiling_rps']:>9.0f}"
              f"{r['ceiling_p99_ms']:>7.2f}{r['ratio']:>7.0%}{r['non_2xx']:>8}  {r['ratios']} {r['socket_errors']}")
    rule = results["rule lookup"]
    ok = rule["ratio"] >= 0.7 and rule["p99_ms"] < 15 and all(r["non_2xx"] == 0 for r in results.values())
    print(f"target (rule lookup >= 70% of ceiling, p99 < 15 ms, no errors): {'met' if ok else 'NOT met'} "
          f"({rule['ratio']:.0%}, p99 {rule['p99_ms']:.2f} ms)")
    if args.json:
        print(json.dumps(results, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
