"""The SPARQL query process of a worker (server.sparql.local): why it did not start, said plainly."""
from __future__ import annotations

import subprocess
import sys

import pytest

from kb.errors import QueryFailed, SnapshotDamaged
from server.sparql import local
from server.sparql.local import LocalRunner


def test_a_store_that_cannot_be_opened_is_named_with_the_exit_status(tmp_path):
    """A damaged snapshot (issue 40.6): 503 naming the snapshot and store/, never the absolute path."""
    runner = LocalRunner(tmp_path / "snap-x" / "store", 1 << 28)
    try:
        with pytest.raises(SnapshotDamaged) as raised:
            runner.start()
    finally:
        runner.close()
    message = raised.value.message
    assert raised.value.status == 503 and str(tmp_path) not in message
    assert message == ("snapshot snap-x: store/ could not be opened by the SPARQL query process (exit status 1; "
                       "its error is in the log above); run `kb build` to write a new one")


def test_a_helper_stopped_before_it_was_ready_says_so_not_that_the_store_failed(monkeypatch, tmp_path):
    """A stop sent to a whole process group (Ctrl-C, systemd) reaches the helper as its worker boots."""
    real = subprocess.Popen

    def stopped_at_once(args, **kwargs):
        return real([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"], **kwargs)
    monkeypatch.setattr(local.subprocess, "Popen", stopped_at_once)
    runner = LocalRunner(tmp_path / "store", 1 << 28)
    try:
        with pytest.raises(QueryFailed) as raised:
            runner.start()
    finally:
        runner.close()
    assert raised.value.message == "the SPARQL query process was stopped by SIGTERM before it was ready"
