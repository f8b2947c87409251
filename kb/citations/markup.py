"""Markup stripped for detection, locators kept: Markdown, HTML and MediaWiki markup (headings,
underlines, bold, lists, tables, links, code fences, ``<ref>``) is blanked character for character
with spaces, so every offset, line and column of the plain text is the original's.

The source text is never changed: ``plain`` is a second string used only to find citations and
quotes; what is shown (raw, quote text) is cut from the original at the same offsets.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.wikitext import LINK as WIKI_LINK

_UNDERLINE = re.compile(r"^[ \t]*(?:={3,}|-{3,}|—{3,}|_{3,}|\*{3,}|─{3,})[ \t]*$")  # setext / rules
_ATX = re.compile(r"^([ \t]{0,3}#{1,6})(?=[ \t]|$)(.*?)([ \t]#+[ \t]*)?$")
_WIKI_HEADING = re.compile(r"^(={2,6})(.+?)(={2,6})[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)")
_QUOTE_MARK = re.compile(r"^(?:[ \t]*>)+")
_BULLET = re.compile(r"^([ \t]*)([-+*•]|\d{1,2}[.)])(?=[ \t])")
_TABLE_ROW = re.compile(r"^[ \t]*\|")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>()\[\]）」]+|\S+\.(?:jpg|jpeg|png|gif|svg|html?)\b", re.I)
_LINK = re.compile(r"!?\[([^\]\n]*)\]\(([^)\n]*)\)")          # [text](url): keep the text
_REF_LINK = re.compile(r"^\s*\[[^\]\n]+\]:\s*.*$")             # [label]: url "title"
_TAG = re.compile(r"</?[A-Za-z][^<>\n]{0,200}?/?>")
_EMPHASIS = re.compile(r"\*{1,3}|(?<![A-Za-z0-9])_{1,3}|_{1,3}(?![A-Za-z0-9])|'{2,5}")
_BOLD_LINE = re.compile(r"^[ \t]*(\*\*|__)(?=\S)(.+?)(?<=\S)\1[ \t]*$")


def _blank(s: str) -> str:
    return "".join(" " if ch not in "\r\n" else ch for ch in s)


@dataclass(slots=True)
class Plain:
    """The detection text (same length as the original) and the 1-based lines that are headings."""
    text: str
    headings: set[int] = field(default_factory=set)
    rules: set[int] = field(default_factory=set)  # underline / horizontal-rule lines (blanked)


def strip_markup(text: str) -> Plain:
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    headings: set[int] = set()
    rules: set[int] = set()
    in_fence = False
    for i, line in enumerate(lines, 1):
        body = line.rstrip("\r\n")
        end = line[len(body):]
        if _FENCE.match(body):
            in_fence = not in_fence
            out.append(_blank(body) + end)
            continue
        if in_fence:  # code: kept as is (a citation in code is still a citation)
            out.append(line)
            continue
        if _UNDERLINE.match(body):
            rules.add(i)
            if i > 1 and out and out[-1].strip() and not _TABLE_ROW.match(out[-1]) and i - 1 not in rules:
                headings.add(i - 1)  # setext heading: the line above
            out.append(_blank(body) + end)
            continue
        if _REF_LINK.match(body):
            out.append(_blank(body) + end)
            continue
        body = _strip_line(body, i, headings)
        out.append(body + end)
    return Plain("".join(out), headings, rules)


def _strip_line(body: str, number: int, headings: set[int]) -> str:
    chars = list(body)

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            chars[k] = " "

    if m := _ATX.match(body):
        headings.add(number)
        blank(*m.span(1))
        if m.group(3):
            blank(*m.span(3))
    elif m := _WIKI_HEADING.match(body):
        headings.add(number)
        blank(*m.span(1))
        blank(*m.span(3))
    if _BOLD_LINE.match(body):
        headings.add(number)  # a line that is all bold: **106.6** in a changes article
    if m := _QUOTE_MARK.match(body):
        blank(*m.span())
    if m := _BULLET.match("".join(chars)):
        blank(*m.span(2))
    if _TABLE_ROW.match(body):
        for k, ch in enumerate(chars):
            if ch in "|!" or (ch in "-:" and set(body.strip()) <= set("|-: ")):
                chars[k] = " "
    for m in _LINK.finditer(body):
        blank(m.start(), m.start(1))
        blank(m.end(1), m.end())
    for m in WIKI_LINK.finditer(body):  # [[target|label]]: keep what a reader sees (the label)
        seen = 2 if m.group(2) is not None else 1
        blank(m.start(), m.start(seen))
        blank(m.end(seen), m.end())
    current = "".join(chars)
    for pattern in (_URL, _TAG, _EMPHASIS):
        for m in pattern.finditer(current):
            blank(*m.span())
        current = "".join(chars)
    return current
