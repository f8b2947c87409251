"""Hostile requests against a running ``kb serve`` (issue 14, item 2 and 6): the answer and its time
for each, whether the service goes on answering right after, and the workers' memory before/after.

    python bench/bench_hostile.py                # the built snapshot (every edition)
    python bench/bench_hostile.py --tiny
    python bench/bench_hostile.py --only SERVICE  # the cases whose name contains this

The SPARQL cases are the tests' catalogue (tests/server/hostile.py HOSTILE: 150
and 500 chained patterns, 5 000 nested parentheses, a 110 KB query, an 859 KiB INSERT, ORDER BY
over a cross product, SERVICE/FROM, an unknown function, garbage ...); the HTTP cases are 1 MiB
for the citation checker, JSON nested 1 000 deep, a malformed chunked body, a Host header aimed at
a redirect, and a cache-busting parameter. Baselines measured in the same run: a trivial SPARQL
``ASK`` and a rule lookup. Each case: status and error code, time, the time of a rule lookup just
after (the service still answers), and whether the answer is acceptable (a 4xx/503 where one is
due, never a 500, no Host echoed, time bounded by the SPARQL deadline).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.serving import free_port, start, stop, wait, workers_memory  # noqa: E402
from tests.server.hostile import HOSTILE  # noqa: E402  (one catalogue)

DEEP = "[" * 1000 + "]" * 1000


def _http(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
          timeout: float = 90) -> tuple[int, dict, bytes, float]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method,
                                     headers=headers or {})
    started = time.monotonic()

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read(), time.monotonic() - started
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read(), time.monotonic() - started
    except OSError as exc:
        return 0, {}, str(exc).encode(), time.monotonic() - started


def _raw(port: int, data: bytes, timeout: float = 30) -> tuple[int, dict, bytes, float]:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except TimeoutError:
            pass
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, {}, answer.split(b"\r\n\r\n", 1)[-1], time.monotonic() - started


def _code(body: bytes) -> str:
    try:
        return json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return ""


def cases(rule: str) -> list[tuple[str, callable, callable]]:
    """(name, send(port) -> (status, headers, body, seconds), acceptable(status, headers, code))."""
    sparql = {"Content-Type": "application/sparql-query"}
    out = []
    for name, (query, status, code) in sorted(HOSTILE.items()):
        def send(port, query=query):
            return _http(port, "POST", "/sparql", query.encode("utf-8", "surrogatepass"), sparql)

        if status is None:  # stopped by the memory cap or the deadline, whichever first
            ok = (lambda s, h, c: (s, c) in ((400, "query_failed"), (503, "query_timeout")))
        else:
            ok = (lambda s, h, c, status=status, code=code: (s, c) == (status, code))
        out.append((f"sparql: {name}", send, ok))
    out.append(("sparql: 'service' inside a string",
                lambda p: _http(p, "POST", "/sparql", b'SELECT * WHERE { ?s ?p "a service" } LIMIT 1', sparql),
                lambda s, h, c: s == 200))
    json_type = {"Content-Type": "application/json"}
    big = json.dumps({"text": "CR 601.2c applies. " * 55_000}).encode()  # ~1 MiB
    out += [
        ("citations: 1 MiB text", lambda p: _http(p, "POST", "/api/citations/check", big, json_type),
         lambda s, h, c: s == 413),
        ("citations: JSON nested 1000 deep", lambda p: _http(p, "POST", "/api/citations/check", DEEP.encode(), json_type),
         lambda s, h, c: (s, c) == (400, "invalid_json")),
        ("ask: JSON nested 1000 deep", lambda p: _http(p, "POST", "/api/ask/day-night", DEEP.encode(), json_type),
         lambda s, h, c: (s, c) == (400, "invalid_json")),
        ("ask: malformed chunked body", lambda p: _raw(
            p, b"POST /api/ask/day-night HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
         lambda s, h, c: s == 400),
        ("redirect with Host: evil.example", lambda p: _http(p, "GET", "/api", headers={"Host": "evil.example"}),
         lambda s, h, c: s == 308 and "evil" not in h.get("Location", "")),
        ("rule with a cache-busting parameter", lambda p: _http(p, "GET", f"/api/rules/{rule}?_={time.time_ns()}"),
         lambda s, h, c: s == 200),
    ]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--home", help="the KB home with the snapshot (default: kb.config.home_dir())")
    parser.add_argument("--tiny", action="store_true", help="use the server tests' tiny corpus")
    parser.add_argument("--only", help="run only the cases whose name contains this")
    args = parser.parse_args(argv)
    env, cleanup = dict(os.environ), None
    if args.tiny:
        from tests.server.corpus import write_corpus

        cleanup = Path(tempfile.mkdtemp(prefix="mtg-kb-bench-hostile-"))
        env["MTG_KB_DATA"] = str(write_corpus(cleanup / "data"))
        home = str(cleanup / "home")
    else:
        from kb import config as settings

        home = args.home or str(settings.home_dir())
    port = free_port()
    proc = start("app", port, args.workers, home, env)
    rows, rule = [], "601.2c"
    try:
        wait(f"http://127.0.0.1:{port}/api/editions", proc)
        before = workers_memory(proc)
        ask = min(_http(port, "POST", "/sparql", b"ASK { ?s ?p ?o }",
                        {"Content-Type": "application/sparql-query"})[3] for _ in range(5))
        lookup = min(_http(port, "GET", f"/api/rules/{rule}?lang=en")[3] for _ in range(5))
        for name, send, acceptable in cases(rule):
            if args.only and args.only.lower() not in name.lower():
                continue
            status, headers, body, seconds = send(port)
            after_status, _, _, after = _http(port, "GET", "/api/rules/601.2c", timeout=30)
            code = _code(body)
            ok = acceptable(status, headers, code) and status != 500 and after_status == 200
            rows.append((name, status, code, seconds, after, ok))
        memory = workers_memory(proc)
    finally:
        stop(proc)
        if cleanup:
            shutil.rmtree(cleanup, ignore_errors=True)

    print(f"{args.workers} gthread workers, corpus: {'tiny' if args.tiny else home}")
    print(f"baselines in this run: SPARQL ASK {ask * 1000:.1f} ms, rule lookup {lookup * 1000:.1f} ms (best of 5)")
    print(f"{'case':46}{'status':>7}  {'code':20}{'time ms':>9}{'lookup after':>13}  ok")
    for name, status, code, seconds, after, ok in rows:
        print(f"{name[:46]:46}{status:>7}  {code[:20]:20}{seconds * 1000:>9.0f}{after * 1000:>13.1f}  "
              f"{'yes' if ok else 'NO'}")
    print(f"workers' memory: RSS {before['rss_mib']:.0f} -> {memory['rss_mib']:.0f} MiB, PSS {before['pss_mib']:.0f}"
          f" -> {memory['pss_mib']:.0f} MiB ({memory['processes']} processes)")
    bad = [r[0] for r in rows if not r[5]]
    print(f"every answer acceptable and the service kept answering: {'yes' if not bad else 'NO: ' + ', '.join(bad)}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
