"""Blog post reading CR rules with commentary: quoted rules ("601.2a" on its own line, then the
rule text; or "601.4 コスト…"), the author's notes after each quote (①…⑨ and plain paragraphs)
as "commentary" linked to the rule, and a block of ①…⑨ steps as "summary"."""
from __future__ import annotations

import re
from typing import Callable

from kb.citations.extract import rule_heading
from kb.parse.common import Builder, is_japanese
from kb.parse.records import Document, ParsedDocument

_CIRCLED = re.compile(r"^[\u2460-\u2473]")  # ①..⑳


def paragraphs(b: Builder) -> list[tuple[int, int]]:
    """(first, last) line of each run of non-blank lines."""
    out, first = [], None
    for n in range(1, len(b.lines) + 2):
        blank = n > len(b.lines) or not b.lines[n].strip()
        if blank and first is not None:
            out.append((first, n - 1))
            first = None
        elif not blank and first is None:
            first = n
    return out


def parse(text: str, document: Document, *, is_card: Callable[[str], bool] | None = None
          ) -> ParsedDocument:
    b = Builder(document, is_card)
    paras = [p for p in paragraphs(b) if p[0] > 1]  # line 1 is the post title
    quoted = [i for i, (first, _) in enumerate(paras) if rule_heading(b.lines[first])]
    last_quote = quoted[-1] if quoted else -1
    rule: str | None = None
    for i, (first, last) in enumerate(paras):
        head = rule_heading(b.lines[first])
        if head:
            rule = head.number
            on_own_line = head.text_start >= len(b.lines[first])  # "601.1a" then the text
            text_first = first + 1 if on_own_line and last > first else first
            col = 0 if text_first != first else head.text_start
            b.quoted_rule(head.raw, head.number, text_first, last, col, (),
                          "ja" if is_japanese(b.lines[last]) else "en",
                          document.quotes_edition, heading_line=first)
            continue
        steps = [n for n in range(first, last + 1) if _CIRCLED.match(b.lines[n])]
        if len(steps) >= 2:  # a list of numbered steps: the author's summary
            for n in steps:
                b.ruling(n, n, 0, (), "summary")
        elif rule and i < last_quote:  # notes between quotes are about the rule above them
            b.ruling(first, last, 0, (), "commentary", links=[f"rule:{rule}"])
        # else: the intro before the first quote or the closing words after the last one
    return b.out
