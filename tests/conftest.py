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
