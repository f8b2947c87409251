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


JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
JSON_BRACKET = re.compile(r"[\[\]{}]")
JSON_MAX_DEPTH = 32


def json_loads_bounded(text: str, max_depth: int = JSON_MAX_DEPTH, what: str = "the JSON"):
    """``json.loads`` for input from users: nesting deeper than ``max_depth`` (arrays and objects) is
    refused before decoding (InvalidJSON: a 400 / CLI exit 2), as is anything that is not JSON, so no
    input reaches a recursive decoder or validator deep enough to exhaust the stack."""
    import json

    from kb.errors import InvalidJSON

    depth = 0
    for bracket in JSON_BRACKET.finditer(JSON_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > max_depth:
            raise InvalidJSON(f"{what} nests arrays/objects deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InvalidJSON(f"{what} is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise InvalidJSON(f"{what} nests arrays/objects deeper than {max_depth} levels") from None
