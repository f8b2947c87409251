"""Rendered MediaWiki page (部屋, 予示): the 目次 (TOC) line names the headings and their nesting,
so headings are found whether written "[編集] ルール" or bare "ルール". • bullets and numbered
lines are rulings; "1. ↑ …" lines are footnotes; the 引用：総合ルール block holds quoted CR rules."""
from __future__ import annotations

import re
from typing import Callable

from kb.citations.extract import rule_heading
from kb.parse.common import Builder, SectionPath, is_japanese
from kb.parse.records import Document, ParsedDocument

_TOC = re.compile(r"^目次\s+(.*)$")
_TOC_ENTRY = re.compile(r"(\d+(?:\.\d+)*)\s+(.+?)(?=\s+\d+(?:\.\d+)*\s+|$)")
_EDIT = re.compile(r"^\[編集\]\s*")
_CHROME = re.compile(r"^提供：")
_BULLET = re.compile(r"^(\s*)•\s*")
_NUMBERED = re.compile(r"^(\s*)\d+\.\s+")
_FOOTNOTE = re.compile(r"^\s*\d+\.\s*↑")
_DEFINES = re.compile(r"^([^\s（(/]+)(?:[（(][^）)]*[）)])?/([A-Za-z][A-Za-z '\-]*?)とは")
_QUOTE_HEAD = re.compile(r"^引用：総合ルール")
_EDITION = re.compile(r"(\d{4})(\d{2})(\d{2})\.\d+")
RULES_SECTIONS = {"ルール", "ルーリング", "定義"}
FOOTNOTE_SECTIONS = {"脚注", "注釈"}


def toc_entries(line: str) -> list[tuple[int, str]]:
    """"目次 1 定義 2 解説 3 ルール 3.1 戦場に出る際" -> [(1, "定義"), …, (2, "戦場に出る際")]."""
    m = _TOC.match(line)
    if not m:
        return []
    return [(num.count(".") + 1, title.strip()) for num, title in _TOC_ENTRY.findall(m.group(1))]


def parse(text: str, document: Document, *, is_card: Callable[[str], bool] | None = None
          ) -> ParsedDocument:
    b = Builder(document, is_card)
    toc: list[tuple[int, str]] = []
    sections = SectionPath()
    stack: list[tuple[int, str]] = []  # (indent, ruling id) of open bullets
    quote_edition: str | None = None
    for n in range(1, len(b.lines) + 1):
        line = b.lines[n]
        if n == 1 or not line.strip() or _CHROME.match(line):
            continue  # line 1 is the page title
        if not toc and (entries := toc_entries(line)):
            toc = entries
            continue
        if toc and _EDIT.sub("", line).strip() == toc[0][1]:
            level, title = toc.pop(0)
            path = sections.push(level, title)
            b.section(title, level, path, n)
            stack.clear()
            if _QUOTE_HEAD.match(title):
                ed = _EDITION.search(title)
                quote_edition = (f"{ed.group(1)}-{ed.group(2)}-{ed.group(3)}" if ed
                                 else document.quotes_edition)
            continue
        path = sections.path
        if not path:
            if m := _DEFINES.match(line):
                b.out.defines.append((m.group(1), m.group(2).strip()))
            continue
        if _QUOTE_HEAD.match(path[0]):
            _quote(b, n, line, path, quote_edition)
        elif path[0] in FOOTNOTE_SECTIONS and _FOOTNOTE.match(line):
            b.out.footnotes.append((line, b.locator(n, n, path)))
        else:
            _statement(b, n, line, path, stack)
    return b.out


def _statement(b: Builder, n: int, line: str, path: tuple[str, ...],
               stack: list[tuple[int, str]]) -> None:
    in_rules = path[0] in RULES_SECTIONS
    marker = _BULLET.match(line) or _NUMBERED.match(line)
    if not marker:
        stack.clear()
        if in_rules:  # a rules paragraph is a ruling too (depth 0: not a bullet)
            b.ruling(n, n, 0, path, "ruling", 0)
        return
    indent = len(marker.group(1))
    while stack and stack[-1][0] >= indent:
        stack.pop()
    r = b.ruling(n, n, marker.end(), path, "ruling" if in_rules else "note", len(stack) + 1,
                 stack[-1][1] if stack else None)
    stack.append((indent, r.id))


def _quote(b: Builder, n: int, line: str, path: tuple[str, ...], edition: str | None) -> None:
    head = rule_heading(line, allow_chapter=True)
    if head is None:
        return
    rest = line[head.text_start:]
    b.quoted_rule(head.raw, head.number, n, n, head.text_start, path,
                  "ja" if is_japanese(rest) else "en", edition)
