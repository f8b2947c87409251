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

import shutil
import socket
import subprocess
import sys
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
    """``oxigraph serve-read-only`` on ``store``; ``url`` is its query URL once the constructor returns."""

    def __init__(self, store: Path, timeout_s: float):
        self.store = Path(store)
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}/query"
        try:
            self.proc = subprocess.Popen(
                [binary(), "serve-read-only", "--location", str(self.store), "--bind", f"127.0.0.1:{port}",
                 "--union-default-graph", "--timeout-s", str(max(1, round(timeout_s)))],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as exc:
            raise RuntimeError(f"could not start the SPARQL server ({binary()}): {exc}") from None
        self._wait_ready()

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

    def stop(self) -> str:
        """Stop the process (if it still runs); what it wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        err = self.proc.stderr.read() if self.proc.stderr else b""
        if self.proc.stderr:
            self.proc.stderr.close()
        return err.decode("utf-8", "replace").strip()


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
