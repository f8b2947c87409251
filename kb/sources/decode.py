"""Bytes -> text as published: the encoding detected (and recorded), nothing replaced or dropped."""
from __future__ import annotations

import codecs
import re


def decode(data: bytes) -> tuple[str, str]:
    """(text without BOM, encoding). Official CR files come as UTF-8 with or without a BOM, UTF-16
    LE/BE with a BOM, or Windows-1252 (2013-2018); nothing is ever replaced or dropped."""
    if data.startswith(codecs.BOM_UTF8) and _utf8(data[3:]):
        return data[3:].decode("utf-8"), "utf-8-sig"
    for bom, name in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom) and (text := _try(data[2:], name)) is not None:
            return text, name
    sample = data[:4096]
    if len(sample) >= 4 and sample.count(0) * 3 >= len(sample):  # UTF-16 without a BOM
        name = "utf-16-le" if sample[1::2].count(0) > sample[0::2].count(0) else "utf-16-be"
        if (text := _try(data, name)) is not None:
            return text, name
    if _utf8(data):
        return data.decode("utf-8"), "utf-8"
    return max(((text, name) for name in SINGLE_BYTE if (text := _try(data, name)) is not None),
               key=lambda pair: _plausibility(pair[0]))


# Single-byte encodings seen in official files: Windows-1252 (2014-2018), and DOS code page 437
# for the accented card names of 2013 ("Dand\x83n" is Dandân). Latin-1 decodes anything.
SINGLE_BYTE = ("cp1252", "cp437", "latin-1")
_TYPOGRAPHIC = "’‘“”–—…™®©•"
_OTHER_NON_ASCII = re.compile(f"[^\\x00-\\x7f{_TYPOGRAPHIC}]")


def _try(data: bytes, name: str) -> str | None:
    try:
        return data.decode(name)
    except UnicodeDecodeError:
        return None


def _plausibility(text: str) -> int:
    """Higher when the non-ASCII characters read as text: typographic marks, or accented letters
    inside words; lower for symbols and controls where a letter belongs."""
    score = sum(map(text.count, _TYPOGRAPHIC))  # the bulk of a CR's non-ASCII: counted in C
    for found in _OTHER_NON_ASCII.finditer(text):
        index, ch = found.start(), found.group()
        inside = ch.isalpha() and 0 < index < len(text) - 1 and text[index - 1].isalpha() and text[index + 1].isalpha()
        score += 1 if inside else -1
    return score


def looks_like_text(text: str) -> bool:
    """False for binary data read as text: control characters where text would have none."""
    controls = sum(1 for ch in text[:65536] if ord(ch) < 32 and ch not in "\t\n\r\f\v")
    return controls * 100 <= len(text[:65536])


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
