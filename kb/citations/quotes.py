"""Quotes of rules in arbitrary text, and how a quote differs from the official text (EN by words,
JA by characters; normalisation decides equality only, the ops show the originals)."""
from __future__ import annotations

import re
from difflib import SequenceMatcher

from kb.citations.extract import find_citations, rule_heading
from kb.parse.common import is_japanese
from kb.parse.records import Locator, QuotedRule
from kb.text import normalize

_EXAMPLE = re.compile(r"^[ \t\u3000]*(?:例[：:]|Example:)")
_WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")



# After the number, not a rule's text: a list ("104.2a, 304.5"), or a sentence about the rule
# ("706.7a was a rule…", "107.3iが作られました"): rule texts open with a capital or a noun, not a
# lower-case word or a particle.
_NOT_A_BODY = re.compile(r"^(?:[ \t\u3000]*(?:[,，、・&＆]|and\b|or\b|[0-9０-９]{3})|[ \t]+[a-z]|[はがでのをにもとや])")


def find_quotes(text: str, doc_id: str = "text", *, headings: set[int] = frozenset(),
                original: str | None = None) -> list[tuple[QuotedRule, int, str]]:
    """Lines opening with a rule number followed by text ("601.2e プレイヤーは…", "711.1a.両面…");
    a number alone on its line quotes the next line ("601.2e" then the rule text). ``例：`` /
    ``Example:`` lines below belong to the quote. Each with the 1-based column of its number and
    the quote as written in ``original`` (``text`` may be the markup-stripped copy, same offsets).

    Heading lines (``headings``: "### 107.1b", "**106.6**", a setext-underlined "607.5") and
    lists of numbers ("104.2a, 304.5") are citations, not quotes."""
    lines = text.splitlines()
    shown = (original if original is not None else text).splitlines()
    out: list[tuple[QuotedRule, int, str]] = []
    n = 0
    while n < len(lines):
        line = lines[n]
        head = rule_heading(line) if n + 1 not in headings else None
        if head is None or _NOT_A_BODY.match(line[head.start + len(head.raw):]):
            n += 1
            continue
        first, body, raw_body = n, line[head.text_start:], shown[n][head.text_start:]
        if not body.strip():
            nxt = n + 1
            if nxt < len(lines) and lines[nxt].strip() and rule_heading(lines[nxt]) is None \
                    and nxt + 1 not in headings:
                first, body, raw_body = nxt, lines[nxt], shown[nxt]
            else:
                n += 1
                continue
        last = first
        while last + 1 < len(lines) and _EXAMPLE.match(lines[last + 1]):
            last += 1
            body += "\n" + lines[last]
            raw_body += "\n" + shown[last]
        lang = "ja" if is_japanese(body) else "en"
        q = QuotedRule(head.number, body.strip(), lang, Locator(doc_id, n + 1, last + 1), None, head.raw,
                       citations=find_citations(body))
        out.append((q, head.start + 1, raw_body.strip()))
        n = last + 1
    return out


# ---------------------------------------------------------------- differences


def _char_key(ch: str) -> str:
    return normalize(ch) or " "


def diff(a: str, b: str, *, words: bool) -> dict:
    """Readable ops between a quote ``a`` and the official ``b``: EN by words, JA by characters.
    Normalisation (width, case, quotes, white space) only decides equality; ops show originals."""
    if normalize(a) == normalize(b):
        return {"similarity": 1.0, "identical": True, "ops": [], "summary": "identical"}
    if words:
        ta, tb = _WORD.findall(a), _WORD.findall(b)
        ka, kb_ = [normalize(t) for t in ta], [normalize(t) for t in tb]
        join = " ".join
    else:
        ta = [ch for ch in a if not ch.isspace()]
        tb = [ch for ch in b if not ch.isspace()]
        ka, kb_ = [_char_key(c) for c in ta], [_char_key(c) for c in tb]
        join = "".join
    sm = SequenceMatcher(None, ka, kb_, autojunk=False)
    ops = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal":
            ops.append([tag, join(ta[i1:i2]), join(tb[j1:j2])])
    parts = [f"{q or '∅'} → {o or '∅'}" for _, q, o in ops[:8]]
    summary = f"{len(ops)} difference{'s' * (len(ops) != 1)}: " + "; ".join(parts) + (" …" if len(ops) > 8 else "")
    return {"similarity": round(sm.ratio(), 3), "identical": False, "ops": ops, "summary": summary}
