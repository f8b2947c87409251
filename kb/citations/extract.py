"""Find rule citations in any text (JA or EN): "rule 601.2e", "rules 601.2a–d", "601.2e参照",
"（701.25「変身」を参照）", "rule 717〔不正な処理の扱い〕参照", "CR:712.15", "section 6", "(202.3b)".

Each form is a small rule function in ``RULES`` (tried in order, markdown-it style); a later rule
never claims text an earlier one already matched. A bare number (no "rule"/"CR"/"section") is
only a citation with rule context around it (参照, a 〔title〕, parentheses), so dates, versions,
P/T and list items stay out.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable, Iterator

from kb.parse.records import CitationMention

_D = "[0-9０-９]"
_DOT = "[.．]"
# A CR number: section (704) or rule/subrule (601.2, 601.2e). Not part of a longer number.
NUM = (rf"(?<![0-9０-９.．]){_D}{{3}}(?:{_DOT}{_D}+(?:[a-z](?![a-z]))?)?"
       rf"(?![0-9０-９%]|{_DOT}{_D})")
# Range end: a full number (702.5), a rule number within the section (712.9–10), a letter (a–d).
_RANGE_END = rf"(?:{NUM}|(?<=[–\-−]){_D}+(?![0-9０-９.．])|(?<=[–\-−])[a-z](?![a-z]))"
ITEM = rf"(?P<first>{NUM})(?:[–\-−](?P<last>{_RANGE_END}))?"
_TITLE_JA = r"(?:〔(?P<tja>[^〕\n]{1,40})〕|「(?P<tq>[^」\n]{1,40})」)"
_TITLE_EN = r"(?:,\s*“(?P<ten>[^”\n]{1,80})”)"
_LIST_SEP = (r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+|\s*、\s*)"
             r"(?P<kw>(?<![A-Za-z])rules?[ \u00a0]*)?")

_ITEM_RE = re.compile(ITEM)
_TITLE_RE = re.compile(rf"\s*{_TITLE_JA}|{_TITLE_EN}")
_SEP_RE = re.compile(_LIST_SEP)
# JA writes a range "from … to …": rule 601.2a から rule 601.2g (EN: 601.2a-g).
_KARA_RE = re.compile(rf"[ \u3000]*から[ \u3000]*(?:rules?[ \u3000]*)?(?P<to>{NUM})")
LETTERS = "abcdefghijkmnpqrstuvwxyz"  # CR subrules skip l and o


@dataclass(slots=True)
class _Hit:
    start: int
    end: int
    first: str
    last: str | None
    title: str | None
    bare: bool  # no "rule"/"CR"/"section" word: a line-head number may be a quoted rule heading


def canonical(number: str) -> str:
    """ASCII digits, no trailing period: "７０１．２５．" -> "701.25"."""
    return unicodedata.normalize("NFKC", number).strip().rstrip(".")


def expand(first: str, last: str | None = None) -> tuple[str, ...]:
    """Expand a range: 601.2a–d, 601.2a–601.2d, 702.1–702.5, 712.9–10, 100–104."""
    a = canonical(first)
    if last is None:
        return (a,)
    b = canonical(last)
    ma = re.fullmatch(r"(\d{3})(?:\.(\d+)([a-z]?))?", a)
    if re.fullmatch(r"[a-z]", b):
        b = (a.rstrip("abcdefghijklmnopqrstuvwxyz")) + b
    elif re.fullmatch(r"\d+", b) and ma and ma.group(2):
        b = f"{ma.group(1)}.{b}"
    mb = re.fullmatch(r"(\d{3})(?:\.(\d+)([a-z]?))?", b)
    if not (ma and mb):
        return (a, b)
    (sa, ra, la), (sb, rb, lb) = ma.groups(), mb.groups()
    if la and lb and (sa, ra) == (sb, rb) and la in LETTERS and lb in LETTERS:
        i, j = LETTERS.index(la), LETTERS.index(lb)
        return tuple(f"{sa}.{ra}{c}" for c in LETTERS[i:j + 1]) if i <= j else (a, b)
    if ra and rb and not la and not lb and sa == sb and int(ra) <= int(rb) <= int(ra) + 200:
        return tuple(f"{sa}.{n}" for n in range(int(ra), int(rb) + 1))
    if not ra and not rb and int(sa) <= int(sb) <= int(sa) + 100:
        return tuple(str(n) for n in range(int(sa), int(sb) + 1))
    return (a, b)


def _title_after(text: str, pos: int) -> tuple[str | None, int]:
    m = _TITLE_RE.match(text, pos)
    if not m:
        return None, pos
    title = m.group("tja") or m.group("tq") or m.group("ten")
    return title.strip().rstrip(",.、。").strip(), m.end()


def _items(text: str, pos: int, bare: bool, sep: bool = True) -> Iterator[_Hit]:
    """The item at ``pos`` and (if ``sep``) list continuations: "601.2a–d and 601.2f–h"."""
    start = pos
    while True:
        m = _ITEM_RE.match(text, pos)
        if not m:
            return
        last, end = m.group("last"), m.end()
        if last is None and (k := _KARA_RE.match(text, end)):  # "rule 601.2a から rule 601.2g"
            last, end = k.group("to"), k.end()
        title, end = _title_after(text, end)
        yield _Hit(start, end, m.group("first"), last, title, bare)
        s = _SEP_RE.match(text, end) if sep else None
        if not s or not _ITEM_RE.match(text, s.end()):
            return
        pos = s.end()
        start = s.start("kw") if s.group("kw") else pos  # "…、rule 117.9": raw keeps its word


# ---------------------------------------------------------------- rule functions, in order

_KEYWORD = re.compile(r"(?<![A-Za-z])(?:[Rr]ules?|CR)[ \u00a0]*[:：]?[ \u00a0]*(?=[0-9０-９])")
_CHAPTER_REF = re.compile(r"[1-9](?=〔)")
_SECTION = re.compile(r"(?<![A-Za-z])[Ss]ections?[ \u00a0]+(?P<n>[1-9]|[1-9]\d\d)(?![0-9])(?![.．][0-9])")
_JA_REF = re.compile(rf"{ITEM}(?P<t>{_TITLE_JA})?[ \u3000]*(?:を)?参照")
_JA_BRACKET = re.compile(rf"{ITEM}〔(?P<tja2>[^〕\n]{{1,40}})〕")
_BARE_RANGE = re.compile(rf"(?P<first>{_D}{{3}}{_DOT}{_D}+[a-z])[–\-−](?P<last>[a-z](?![a-z])|{NUM})")
_PAREN = re.compile(rf"(?<=[（(])[ \u3000]*(?={NUM})")


def rule_keyword(text: str) -> Iterator[_Hit]:
    """rule 601.2e / rules 601.2a–d and 601.2f–h / CR:712.15 / See rule 113, “Abilities,”"""
    for k in _KEYWORD.finditer(text):
        hits = list(_items(text, k.end(), bare=False))
        if not hits and (c := _CHAPTER_REF.match(text, k.end())):  # JA CR: rule 8〔多人数戦ルール〕
            title, end = _title_after(text, c.end())
            hits = [_Hit(c.start(), end, c.group(), None, title, bare=False)]
        if hits:
            hits[0].start = k.start()  # raw of the first item includes the keyword
        yield from hits


def rule_section(text: str) -> Iterator[_Hit]:
    """section 6 / section 6, “Spells, Abilities, and Effects”"""
    for m in _SECTION.finditer(text):
        title, end = _title_after(text, m.end())
        yield _Hit(m.start(), end, m.group("n"), None, title, bare=False)


def rule_ja_ref(text: str) -> Iterator[_Hit]:
    """601.2e参照 / 100.6を参照 / 701.25「変身」を参照 / 704〔状況起因処理〕参照"""
    for m in _JA_REF.finditer(text):
        title = m.group("tja") or m.group("tq")
        end = m.end("t") if m.group("t") else m.end("last") if m.group("last") else m.end("first")
        yield _Hit(m.start(), end, m.group("first"), m.group("last"), title, bare=True)


def rule_ja_bracket(text: str) -> Iterator[_Hit]:
    """704〔状況起因処理〕: the 〔〕 title is how the JA CR writes a cross-reference."""
    for m in _JA_BRACKET.finditer(text):
        yield _Hit(m.start(), m.end(), m.group("first"), m.group("last"), m.group("tja2"), bare=True)


def rule_bare_range(text: str) -> Iterator[_Hit]:
    """601.2a-g: a lettered range is a citation even without "rule" (no date looks like it)."""
    for m in _BARE_RANGE.finditer(text):
        if re.search(r"[0-9０-９.．]$", text[:m.start()]):
            continue
        yield _Hit(m.start(), m.end(), m.group("first"), m.group("last"), None, bare=True)


def rule_paren(text: str) -> Iterator[_Hit]:
    """(202.3b) / （202.3b、202.3c）: bare numbers alone in parentheses."""
    for m in _PAREN.finditer(text):
        hits = list(_items(text, m.end(), bare=True))
        closed = hits and re.match(r"[ \u3000]*[)）]", text[hits[-1].end:])
        # "(202.3b)" yes, "(250)" no: a bare section number in parentheses is too often a count.
        if closed and all(re.search(_DOT, h.first) for h in hits):
            yield from hits


RULES: list[tuple[str, Callable[[str], Iterator[_Hit]]]] = [
    ("keyword", rule_keyword),
    ("section", rule_section),
    ("ja_ref", rule_ja_ref),
    ("ja_bracket", rule_ja_bracket),
    ("bare_range", rule_bare_range),
    ("paren", rule_paren),
]


# ---------------------------------------------------------------- driver


def line_starts(text: str) -> list[int]:
    """Offset of each line's first character, lines counted as str.splitlines() counts them."""
    starts, pos = [], 0
    for line in text.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    return starts or [0]


def line_col(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based (line, column) of ``offset``."""
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1, offset - starts[lo] + 1


_HEAD_FILL = " \t\u3000•*＊・-"


def find_citations(text: str, line_offset: int = 0, *, exclude_line_heads: bool = False
                   ) -> list[CitationMention]:
    """Every rule citation in ``text``, in text order.

    ``line_offset`` is added to line numbers (a snippet starting at document line N+1 passes N).
    ``exclude_line_heads``: drop bare numbers that open a line (after bullets/indent): in a
    quoted-rule line that number is the rule's own heading, not a citation.
    """
    starts = line_starts(text)
    taken: list[tuple[int, int]] = []
    found: list[_Hit] = []
    for _name, rule in RULES:
        for hit in rule(text):
            if any(hit.start < e and s < hit.end for s, e in taken):
                continue
            if hit.bare and exclude_line_heads and _at_line_head(text, starts, hit.start):
                continue
            taken.append((hit.start, hit.end))
            found.append(hit)
    out = []
    for hit in sorted(found, key=lambda h: h.start):
        line, col = line_col(starts, hit.start)
        out.append(CitationMention(
            raw=text[hit.start:hit.end], numbers=expand(hit.first, hit.last), start=hit.start,
            end=hit.end, line=line + line_offset, column=col, title=hit.title,
            is_range=hit.last is not None))
    return out


def _at_line_head(text: str, starts: list[int], pos: int) -> bool:
    line, _ = line_col(starts, pos)
    return text[starts[line - 1]:pos].strip(_HEAD_FILL) == ""


# ---------------------------------------------------------------- quoted-rule headings

_HEADING = re.compile(
    rf"^[ \t\u3000]*(?:•[ \t]*)?(?P<raw>{_D}{{3}}(?:{_DOT}{_D}+[a-z]?)?{_DOT}?)"
    rf"(?=$|[ \t\u3000]|[^0-9０-９a-z.．/／%\-])")
_CHAPTER = re.compile(r"^[ \t\u3000]*(?:•[ \t]*)?(?P<raw>[1-9])(?=[ \t\u3000]+\S)")


@dataclass(slots=True, frozen=True)
class RuleHeading:
    raw: str  # as written: "711.1a." (stray period kept)
    number: str  # canonical: "711.1a"
    start: int  # offset of the number in the line
    text_start: int  # offset where the rule's own text begins (after the number and spaces)


def rule_heading(line: str, *, allow_chapter: bool = False) -> RuleHeading | None:
    """The rule number opening a quoted-rule line ("711.1a.両面…", "601.2a", "• 701.34 予示…").

    ``allow_chapter`` accepts a single-digit chapter ("7 その他のルール") for CR quote blocks.
    """
    m = _HEADING.match(line) or (_CHAPTER.match(line) if allow_chapter else None)
    if not m:
        return None
    rest = m.end("raw")
    while rest < len(line) and line[rest] in " \t\u3000":
        rest += 1
    return RuleHeading(m.group("raw"), canonical(m.group("raw")), m.start("raw"), rest)
