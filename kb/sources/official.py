"""The shipped list of official Comprehensive Rules editions (``official_editions.json``).

Each edition: ``effective`` (the header's date, the edition's key), ``file_date`` (the date in the
official file name, an alias), ``url`` (where Wizards published the .txt; ``None`` when it is lost),
``sha256`` (of the official bytes, ``None`` when unknown) and ``notes`` (where each fact comes from).
The list is what `kb fetch --history` downloads and what a citation checker consults to say that
an edition exists but is not loaded. Read once per process; pure lookups over it.
"""
from __future__ import annotations

import json
import re
from datetime import date
from functools import lru_cache
from pathlib import Path

from kb.sources.editions import Edition, Editions

LIST_PATH = Path(__file__).with_name("official_editions.json")
_CAPTURE = re.compile(r"Wayback capture: (\S+)")
_WAYBACK = re.compile(r"^(https?://web\.archive\.org/web/\d+)/(\S+)$")


class OfficialEdition(Edition):
    __slots__ = ()

    @property
    def archived_url(self) -> str | None:
        """The archived copy named in the notes ("Wayback capture: URL"), if any; a Wayback
        Machine capture is asked for its exact bytes (``id_``), not the archive's HTML frame."""
        found = _CAPTURE.search(self.notes)
        if not found:
            return None
        wayback = _WAYBACK.match(found[1])
        return f"{wayback[1]}id_/{wayback[2]}" if wayback else found[1]


class OfficialList(Editions):
    """The official editions (kb.sources.editions.Editions: found by effective or file date)."""

    def __init__(self, source: str = "", editions=()):
        super().__init__(editions)
        self.source = source


def parse(document: dict) -> OfficialList:
    """Validate and order a list document (the JSON file's shape)."""
    editions = []
    for row in document["editions"]:
        for key in ("effective", "file_date"):
            date.fromisoformat(row[key])
        if row.get("sha256") is not None and not re.fullmatch(r"[0-9a-f]{64}", row["sha256"]):
            raise ValueError(f"edition {row['effective']}: sha256 is not 64 hex digits")
        editions.append(OfficialEdition(row["effective"], row["file_date"], row.get("url"),
                                        row.get("sha256"), row.get("notes", "")))
    return OfficialList(document.get("source", ""), editions)


def load(path: Path | None = None) -> OfficialList:
    """The list at ``path``; the shipped one (read once per process) by default."""
    return _shipped() if path is None else parse(json.loads(Path(path).read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def _shipped() -> OfficialList:
    return parse(json.loads(LIST_PATH.read_text(encoding="utf-8")))
