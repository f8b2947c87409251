"""Text helpers: normalisation for matching and search (source text is never altered for display)
and word diffs for display."""
from __future__ import annotations

import functools
import re
import unicodedata
from difflib import SequenceMatcher

_KATAKANA_TO_HIRAGANA = {c: c - 0x60 for c in range(0x30A1, 0x30F7)}
_SPACES = re.compile(r"\s+")
# Curly quotes, dashes and the like that vary between editions and between quotes of a rule.
_PUNCT_FOLD = str.maketrans({
    "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
    "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u30fc": "ー",
})


REMINDER = re.compile(r"\([^)]*\)")  # a card's reminder text


@functools.lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """NFKC (full/half width), casefold, fold quotes/dashes, collapse white space."""
    text = unicodedata.normalize("NFKC", text).translate(_PUNCT_FOLD).casefold()
    return _SPACES.sub(" ", text).strip()


def without_reminder_text(text: str) -> str:
    """A card's Oracle text without its parenthesised reminder text (it restates a rule)."""
    return REMINDER.sub(" ", text)


def normalize_kana(text: str) -> str:
    """normalize() plus katakana folded to hiragana, so よじ matches ヨジ."""
    return normalize(text).translate(_KATAKANA_TO_HIRAGANA)


def compact(text: str) -> str:
    """normalize() without any white space: Japanese scrapes insert stray spaces (基本 土地)."""
    return _SPACES.sub("", normalize(text))


TITLE_MAX = 70  # the CR's longest titles are ~52 characters; its short sentences end in punctuation
_CLOSERS = "”\"’')）」』]"
_SENTENCE_ENDS = (".", "。", ":", "：")  # not "!": 702.179 "Start Your Engines!" is a title


def is_title(text: str) -> bool:
    """A rule text that is only a title ("702.2 Deathtouch", "731 Day and Night", 「昼と夜」), not a
    rule that says something: short, one line, and not ending as a sentence or a lead-in does,
    closing quotes and brackets aside ("700.4 The term dies means “is put into a graveyard from the
    battlefield.”", "113.1 An ability can be one of three things:", 「…参照。)」 are rules)."""
    text = text.strip()
    return len(text) < TITLE_MAX and "\n" not in text and not text.rstrip(_CLOSERS).rstrip().endswith(_SENTENCE_ENDS)


# Input numbers: a count, cost, limit or power here never needs more digits than this; Python refuses
# to convert more than 4,300 (ValueError, a 500 before), and a product of two long ones can pass that.
MAX_DIGITS = 100
_ASCII_INT = re.compile(r"[+-]?[0-9]+")


class TooManyDigits(ValueError):
    """An integer of more than MAX_DIGITS digits in input (``digits``: how many it has)."""

    def __init__(self, digits: int):
        super().__init__(f"a number of {digits} digits; at most {MAX_DIGITS}")
        self.digits = digits


def read_int(raw: str) -> int:
    """``int(raw)`` for text from users, the one place input integers are read: ASCII digits only
    (int() also takes "１２" and "1_000"), at most MAX_DIGITS of them (TooManyDigits), else ValueError."""
    raw = raw.strip()
    if not _ASCII_INT.fullmatch(raw):
        raise ValueError(f"not an integer: {raw[:40]!r}")
    digits = len(raw.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise TooManyDigits(digits)
    return int(raw)


def _json_int(raw: str) -> int:
    if len(raw) > MAX_DIGITS + 1:
        raise TooManyDigits(len(raw.lstrip("-")))
    return int(raw)


def _long_number_field(text: str) -> str:
    """Where in a JSON text the first over-long integer is: its key ("text"), or "an array item"."""
    found = re.search(r'"((?:[^"\\]|\\.){0,200})"\s*:\s*-?[0-9]{%d,}' % (MAX_DIGITS + 1), text)
    return found[1] if found else "an array item"


def json_loads_number_checked(text: str, error):
    """``json.loads`` with integers bounded (MAX_DIGITS): an over-long one raises ``error(field, detail)``,
    ``field`` the key that holds it, ``detail`` "a number of 5001 digits; at most 100"."""
    import json
    try:
        return json.loads(text, parse_int=_json_int)
    except TooManyDigits as exc:
        raise error(_long_number_field(text), str(exc)) from None


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
    # Nesting is never deeper than the number of opening brackets (those inside strings included):
    # a body with no more than the limit in all needs no scan.
    few = text.count("[") + text.count("{") <= max_depth
    for bracket in () if few else JSON_BRACKET.finditer(JSON_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > max_depth:
            raise InvalidJSON(f"{what} nests arrays/objects deeper than {max_depth} levels")
    try:
        return json_loads_number_checked(text, lambda field, detail: InvalidJSON(f"{what}: {field}: {detail}", field=field))
    except json.JSONDecodeError as err:
        raise InvalidJSON(f"{what} is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise InvalidJSON(f"{what} nests arrays/objects deeper than {max_depth} levels") from None


# ---------------------------------------------------------------- word diffs (for display)

WORD = re.compile(r"^\s+|\S+\s*")  # a word with the white space after it (and any leading space)


def tokens(text: str, lang: str) -> list[str]:
    """Words, each with the white space after it (EN), or characters (JA): joined, the original
    text. Keeping the spaces out of the sequence makes the matcher several times faster (a lone
    space is the commonest token there is) and changes no result: words are compared without them."""
    return WORD.findall(text or "") if lang == "en" else list(text or "")


def text_diff(old: str, new: str, lang: str = "en") -> list[dict]:
    """[{op: equal|delete|insert, text}] turning ``old`` into ``new``; tokens are compared
    normalised, each op carries the original text of its side (equal: the new side's)."""
    a, b = tokens(old, lang), tokens(new, lang)
    key_a, key_b = [normalize(t) or " " for t in a], [normalize(t) or " " for t in b]  # normalize strips
    out: list[dict] = []

    def put(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1]["op"] == op:
            out[-1]["text"] += text
        else:
            out.append({"op": op, "text": text})

    # A short run left equal between two changes ("the", a space) is folded into them, so a
    # rewritten sentence reads as one deletion and one insertion rather than alternating words.
    pending_del, pending_ins = [], []

    def flush() -> None:
        deleted, inserted = "".join(pending_del), "".join(pending_ins)
        # the space both sides end with belongs to what follows: "a [-b-]{+x+} c", not "a [-b -]{+x +}c"
        space = _common_trailing_space(deleted, inserted)
        if space:
            deleted, inserted = deleted[:-len(space)], inserted[:-len(space)]
        put("delete", deleted)
        put("insert", inserted)
        put("equal", space)
        pending_del.clear()
        pending_ins.clear()

    for op, i1, i2, j1, j2 in _cleaned(SequenceMatcher(None, key_a, key_b, autojunk=False).get_opcodes(), b, lang):
        if op == "equal":
            flush()
            _put_equal(put, a[i1:i2], b[j1:j2])
        else:
            pending_del.extend(a[i1:i2])
            pending_ins.extend(b[j1:j2])
    flush()
    return out


def _put_equal(put, a: list[str], b: list[str]) -> None:
    """Equal words in the new side's spelling; a space only one side has after a word (a sentence
    run together, a line ending where the other text goes on) is deleted or inserted, so that each
    side still reads back exactly."""
    if a == b:  # the commonest case: the same words with the same spaces
        put("equal", "".join(b))
        return
    run = []
    for old, new in zip(a, b):
        old_space, new_space = old[len(old.rstrip()):], new[len(new.rstrip()):]
        if bool(old_space) == bool(new_space):
            run.append(new)
            continue
        run.append(new.rstrip())
        put("equal", "".join(run))
        run = []
        put("delete", old_space) if old_space else put("insert", new_space)
    put("equal", "".join(run))


def _common_trailing_space(a: str, b: str) -> str:
    if not a or not b:
        return ""
    space_a, space_b = a[len(a.rstrip()):], b[len(b.rstrip()):]
    n = 0
    while n < min(len(space_a), len(space_b)) and space_a[-1 - n] == space_b[-1 - n]:
        n += 1
    return space_b[len(space_b) - n:] if n else ""


def _cleaned(opcodes: list, b: list[str], lang: str) -> list:
    """Equal runs of at most two words (EN) or two characters (JA) between changes become changes."""
    small = 2
    out = []
    for index, (op, i1, i2, j1, j2) in enumerate(opcodes):
        inner = 0 < index < len(opcodes) - 1
        size = sum(1 for t in b[j1:j2] if t.strip()) if lang == "en" else j2 - j1
        out.append(("replace", i1, i2, j1, j2) if op == "equal" and inner and size <= small else (op, i1, i2, j1, j2))
    return out


def same_text(old: str, new: str) -> bool:
    return normalize(old or "") == normalize(new or "")


def render(ops: list[dict]) -> str:
    """A diff as one line of plain text: [-deleted-]{+inserted+}."""
    marks = {"equal": "{}", "delete": "[-{}-]", "insert": "{{+{}+}}"}
    return "".join(marks[o["op"]].format(o["text"]) for o in ops)
