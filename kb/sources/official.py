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
from bisect import bisect_right
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

LIST_PATH = Path(__file__).with_name("official_editions.json")
_CAPTURE = re.compile(r"Wayback capture: (\S+)")
_WAYBACK = re.compile(r"^(https?://web\.archive\.org/web/\d+)/(\S+)$")


@dataclass(frozen=True, slots=True)
class OfficialEdition:
    effective: str  # YYYY-MM-DD
    file_date: str  # YYYY-MM-DD
    url: str | None
    sha256: str | None
    notes: str

    @property
    def archived_url(self) -> str | None:
        """The archived copy named in the notes ("Wayback capture: URL"), if any; a Wayback
        Machine capture is asked for its exact bytes (``id_``), not the archive's HTML frame."""
        found = _CAPTURE.search(self.notes)
        if not found:
            return None
        wayback = _WAYBACK.match(found[1])
        return f"{wayback[1]}id_/{wayback[2]}" if wayback else found[1]

    def dates(self) -> tuple[str, ...]:
        return (self.effective,) if self.file_date == self.effective else (self.effective, self.file_date)

    def to_dict(self) -> dict:
        return {"effective": self.effective, "file_date": self.file_date, "url": self.url,
                "sha256": self.sha256, "notes": self.notes}


@dataclass(frozen=True, slots=True)
class OfficialList:
    source: str
    editions: tuple[OfficialEdition, ...]  # sorted by effective date

    def find(self, day: str | date) -> OfficialEdition | None:
        """The edition whose effective date or file date is ``day``."""
        day = _iso(day)
        return next((e for e in self.editions if day in (e.effective, e.file_date)), None)

    def in_force(self, day: str | date) -> OfficialEdition | None:
        """The edition in force on ``day``: the last one effective on or before it (None before the first)."""
        index = bisect_right([e.effective for e in self.editions], _iso(day))
        return self.editions[index - 1] if index else None

    def around(self, day: str | date) -> tuple[OfficialEdition | None, OfficialEdition | None]:
        """The nearest editions effective on or before ``day`` and strictly after it."""
        effective = [e.effective for e in self.editions]
        index = bisect_right(effective, _iso(day))
        return (self.editions[index - 1] if index else None,
                self.editions[index] if index < len(self.editions) else None)

    def newest(self) -> OfficialEdition:
        return self.editions[-1]

    def __bool__(self) -> bool:
        return bool(self.editions)

    def following(self, edition: str) -> OfficialEdition | None:
        """The first edition effective after ``edition``."""
        return next((e for e in self.editions if e.effective > edition), None)

    def preceding(self, edition: str) -> OfficialEdition | None:
        """The last edition effective before ``edition``."""
        earlier = [e for e in self.editions if e.effective < edition]
        return earlier[-1] if earlier else None

    def near(self, on: str, before_days: int, after_days: int) -> list[OfficialEdition]:
        """Editions effective from ``before_days`` before ``on`` to ``after_days`` after it."""
        day = date.fromisoformat(on)
        return [e for e in self.editions
                if -before_days <= (date.fromisoformat(e.effective) - day).days <= after_days]

    def between(self, a: str, b: str) -> list[OfficialEdition]:
        """Editions effective strictly between two dates."""
        return [e for e in self.editions if a < e.effective < b]


def _iso(day: str | date) -> str:
    if isinstance(day, date):
        return day.isoformat()
    text = str(day).strip()
    if re.fullmatch(r"\d{8}", text):
        text = f"{text[:4]}-{text[4:6]}-{text[6:]}"
    return date.fromisoformat(text).isoformat()  # ValueError for anything else


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
    editions.sort(key=lambda e: e.effective)
    return OfficialList(document.get("source", ""), tuple(editions))


def load(path: Path | None = None) -> OfficialList:
    """The list at ``path``; the shipped one (read once per process) by default."""
    return _shipped() if path is None else parse(json.loads(Path(path).read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def _shipped() -> OfficialList:
    return parse(json.loads(LIST_PATH.read_text(encoding="utf-8")))
