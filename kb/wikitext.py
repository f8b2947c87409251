"""The one wiki-markup cleaner: what a reader sees of a wiki-derived text.

MediaWiki source and rendered wiki pages carry markup a page must never show: ``[[target|label]]``
links (and ``[[#section|label]]``), ``{{templates}}`` (``{{#Card:Name}}`` reads as the card's name),
``<ref>…</ref>`` footnotes, ``^[1]`` / ``[3][4]`` footnote markers, ``'''bold'''`` quotes, a few
HTML tags and a rendered page's ``page#section`` links (``分割カード#ルーリング``).

The build cleans every document text once (kb.build.model stores ``display`` beside the original
``text``, which is never altered); lookups, the CLI, the API and every page read ``display``.
``LINK`` is also what kb.citations.markup blanks when it hides markup from the citation finder.
"""
from __future__ import annotations

import re

LINK = re.compile(r"\[\[([^\[\]|\n]*)(?:\|([^\[\]\n]*))?\]\]")  # [[target]] / [[target|label]]
_REF = re.compile(r"<ref[^>/]*>.*?</ref>|<ref[^>]*/>|<references\s*/>", re.S)
_CARD = re.compile(r"\{\{#Card:\s*([^{}|\n]+?)\s*\}\}")
_TEMPLATE = re.compile(r"\{\{[^{}]*\}\}")
_EXTERNAL = re.compile(r"\[(?:https?:)?//[^\s\]]+(?:\s+([^\]]*))?\]")
# footnote markers: "^[1]", a run "^[2][3][4]" (rendered pages print the caret once), "[3][4]"
_NOTE_MARKS = re.compile(r"\^?(?:\[[1-9]\d{0,2}\])+(?![(:])")  # not a loyalty cost "[0]:"
_QUOTES = re.compile(r"'''''|'''|''")
_TAG = re.compile(r"</?(?:br|span|small|big|b|i|u|s|sup|sub|nowiki|div|center)\b[^>]*>", re.I)
# a rendered page's link to a section of another page: 分割カード#ルーリング -> 分割カード（ルーリング）
_JA = r"\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff・ー"
_NAME = r"\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff・ーA-Za-z0-9"  # a section name: no hiragana (を参照)
_PAGE_SECTION = re.compile(rf"(?<=[{_JA}A-Za-z0-9])#([{_NAME}]+)")
_SPACES = re.compile(r"[ \t]{2,}")
MARKUP_CHARS = frozenset("[<'^{#")


def _link(m: re.Match) -> str:
    target, label = m[1], m[2]
    if label is not None:
        return label
    return target.lstrip("#:").replace("#", "（", 1) + "）" if "#" in target.lstrip("#:") else target.lstrip("#:")


def visible(text: str | None) -> str:
    """The visible text of a wiki-marked-up text (display and matching only; never stored over
    the source text)."""
    if not text or not any(c in MARKUP_CHARS for c in text):
        return text or ""
    out = _REF.sub("", text)
    out = _CARD.sub(lambda m: m[1], out)
    for _ in range(3):  # {{a|{{b}}}} and [[[カード]]を] nest once or twice at most
        out, n = _TEMPLATE.subn("", out)
        if not n:
            break
    for _ in range(3):
        out, n = LINK.subn(_link, out)
        if not n:
            break
    out = _EXTERNAL.sub(lambda m: m[1] or "", out)
    out = _NOTE_MARKS.sub("", out)
    out = _QUOTES.sub("", out)
    out = _TAG.sub("", out)
    out = _PAGE_SECTION.sub(lambda m: f"（{m[1]}）", out)
    return "\n".join(_SPACES.sub(" ", line).strip() for line in out.split("\n")).strip()


# What must never reach a reader: a test crawls every page kind for these (tests/server).
LEFTOVER = re.compile(r"\[\[|\]\]|\{\{|\}\}|<ref|\^\[\d|\]\[\d+\]|(?<![\d.])\[[1-9]\d?\](?![(:])"
                      rf"|[{_JA}]#[{_NAME}]")


def leftover(text: str) -> list[str]:
    """Raw markup left in a text meant for reading (empty when clean)."""
    return [m.group() for m in LEFTOVER.finditer(text or "")]
