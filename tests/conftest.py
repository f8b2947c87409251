"""Shared fixtures. Full CR editions are read from ../shared/data (kb.config.shared_data_dir)."""
from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

import pytest

from kb import config as settings
from tests.shared_data import build_kb, require_data

pytest_plugins = ["tests.browser"]  # the headless Chromium fixtures: browser, base_url, full_url


def pytest_sessionstart(session) -> None:
    """Most tests read the shared CR data: without it the run stops at once, in one line."""
    require_data()


@pytest.fixture(autouse=True)
def settings_restored():
    """A command run in-process (click's CliRunner) takes its settings from the environment the test
    patched and keeps them: restore the process's settings after each test, so no later test (in any
    order, on any worker) reads a test's temporary data folder as the shared data."""
    previous = settings.use(None)
    settings.use(previous)
    yield
    settings.use(previous)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return require_data()


# A user's snapshot of only some editions: the 34 files ../shared/data held before its archive grew
# to 106. Tests of what the service says about an edition that is not loaded (the Gatecrash edition
# 2013-02-01, Ixalan's predecessor 2017-08-25, ...) read this one, since the full build loads them.
SPARSE_EDITIONS = (
    "20041001 20081001 20090904 20100423 20101001 20110501 20110930 20120601 20130927 20140926 "
    "20150717 20160722 20160826 20161111 20170605 20170925 20181005 20190612 20191004 20200601 "
    "20200925 20210224 20210712 20220429 20220908 20230414 20231117 20240206 20240802 20250404 "
    "20250919 20260116 20260417 20260619").split()


def _shared_home(tmp_path_factory, name: str, paths: list[Path]) -> Path:
    """A snapshot built once per test session: with pytest-xdist, the first worker builds it in the
    run's shared temporary folder while the others wait on a lock, then all of them read the same
    snapshot (tests only read it). With MTG_KB_TEST_FULL_HOME set, the snapshot is built there once
    and reused by later runs: for a developer whose change does not touch the build (delete the
    folder after one that does)."""
    if os.environ.get("MTG_KB_TEST_FULL_HOME"):  # a developer's snapshot kept between runs (never in CI)
        shared = Path(os.environ["MTG_KB_TEST_FULL_HOME"])
        shared.mkdir(parents=True, exist_ok=True)
    elif not os.environ.get("PYTEST_XDIST_WORKER"):
        home = tmp_path_factory.mktemp(name)
        build_kb(home, paths)
        return home
    else:
        shared = tmp_path_factory.getbasetemp().parent  # one folder per run, common to its workers
    home = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released by the kernel if the builder dies
        if not (shared / f"{name}.built").exists():
            shutil.rmtree(home, ignore_errors=True)  # a half build left by a crashed worker
            build_kb(home, paths)
            (shared / f"{name}.built").touch()
    return home


@pytest.fixture(scope="session")
def full_home(tmp_path_factory, data_dir) -> Path:
    """rules_src + every file in ../shared/data (106 EN editions, the JA CR, card data)."""
    return _shared_home(tmp_path_factory, "full-kb", [data_dir])


@pytest.fixture(scope="session")
def sparse_kb(tmp_path_factory, data_dir):
    """rules_src + the 34 editions of SPARSE_EDITIONS + the JA CR and card data."""
    from kb.lookup.kb import KB
    wanted = {f"cr-en-{day}.txt" for day in SPARSE_EDITIONS}
    paths = sorted(p for p in data_dir.rglob("*") if p.is_file() and (p.name in wanted or (
        not p.name.startswith("cr-en-") and p.name != "README.md")))
    assert len([p for p in paths if p.name.startswith("cr-en-")]) == len(SPARSE_EDITIONS)
    return KB.load(_shared_home(tmp_path_factory, "sparse-kb", paths))


@pytest.fixture(scope="session")
def full_kb(full_home):
    from kb.lookup.kb import KB
    return KB.load(full_home)


@pytest.fixture(scope="session")
def seed_kb(tmp_path_factory):
    """A snapshot of rules_src alone: no CR edition, only what the documents quote."""
    return build_kb(tmp_path_factory.mktemp("seed-kb"), [])


@pytest.fixture(scope="session", params=["parsed", "kb"])
def book(request):
    """Every reasoning question runs twice: on the parsed current CR with the seeds' lines as
    rulings (tests.reasoning_fixtures), and on the real KB's rulebook, whose mechanics, related
    mechanics, references and rulings come from the graph built from the same sources."""
    if request.param == "parsed":
        from tests.reasoning_fixtures import current_book
        return current_book()
    return request.getfixturevalue("full_kb").rulebook()


def pytest_collection_modifyitems(session, config, items) -> None:
    """The modules that do not need ``full_home`` first, then those that do (each module kept whole
    and in its order). With two workers (``--dist worksteal`` splits the run in halves, then moves
    the tail of a busy worker's queue to an idle one), whichever worker first needs the full snapshot
    builds it while the other keeps running tests that do not wait for it."""
    modules: dict = {}
    for item in items:
        modules.setdefault(item.module.__name__ if item.module else item.nodeid, []).append(item)
    needs = {name: any(map(_uses_full_home, group)) for name, group in modules.items()}
    items[:] = [item for name in sorted(modules, key=needs.__getitem__) for item in modules[name]]


def _uses_full_home(item) -> bool:
    callspec = getattr(item, "callspec", None)  # `book` asks for full_kb at run time with its "kb" param
    return bool({"full_home", "sparse_kb"} & set(item.fixturenames)) or bool(callspec and callspec.params.get("book") == "kb")
