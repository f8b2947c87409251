"""The official CR editions the citation checker consults (which edition a date means when it is
not loaded): kb.sources.official's list, the shipped one unless ``use`` names another. Without a
list, only the loaded editions are known, and the checker says that it cannot tell whether editions
it does not hold came in between.
"""
from __future__ import annotations

from pathlib import Path

import kb.sources.editions as editions
from kb.sources.official import LIST_PATH, OfficialList, load

_chosen: Path | None = None
_cache: dict[Path, OfficialList] = {}


def use(path: Path | str | None) -> None:
    """Read the official list from ``path`` from now on (None: the shipped list)."""
    global _chosen
    _chosen = Path(path) if path else None


def official() -> OfficialList:
    """The official list in use; an empty one when none is there."""
    path = _chosen or LIST_PATH
    if path not in _cache:
        _cache[path] = load(None if path == LIST_PATH else path) if path.is_file() else OfficialList("", ())
    return _cache[path]


def held(model) -> editions.Editions:
    """The loaded EN editions, each with its effective date and its file date."""
    return editions.loaded((info["edition"], info.get("file_date")) for info in model.editions.values()
                           if info["lang"] == "en")
