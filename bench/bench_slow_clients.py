"""Slow and idle clients beside normal load (issue 14, item 3): does any request wait?

    python bench/bench_slow_clients.py               # the built snapshot; 16 idle + 16 trickling
    python bench/bench_slow_clients.py --tiny -d 5 --idle 32 --trickling 32
    python bench/bench_slow_clients.py --no-sync     # skip the gunicorn sync-worker comparison

For each server (``kb serve``'s gthread workers, and for comparison the same app on gunicorn's sync
workers, the model the issue measured), in the same run: normal load alone (the baseline: wrk,
10 connections, random rules and searches), then the same load while ``--idle`` connections are
open and send nothing and ``--trickling`` ones send a request head one byte every 0.5 s.
Printed: req/s, p50/p99/max, errors, requests answered (0: the server stalled for the whole run), the workers' memory before/after, and how many slow
connections the server closed (gthread drops a request whose head has not arrived within
server.serve.REQUEST_READ_TIMEOUT). Target: with the slow clients, max < 1 s and no errors.
"""
from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.serving import free_port, run_wrk, start, status_of, stop, wait, workers_memory  # noqa: E402

PATHS = [f"/api/rules/{n}" for n in ("100.1", "601.2c", "702.2b", "704.5a", "302.6", "509.1", "117.3a")] + [
    f"/api/search?q={quote(q)}" for q in ("manifest", "予示", "priority", "優先権")] + ["/api/editions"]
HEAD = b"GET /api/rules/601.2c HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n\r\n"


class SlowClients:
    """``idle`` connections that send nothing, ``trickling`` ones that send HEAD a byte at a time."""

    def __init__(self, port: int, idle: int, trickling: int):
        self.port, self.closed, self.refused = port, 0, 0
        self.idle = [self._connect() for _ in range(idle)]
        self.trickling = [self._connect() for _ in range(trickling)]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._trickle, daemon=True)
        self._thread.start()

    def _connect(self):
        try:
            return socket.create_connection(("127.0.0.1", self.port), timeout=5)
        except OSError:
            self.refused += 1
            return None

    def _trickle(self):
        sent = 0
        while not self._stop.wait(0.5):
            byte = HEAD[sent % len(HEAD): sent % len(HEAD) + 1]
            sent += 1
            for i, s in enumerate(self.trickling):
                if s is None:
                    continue
                try:
                    s.sendall(byte)
                except OSError:  # the server dropped it (read deadline)
                    self.closed += 1
                    s.close()
                    self.trickling[i] = None

    def close(self) -> dict:
        self._stop.set()
        self._thread.join()
        idle_closed = 0
        for s in self.idle:
            if s is None:
                continue
            s.setblocking(False)
            try:
                idle_closed += s.recv(1) == b""  # the server closed it
            except BlockingIOError:
                pass
            except OSError:
                idle_closed += 1
            s.close()
        for s in self.trickling:
            if s is not None:
                s.close()
        return {"idle_closed_by_server": idle_closed, "trickling_closed_by_server": self.closed,
                "refused": self.refused}


def measure(kind: str, label: str, home: str, env: dict, args, **gunicorn) -> list[dict]:
    port = free_port()
    proc = start(kind, port, args.workers, home, env, **gunicorn)
    rows = []
    try:
        wait(f"http://127.0.0.1:{port}/api/editions", proc)
        base = f"http://127.0.0.1:{port}/"
        paths = [p for p in PATHS if status_of(base.rstrip("/") + p) == 200]  # what this corpus has
        before = workers_memory(proc)
        alone = run_wrk(base, args.duration, args.connections, args.threads, paths=paths)
        rows.append(dict(alone, server=label, phase="normal load alone (baseline)"))
        slow = SlowClients(port, args.idle, args.trickling)
        time.sleep(0.5)
        loaded = run_wrk(base, args.duration, args.connections, args.threads, paths=paths)
        closed = slow.close()
        after = workers_memory(proc)
        rows.append(dict(loaded, server=label, phase=f"+ {args.idle} idle, {args.trickling} trickling",
                         memory_before=before, memory_after=after, **closed))
    finally:
        stop(proc)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-d", "--duration", type=int, default=10)
    parser.add_argument("-c", "--connections", type=int, default=10, help="normal load's connections")
    parser.add_argument("-t", "--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--idle", type=int, default=16)
    parser.add_argument("--trickling", type=int, default=16)
    parser.add_argument("--home", help="the KB home with the snapshot (default: kb.config.home_dir())")
    parser.add_argument("--tiny", action="store_true", help="use the server tests' tiny corpus")
    parser.add_argument("--no-sync", action="store_true", help="skip gunicorn's sync workers (the old model)")
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed")
    env, cleanup = dict(os.environ), None
    if args.tiny:
        from tests.server.corpus import write_corpus

        cleanup = Path(tempfile.mkdtemp(prefix="mtg-kb-bench-slow-"))
        env["MTG_KB_DATA"] = str(write_corpus(cleanup / "data"))
        home = str(cleanup / "home")
    else:
        from kb import config as settings

        home = args.home or str(settings.home_dir())
    try:
        rows = measure("app", "gthread (kb serve)", home, env, args)
        if not args.no_sync:
            rows += measure("app", "sync (before)", home, env, args, worker_class="sync", threads=1)
    finally:
        if cleanup:
            shutil.rmtree(cleanup, ignore_errors=True)

    print(f"wrk -c{args.connections} -t{args.threads} -d{args.duration}s, random rules and searches, "
          f"{args.workers} workers, corpus: {'tiny' if args.tiny else home}")
    print(f"{'server':20}{'phase':34}{'req/s':>7}{'p50 ms':>8}{'p99 ms':>8}{'max ms':>8}{'errors':>7}{'answered':>9}")
    for r in rows:
        print(f"{r['server']:20}{r['phase']:34}{r['rps']:>7.0f}{r['p50_ms']:>8.1f}{r['p99_ms']:>8.1f}"
              f"{r['max_ms']:>8.0f}{r['non_2xx'] + r['socket_errors']:>7}{r['requests']:>9}")
    for r in rows:
        if "memory_before" in r:
            b, a = r["memory_before"], r["memory_after"]
            print(f"{r['server']:20}workers RSS {b['rss_mib']:.0f} -> {a['rss_mib']:.0f} MiB, PSS {b['pss_mib']:.0f}"
                  f" -> {a['pss_mib']:.0f} MiB; slow connections closed by the server: idle "
                  f"{r['idle_closed_by_server']}/{args.idle}, trickling {r['trickling_closed_by_server']}/"
                  f"{args.trickling}; refused {r['refused']}")
    served = rows[1]
    ok = served["requests"] > 0 and served["max_ms"] < 1000 and served["non_2xx"] + served["socket_errors"] == 0
    print(f"target (gthread with slow clients: max < 1 s, no errors): {'met' if ok else 'NOT met'} "
          f"(max {served['max_ms']:.0f} ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
