"""Where things live: one settings object, read from the environment once per command (or made
explicitly by tests and the app factory), never at import time.

Environment (read by ``Settings.from_environment``): MTG_KB_DATA (the shared CR texts and card
data, default ../shared/data), MTG_KB_RULES_SRC (the built-in corpus, default rules_src/),
MTG_KB_HOME (snapshots and fetched files, default var/), MTG_KB_SPARQL_ENDPOINT (a SPARQL server
to read RDF from instead of the embedded store).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Settings:
    data_dir: Path
    rules_src: Path
    home: Path
    sparql_endpoint: str | None = None

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if env is None else env
        return cls(data_dir=Path(env.get("MTG_KB_DATA") or REPO_ROOT.parent / "shared" / "data"),
                   rules_src=Path(env.get("MTG_KB_RULES_SRC") or REPO_ROOT / "rules_src"),
                   home=Path(env.get("MTG_KB_HOME") or REPO_ROOT / "var"),
                   sparql_endpoint=env.get("MTG_KB_SPARQL_ENDPOINT") or None)

    def with_home(self, home: Path | str) -> "Settings":
        return replace(self, home=Path(home))

    @property
    def snapshot_root(self) -> Path:
        return self.home / "snapshots"

    @property
    def fetch_dir(self) -> Path:
        return self.home / "fetched"

    @property
    def cache_dir(self) -> Path:
        """What a rebuild can reuse (dense rule vectors keyed by their text): safe to delete."""
        return self.home / "cache"

    def default_sources(self) -> list[Path]:
        """What `kb build` reads besides rules_src/: the shared data (if present) and fetched files."""
        return [p for p in (self.data_dir, self.fetch_dir) if p.is_dir()]


_current: Settings | None = None


def current() -> Settings:
    """The process's settings: those ``use`` set, else read from the environment (then kept)."""
    global _current
    if _current is None:
        _current = Settings.from_environment()
    return _current


def use(settings: Settings | None) -> Settings | None:
    """Make ``settings`` the process's settings (None: read the environment again on next use);
    returns the previous ones."""
    global _current
    previous, _current = _current, settings
    return previous


# Shorthands for the common paths of the current settings.
def shared_data_dir() -> Path:
    return current().data_dir


def rules_src_dir() -> Path:
    return current().rules_src


def home_dir() -> Path:
    return current().home


def snapshot_root() -> Path:
    return current().snapshot_root


def fetch_dir() -> Path:
    return current().fetch_dir


def cache_dir() -> Path:
    return current().cache_dir
