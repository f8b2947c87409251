"""An Oxigraph SPARQL server that ``kb serve --sparql-server`` runs and keeps on the snapshot it serves.

One ``oxigraph serve-read-only`` process (the ``oxigraph`` wheel's binary) per loaded snapshot, on a
free loopback port, started on that snapshot's store before the app that reads from it is created
(``server.serve``). When the master moves to a new snapshot it starts the new snapshot's server
first and forks the new workers with its URL; the old server is stopped only once the old workers
have finished (``graceful_timeout`` later). So every answer — lookups, ``/sparql`` and RDF — comes
from one snapshot, the one named in its ``X-KB-Snapshot`` header, and no query ever reaches a store
that CURRENT no longer names.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

START_SECONDS = 60.0


def binary() -> str:
    found = Path(sys.executable).with_name("oxigraph")
    return str(found) if found.exists() else (shutil.which("oxigraph") or "oxigraph")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ManagedServer:
    """``oxigraph serve-read-only`` on ``store``; ``url`` is its query URL once the constructor returns.

    Oxigraph's ``--timeout-s`` answers 503 but does not stop the query, which goes on computing
    (gigabytes in seconds for a cross product under ORDER BY), and nothing restarted a server that
    died. So the master supervises it (``supervise``, once a second from gunicorn's loop): a server
    whose resident memory grows more than ``memory`` bytes above what it held when it became ready
    is killed, and a server that is gone (killed by that, by the kernel's OOM killer, crashed) is
    started again on the same port, so the workers' URL stays valid; each time with a log line
    saying why. Queries cut off that way get the 503 they would have had."""

    def __init__(self, store: Path, timeout_s: float, memory: int = 512 << 20):
        self.store = Path(store)
        self.timeout_s, self.memory = timeout_s, int(memory)
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/query"
        self.restarts = 0
        self._start()

    def _start(self) -> None:
        self.errors = tempfile.TemporaryFile()  # never a pipe: a full one would block the server
        try:
            self.proc = subprocess.Popen(
                [binary(), "serve-read-only", "--location", str(self.store), "--bind", f"127.0.0.1:{self.port}",
                 "--union-default-graph", "--timeout-s", str(max(1, round(self.timeout_s)))],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.errors)
        except OSError as exc:
            raise RuntimeError(f"could not start the SPARQL server ({binary()}): {exc}") from None
        self._wait_ready()
        self.baseline = resident(self.proc.pid) or 0

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                request = urllib.request.Request(self.url, data=b"ASK {}",
                                                 headers={"Content-Type": "application/sparql-query"})
                with urllib.request.urlopen(request, timeout=2):
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    error = self.stop()
                    raise RuntimeError(f"the SPARQL server on {self.store} did not start: {error}") from None
                time.sleep(0.1)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def supervise(self, log) -> str | None:
        """Kill the server if a query took it past its memory bound; start it again if it is gone.
        Returns (and logs through ``log``) why it was restarted, or None."""
        code = self.proc.poll()
        if code is None:
            used = resident(self.proc.pid)
            if used is None or used - self.baseline <= self.memory:
                return None
            self.proc.kill()
            self.proc.wait()
            why = (f"used {used >> 20} MiB, {(used - self.baseline) >> 20} MiB over its {self.memory >> 20} MiB "
                   "bound for queries (a query outliving its timeout): killed")
        else:
            # under gunicorn the master reaps every child (its SIGCHLD handler), so the status is often lost
            why = "is gone" + (f" ({_status(code)})" if code else "") + (f": {tail}" if (tail := self._errors_tail()) else "")
        old = self.proc.pid
        self.stop()
        try:
            self._start()
        except RuntimeError as exc:
            log(f"SPARQL server of {self.store.parent.name} (pid {old}) {why}; restart failed: {exc}")
            return why
        self.restarts += 1
        log(f"SPARQL server of {self.store.parent.name} (pid {old}) {why}; restarted as pid {self.proc.pid}")
        return why

    def _errors_tail(self) -> str:
        try:
            self.errors.seek(0)
            lines = self.errors.read().decode("utf-8", "replace").splitlines()
        except (OSError, ValueError):
            return ""
        # what it said besides that it started
        return "\n".join(x for x in lines if x.strip() and not x.startswith("Listening for requests"))[-300:]

    def stop(self) -> str:
        """Stop the process (if it still runs); what it wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        err = self._errors_tail()
        try:
            self.errors.close()
        except OSError:
            pass
        return err


def resident(pid: int) -> int | None:
    """Resident memory of ``pid`` in bytes (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _status(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class Retiring:
    """Servers of snapshots the workers have left, each stopped once its deadline has passed."""

    def __init__(self):
        self._items: list[tuple[float, ManagedServer]] = []

    def add(self, server: ManagedServer, after: float) -> None:
        self._items.append((time.monotonic() + after, server))

    def stop_due(self, log=None) -> None:
        now, keep = time.monotonic(), []
        for due, server in self._items:
            if due > now:
                keep.append((due, server))
                continue
            server.stop()
            if log:
                log(f"stopped the SPARQL server of {server.store.parent.name} (pid {server.pid})")
        self._items = keep

    def stop_all(self) -> None:
        for _, server in self._items:
            server.stop()
        self._items = []
