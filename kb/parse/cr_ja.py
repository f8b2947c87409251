"""Japanese Comprehensive Rules (総合ルール), as scraped line by line from the mtg-jp HTML page.

Format (see ../shared/data/README.md, "Japanese format quirks"): no blank lines; rule numbers in
the same form as EN (``100.1.`` / ``100.1a``); examples start with ``例：`` or ``例:``; the TOC
(``もくじ``) ends at the line ``マジック：ザ・ギャザリング　総合ルール``; the intro is
``0. はじめに`` (not a rule: the EN CR's introduction is unnumbered); glossary entries are
``用語（よみ）／English`` followed by definition lines indented with ``　`` (or not, for numbered
senses and ``(廃語)``); ``クレジット`` starts the credits; the last line gives the effective date.

The parser is a small state machine: one function per kind of line, tried in the order listed in
``_BODY_RULES``. Scrape artifacts (``基本 土地``, ``《エルフの再生<》``, double spaces) are kept.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from kb.parse.records import CREdition, Document, Example, GlossaryEntry, Locator, Rule

TITLE_LINE = "マジック：ザ・ギャザリング　総合ルール"
TOC_LINE = "もくじ"
CREDITS_LINE = "クレジット"
GLOSSARY_TITLES = ("10. 用語集", "用語集")
INTRO_NUMBER = "0"

# The number may run straight into the text: 702.176.兆候, 708.12裏向き, 709.5b共有.
_RULE = re.compile(r"^(?P<num>\d{3}\.\d+[a-z]?)\.?(?: |\u3000|$|(?=[^\x00-\x7f]))(?P<text>.*)$", re.S)
_SECTION = re.compile(r"^(?P<num>\d{3})(?P<gap> ?)\.[ \u3000](?P<text>.+)$")  # also "720 . 前兆カード"
_CHAPTER = re.compile(r"^(?P<num>\d)\.[ \u3000](?P<text>.+)$")
_EXAMPLE = re.compile(r"^例[：:]")
_TERM = re.compile(r"^(?P<term>[^\s\u3000].*?)（(?P<reading>[^（）]+)）／(?P<en>.+)$")
_EFFECTIVE = re.compile(r"このルールは(\d{4})年(\d{1,2})月(\d{1,2})日から有効です")
_OBSOLETE = re.compile(r"^[(（]廃語[)）]")
_SENSE_START = re.compile(r"^(\d+)\. ")
# A sense number inside a line: "…先である。2. ライブラリーに…"
_SENSE_INLINE = re.compile(r"(?<=。)\s*(\d+)\. ")
# "…総称。　rule 401〔ライブラリー〕参照。": the cross-reference shared by all senses.
_SHARED_SEE = re.compile(r"\u3000+[^\u3000]*参照。?$")


@dataclass
class _State:
    doc_id: str
    rules: list[Rule] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    mode: str = "body"  # "body" | "intro" | "glossary" | "credits"
    chapter: str | None = None  # heading as printed, for locator section paths
    section: str | None = None
    glossary_title: str = "用語集"
    term: dict | None = None  # glossary entry being collected
    seen: dict[str, int] = field(default_factory=dict)  # rule number -> first line
    warnings: list[tuple[int, str]] = field(default_factory=list)

    def path(self) -> tuple[str, ...]:
        return tuple(p for p in (self.chapter, self.section) if p)


# ---------------------------------------------------------------- public API


def parse_cr_ja(text: str, document: Document, edition: str | None = None,
                complete: bool | None = None) -> CREdition:
    """Parse Japanese CR text into a CREdition (lang "ja").

    ``edition`` (ISO date) is used when the text lacks the closing effective-date line (an
    excerpt); failing both, ``document.date``. ``complete`` defaults to whether the text is the
    whole document (its title line and its closing effective-date line are both there).
    """
    text = text.lstrip("\ufeff")
    lines = text.splitlines()
    start, title = _body_start(lines)
    state = _State(doc_id=document.id)
    for lineno in range(start + 1, len(lines) + 1):
        _feed(state, lines[lineno - 1], lineno)
    _close_term(state)
    effective = _effective_date(lines, edition, document)
    if complete is None:
        complete = start > 0 and any(_EFFECTIVE.search(line) for line in lines[-5:])
    return CREdition(edition=effective.isoformat(), effective=effective, lang="ja", title=title,
                     document=document, rules=state.rules, glossary=state.glossary,
                     complete=complete, warnings=sorted(state.warnings))


# ---------------------------------------------------------------- document structure


def _body_start(lines: list[str]) -> tuple[int, str]:
    """Index of the first body line (0-based) and the title. Skips the notice and the TOC."""
    for i, line in enumerate(lines):
        if line.strip() == TITLE_LINE:
            return i + 1, TITLE_LINE
    if any(line.strip() == TOC_LINE for line in lines):
        # No title line: the body starts where the first TOC entry is repeated.
        toc = next(i for i, line in enumerate(lines) if line.strip() == TOC_LINE)
        first = lines[toc + 1].strip() if toc + 1 < len(lines) else ""
        for i in range(toc + 2, len(lines)):
            if lines[i].strip() == first:
                return i, TITLE_LINE
        return len(lines), TITLE_LINE
    return 0, TITLE_LINE


def _effective_date(lines: list[str], edition: str | None, document: Document) -> date:
    for line in reversed(lines):
        m = _EFFECTIVE.search(line)
        if m:
            return date(int(m[1]), int(m[2]), int(m[3]))
    if edition:
        return date.fromisoformat(edition)
    if document.date:
        return document.date
    raise ValueError(f"{document.id}: no effective-date line and no edition given")


# ---------------------------------------------------------------- line handlers


def _feed(st: _State, line: str, lineno: int) -> None:
    if st.mode == "credits":
        return  # credits and trademark lines never become records
    stripped = line.strip()
    if not stripped:
        return
    for handler in _BODY_RULES:
        if handler(st, line, stripped, lineno):
            return


def _on_credits(st: _State, line: str, stripped: str, lineno: int) -> bool:
    if stripped != CREDITS_LINE:
        return False
    _close_term(st)
    st.mode = "credits"
    return True


def _on_glossary_title(st: _State, line: str, stripped: str, lineno: int) -> bool:
    if st.mode == "glossary" or stripped not in GLOSSARY_TITLES:
        return False
    st.mode, st.glossary_title = "glossary", stripped
    return True


def _on_term(st: _State, line: str, stripped: str, lineno: int) -> bool:
    if _RULE.match(line) or _EXAMPLE.match(line):
        return False
    m = _TERM.match(line.rstrip())
    if not m:
        return False
    _close_term(st)
    st.mode = "glossary"
    st.term = {"term": m["term"], "reading": m["reading"], "en": m["en"],
               "start": lineno, "end": lineno, "lines": []}
    return True


def _on_definition(st: _State, line: str, stripped: str, lineno: int) -> bool:
    if st.mode != "glossary":
        return False
    if st.term is not None:  # a line before the first term (e.g. a stray heading) is dropped
        st.term["lines"].append(line[1:] if line.startswith("\u3000") else line)
        st.term["end"] = lineno
    return True


def _on_chapter(st: _State, line: str, stripped: str, lineno: int) -> bool:
    m = _CHAPTER.match(line)
    if not m:
        return False
    st.chapter, st.section = None, None  # a heading's locator path excludes the heading itself
    record = _rule(st, m["num"], "chapter", m["text"], line, lineno, None)
    st.chapter = line.rstrip()
    if m["num"] == INTRO_NUMBER:
        st.mode = "intro"  # 0. はじめに: prose, not rules
        return True
    st.mode = "body"
    st.rules.append(record)
    return True


def _on_section(st: _State, line: str, stripped: str, lineno: int) -> bool:
    m = _SECTION.match(line)
    if not m or _RULE.match(line):
        return False
    st.mode, st.section = "body", None
    if m["gap"]:
        st.warnings.append((lineno, f"section heading written {line[:5]!r}: read as section {m['num']}"))
    st.rules.append(_rule(st, m["num"], "section", m["text"], line, lineno, m["num"][0]))
    st.section = line.rstrip()
    return True


def _on_rule(st: _State, line: str, stripped: str, lineno: int) -> bool:
    m = _RULE.match(line)
    if not m:
        return False
    st.mode = "body"
    number = m["num"]
    head, _, tail = number.partition(".")
    if tail[-1].isalpha():
        kind, parent = "subrule", f"{head}.{tail[:-1]}"
    else:
        kind, parent = "rule", head
    text = m["text"]
    if not text.strip():  # the number on a line of its own (500.10a): the text is the next line
        text = text.strip()
    if number in st.seen:  # both kept (the JA 505.4 is printed twice); the repeat has its own id
        copy = 2
        while f"{number}~{copy}" in st.seen:
            copy += 1
        st.warnings.append((lineno, f"rule {number} appears twice (first at line {st.seen[number]}): "
                                    f"the repeat is kept as {number}~{copy}"))
        number = f"{number}~{copy}"
    st.seen[number] = lineno
    st.rules.append(_rule(st, number, kind, text, line, lineno, parent))
    return True


def _on_example(st: _State, line: str, stripped: str, lineno: int) -> bool:
    if not _EXAMPLE.match(line):
        return False
    if st.mode == "body" and st.rules and st.rules[-1].kind in ("rule", "subrule"):
        rule = st.rules[-1]
        rule.examples.append(Example(text=line, locator=_loc(st, lineno, lineno)))
    return True


def _on_continuation(st: _State, line: str, stripped: str, lineno: int) -> bool:
    """Any other line: prose continuing the current rule; dropped outside rules (intro, notice)."""
    if st.mode != "body" or not st.rules or st.rules[-1].kind not in ("rule", "subrule"):
        return True
    rule = st.rules[-1]
    if rule.examples:  # text after an example continues the example
        ex = rule.examples[-1]
        rule.examples[-1] = Example(text=ex.text + "\n" + line,
                                    locator=_loc(st, ex.locator.line_start, lineno))
        return True
    rule.text += ("\n" if rule.text else "") + line
    rule.raw += "\n" + line
    rule.locator = _loc(st, rule.locator.line_start, lineno)
    return True


# Order matters: credits end everything; glossary lines are tried before headings so that the
# numbered senses ("1. 領域の1つ…") inside the glossary are not read as chapters.
_BODY_RULES = (
    _on_credits,
    _on_glossary_title,
    _on_term,
    _on_definition,
    _on_chapter,
    _on_section,
    _on_rule,
    _on_example,
    _on_continuation,
)


# ---------------------------------------------------------------- record builders


def _loc(st: _State, start: int, end: int) -> Locator:
    return Locator(document=st.doc_id, line_start=start, line_end=end, section=st.path())


def _rule(st: _State, number: str, kind: str, text: str, line: str, lineno: int,
          parent: str | None) -> Rule:
    return Rule(number=number, kind=kind, text=text, raw=line, locator=_loc(st, lineno, lineno),
                parent=parent)


def _close_term(st: _State) -> None:
    t = st.term
    if t is None:
        return
    st.term = None
    body = "\n".join(t["lines"])
    st.glossary.append(GlossaryEntry(
        term=t["term"], text=body,
        locator=Locator(document=st.doc_id, line_start=t["start"], line_end=t["end"],
                        section=(st.glossary_title,)),
        reading=t["reading"], term_en=t["en"], senses=split_senses(t["lines"]),
        obsolete=any(_OBSOLETE.match(x) for x in t["lines"]),
    ))


def split_senses(lines: list[str]) -> list[str]:
    """Numbered senses of a definition: ["1. …", "2. …"], or [] when it has a single sense.

    Senses may be on their own lines or run together on one line ("…。2. …"); a trailing
    "　rule 401〔…〕参照。" after the last sense is shared by all senses and not part of one.
    """
    if not lines or not _SENSE_START.match(lines[0]) or _SENSE_START.match(lines[0])[1] != "1":
        return []
    senses: list[str] = []
    for line in lines:
        if not _SENSE_START.match(line):
            if senses and not line.lstrip("\u3000 ").startswith("rule"):
                senses[-1] += "\n" + line
            continue
        senses.extend(_split_inline(line, len(senses) + 1))
    if senses:
        senses[-1] = _SHARED_SEE.sub("", senses[-1])
    return senses if len(senses) > 1 else []


def _split_inline(line: str, expected: int) -> list[str]:
    parts, start = [], 0
    nxt = expected + 1
    for m in _SENSE_INLINE.finditer(line):
        if int(m[1]) != nxt:
            continue
        parts.append(line[start:m.start()].rstrip())
        start, nxt = m.start() + (len(m[0]) - len(m[0].lstrip())), nxt + 1
    parts.append(line[start:])
    return parts


# ---------------------------------------------------------------- contents list and translation header

_TRANSLATED = re.compile(r"が\s*(\d{4})-(\d{2})-(\d{2})\s*に翻訳")
_VERSION = re.compile(r"和訳\s*(\d{8}\.\d+)")


def contents(text: str) -> list[tuple[str, str, int]]:
    """The もくじ as printed: (number, title, line) for each chapter and section entry, in order."""
    lines = text.lstrip("\ufeff").splitlines()
    start, _ = _body_start(lines)
    toc = next((i for i, line in enumerate(lines[:start]) if line.strip() == TOC_LINE), None)
    if toc is None:
        return []
    out = []
    for i in range(toc + 1, start):
        found = _SECTION.match(lines[i].strip()) or _CHAPTER.match(lines[i].strip())
        if found:
            out.append((found["num"], found["text"].strip(), i + 1))
    return out


def translation_version(text: str) -> str | None:
    """The translation's version ("20260116.0"): written as 「和訳 20260116.0」 when the file says
    so; else from the notice's 「… が 2026-01-16 に翻訳したもの」, revision 0 (the team numbers its
    translations by the EN date and a revision)."""
    head = text.lstrip("\ufeff")[:2000]
    found = _VERSION.search(head)
    if found:
        return found[1]
    found = _TRANSLATED.search(head)
    return f"{found[1]}{found[2]}{found[3]}.0" if found else None
