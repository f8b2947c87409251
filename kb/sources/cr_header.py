"""What makes a text a Comprehensive Rules file: its title and effective-date line (EN or JA).

Recognition is by content, never by file name, so a download saved under any name is read. Pure
functions over text; the parsers and the source finder both use them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from kb.sources.editions import file_day

# "These rules are effective as of April 17, 2026." (2009 on) / "current as of October 1, 2004." (before)
EN_DATE = re.compile(r"(?:effective|current) as of (?P<date>[A-Z][a-z]+\s+\d{1,2},\s*\d{4})")
EN_TITLE = re.compile(r"Comprehensive Rules", re.I)
JA_DATE = re.compile(r"このルールは(\d{4})年(\d{1,2})月(\d{1,2})日から有効です")
JA_TITLE = "総合ルール"
JA_RULE = re.compile(r"^\d{3}\.\d+[a-z]?\.?")
HEAD_LINES = 60  # the title and date line sit at the top of every official file
# A date in a file name: "MagicCompRules 20240206.txt", "cr-en-20240206.txt", "2017-07-07.txt"
NAME_DATE = re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)")


@dataclass(frozen=True, slots=True)
class Header:
    lang: str  # "en" | "ja"
    effective: date | None  # None: a JA text without its closing date line (an excerpt)
    line: int  # 1-based line of the effective-date statement (0: none)


def _en_date(found: re.Match) -> date | None:
    try:
        return datetime.strptime(re.sub(r",\s*", ", ", re.sub(r"\s+", " ", found["date"])), "%B %d, %Y").date()
    except ValueError:
        return None


def sniff(lines: list[str]) -> Header | None:
    """The CR header of ``lines`` (BOM removed), or None when the text is not a CR at all."""
    head = lines[:HEAD_LINES]
    if any(EN_TITLE.search(line) for line in head):
        for index, line in enumerate(head):
            found = EN_DATE.search(line)
            if found and (when := _en_date(found)):
                return Header("en", when, index + 1)
    # The JA title line follows its contents list (もくじ), far below the top.
    if any(JA_TITLE in line or line.strip() == "もくじ" for line in lines[:HEAD_LINES * 20]):
        for index in range(len(lines) - 1, -1, -1):  # the JA file states its date at the end
            found = JA_DATE.search(lines[index])
            if found:
                return Header("ja", date(int(found[1]), int(found[2]), int(found[3])), index + 1)
        if any(JA_RULE.match(line) for line in lines):
            return Header("ja", None, 0)
    return None


def date_in_name(name: str) -> str | None:
    """ISO date written in a file name (the official file date), if any."""
    for found in NAME_DATE.finditer(name):
        try:
            return file_day(f"{found[1]}{found[2]}{found[3]}")
        except ValueError:
            continue
    return None
