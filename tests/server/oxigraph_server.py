"""An Oxigraph SPARQL server (the ``oxigraph`` wheel's binary) serving a snapshot's store read-only on
loopback, as server/README.md tells a deployment to start it."""
from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def binary() -> str:
    found = Path(sys.executable).with_name("oxigraph")
    return str(found) if found.exists() else (shutil.which("oxigraph") or "oxigraph")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def oxigraph_server(store: Path, timeout_s: int = 5):
    """Yield the query URL of ``oxigraph serve-read-only`` on ``store``; stopped afterwards."""
    port = _port()
    proc = subprocess.Popen([binary(), "serve-read-only", "--location", str(store), "--bind", f"127.0.0.1:{port}",
                             "--union-default-graph", "--timeout-s", str(timeout_s)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/query"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                request = urllib.request.Request(url, data=b"ASK {}", headers={"Content-Type": "application/sparql-query"})
                with urllib.request.urlopen(request, timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"oxigraph did not start: {proc.stderr.read().decode(errors='replace')}")
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
