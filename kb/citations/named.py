"""A number of an edition that is not loaded, read by the name the text gives the rule.

A changes article announcing an edition we do not have ("**702.97** ... it's cipher") numbers its
new keyword rules as that edition does; the loaded editions around it number them differently (a
keyword added by a set in between shifts every later one). So the number as written, read in a
neighbouring loaded edition, is another keyword. When the words around the citation name a rule
title (Overload, Cipher; in JA the title's JA name) that is not the title of the written number
in the loaded editions around it, but is the title of exactly one nearby number of the same level
there, the citation is read as that rule - and the answer says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.citations.titles import Titles
from kb.text import normalize

SPREAD = 4  # how far a rule's number may have moved between the edition meant and a loaded one
_NUMBER = re.compile(r"^(\d{3})\.(\d+)([a-z]?)$")


@dataclass(frozen=True, slots=True)
class Reading:
    edition: str   # the loaded edition the rule is read in
    number: str    # its number there
    title: str     # the title the text names

    def why(self, written: str) -> str:
        return f"the text names {self.title}: {written} read as {self.number} of CR {self.edition}"


def _named(words: str, title: str, japanese: set[str]) -> bool:
    if len(title) < 4 or not title.isascii():
        return False
    if re.search(rf"(?<![a-z]){re.escape(title)}(?![a-z])", words):
        return True
    return any(len(j) >= 2 and j in words for j in japanese)


def read_named(model, titles: Titles, editions: list[str], number: str, words: str) -> Reading | None:
    """The rule ``words`` name near ``number`` among its neighbours in ``editions`` (the loaded
    editions around the one meant), or None when the written number's own title is named, no
    neighbour's is, or several different ones are."""
    m = _NUMBER.match(number)
    if not m or not words:
        return None
    section, rule, letter = m[1], int(m[2]), m[3]
    words = normalize(words)
    found: list[tuple[int, Reading]] = []
    for edition in editions:
        for k in range(max(1, rule - SPREAD), rule + SPREAD + 1):
            head = f"{section}.{k}"
            for title in Titles.of_rule(model, edition, head):
                if not _named(words, title, titles.japanese(title)):
                    continue
                if k == rule:
                    return None  # the number as written is the rule named
                if ("en", edition, head + letter) in model.rules:
                    found.append((abs(k - rule), Reading(edition, head + letter, title)))
    if len({r.title for _, r in found}) != 1:
        return None
    # the same rule in both neighbours: the one whose number is nearer to the written one, then the later
    found.sort(key=lambda t: t[1].edition, reverse=True)
    return min(found, key=lambda t: t[0])[1]
