"""Official English Comprehensive Rules plain text -> CREdition.

The file is: title, effective-date line, Introduction, Contents (a table of contents that ends
with "Glossary" and "Credits"), the rules, a second "Glossary" heading with the glossary, and a
second "Credits" heading. Only the rules part yields rules and only the glossary part yields
glossary entries, so the contents list and the credits (which hold lines such as
"1702 Groot-Bijgaarden") are never taken for rules.

Known typos in the official text are accepted, never "fixed" in ``raw``: "119.1d." and
"121.1c." with a stray period, "606.5 If" with no period, "901.4.All" with no space.
"""
from __future__ import annotations

import re
from datetime import date, datetime

from ..records import CREdition, Document, Example, GlossaryEntry, Locator, Rule

CHAPTER = re.compile(r"^(?P<num>\d)\. (?P<title>\S.*)$")
SECTION = re.compile(r"^(?P<num>\d{3})\. (?P<title>\S.*)$")
# A rule or subrule: 100.1. / 100.1a / 119.1d. / 606.5 / 901.4.All
RULE = re.compile(r"^(?P<num>\d{3}\.\d+)(?P<letter>[a-z]?)(?P<dot>\.?)(?: +|(?=[A-Z]))(?P<text>\S.*)?$")
EXAMPLE = re.compile(r"^Example:")
CONTINUATION = re.compile(r"^\s+\S")  # indented lines continue the previous paragraph
EFFECTIVE = re.compile(r"effective as of (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})")
SENSE = re.compile(r"^\d+\. ")


class CRFormatError(ValueError):
    """The text is not an official CR file; carries the line that failed."""

    def __init__(self, message: str, line: int):
        super().__init__(f"line {line}: {message}")
        self.line = line


def split_lines(text: str) -> list[str]:
    """Lines as an editor shows them: BOM removed, any of CRLF / CR / LF ends a line."""
    return text.lstrip("\ufeff").splitlines()


def effective_date(lines: list[str]) -> tuple[date, int]:
    for index, line in enumerate(lines[:40]):
        found = EFFECTIVE.search(line)
        if found:
            return datetime.strptime(found["date"], "%B %d, %Y").date(), index + 1
    raise CRFormatError("no 'These rules are effective as of <date>' line near the top", 1)


def _headings(lines: list[str], word: str) -> list[int]:
    return [i for i, line in enumerate(lines) if line.strip() == word]


def _parts(lines: list[str]) -> tuple[int, int, int, int]:
    """0-based [rules_start, glossary_start, glossary_end) bounds and the TOC's Credits line."""
    glossary = _headings(lines, "Glossary")
    credits = _headings(lines, "Credits")
    if len(glossary) < 2 or len(credits) < 2:
        raise CRFormatError("expected 'Glossary' and 'Credits' both in the contents and as headings",
                            len(lines))
    toc_credits = credits[0]
    rules_start = next((i for i in range(toc_credits + 1, len(lines)) if CHAPTER.match(lines[i])), None)
    if rules_start is None:
        raise CRFormatError("no chapter heading ('1. Game Concepts') after the contents", toc_credits + 1)
    return rules_start, glossary[1], credits[1], toc_credits


def parent_of(number: str) -> str | None:
    """601.2c -> 601.2 -> 601 -> 6 -> None."""
    if re.fullmatch(r"\d{3}\.\d+[a-z]", number):
        return number[:-1]
    if re.fullmatch(r"\d{3}\.\d+", number):
        return number.split(".")[0]
    if re.fullmatch(r"\d{3}", number):
        return number[0]
    return None


def parse_cr_en(text: str, document: Document) -> CREdition:
    lines = split_lines(text)
    effective, _ = effective_date(lines)
    rules_start, glossary_start, credits_start, _ = _parts(lines)
    title = next((line.strip() for line in lines if line.strip()), "")
    edition = CREdition(edition=effective.isoformat(), effective=effective, lang="en", title=title,
                        document=document)
    edition.rules = _parse_rules(lines, rules_start, glossary_start, document.id)
    edition.glossary = _parse_glossary(lines, glossary_start + 1, credits_start, document.id)
    return edition


def _loc(doc_id: str, start: int, end: int, section: tuple[str, ...] = ()) -> Locator:
    return Locator(document=doc_id, line_start=start + 1, line_end=end + 1, section=section)


def _parse_rules(lines: list[str], start: int, stop: int, doc_id: str) -> list[Rule]:
    rules: list[Rule] = []
    seen: dict[str, int] = {}
    chapter = section = None
    # (record, first line index, last line index) of the paragraph being read
    current: Rule | Example | None = None

    def extend(index: int, line: str) -> None:
        if isinstance(current, Example):
            current.text += "\n" + line
            current.locator = _loc(doc_id, current.locator.line_start - 1, index)
        elif isinstance(current, Rule):
            current.text += "\n" + line.strip()
            current.raw += "\n" + line
            current.locator = _loc(doc_id, current.locator.line_start - 1, index, current.locator.section)

    for index in range(start, stop):
        line = lines[index]
        if not line.strip():
            continue
        if CONTINUATION.match(line) and current is not None:
            extend(index, line)
            continue
        if EXAMPLE.match(line):
            if not rules:
                raise CRFormatError("an example before any rule", index + 1)
            current = Example(text=line, locator=_loc(doc_id, index, index))
            rules[-1].examples.append(current)
            continue
        if (found := RULE.match(line)):
            number = found["num"] + found["letter"]
            kind = "subrule" if found["letter"] else "rule"
            parent = parent_of(number)
            record = Rule(number=number, kind=kind, text=found["text"] or "", raw=line, parent=parent,
                          locator=_loc(doc_id, index, index, tuple(x for x in (chapter, section) if x)))
        elif (found := SECTION.match(line)):
            number = found["num"]
            section = f"{number}. {found['title']}"
            record = Rule(number=number, kind="section", text=found["title"], raw=line,
                          parent=number[0], locator=_loc(doc_id, index, index, (chapter,) if chapter else ()))
        elif (found := CHAPTER.match(line)):
            number = found["num"]
            chapter, section = f"{number}. {found['title']}", None
            record = Rule(number=number, kind="chapter", text=found["title"], raw=line, parent=None,
                          locator=_loc(doc_id, index, index))
        else:
            raise CRFormatError(f"not a rule, heading, example or continuation: {line[:60]!r}", index + 1)
        if number in seen:
            raise CRFormatError(f"rule {number} appears twice (first at line {seen[number]})", index + 1)
        seen[number] = index + 1
        rules.append(record)
        current = record
    return rules


def _parse_glossary(lines: list[str], start: int, stop: int, doc_id: str) -> list[GlossaryEntry]:
    entries: list[GlossaryEntry] = []
    block: list[int] = []
    for index in range(start, stop + 1):
        if index < stop and lines[index].strip():
            block.append(index)
            continue
        if block:
            term = lines[block[0]].strip()
            body = [lines[i] for i in block[1:]]
            entries.append(GlossaryEntry(
                term=term, text="\n".join(body), locator=_loc(doc_id, block[0], block[-1]),
                senses=[b for b in body if SENSE.match(b)]))
            block = []
    return entries
