"""``server.serve.serve`` (what ``kb serve`` runs): gunicorn sync workers on 127.0.0.1 that build the
snapshot first when there is none, and Flask's dev server only with ``dev=True``."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import newest_en_source
from tests.server.test_server_fixtures import write_corpus

REPO = Path(__file__).resolve().parents[2]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, deadline: float, proc: subprocess.Popen):
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status, response.headers, json.loads(response.read())
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"no answer from {url}: {proc.poll()=}") from None
            time.sleep(0.2)


def _run(tmp_path, dev: bool):
    data = write_corpus(tmp_path / "data")
    home = tmp_path / "home"
    port = _port()
    env = dict(os.environ, MTG_KB_DATA=str(data), MTG_KB_HOME=str(home))
    code = f"from server.serve import serve; serve('127.0.0.1', {port}, 2, dev={dev})"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return proc, port, home


def _stop(proc: subprocess.Popen) -> bytes:
    os.killpg(proc.pid, signal.SIGTERM)  # the session this test started (gunicorn master + workers)
    try:
        _, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
    return err


@pytest.mark.parametrize("dev", [False, True])
def test_serve_builds_the_snapshot_then_answers(tmp_path, dev):
    proc, port, home = _run(tmp_path, dev)
    try:
        status, headers, body = _get(f"http://127.0.0.1:{port}/api/rules/601.2c", time.monotonic() + 120, proc)
        assert status == 200 and body["number"] == "601.2c" and body["edition"] == newest_en_source().edition_hint
        assert (home / "snapshots" / "CURRENT").exists()  # built from the sources, none existed
        server = headers.get("Server", "")
        assert ("Werkzeug" in server) if dev else ("gunicorn" in server), server
        query = urllib.request.quote("ASK { ?s ?p ?o }")
        status, _, answer = _get(f"http://127.0.0.1:{port}/sparql?query={query}", time.monotonic() + 10, proc)
        assert answer == {"head": {}, "boolean": True}  # the forked query process works in a worker
        if not dev:
            workers = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True).stdout.split()
            assert len(workers) >= 3  # the master and two workers
    finally:
        _stop(proc)
