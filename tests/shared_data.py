"""Helpers the tests share (not fixtures, not tests): the shared CR data, its newest editions, a
snapshot built from given sources. The fixtures built on them are in tests/conftest.py."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from kb import config as settings


def require_data() -> Path:
    """The shared data folder; without it the suite stops with one clear line (never a mass skip)."""
    path = settings.shared_data_dir()
    if not any(path.glob("cr-en-*.txt")):
        pytest.exit(f"the shared CR data is missing: no cr-en-*.txt in {path} (set MTG_KB_DATA)", returncode=2)
    return path


@functools.cache
def newest_en_sources(n: int) -> tuple:
    """The ``n`` newest English CRs in the shared data (newest first), recognised by content as
    `kb build` does, so tests follow a new edition without being rewritten."""
    from kb.sources.files import classify
    found = [s for p in sorted(require_data().glob("cr-en-*.txt")) if (s := classify(p)) and s.format == "cr-en"]
    return tuple(sorted(found, key=lambda s: s.edition_hint, reverse=True)[:n])


def newest_en_source():
    return newest_en_sources(1)[0]


def build_kb(home: Path, paths: list[Path]):
    from kb.build import pipeline
    from kb.lookup.kb import KB
    from kb.sources.files import discover
    pipeline.build(discover(paths, settings.rules_src_dir()), home / "snapshots")
    return KB.load(home)
