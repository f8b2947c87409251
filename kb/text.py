"""Normalisation for matching and search only. Source text is never altered for display."""
from __future__ import annotations

import functools
import re
import unicodedata

_KATAKANA_TO_HIRAGANA = {c: c - 0x60 for c in range(0x30A1, 0x30F7)}
_SPACES = re.compile(r"\s+")
# Curly quotes, dashes and the like that vary between editions and between quotes of a rule.
_PUNCT_FOLD = str.maketrans({
    "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
    "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u30fc": "ー",
})


@functools.lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """NFKC (full/half width), casefold, fold quotes/dashes, collapse white space."""
    text = unicodedata.normalize("NFKC", text).translate(_PUNCT_FOLD).casefold()
    return _SPACES.sub(" ", text).strip()


def normalize_kana(text: str) -> str:
    """normalize() plus katakana folded to hiragana, so よじ matches ヨジ."""
    return normalize(text).translate(_KATAKANA_TO_HIRAGANA)


def compact(text: str) -> str:
    """normalize() without any white space: Japanese scrapes insert stray spaces (基本 土地)."""
    return _SPACES.sub("", normalize(text))


_DIFF_TOKENS = re.compile(r"\s+|[\w’'\-.]+|[^\w\s]")


def word_diff(before: str, after: str) -> list[list[str]]:
    """How ``after`` differs from ``before``, for display: [op, text] runs where op is "same",
    "del" or "ins" (words and white space kept, so joining same+ins gives ``after`` exactly)."""
    import difflib

    a, b = _DIFF_TOKENS.findall(before or ""), _DIFF_TOKENS.findall(after or "")
    out: list[list[str]] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1][1] += text
        else:
            out.append([op, text])
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            add("same", "".join(a[i1:i2]))
        else:
            add("del", "".join(a[i1:i2]))
            add("ins", "".join(b[j1:j2]))
    return out
