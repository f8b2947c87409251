"""Where things live. One place for every path the code, tests and benchmarks use."""
from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def shared_data_dir() -> Path:
    """The full public CR texts and card data (never committed). MTG_KB_DATA overrides."""
    return Path(os.environ.get("MTG_KB_DATA", REPO_ROOT.parent / "shared" / "data"))


def rules_src_dir() -> Path:
    """The built-in corpus shipped with the repo (the user's seed documents + manifest)."""
    return Path(os.environ.get("MTG_KB_RULES_SRC", REPO_ROOT / "rules_src"))


def home_dir() -> Path:
    """Snapshots and fetched CR files. MTG_KB_HOME overrides (tests use a temp dir)."""
    return Path(os.environ.get("MTG_KB_HOME", REPO_ROOT / "var"))


def snapshot_root() -> Path:
    return home_dir() / "snapshots"


def fetch_dir() -> Path:
    return home_dir() / "fetched"
