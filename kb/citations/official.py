"""The official CR editions, loaded or not: which edition a date means when it is not loaded.

Read from the shipped list ``kb/sources/official_editions.json`` (``{"source", "editions":
[{"effective", "file_date", "url", "sha256", "notes"}]}``, written with `kb fetch --history`), or a
list given with ``use``. Without a list, only the loaded editions are known, and the checker says
that it cannot tell whether editions it does not hold came in between.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date as Date
from pathlib import Path

DEFAULT_LIST = Path(__file__).resolve().parent.parent / "sources" / "official_editions.json"
_chosen: Path | None = None
_cache: dict[Path, "Official"] = {}


@dataclass(slots=True, frozen=True)
class Edition:
    effective: str
    file_date: str
    url: str | None = None


class Official:
    """Official editions, oldest first, each by effective date (its file date is an alias)."""

    def __init__(self, editions: list[Edition], source: str | None):
        self.editions = sorted(editions, key=lambda e: e.effective)
        self.source = source
        self._by_date = {d: e for e in self.editions for d in (e.file_date, e.effective)}

    def __bool__(self) -> bool:
        return bool(self.editions)

    def find(self, when: str) -> Edition | None:
        """The edition with that effective or file date."""
        return self._by_date.get(when)

    def in_force(self, on: str) -> Edition | None:
        before = [e for e in self.editions if e.effective <= on]
        return before[-1] if before else None

    def following(self, edition: str) -> Edition | None:
        later = [e for e in self.editions if e.effective > edition]
        return later[0] if later else None

    def preceding(self, edition: str) -> Edition | None:
        earlier = [e for e in self.editions if e.effective < edition]
        return earlier[-1] if earlier else None

    def near(self, on: str, before_days: int, after_days: int) -> list[Edition]:
        """Editions effective from ``before_days`` before ``on`` to ``after_days`` after it."""
        day = Date.fromisoformat(on)
        return [e for e in self.editions
                if -before_days <= (Date.fromisoformat(e.effective) - day).days <= after_days]

    def between(self, a: str, b: str) -> list[Edition]:
        """Editions effective strictly between two dates."""
        return [e for e in self.editions if a < e.effective < b]


def read(path: Path) -> Official:
    data = json.loads(path.read_text(encoding="utf-8"))
    editions = [Edition(e["effective"], e.get("file_date") or e["effective"], e.get("url"))
                for e in data.get("editions", []) if e.get("effective")]
    return Official(editions, data.get("source"))


def use(path: Path | str | None) -> None:
    """Read the official list from ``path`` from now on (None: the shipped list)."""
    global _chosen
    _chosen = Path(path) if path else None


def official() -> Official:
    """The official list in use; an empty one when none is shipped."""
    path = _chosen or DEFAULT_LIST
    if path not in _cache:
        _cache[path] = read(path) if path.is_file() else Official([], None)
    return _cache[path]
