"""MediaWiki source as seen in the editor (「昼」を編集中): ==sections==, * bullets (nested bullets
are their own rulings), paragraphs of the rules sections, '''昼'''/''Day'' definitions,
[[links]], {{#Card:…}}, <ref> footnotes."""
from __future__ import annotations

import re
from typing import Callable

from kb.parse.card_mentions import find_wiki_links
from kb.parse.common import Builder, SectionPath
from kb.parse.records import Document, ParsedDocument

_EDITOR_CHROME = re.compile(r"^「.+」を編集中$")
_HEADING = re.compile(r"^(={2,6})\s*(.+?)\s*\1\s*$")
_BULLET = re.compile(r"^(\*+)\s*")
_DEFINES = re.compile(r"'''([^']+)'''\s*/\s*''([^']+)''")
_REF = re.compile(r"<ref(?:\s[^>]*)?>(.*?)</ref>", re.S)
_SKIP_LINE = re.compile(r"^(?:<references\s*/>|\{\{.*\}\}|__\w+__)\s*$")
# Sections whose content is about the game rules; elsewhere bullets are trivia/links ("note").
RULES_SECTIONS = {"ルール", "ルーリング", "定義"}


def parse(text: str, document: Document, *, is_card: Callable[[str], bool] | None = None
          ) -> ParsedDocument:
    b = Builder(document, is_card)
    sections = SectionPath()
    stack: list[tuple[int, str]] = []  # (bullet depth, ruling id) of the open bullets
    for n in range(1, len(b.lines) + 1):
        line = b.lines[n]
        if n == 1 and _EDITOR_CHROME.match(line):
            continue
        if h := _HEADING.match(line):
            path = sections.push(len(h.group(1)) - 1, h.group(2))
            b.section(h.group(2), len(h.group(1)) - 1, path, n)
            stack.clear()
            continue
        if not line.strip() or _SKIP_LINE.match(line):
            continue
        path = sections.path
        in_rules = bool(path) and path[0] in RULES_SECTIONS
        links = [link.target for link in find_wiki_links(line)]
        if bm := _BULLET.match(line):
            depth = len(bm.group(1))
            while stack and stack[-1][0] >= depth:
                stack.pop()
            r = b.ruling(n, n, bm.end(), path, "ruling" if in_rules else "note", depth,
                         stack[-1][1] if stack else None, links)
            stack.append((depth, r.id))
        elif not path:
            b.out.defines.extend((ja.strip(), en.strip()) for ja, en in _DEFINES.findall(line))
        elif in_rules:  # a rules paragraph is a ruling too (depth 0: not a bullet)
            stack.clear()
            b.ruling(n, n, 0, path, "ruling", 0, None, links)
        else:
            stack.clear()
    _footnotes(b)
    return b.out


def _footnotes(b: Builder) -> None:
    sections = SectionPath()
    for n in range(1, len(b.lines) + 1):
        line = b.lines[n]
        if h := _HEADING.match(line):
            sections.push(len(h.group(1)) - 1, h.group(2))
        for m in _REF.finditer(line):
            b.out.footnotes.append((m.group(1), b.locator(n, n, sections.path)))
