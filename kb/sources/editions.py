"""Edition identity and choice, in one place: every part of the code that turns a date into an
edition (a CR file's name, `--edition`, `?edition=`, a text's date, the official list, the loaded
editions, the citation checker) asks this module.

An edition has two dates: its ``effective`` date (the header's, the key rules are stored under)
and its ``file_date`` (the date in the official file name, "MagicCompRules 20170707.txt", an
alias). Either finds it. ``Editions`` is a set of editions ordered by effective date with the
questions asked of it: which edition is this date (``find``), which was in force on a day
(``in_force``), the nearest before and after (``around``, ``neighbours``). ``merge`` joins the
official list with the loaded editions - one edition, matched by either date, never two - and
``disagreements`` says where the list and the loaded files differ (dates, sha256).
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace
from datetime import date
from typing import Iterable, Iterator

_COMPACT = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")


def iso_day(value: str | date) -> str:
    """"YYYY-MM-DD" for a date, "YYYY-MM-DD" or "YYYYMMDD" (full-width digits too); ValueError
    for anything else, or a day that does not exist."""
    if isinstance(value, date):
        return value.isoformat()
    m = _COMPACT.fullmatch(unicodedata.normalize("NFKC", str(value)).strip())
    if not m:
        raise ValueError(f"not a date: {value!r}")
    return date(int(m[1]), int(m[2]), int(m[3])).isoformat()


def file_day(yyyymmdd: str) -> str:
    """The ISO date of a file name's YYYYMMDD."""
    return iso_day(yyyymmdd)


@dataclass(frozen=True, slots=True)
class Edition:
    effective: str  # YYYY-MM-DD
    file_date: str  # YYYY-MM-DD (the effective date when the file name gives none)
    url: str | None = None
    sha256: str | None = None
    notes: str = ""

    def dates(self) -> tuple[str, ...]:
        return (self.effective,) if self.file_date == self.effective else (self.effective, self.file_date)

    def to_dict(self) -> dict:
        return {"effective": self.effective, "file_date": self.file_date, "url": self.url,
                "sha256": self.sha256, "notes": self.notes}


class Editions:
    """Editions ordered by effective date, found by either of their dates."""

    def __init__(self, editions: Iterable[Edition] = ()):
        self.editions: tuple[Edition, ...] = tuple(sorted(editions, key=lambda e: e.effective))
        self._effective = [e.effective for e in self.editions]
        self._by_date: dict[str, Edition] = {}
        for e in self.editions:  # an effective date wins over another edition's file date
            self._by_date.setdefault(e.file_date, e)
        self._by_date.update((e.effective, e) for e in self.editions)

    def __bool__(self) -> bool:
        return bool(self.editions)

    def __len__(self) -> int:
        return len(self.editions)

    def __iter__(self) -> Iterator[Edition]:
        return iter(self.editions)

    def effective_dates(self) -> list[str]:
        return list(self._effective)

    def find(self, day: str | date) -> Edition | None:
        """The edition whose effective date or file date is ``day``."""
        return self._by_date.get(iso_day(day))

    def key(self, day: str | date) -> str | None:
        """The effective date of the edition ``day`` names (by either date), or None."""
        found = self.find(day)
        return found.effective if found else None

    def in_force(self, day: str | date) -> Edition | None:
        """The edition in force on ``day``: the last one effective on or before it (None before the first)."""
        index = bisect_right(self._effective, iso_day(day))
        return self.editions[index - 1] if index else None

    def around(self, day: str | date) -> tuple[Edition | None, Edition | None]:
        """The nearest editions effective on or before ``day`` and strictly after it."""
        index = bisect_right(self._effective, iso_day(day))
        return (self.editions[index - 1] if index else None,
                self.editions[index] if index < len(self.editions) else None)

    def neighbours(self, day: str | date) -> tuple[Edition | None, Edition | None]:
        """The nearest editions effective strictly before and strictly after ``day``."""
        day = iso_day(day)
        lo, hi = bisect_left(self._effective, day), bisect_right(self._effective, day)
        return (self.editions[lo - 1] if lo else None, self.editions[hi] if hi < len(self.editions) else None)

    def newest(self) -> Edition:
        return self.editions[-1]

    def following(self, edition: str) -> Edition | None:
        """The first edition effective after ``edition``."""
        return self.neighbours(edition)[1]

    def preceding(self, edition: str) -> Edition | None:
        """The last edition effective before ``edition``."""
        return self.neighbours(edition)[0]

    def near(self, on: str, before_days: int, after_days: int) -> list[Edition]:
        """Editions effective from ``before_days`` before ``on`` to ``after_days`` after it."""
        day = date.fromisoformat(iso_day(on))
        return [e for e in self.editions
                if -before_days <= (date.fromisoformat(e.effective) - day).days <= after_days]

    def between(self, a: str, b: str) -> list[Edition]:
        """Editions effective strictly between two dates."""
        return [e for e in self.editions if a < e.effective < b]


def loaded(rows: Iterable[tuple[str, str | None]]) -> Editions:
    """The loaded editions from (effective, file date) pairs (a model's EN editions)."""
    return Editions(Edition(e, f or e, notes="loaded") for e, f in rows)


def merge(listed: Editions, held: Editions) -> Editions:
    """The official editions and the loaded ones as one set: a loaded edition replaces the listed
    one it matches by either date (its effective date is the key its rules are stored under; the
    list's URL and hash stay); a loaded edition the list does not know is added."""
    out: dict[str, Edition] = {e.effective: e for e in listed}
    for e in held:
        match = next((m for d in e.dates() if (m := listed.find(d))), None)
        if match is None:
            out[e.effective] = e
            continue
        out.pop(match.effective, None)
        out[e.effective] = replace(match, effective=e.effective, file_date=e.file_date)
    return Editions(out.values())


def disagreements(listed: Editions, files: Iterable[tuple[str, str | None, str | None, str]]
                  ) -> list[tuple[str, str]]:
    """Where the official list and the loaded CR files differ: ``files`` are (effective date read
    from the file, date in its name, sha256, name). One (name, message) per disagreement; none when
    the list is empty (nothing to agree with) or does not name the edition (`kb editions` shows it
    as unlisted). A local file's name need not be the official one: only the header's date and
    the bytes are compared."""
    if not listed:
        return []
    out = []
    for effective, file_date, sha256, name in files:
        match = listed.find(effective) or (listed.find(file_date) if file_date else None)
        if match is None:
            continue
        if match.effective != effective:
            out.append((name, f"effective {effective} by its header; the official list says {match.effective} "
                              f"(file date {match.file_date})"))
        if match.sha256 and sha256 and match.sha256 != sha256:
            out.append((name, f"sha256 {sha256[:12]}… differs from the official list's {match.sha256[:12]}… "
                              f"for the edition of {match.effective}"))
    return out
