"""Rule numbers as people write them in running text: the pieces every citation form is made of
(a number, a range, a title after it, a list of them) and their expansion to rule numbers.

ASCII and full-width digits and dots (７０１．２５), ranges with -, – or − ("601.2a–d", "712.9–10",
"702.1–702.5"), JA "601.2a から 601.2g" and (extended lists) "601.2a through 601.2g" / 〜, lists
joined by , 、 ・ and or & および と, and letter lists ("205.3g, j, k, and m").
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterator

_D = "[0-9０-９]"
_DOT = "[.．]"
# A CR number: section (704) or rule/subrule (601.2, 601.2e). Not part of a longer number.
NUM = (rf"(?<![0-9０-９.．]){_D}{{3}}(?:{_DOT}{_D}+(?:[a-z](?![a-z]))?)?"
       rf"(?![0-9０-９%]|{_DOT}{_D})")
# Range end: a full number (702.5), a rule number within the section (712.9–10), a letter (a–d).
_RANGE_END = rf"(?:{NUM}|(?<=[–\-−]){_D}+(?![0-9０-９.．])|(?<=[–\-−])[a-z](?![a-z]))"
ITEM = rf"(?P<first>{NUM})(?:[–\-−](?P<last>{_RANGE_END}))?"
TITLE_JA = r"(?:〔(?P<tja>[^〕\n]{1,40})〕|「(?P<tq>[^」\n]{1,40})」)"
_TITLE_EN = r"(?:,\s*“(?P<ten>[^”\n]{1,80})”)"
# What joins the items of a list. The build's reading of the seeds uses the first set (unchanged
# since the seeds' citations were established); the checker uses the extended set.
_LIST_SEP = (r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+|\s*、\s*)"
             r"(?P<kw>(?<![A-Za-z])rules?[ \u00a0]*)?")
_LIST_SEP_EXTENDED = (r"(?:\s*[,，、]\s*(?:and\s+|or\s+|&\s*|および\s*|及び\s*)?|\s*[&＆]\s*"
                      r"|\s+(?:and|or|as well as)\s+|[ \u3000]*(?:・|および|及び|ならびに|並びに|と|や|or)[ \u3000]*)"
                      r"(?P<kw>(?<![A-Za-z])(?:rules?|CR|ルール)[ \u00a0:：]*)?")

ITEM_RE = re.compile(ITEM)
NUM_RE = re.compile(NUM)
_TITLE_RE = re.compile(rf"\s*{TITLE_JA}|{_TITLE_EN}")
_SEP_RE = re.compile(_LIST_SEP)
_SEP_EXTENDED_RE = re.compile(_LIST_SEP_EXTENDED)
# JA writes a range "from … to …": rule 601.2a から rule 601.2g (EN: 601.2a-g).
_KARA_RE = re.compile(rf"[ \u3000]*から[ \u3000]*(?:rules?[ \u3000]*)?(?P<to>{NUM})")
_RANGE_WORD_RE = re.compile(rf"(?:[ \u3000]*(?:から|[〜～~])[ \u3000]*|\s+(?:through|thru)\s+)"
                            rf"(?:(?:rules?|ルール)[ \u3000]*)?(?P<to>{NUM})")
# A letter continuing a lettered list: "205.3g, j, k, and m" (followed by a separator or the end).
_LETTER_RE = re.compile(r"(?P<letter>[a-z])(?=[ \u3000]*(?:[,，、&＆.:;)）\]]|and\b|or\b|$|\n))")
LETTERS = "abcdefghijkmnpqrstuvwxyz"  # CR subrules skip l and o


@dataclass(slots=True)
class Hit:
    start: int
    end: int
    first: str
    last: str | None
    title: str | None
    bare: bool  # no "rule"/"CR"/"section" word: a line-head number may be a quoted rule heading
    form: str = ""
    confidence: float = 1.0
    why: str = ""
    letters: tuple[str, ...] = ()  # a letter list: "205.3g, j, k" -> first 205.3g, letters (j, k)


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


def numbers_of(hit: Hit) -> tuple[str, ...]:
    base = expand(hit.first, hit.last)
    if not hit.letters:
        return base
    stem = canonical(hit.first).rstrip("abcdefghijklmnopqrstuvwxyz")
    return base + tuple(stem + c for c in hit.letters)


def title_after(text: str, pos: int) -> tuple[str | None, int]:
    m = _TITLE_RE.match(text, pos)
    if not m:
        return None, pos
    title = m.group("tja") or m.group("tq") or m.group("ten")
    return title.strip().rstrip(",.、。").strip(), m.end()


def _letters_after(text: str, pos: int, first: str, sep_re) -> tuple[tuple[str, ...], int]:
    """"205.3g, j, k, and m": the letters continuing a lettered number, and where they end."""
    last = canonical(first)[-1:]
    if not last.isalpha():
        return (), pos
    found: list[str] = []
    while True:
        s = sep_re.match(text, pos)
        if not s or s.group("kw"):
            break
        m = _LETTER_RE.match(text, s.end())
        if not m or m.group("letter") not in LETTERS or LETTERS.index(m.group("letter")) <= LETTERS.index(last):
            break
        last = m.group("letter")
        found.append(last)
        pos = m.end()
    return tuple(found), pos


def items(text: str, pos: int, bare: bool, sep: bool = True, *, extended: bool = False) -> Iterator[Hit]:
    """The item at ``pos`` and (if ``sep``) list continuations: "601.2a–d and 601.2f–h"."""
    start = pos
    sep_re = _SEP_EXTENDED_RE if extended else _SEP_RE
    while True:
        m = ITEM_RE.match(text, pos)
        if not m:
            return
        last, end = m.group("last"), m.end()
        if last is None:
            k = (_RANGE_WORD_RE if extended else _KARA_RE).match(text, end)
            if k:  # "rule 601.2a から rule 601.2g"
                last, end = k.group("to"), k.end()
        letters: tuple[str, ...] = ()
        if extended and last is None:
            letters, end = _letters_after(text, end, m.group("first"), sep_re)
        title, end = title_after(text, end)
        yield Hit(start, end, m.group("first"), last, title, bare, letters=letters)
        s = sep_re.match(text, end) if sep else None
        if not s or not ITEM_RE.match(text, s.end()):
            return
        pos = s.end()
        start = s.start("kw") if s.group("kw") else pos  # "…、rule 117.9": raw keeps its word
