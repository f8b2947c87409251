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


@pytest.fixture(scope="session")
def full_home(tmp_path_factory, data_dir) -> Path:
    """A snapshot of rules_src + every file in ../shared/data, built once per test session: with
    pytest-xdist, the first worker builds it in the run's shared temporary folder while the others
    wait on a lock, then all of them read the same snapshot (tests only read it). With
    MTG_KB_TEST_FULL_HOME set, the snapshot is built there once and reused by later runs: for a
    developer whose change does not touch the build (delete the folder after one that does)."""
    if os.environ.get("MTG_KB_TEST_FULL_HOME"):  # a developer's snapshot kept between runs (never in CI)
        shared = Path(os.environ["MTG_KB_TEST_FULL_HOME"])
        shared.mkdir(parents=True, exist_ok=True)
    elif not os.environ.get("PYTEST_XDIST_WORKER"):
        home = tmp_path_factory.mktemp("full-kb")
        build_kb(home, [data_dir])
        return home
    else:
        shared = tmp_path_factory.getbasetemp().parent  # one folder per run, common to its workers
    home = shared / "full-kb"
    with open(shared / "full-kb.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released by the kernel if the builder dies
        if not (shared / "full-kb.built").exists():
            shutil.rmtree(home, ignore_errors=True)  # a half build left by a crashed worker
            build_kb(home, [data_dir])
            (shared / "full-kb.built").touch()
    return home


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
    return "full_home" in item.fixturenames or bool(callspec and callspec.params.get("book") == "kb")
