"""Find rule citations in any text (JA or EN): "rule 601.2e", "rules 601.2a–d", "601.2e参照",
"（701.25「変身」を参照）", "rule 717〔不正な処理の扱い〕参照", "CR:712.15", "section 6", "(202.3b)",
and for the checker also "ルール 609.7b", "### 107.1b", "**103.1a**", ":207.2c", "・702.129", bare
numbers in rules prose and lists joined by 「・」「および」, "&", "or", "205.3g, j, and k".

The forms are data (kb.citations.forms.FORMS), tried in order; a later form never claims text an
earlier one already matched. ``find_citations`` is the build's reading of documents: only the
forms marked ``build``, which need no knowledge of the loaded editions (so a bare number is a
citation only with rule context around it). ``detect`` is the checker's: every form, markup
stripped first (kb.citations.markup) with offsets kept, bare numbers accepted when they are rules
of a loaded edition; each find says which form, how sure (``confidence``) and why.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.citations.forms import FORMS, Context, run
from kb.citations.markup import strip_markup
from kb.citations.numbers import _D, _DOT, LETTERS, NUM, Hit, canonical, expand, numbers_of  # noqa: F401
from kb.parse.records import CitationMention


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


BUILD_FORMS = tuple(f for f in FORMS if f.build)


def _scan(text: str, forms, ctx: Context, keep) -> list[Hit]:
    """Each form's hits that no earlier form's hit overlaps. The characters taken are marked in
    one byte array, so a hit is checked in the time of its own length (never against every hit
    kept so far: a list of thousands of numbers would make that quadratic)."""
    taken = bytearray(len(text) + 1)
    found: list[Hit] = []
    for form in forms:
        for hit in run(form, text, ctx):
            if taken.find(1, hit.start, max(hit.end, hit.start + 1)) >= 0 or not keep(hit):
                continue
            taken[hit.start:hit.end] = b"\x01" * (hit.end - hit.start)
            found.append(hit)
    return sorted(found, key=lambda h: h.start)


def find_citations(text: str, line_offset: int = 0, *, exclude_line_heads: bool = False
                   ) -> list[CitationMention]:
    """Every rule citation in ``text``, in text order (the build's forms: see the module doc).

    ``line_offset`` is added to line numbers (a snippet starting at document line N+1 passes N).
    ``exclude_line_heads``: drop bare numbers that open a line (after bullets/indent): in a
    quoted-rule line that number is the rule's own heading, not a citation.
    """
    starts = line_starts(text)
    keep = (lambda h: not (h.bare and _at_line_head(text, starts, h.start))) if exclude_line_heads else (lambda h: True)
    out = []
    for hit in _scan(text, BUILD_FORMS, Context(), keep):
        line, col = line_col(starts, hit.start)
        out.append(CitationMention(
            raw=text[hit.start:hit.end], numbers=expand(hit.first, hit.last), start=hit.start,
            end=hit.end, line=line + line_offset, column=col, title=hit.title,
            is_range=hit.last is not None))
    return out


@dataclass(slots=True, frozen=True)
class Detected:
    """A citation the checker found: as written (cut from the original text), where, every number
    it expands to, and which form found it, how sure that form is and why."""
    raw: str
    numbers: tuple[str, ...]
    start: int
    end: int
    line: int
    column: int
    title: str | None
    is_range: bool
    form: str
    confidence: float
    why: str


def detect(text: str, *, known=frozenset(), sections=frozenset(), quote_lines: set[int] = frozenset(),
           plain=None) -> list[Detected]:
    """Every citation in ``text`` by every form (see the module doc). ``known``/``sections``: the rule
    and section numbers of the loaded editions; ``quote_lines``: lines whose opening number is a
    quoted rule's own (not a citation); ``plain``: the markup-stripped text if already made."""
    plain = plain or strip_markup(text)
    starts = line_starts(text)
    ctx = Context(known=known, sections=sections, headings=plain.headings,
                  line_of=lambda offset: line_col(starts, offset)[0], extended=True)

    def keep(hit: Hit) -> bool:
        if hit.form == "heading":
            return True
        line = ctx.line_of(hit.start)
        return not (line in quote_lines and _at_line_head(plain.text, starts, hit.start))
    out = []
    for hit in _scan(plain.text, FORMS, ctx, keep):
        line, col = line_col(starts, hit.start)
        numbers = tuple(dict.fromkeys(numbers_of(hit)))
        out.append(Detected(text[hit.start:hit.end], numbers, hit.start, hit.end, line, col, hit.title,
                            hit.last is not None or bool(hit.letters), hit.form, hit.confidence, hit.why))
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
