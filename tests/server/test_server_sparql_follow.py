"""``kb serve --sparql-server`` (``server.serve.serve(sparql_server=True)``): the master runs an
Oxigraph server on the snapshot's store and the workers answer ``/sparql`` through it; after a build
switches CURRENT, ``/sparql`` answers from the new snapshot's store — each answer from the snapshot
its ``X-KB-Snapshot`` names — and the old snapshot's server is stopped once the old workers are gone.
Everything on loopback."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from kb import vocab
from tests.server.corpus import editions, write_corpus

REPO = Path(__file__).resolve().parents[2]
COUNT = f"SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE {{ ?e a <{vocab.MTG.Edition}> }}"


def _port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _editions_by_sparql(port: int, deadline: float, proc) -> tuple[str, int]:
    url = f"http://127.0.0.1:{port}/sparql?" + urllib.parse.urlencode({"query": COUNT})
    request = urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"})
    while True:
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                body = json.loads(response.read())
                return response.headers["X-KB-Snapshot"], int(body["results"]["bindings"][0]["n"]["value"])
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"no SPARQL answer: {proc.poll()=}") from None
            time.sleep(0.2)


def _build(data: Path, home: Path) -> None:
    env = dict(os.environ, MTG_KB_DATA=str(data), MTG_KB_HOME=str(home))
    built = subprocess.run([sys.executable, "-c", "from kb.cli import run; run()", "build", "-q"], cwd=REPO,
                           env=env, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr


def test_the_managed_sparql_server_follows_current(tmp_path):
    data = write_corpus(tmp_path / "data")
    aside = tmp_path / "aside"
    aside.mkdir()
    held_back = sorted(editions())[0]  # the first build lacks one EN edition; the second adds it
    shutil.move(data / held_back, aside / held_back)
    home = tmp_path / "home"
    _build(data, home)
    port = _port()
    env = dict(os.environ, MTG_KB_DATA=str(data), MTG_KB_HOME=str(home))
    code = f"from server.serve import serve; serve('127.0.0.1', {port}, 2, sparql_server=True, graceful_timeout=3)"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        old = (home / "snapshots" / "CURRENT").read_text().strip()
        snapshot, before = _editions_by_sparql(port, time.monotonic() + 180, proc)
        assert snapshot == old and before >= 2
        shutil.move(aside / held_back, data / held_back)
        _build(data, home)
        new = (home / "snapshots" / "CURRENT").read_text().strip()
        assert new != old
        seen, deadline = [], time.monotonic() + 90
        while time.monotonic() < deadline:
            snapshot, count = _editions_by_sparql(port, time.monotonic() + 10, proc)
            assert (snapshot, count) in ((old, before), (new, before + 1))  # one snapshot per answer
            seen.append(snapshot)
            if seen[-10:] == [new] * 10:
                break
            time.sleep(0.05)
        assert seen[-10:] == [new] * 10
        time.sleep(8)  # graceful_timeout + 2 s: the old snapshot's SPARQL server is then stopped
        assert _editions_by_sparql(port, time.monotonic() + 10, proc) == (new, before + 1)
        # the Oxigraph child dies (as an OOM kill would): the master starts it again (issue 40.2)
        found = subprocess.run(["pgrep", "-f", f"serve-read-only --location {home / 'snapshots' / new / 'store'}"],
                               capture_output=True, text=True).stdout.split()
        assert len(found) == 1
        os.kill(int(found[0]), signal.SIGKILL)
        assert _editions_by_sparql(port, time.monotonic() + 30, proc) == (new, before + 1)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            _, err = proc.communicate()
    log = err.decode("utf-8", "replace")
    assert f"SPARQL server of {old}" in log and f"SPARQL server of {new}" in log
    assert f"stopped the SPARQL server of {old}" in log, log[-2000:]
    assert f"SPARQL server of {new} (pid {found[0]}) is gone" in log and "restarted as pid" in log, log[-2000:]
    leftover = subprocess.run(["pgrep", "-f", f"serve-read-only --location {home}"], capture_output=True, text=True)
    assert leftover.stdout.strip() == ""  # no Oxigraph process outlives the service
