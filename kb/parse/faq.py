"""Official FAQ page (Innistrad 2011): ＊＊＊ headings ＊＊＊, quoted CR rules ("711.1a.両面…",
with their 例： lines), ＊ rulings, 《card》 examples. The scraped page repeats itself: each
ruling, quoted rule and heading is kept once, at its first occurrence."""
from __future__ import annotations

import re
from typing import Callable

from kb.citations.extract import rule_heading
from kb.parse.common import Builder, SectionPath, is_japanese
from kb.parse.records import Document, ParsedDocument

_HEADING = re.compile(r"＊＊＊\s*(.+?)\s*＊＊＊")
_RULING = re.compile(r"^[＊*][ \u3000]+")  # "＊ 両面…"; "＊黒＊" (a colour indicator) has no space
_EXAMPLE = re.compile(r"^例[：:]")


def parse(text: str, document: Document, *, is_card: Callable[[str], bool] | None = None
          ) -> ParsedDocument:
    b = Builder(document, is_card)
    sections = SectionPath()
    n, total = 1, len(b.lines)
    while n <= total:
        line = b.lines[n]
        if n > 1 and (heads := _HEADING.findall(line)):  # line 1 is the page title
            for title in heads:
                path = sections.push(1, title)
                if b.first_time("section", title):
                    b.section(title, 1, path, n)
            n += 1
            continue
        if m := _RULING.match(line):
            if b.first_time("ruling", line[m.end():]):
                b.ruling(n, n, m.end(), sections.path)
            n += 1
            continue
        head = rule_heading(line)
        if head is None:
            n += 1
            continue
        last = n
        while last + 1 <= total and _EXAMPLE.match(b.lines[last + 1]):
            last += 1  # 例： lines belong to the rule above them
        start, end = b.lines.span(n, last, head.text_start)
        if b.first_time("quote", head.raw + " " + text[start:end]):
            b.quoted_rule(head.raw, head.number, n, last, head.text_start, sections.path,
                          "ja" if is_japanese(line) else "en", document.quotes_edition)
        n = last + 1
    return b.out
