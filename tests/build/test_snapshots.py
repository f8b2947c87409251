"""Snapshots on disk stay safe: one build at a time, fsynced files and CURRENT, pruning that never
removes the current snapshot or one a process has loaded, killed builds cleaned up, an unreadable
CURRENT a clear error, and no build that silently replaces a graph with one of fewer CR editions."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kb import config as settings
from kb.build import pipeline
from kb.lookup.kb import KB
from kb.sources.files import discover
from kb.store import snapshot
from tests.server.corpus import editions, write_corpus

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def one_edition(tmp_path_factory) -> Path:
    """A folder holding one real EN CR excerpt (a valid CR file, quick to build)."""
    corpus = write_corpus(tmp_path_factory.mktemp("corpus"))
    folder = tmp_path_factory.mktemp("one")
    newest = editions()[0]
    (folder / newest).write_bytes((corpus / newest).read_bytes())
    return folder


@pytest.fixture(scope="module")
def two_editions(tmp_path_factory) -> Path:
    corpus = write_corpus(tmp_path_factory.mktemp("corpus2"))
    folder = tmp_path_factory.mktemp("two")
    for name in editions()[:2]:
        (folder / name).write_bytes((corpus / name).read_bytes())
    return folder


def _build(folder: Path | None, root: Path, **kwargs) -> Path:
    return pipeline.build(discover([folder] if folder else [], settings.rules_src_dir()), root, **kwargs)


def _kb(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, MTG_KB_HOME=str(home))
    return subprocess.run([sys.executable, "-c", "from kb.cli import run; run()", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


def test_concurrent_builds_run_one_at_a_time_and_leave_a_good_current(tmp_path, one_edition):
    home = tmp_path / "home"
    env = dict(os.environ, MTG_KB_HOME=str(home))
    procs = [subprocess.Popen([sys.executable, "-c", "from kb.cli import run; run()", "build", "-q", str(one_edition)],
                              cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    results = [(p.wait(timeout=600), *p.communicate()) for p in procs]
    assert [code for code, _, _ in results] == [0, 0, 0, 0], results
    errors = "".join(err for _, _, err in results)
    assert "Traceback" not in errors
    assert "waiting for it to finish" in errors  # the later ones said why they waited
    root = home / "snapshots"
    path = snapshot.current(root)
    assert path is not None and (path / "meta.json").is_file()
    built = [out.split()[1] for _, out, _ in results]  # "built snap-… in …"
    assert path.name == sorted(built)[-1]  # the last build to finish is the one in use
    assert sorted(p.name for p in root.glob("snap-*")) == sorted(built)[-2:]  # current + the one before
    assert not list(root.glob(".tmp-*"))
    assert KB.load(home).rule("601.2c")["number"] == "601.2c"


def test_a_second_build_that_will_not_wait_is_told_who_holds_the_lock(tmp_path, one_edition):
    root = tmp_path / "snapshots"
    with snapshot.build_lock(root):
        with pytest.raises(snapshot.BuildLocked, match=rf"another build \(pid {os.getpid()}\) is writing"):
            _build(one_edition, root, wait=False)
    assert snapshot.current(root) is None


def test_killed_builds_leftovers_are_removed_and_never_cost_the_current_snapshot(tmp_path, one_edition):
    root = tmp_path / "snapshots"
    first = _build(one_edition, root)
    # a build killed while writing, and one killed after its rename but before switching CURRENT
    # (named later than any real one: pruning by name order would have removed the current one)
    (root / ".tmp-999999-1" / "store").mkdir(parents=True)
    orphan = root / "snap-29991231T235959-000000"
    orphan.mkdir()
    (orphan / "meta.json").write_text("{}", encoding="utf-8")
    second = _build(one_edition, root)
    assert snapshot.current(root) == second
    assert sorted(p.name for p in root.glob("snap-*")) == sorted([first.name, second.name])
    assert not list(root.glob(".tmp-*"))


def test_pruning_never_removes_a_snapshot_a_process_has_loaded(tmp_path, one_edition):
    home = tmp_path / "home"
    root = home / "snapshots"
    first = _build(one_edition, root)
    loaded = KB.load(home)  # holds first
    second, third = _build(one_edition, root), _build(one_edition, root)
    assert {p.name for p in root.glob("snap-*")} == {first.name, second.name, third.name}
    assert loaded.rule("601.2c")["number"] == "601.2c" and loaded.store is not None
    del loaded
    import gc
    gc.collect()  # the hold is released with the KB
    fourth = _build(one_edition, root)
    assert {p.name for p in root.glob("snap-*")} == {third.name, fourth.name}


def test_files_and_current_are_fsynced_before_the_switch(tmp_path, one_edition, monkeypatch):
    synced: list[str] = []
    real = os.fsync

    def record(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real(fd)
    monkeypatch.setattr(snapshot.os, "fsync", record)
    root = tmp_path / "snapshots"
    path = _build(one_edition, root)
    names = {Path(p).name for p in synced}
    assert {"model.marshal", "search.bin", "graph.marshal", "meta.json", "CURRENT.tmp"} <= names
    assert str(root) in synced  # the folder after the rename and after the swap
    assert any(p.startswith(str(root / ".tmp-")) and "/store/" in p for p in synced)  # RocksDB files too
    assert path.exists()


def test_an_unreadable_current_is_a_clear_error(tmp_path, one_edition):
    home = tmp_path / "home"
    _build(one_edition, home / "snapshots")
    for content in (b"", b"\x00\xff\xfe garbage", b"snap-20990101T000000-000000", b"../../etc"):
        (home / "snapshots" / "CURRENT").write_bytes(content)
        with pytest.raises(snapshot.CurrentUnreadable, match="CURRENT .*run `kb build`"):
            KB.load(home)
    result = _kb(home, "rule", "601.2c")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("kb: ") and "CURRENT" in result.stderr and "kb build" in result.stderr
    served = _kb(home, "serve", "--port", "1")  # refused before gunicorn starts: nothing to serve
    assert served.returncode == 1 and "Traceback" not in served.stderr and "internal error" not in served.stderr
    assert served.stderr.startswith("kb: ") and "CURRENT" in served.stderr
    rebuilt = _kb(home, "build", "-q", str(one_edition))  # a build repairs it
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert _kb(home, "rule", "601.2c").returncode == 0


def test_a_graph_with_fewer_cr_editions_is_refused_unless_allowed(tmp_path, one_edition, two_editions):
    home = tmp_path / "home"
    root = home / "snapshots"
    good = _build(two_editions, root)
    before = json.loads((good / "meta.json").read_text(encoding="utf-8"))["editions"]
    assert len(before) == 2
    empty = tmp_path / "nothing-here"
    (empty / "notes").mkdir(parents=True)
    (empty / "notes" / "readme.md").write_text("not a CR", encoding="utf-8")
    result = _kb(home, "build", "-q", str(empty))
    assert result.returncode == 2 and "no Comprehensive Rules text or card data found there" in result.stderr
    none = _kb(home, "build", "-q", "--only-rules-src")
    assert none.returncode == 1 and "Traceback" not in none.stderr
    assert "would hold 0 CR edition(s) where the current one holds 2" in none.stderr and "--allow-fewer" in none.stderr
    fewer = _kb(home, "build", "-q", str(one_edition))
    assert fewer.returncode == 1 and "would hold 1 CR edition(s)" in fewer.stderr
    assert f"missing: {before[0]}" in fewer.stderr
    assert snapshot.current(root) == good
    allowed = _kb(home, "build", "-q", "--allow-fewer", str(one_edition))
    assert allowed.returncode == 0, allowed.stderr
    assert KB.load(home).model.editions.keys() == {before[1]}


def test_snapshot_names_sort_in_commit_order_within_one_second_and_after_a_clock_step_back(tmp_path, monkeypatch):
    root = tmp_path / "snapshots"
    root.mkdir()
    names = []
    for _ in range(5):  # well inside one second
        tmp = root / f".tmp-{len(names)}"
        tmp.mkdir()
        names.append(snapshot.commit(tmp, root, {}).name)
    assert names == sorted(names) and len(set(names)) == 5
    assert snapshot.current(root).name == names[-1]
    back = snapshot.time.time_ns() - 3600 * 10**9  # the clock set back an hour
    monkeypatch.setattr(snapshot.time, "time_ns", lambda: back)
    tmp = root / ".tmp-late"
    tmp.mkdir()
    late = snapshot.commit(tmp, root, {}).name
    assert late > names[-1] and snapshot.current(root).name == late
