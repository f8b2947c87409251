"""Shared fixtures. Full CR editions are read from ../shared/data (kb.settings.shared_data_dir)."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb import settings


@pytest.fixture(scope="session")
def data_dir() -> Path:
    path = settings.shared_data_dir()
    if not (path / "cr-en-20260417.txt").exists():
        pytest.skip(f"full CR texts not found in {path} (set MTG_KB_DATA)")
    return path


def _build_kb(home: Path, paths: list[Path]):
    from kb import snapshot
    from kb.api import KB
    from kb.sources import discover
    snapshot.build(discover(paths, settings.rules_src_dir()), home / "snapshots")
    return KB.load(home)


@pytest.fixture(scope="session")
def full_home(tmp_path_factory, data_dir) -> Path:
    """A snapshot of rules_src + every file in ../shared/data, built once per test session."""
    home = tmp_path_factory.mktemp("full-kb")
    _build_kb(home, [data_dir])
    return home


@pytest.fixture(scope="session")
def full_kb(full_home):
    from kb.api import KB
    return KB.load(full_home)


@pytest.fixture(scope="session")
def seed_kb(tmp_path_factory):
    """A snapshot of rules_src alone: no CR edition, only what the documents quote."""
    return _build_kb(tmp_path_factory.mktemp("seed-kb"), [])


@pytest.fixture(scope="session", params=["parsed", "kb"])
def book(request):
    """Every reasoning question runs twice: on the parsed current CR with the seeds' lines as
    rulings (tests.reasoning_fixtures), and on the real KB's rulebook, whose mechanics, related
    mechanics, references and rulings come from the graph built from the same sources."""
    if request.param == "parsed":
        from tests.reasoning_fixtures import current_book
        return current_book()
    return request.getfixturevalue("full_kb").rulebook()
