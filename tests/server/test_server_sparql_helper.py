"""The SPARQL query process of a worker (server.sparql.local): why it did not start, said plainly."""
from __future__ import annotations

import subprocess
import sys

import pytest

from kb.errors import QueryFailed
from server.sparql import local
from server.sparql.local import LocalRunner


def test_a_store_that_cannot_be_opened_is_named_with_the_exit_status(tmp_path):
    runner = LocalRunner(tmp_path / "no-such-store" / "store", 1 << 28)
    try:
        with pytest.raises(QueryFailed) as raised:
            runner.start()
    finally:
        runner.close()
    message = raised.value.message
    assert message.startswith("the SPARQL query process could not open the store ")
    assert str(tmp_path / "no-such-store") in message and "exit status 1" in message


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
