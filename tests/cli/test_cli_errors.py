"""The CLI's errors and states (issue 40.5, 40.6): every --json error in the documented shape, bad
input exits 2 and not found 3 whether or not a snapshot exists, a missing/damaged snapshot is one
line and exit 1, bad arguments are never "internal error", and no command turns a missing CURRENT
into pruned snapshots."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kb.store import snapshot
from tests.server.corpus import tiny_kb

REPO = Path(__file__).resolve().parents[2]
BIG = "1" + "0" * 5000


def kb(home: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """`kb ARGS` as a user runs it (kb.cli.run: the program's own error path, no test runner in between)."""
    env = dict(os.environ, MTG_KB_HOME=str(home))
    return subprocess.run([sys.executable, "-c", "from kb.cli import run; run()", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)


def error_of(result: subprocess.CompletedProcess) -> dict:
    error = json.loads(result.stdout)["error"]
    assert set(error) >= {"status", "code", "message", "suggestions"}
    return error


@pytest.fixture()
def home_copy(tmp_path) -> Path:
    """A copy of the tiny corpus's home (one snapshot) that a test may damage."""
    copy = tmp_path / "home"
    shutil.copytree(tiny_kb()[2], copy, ignore=shutil.ignore_patterns(".build.lock", "cache"))
    return copy


@pytest.mark.parametrize("args", [("rule", "601.2c"), ("search", "manifest"), ("editions",), ("mechanic", "manifest"),
                                  ("history", "601.2c"), ("ask", "day-night"), ("card", "Meddling Mage")])
def test_no_snapshot_is_the_documented_json_error_and_exit_1(tmp_path, args):
    result = kb(tmp_path / "empty", *args, "--json")
    error = error_of(result)
    assert result.returncode == 1 and (error["status"], error["code"]) == (503, "no_snapshot")
    assert result.stderr.strip() == f"kb: {error['message']}" and "kb build" in error["message"]


def test_bad_input_is_exit_2_even_without_a_snapshot(tmp_path):
    result = kb(tmp_path / "empty", "rule", "abc", "--json")
    assert result.returncode == 2 and error_of(result)["code"] == "invalid_rule_number"
    assert kb(tmp_path / "empty", "history", "abc").returncode == 2
    asked = kb(tmp_path / "empty", "ask", "cast", "--situation", '{"x": ' + BIG + "}", "--json")
    assert asked.returncode == 2 and error_of(asked)["field"] == "x"


def test_check_citations_reads_a_bounded_amount(tmp_path):
    result = kb(tmp_path / "empty", "check-citations", "/dev/zero", "--json")
    assert result.returncode == 2 and error_of(result)["code"] == "payload_too_large"
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def test_a_corrupt_current_is_one_line_and_the_json_shape(home_copy):
    (home_copy / "snapshots" / "CURRENT").write_text("garbage", encoding="utf-8")
    result = kb(home_copy, "rule", "601.2c", "--json")
    assert result.returncode == 1 and error_of(result)["code"] == "unavailable"
    assert result.stderr.count("\n") == 1 and "does not name a snapshot" in result.stderr


@pytest.mark.parametrize("args, message", [
    (("path", "601.2c", "601.2d", "--limit", "-1"), "limit=-1: expected 1..20 paths"),
    (("export", "-o", "/nonexistent/d/x"), "-o /nonexistent/d/x: no folder /nonexistent/d"),
    (("fetch", "--rules-page", "not a url"), "--rules-page 'not a url': expected an http(s) URL"),
    (("rule", "601.2c", "--edition", "2026-13-45"), "expected an effective date YYYY-MM-DD"),
    (("mechanic", "x" * 100_000), "a mechanic name is at most 200 characters"),
    (("card", "x" * 100_000), "a card name is at most 200 characters"),
])
def test_bad_arguments_exit_2_with_their_message(args, message):
    result = kb(tiny_kb()[2], *args)
    assert result.returncode == 2 and message in result.stderr, result.stderr[-300:]
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("damage, args, message", [
    ("model.marshal", ("rule", "601.2c"), "model.marshal is damaged"),
    ("search.bin", ("search", "manifest"), "search.bin is damaged"),
    ("store", ("export", "--format", "nt"), "store/ is missing"),
])
def test_a_damaged_snapshot_is_one_line_exit_1_and_503_in_json(home_copy, damage, args, message):
    """Issue 40.6: a truncated model.marshal printed "Aborted!", a truncated search.bin a traceback."""
    current = snapshot.current(home_copy / "snapshots")
    if damage == "store":
        shutil.rmtree(current / "store")
    else:
        path = current / damage
        path.write_bytes(path.read_bytes()[:1000])
    result = kb(home_copy, *args)
    assert result.returncode == 1 and result.stderr.startswith(f"kb: snapshot {current.name}: {message}")
    assert result.stderr.count("\n") == 1 and "Aborted" not in result.stderr and str(home_copy) not in result.stderr
    if "--format" not in args:
        as_json = kb(home_copy, *args, "--json")
        assert as_json.returncode == 1 and error_of(as_json)["code"] == "unavailable"


def test_serve_with_current_missing_refuses_and_keeps_the_snapshots(home_copy):
    root = home_copy / "snapshots"
    kept = sorted(p.name for p in root.glob("snap-*"))
    (root / "CURRENT").unlink()
    result = kb(home_copy, "serve", "--port", "1", timeout=60)
    assert result.returncode == 1 and "has no CURRENT but holds 1 snapshot(s)" in result.stderr
    assert f"the newest {kept[-1]}: write that name into CURRENT" in result.stderr
    assert sorted(p.name for p in root.glob("snap-*")) == kept


def test_a_build_with_current_missing_prunes_nothing(home_copy):
    root = home_copy / "snapshots"
    before = sorted(p.name for p in root.glob("snap-*"))
    (root / "CURRENT").unlink()
    built = kb(home_copy, "build", str(tiny_kb()[1]), "-q")
    assert built.returncode == 0, built.stderr
    after = sorted(p.name for p in root.glob("snap-*"))
    assert set(before) < set(after) and len(after) == len(before) + 1  # the user's snapshot is still there
