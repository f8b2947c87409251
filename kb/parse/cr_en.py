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
from datetime import date

from kb.parse.records import CREdition, Document, Example, GlossaryEntry, Locator, Rule
from kb.rulenumbers import parent_of
from kb.sources.cr_header import sniff

CHAPTER = re.compile(r"^(?P<num>\d)\. (?P<title>\S.*)$")
SECTION = re.compile(r"^(?P<num>\d{3})\. (?P<title>\S.*)$")
# A rule or subrule: 100.1. / 100.1a / 119.1d. / 606.5 / 901.4.All
RULE = re.compile(r"^(?P<num>\d{3}\.\d+)(?P<letter>[a-z]?)(?P<dot>\.?)(?: +|(?=[A-Z]))(?P<text>\S.*)?$")
EXAMPLE = re.compile(r"^Example:")
CONTINUATION = re.compile(r"^\s+\S")  # indented lines continue the previous paragraph
MAX_RULE_INDENT = 3  # continuation lines are indented 5 or 10 spaces; a rule line at most a stray one
# "606. 8b Text" (2007): a subrule number with a stray space; read as 606.8b, with a warning.
SPACED_NUMBER = re.compile(r"^(?P<num>\d{3})\. (?P<tail>\d+[a-z]?)\.? +(?P<text>\S.*)$")
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
    header = sniff(lines)
    if header is None or header.lang != "en" or header.effective is None:
        raise CRFormatError("not a Comprehensive Rules text: no title and 'These rules are effective "
                            "as of <date>' line near the top", 1)
    return header.effective, header.line


def _headings(lines: list[str], word: str) -> list[int]:
    return [i for i, line in enumerate(lines) if line.strip() == word]


def _parts(lines: list[str], warnings: list[tuple[int, str]]) -> tuple[int, int, int]:
    """0-based bounds: rules from ``rules_start``, glossary heading at ``glossary_start``, glossary
    up to ``credits_start``. The contents list ends with "Glossary" and "Credits"; the rules start at
    the first chapter heading after it. A missing closing heading is tolerated with a warning."""
    glossary = _headings(lines, "Glossary")
    credits = _headings(lines, "Credits")
    contents_end = credits[0] if credits and (len(glossary) < 2 or credits[0] < glossary[1]) else \
        (glossary[0] if glossary else None)
    if contents_end is None:
        raise CRFormatError("no contents list ending with 'Glossary' and 'Credits' (a truncated file?)", len(lines))
    rules_start = next((i for i in range(contents_end + 1, len(lines)) if CHAPTER.match(lines[i])), None)
    if rules_start is None:
        raise CRFormatError("no chapter heading ('1. Game Concepts') after the contents", contents_end + 1)
    body_glossary = [i for i in glossary if i > rules_start]
    if not body_glossary:
        warnings.append((len(lines), "no 'Glossary' heading after the rules: the rules run to the end"))
        return rules_start, len(lines), len(lines)
    glossary_start = body_glossary[0]
    body_credits = [i for i in credits if i > glossary_start]
    if not body_credits:
        warnings.append((len(lines), "no closing 'Credits' heading: the glossary runs to the end of the file"))
        return rules_start, glossary_start, len(lines)
    return rules_start, glossary_start, body_credits[0]


def parse_cr_en(text: str, document: Document) -> CREdition:
    lines = split_lines(text)
    effective, _ = effective_date(lines)
    title = next((line.strip() for line in lines if line.strip()), "")
    edition = CREdition(edition=effective.isoformat(), effective=effective, lang="en", title=title,
                        document=document)
    rules_start, glossary_start, credits_start = _parts(lines, edition.warnings)
    edition.rules = _parse_rules(lines, rules_start, glossary_start, document.id, edition)
    edition.glossary = _parse_glossary(lines, glossary_start + 1, credits_start, document.id)
    edition.incomplete = _missing(lines, rules_start, edition)
    edition.warnings.sort()
    return edition


def _missing(lines: list[str], rules_start: int, edition: CREdition) -> tuple[int, str] | None:
    """What the contents list promises (every chapter and section number, the Glossary) and the
    file lacks: a copy cut short. Checked by number, not title: every real edition's contents
    numbers are all in its body (titles differ: 2009-07-11 lists "1. Game Concepts" under another
    spacing). A missing closing Credits heading is not checked: a real archived edition
    (2013-02-01) ends inside its glossary."""
    contents = next((i for i in range(rules_start) if lines[i].strip() == "Contents"), 0)
    promised, glossary = [], False
    for line in lines[contents:rules_start]:
        heading = line.strip()
        if (found := SECTION.match(heading) or CHAPTER.match(heading)):
            promised.append(found["num"])
        glossary = glossary or heading == "Glossary"
    have = {r.number for r in edition.rules if r.kind in ("chapter", "section")}
    absent = [number for number in promised if number not in have]
    chapters = [n for n in absent if len(n) == 1]
    sections = [n for n in absent if len(n) == 3]
    parts = ([f"chapter{'s' * (len(chapters) > 1)} {', '.join(chapters)}"] if chapters else []) + \
        ([f"section{'s' * (len(sections) > 1)} " + (", ".join(sections) if len(sections) <= 4
                                                     else f"{sections[0]}–{sections[-1]} ({len(sections)})")]
         if sections else []) + (["the Glossary"] if glossary and not edition.glossary else [])
    if not parts:
        return None
    last = next((f"{r.kind} {r.number}" for r in reversed(edition.rules)), None)
    return len(lines), (f"incomplete: the contents list (line {contents + 1}) names {' and '.join(parts)}, which "
                        f"the file does not have; it ends at line {len(lines)}" + (f" after {last}" if last else "")
                        + " (a truncated copy?)")


def _loc(doc_id: str, start: int, end: int, section: tuple[str, ...] = ()) -> Locator:
    return Locator(document=doc_id, line_start=start + 1, line_end=end + 1, section=section)


def _parse_rules(lines: list[str], start: int, stop: int, doc_id: str, edition: CREdition) -> list[Rule]:
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
        if line[:1] == " " and len(line) - len(line.lstrip(" ")) <= MAX_RULE_INDENT and RULE.match(line.lstrip(" ")):
            edition.warnings.append((index + 1, f"rule line indented: {line.strip()[:20]!r}"))
            line = line.lstrip(" ")  # 2009: " 605.3a A player may..." is a rule, not a continuation
        elif CONTINUATION.match(line) and current is not None:
            extend(index, line)
            continue
        if EXAMPLE.match(line) and rules:
            current = Example(text=line, locator=_loc(doc_id, index, index))
            rules[-1].examples.append(current)
            continue
        if (found := SPACED_NUMBER.match(line)) and chapter:
            number = f"{found['num']}.{found['tail']}"
            if re.fullmatch(r"\d{3}\.\d+[a-z]?", number) and number not in seen:
                edition.warnings.append((index + 1, f"rule number written {line[:len(found['num']) + 2 + len(found['tail'])]!r}, "
                                                    f"read as {number}"))
                line = number + " " + found["text"]
        if (found := RULE.match(line)):
            number = found["num"] + found["letter"]
            kind = "subrule" if found["letter"] else "rule"
            parent = parent_of(number)
            record = Rule(number=number, kind=kind, text=found["text"] or "", raw=lines[index], parent=parent,
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
        else:  # a stray line: kept, flagged, never merged into a rule's text
            after = rules[-1].number if rules else None
            edition.anomalies.append((index + 1, lines[index]))
            edition.warnings.append((index + 1, f"stray line {line.strip()[:40]!r}"
                                                + (f" after {after}" if after else "") + ": kept as an anomaly"))
            current = None
            continue
        if number in seen:  # both kept: the repeat gets its own id, findable as 702.30d~2
            copy = 2
            while f"{number}~{copy}" in seen:
                copy += 1
            edition.warnings.append((index + 1, f"rule {number} appears twice (first at line {seen[number]}): "
                                                f"the repeat is kept as {number}~{copy}"))
            number = record.number = f"{number}~{copy}"
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
