"""``server.serve.serve`` (what ``kb serve`` runs): gunicorn gthread workers on 127.0.0.1 that build
the snapshot first when there is none, and Flask's dev server only with ``dev=True``."""
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
from flask import Flask

from kb import config
from server import serve as serve_module
from tests.shared_data import newest_en_source
from tests.server.corpus import write_corpus

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


def test_serve_takes_home_and_endpoint_as_settings_not_environment(monkeypatch, tmp_path):
    """--home and --sparql-endpoint become the process's kb.config settings (which the forked workers
    inherit); the environment is left as it was."""
    monkeypatch.delenv("MTG_KB_HOME", raising=False)
    monkeypatch.delenv("MTG_KB_SPARQL_ENDPOINT", raising=False)
    seen = {}

    class Runner:
        def __init__(self, factory, options, watch):
            seen.update(options=options, watch=watch)

        def run(self):
            seen["settings"] = config.current()

    monkeypatch.setattr(serve_module._Gunicorn, "make", staticmethod(Runner))
    previous = config.use(None)
    try:
        serve_module.serve(port=8123, home=tmp_path / "home", sparql_endpoint="http://127.0.0.1:7878/query",
                           app_factory=lambda: Flask("ceiling"))
    finally:
        config.use(previous)
    assert seen["settings"].home == tmp_path / "home"
    assert seen["settings"].snapshot_root == tmp_path / "home" / "snapshots"
    assert seen["settings"].sparql_endpoint == "http://127.0.0.1:7878/query"
    assert seen["options"]["bind"] == "127.0.0.1:8123"
    assert "MTG_KB_HOME" not in os.environ and "MTG_KB_SPARQL_ENDPOINT" not in os.environ


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
        err = _stop(proc)
    if not dev:  # workers leave without native aborts (server.serve._worker_exit), the master cleanly
        assert proc.returncode == 0 and b"was sent SIG" not in err and b"terminate called" not in err, err[-2000:]


@pytest.mark.parametrize("code", [0, 3])
def test_a_worker_leaves_with_its_exit_status_and_no_finalisation(tmp_path, code):
    """As gunicorn ends a worker (its SystemExit unwinding through ``finally: worker_exit``), the hook
    leaves with that status before Python's finalisation (atexit, destructors of objects the master
    opened before the fork, such as the store's RocksDB, which aborted workers now and then)."""
    from server.serve import _worker_exit
    marker = tmp_path / "finalised"
    pid = os.fork()
    if pid == 0:  # the child: what gunicorn's spawn_worker does around a worker's life
        try:
            import atexit
            atexit.register(marker.write_text, "ran")
            try:
                sys.exit(code)
            finally:
                _worker_exit(None, None)
        finally:
            os._exit(99)  # only if the hook returned
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == code and not marker.exists()


def _raw(port: int, data: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def test_gunicorn_idle_and_trickling_clients_do_not_stall_it_and_a_rebuild_moves_every_worker(tmp_path):
    """32 idle and 16 trickling connections: requests are still answered at once. Then a build
    switches CURRENT: every worker moves to the new snapshot together, each answer names one
    snapshot, and after the switch no answer comes from the old one."""
    proc, port, home = _run(tmp_path, dev=False)
    idle = []
    try:
        _get(f"http://127.0.0.1:{port}/api/editions", time.monotonic() + 180, proc)
        old = (home / "snapshots" / "CURRENT").read_text().strip()
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(32)]
        for s in idle[:16]:
            s.sendall(b"GET /api/rules/601.2c HTTP/1.1\r\nHo")  # a head that never ends
        for _ in range(20):  # each answered inside _get's deadline
            status, headers, _ = _get(f"http://127.0.0.1:{port}/api/rules/601.2c", time.monotonic() + 5, proc)
            assert status == 200 and headers["X-KB-Snapshot"] == old
        # a malformed chunked body is a 400, not a 500
        answer = _raw(port, b"POST /api/ask/day-night HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
        # what gunicorn's parser refuses is answered in the service's JSON shape, not gunicorn's HTML (40.7)
        for request, status, code in (
                (b"GET /api/rules/" + b"1" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
                (b"GET /api/rules/601.2c HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431,
                 "header_too_large"),
                (b"GARBAGE\r\n\r\n", 400, "bad_request")):
            head, _, body = _raw(port, request).partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 %d" % status) and b"Content-Type: application/json" in head, head
            error = json.loads(body)["error"]
            assert (error["status"], error["code"], error["suggestions"]) == (status, code, []) and error["message"]
        # rebuild the same sources: a new snapshot; the master notices and reloads every worker
        env = dict(os.environ, MTG_KB_DATA=str(tmp_path / "data"), MTG_KB_HOME=str(home))
        built = subprocess.run([sys.executable, "-c", "from kb.cli import run; run()", "build", "-q"], cwd=REPO,
                               env=env, capture_output=True, text=True, timeout=300)
        assert built.returncode == 0, built.stderr
        new = (home / "snapshots" / "CURRENT").read_text().strip()
        assert new != old
        seen, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline:
            _, headers, body = _get(f"http://127.0.0.1:{port}/api/rules/601.2c", time.monotonic() + 10, proc)
            seen.append(headers["X-KB-Snapshot"])
            assert body["number"] == "601.2c"
            if seen[-10:] == [new] * 10:
                break
            time.sleep(0.05)
        assert set(seen) <= {old, new} and seen[-10:] == [new] * 10
        first_new = seen.index(new)
        assert old not in seen[first_new + 2:]  # moved together: no worker left behind on the old one
        assert (home / "snapshots" / old).is_dir()  # kept: the one before the current
    finally:
        for s in idle:
            s.close()
        _stop(proc)


def test_a_worker_boots_when_its_sparql_helper_cannot_start_yet():
    """A helper that fails as the worker boots (a stop sent to the whole group stops it too) is
    logged and started again on first use; the boot does not fail (the master would halt, exit 1)."""
    from types import SimpleNamespace

    from kb.errors import QueryFailed
    from server.serve import _post_fork

    started, warnings = [], []

    def failing():
        raise QueryFailed("the SPARQL query process could not open the store")
    app = SimpleNamespace(extensions={"post_fork": [failing, lambda: started.append(True)]})
    server = SimpleNamespace(app=SimpleNamespace(wsgi=lambda: app),
                             log=SimpleNamespace(warning=lambda *args: warnings.append(args[0] % args[1:])))
    _post_fork(server, SimpleNamespace(pid=123))
    assert started == [True] and warnings == ["worker 123: the SPARQL query process could not open the store "
                                              "(tried again on first use)"]
