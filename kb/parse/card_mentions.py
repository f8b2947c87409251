"""Find card mentions: 《修道院の若者》, {{#Card:The Celestus}}, wiki links that are cards, and
"JA名/English Name" pairs in rendered wiki text (card or mechanic: the caller decides)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

from kb.citations.extract import line_col, line_starts
from kb.parse.records import CardMention

_JA_BRACKET = re.compile(r"《([^》\n]{1,60})》")
_CARD_TEMPLATE = re.compile(r"\{\{#Card:\s*([^}|\n]+?)\s*\}\}")
_WIKI_LINK = re.compile(r"\[\[([^\[\]|\n]+)(?:\|([^\[\]\n]*))?\]\]")
_ASCII_NAME = re.compile(r"[ -~]+")


@dataclass(slots=True, frozen=True)
class WikiLink:
    raw: str  # "[[夜帳の死霊/Nightveil Specter]]"
    target: str  # "夜帳の死霊/Nightveil Specter", "#昼から夜…" for an in-page anchor
    label: str | None  # text after "|"
    ja: str | None  # JA half of "日本語/English", or the whole target when it is Japanese
    en: str | None  # EN half, or the whole target when it is plain ASCII ("Nightmare Moon")
    line: int
    column: int
    start: int
    end: int


@dataclass(slots=True, frozen=True)
class SlashName:
    """A plain-text "JA/EN" pair. ``ja`` is the run of Japanese before the slash and may carry
    leading words ("例えば翻弄する魔道士"): match by ``en``, then by suffix of ``ja``."""

    ja: str
    en: str
    line: int
    column: int
    start: int
    end: int


def _split_ja_en(target: str) -> tuple[str | None, str | None]:
    if "/" in target:
        ja, _, en = target.partition("/")
        if _ASCII_NAME.fullmatch(en.strip()) and not _ASCII_NAME.fullmatch(ja.strip()):
            return ja.strip(), en.strip()
    if _ASCII_NAME.fullmatch(target):
        return None, target.strip()
    return target.strip(), None


def find_wiki_links(text: str, line_offset: int = 0) -> list[WikiLink]:
    """Every ``[[target]]`` / ``[[target|label]]`` link, cards or not."""
    starts = line_starts(text)
    out = []
    for m in _WIKI_LINK.finditer(text):
        target = m.group(1).strip()
        ja, en = _split_ja_en(target) if not target.startswith("#") else (None, None)
        line, col = line_col(starts, m.start())
        out.append(WikiLink(m.group(), target, m.group(2), ja, en, line + line_offset, col,
                            m.start(), m.end()))
    return out


def iter_cards(text: str, line_offset: int = 0, is_card: Callable[[str], bool] | None = None
               ) -> Iterator[tuple[int, int, CardMention]]:
    """(start, end, mention) for each card mention, in text order."""
    starts = line_starts(text)
    hits: list[tuple[int, int, str, str | None, str | None]] = []
    for m in _JA_BRACKET.finditer(text):
        name = m.group(1).replace("<", "").strip()  # 《エルフの再生<》: a stray "<" in a scrape
        hits.append((m.start(), m.end(), name, name, None))
    for m in _CARD_TEMPLATE.finditer(text):
        hits.append((m.start(), m.end(), m.group(1), None, m.group(1)))
    if is_card is not None:
        for link in find_wiki_links(text):
            if not link.target.startswith("#") and is_card(link.target):
                name = link.label or link.ja or link.en or link.target
                hits.append((link.start, link.end, name, link.ja, link.en))
    for start, end, name, ja, en in sorted(hits):
        line, col = line_col(starts, start)
        yield start, end, CardMention(text[start:end], name, ja, en, line + line_offset, col)


def find_cards(text: str, line_offset: int = 0, is_card: Callable[[str], bool] | None = None
               ) -> list[CardMention]:
    """Card mentions: 《JA名》, {{#Card:EN}}, and ``[[…]]`` links for which ``is_card(target)``
    is true (a wiki link alone does not say whether it names a card)."""
    return [m for _, _, m in iter_cards(text, line_offset, is_card)]


_JA_CHAR = r"\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff10-\uff5a・ー＝＋+、"
_EN_WORD = r"(?:[A-Za-z0-9][A-Za-z0-9'’+\-]*|\[[A-Za-z ]+\])"  # "[a card]" in "Manifest [a card]"
_SLASH = re.compile(
    rf"(?P<ja>[{_JA_CHAR}]*[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff][{_JA_CHAR}]*)\s?[/／]\s?"
    rf"(?P<en>[A-Za-z][A-Za-z0-9'’+\-]*(?:(?:, | |: |-){_EN_WORD})*)")


# A match starts where a run of JA characters does: inside a run, every start reaches the same run
# end (a slash must follow it) with fewer kana, so if the run's first start fails so do the others.
# Searching run starts only is what _SLASH.finditer finds, without trying each start of every run
# (quadratic in a long JA paragraph without a slash: most of a build's card-mention time).
_SLASH_AT_RUN = re.compile(rf"(?<![{_JA_CHAR}])" + _SLASH.pattern)


def _slash_matches(text: str):
    """The matches of ``_SLASH.finditer(text)``."""
    pos = 0
    while pos < len(text):
        m = _SLASH.match(text, pos) or _SLASH_AT_RUN.search(text, pos + 1)
        if m is None:
            return
        yield m
        pos = m.end()


def find_slash_names(text: str, line_offset: int = 0) -> list[SlashName]:
    """"不自然な月の出/Unnatural Moonrise", "部屋/Room", "予示する／Manifest" in plain text."""
    starts = line_starts(text)
    out = []
    for m in _slash_matches(text):
        ja = m.group("ja").lstrip("、")
        start = m.start("ja") + (len(m.group("ja")) - len(ja))
        line, col = line_col(starts, start)
        out.append(SlashName(ja, m.group("en"), line + line_offset, col, start, m.end()))
    return out
