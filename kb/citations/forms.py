"""Every citation form, as data: a name, the pattern that finds it, how sure a find of it is and
why, whether the build's reading of documents uses it (``build``: the forms the seeds were read
with, unchanged) or only the checker (which knows the loaded editions' numbers), and examples
(tests/citations/test_forms.py runs every example of every form).

Forms are tried in table order; a later form never claims text an earlier one matched. Kinds:
``prefix`` (a word before the number: rule, CR:, ルール, 総合ルール, section), ``suffix`` (after it:
参照, 〔title〕), ``enclosed`` ((202.3b)), ``range`` (601.2a-g), ``heading`` (a heading or bold line
that is a rule number: a changes article's topic), ``entry`` (a list entry's head: ":103.1b",
"・702.129", "  402.9  " in a text whose line breaks were collapsed) and ``prose`` (a bare number in
running text: a dotted number that is a real rule of some loaded edition; a bare section only
with rules words in its sentence).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterator

from kb.citations.numbers import _D, ITEM, NUM, NUM_RE, TITLE_JA, Hit, canonical, items, title_after

_DOT = "[.．]"


@dataclass(slots=True)
class Context:
    """What the extended forms may know: numbers of loaded editions, headings of the text."""
    known: frozenset[str] = frozenset()        # every rule number of some loaded edition
    sections: frozenset[str] = frozenset()     # every section number of some loaded edition
    headings: set[int] = field(default_factory=set)  # 1-based heading lines (markup)
    line_of: Callable[[int], int] = lambda offset: 1
    extended: bool = False


@dataclass(slots=True, frozen=True)
class Form:
    name: str
    kind: str
    lang: str          # en / ja / any
    pattern: str
    confidence: float
    why: str
    build: bool        # used when documents are read at build time (no loaded editions known)
    examples: tuple[tuple[str, tuple[str, ...]], ...] = ()


# ---------------------------------------------------------------- the table

FORMS: tuple[Form, ...] = (
    Form("keyword", "prefix", "any",
         r"(?<![A-Za-z])(?:[Rr]ules?|CR)[ \u00a0]*[:：]?[ \u00a0]*(?=[0-9０-９])", 1.0,
         "named as a rule: 'rule', 'rules' or 'CR' before the number", True,
         (("See rule 601.2e.", ("601.2e",)), ("CR:712.15", ("712.15",)), ("CR601.2f", ("601.2f",)),
          ("rules 601.2a–d and 601.2f–h", ("601.2a", "601.2b", "601.2c", "601.2d", "601.2f", "601.2g", "601.2h")),
          ("rule 8〔多人数戦ルール〕", ("8",)))),
    Form("ja_keyword", "prefix", "ja",
         r"(?:総合ルール|ルール|CR)[ \u3000\u00a0]*[:：]?[ \u3000\u00a0]*(?=[0-9０-９]{3})", 1.0,
         "named as a rule: 「ルール」 or 「総合ルール」 before the number", False,
         (("ルール609.7bに従う", ("609.7b",)), ("ルール 609.7b", ("609.7b",)),
          ("総合ルール 701.34aを見よ", ("701.34a",)), ("総合ルール７０１．３４", ("701.34",)))),
    Form("section", "prefix", "en",
         r"(?<![A-Za-z])[Ss]ections?[ \u00a0]+(?P<n>[1-9]|[1-9]\d\d)(?![0-9])(?![.．][0-9])", 1.0,
         "named as a section: 'section' before the number", True,
         (("see section 9.", ("9",)), ("rounding out section 508 updates", ("508",)))),
    Form("ja_ref", "suffix", "ja", rf"{NUM}(?:{TITLE_JA})?[ \u3000]*(?:を)?参照", 0.95,
         "followed by 参照 (see)", True,
         (("総コストは601.2e参照。", ("601.2e",)), ("701.25「変身」を参照", ("701.25",)))),
    Form("ja_bracket", "suffix", "ja", rf"{NUM}〔[^〕\n]{{1,40}}〕", 0.95,
         "followed by a 〔title〕, as the JA CR writes cross-references", True,
         (("704〔状況起因処理〕", ("704",)),)),
    Form("bare_range", "range", "any",
         rf"{_D}{{3}}{_DOT}{_D}+[a-z][–\-−](?:[a-z](?![a-z])|{NUM})", 0.9,
         "a lettered range (601.2a-g): no date or price looks like it", True,
         (("steps 601.2a-g", ("601.2a", "601.2b", "601.2c", "601.2d", "601.2e", "601.2f", "601.2g")),)),
    Form("paren", "enclosed", "any", rf"(?<=[（(])[ \u3000]*(?={NUM})", 0.9,
         "a dotted rule number alone in parentheses", True,
         (("its color indicator (202.3b).", ("202.3b",)), ("（202.3b、202.3c）", ("202.3b", "202.3c")))),
    Form("heading", "heading", "any", rf"^[ \t\u3000]*(?={NUM})", 0.95,
         "a heading or bold line that is a rule number (a changes article's topic)", False,
         (("### 614.12, 614.16d\n", ("614.12", "614.16d")), ("**106.6**\n", ("106.6",)),
          ("702.139 & 721\n-------------\n", ("702.139", "721")), ("205.3g, j, k, and m\n---\n",
                                                                 ("205.3g", "205.3j", "205.3k", "205.3m")))),
    Form("entry", "entry", "any",
         rf"(?<=[:：・])[ \u3000]*(?={NUM})|(?P<gap>(?<=[ \u3000][ \u3000])|(?<=[。）)][ \u3000]))(?={NUM})", 0.9,
         "opens an entry of a list of rules (after ':' or '・', or set off by two spaces)", False,
         ((":103.1b  まず最初に", ("103.1b",)), ("・702.129 と", ("702.129",)),
          ("更新) 200.1c  この項目は", ("200.1c",)), ("ている。 215.4、215.4a  ライフ", ("215.4", "215.4a")))),
    Form("prose", "prose", "any", NUM, 0.75,
         "a bare number in rules text that is a rule of some loaded edition", False,
         (("See also the changes to 706.7a.", ("706.7a",)), ("総コストは601.2eで決定する", ("601.2e",)),
          ("今まで407.1と407.3に書かれていた", ("407.1", "407.3")),
          ("706 is not the linked ability rules, those are 607.", ("706", "607")))),
)

BY_NAME = {f.name: f for f in FORMS}

# ---------------------------------------------------------------- near-miss guards (prose)

_BEFORE_NOT = re.compile(r"(?:[$¥€£#№]|\b(?:page|pages|p|pp|no|version|ver|v|build|vol|id|node|x)\.?"
                         r"|[0-9０-９][/／:：]|[/／=])[ \u00a0]*$", re.I)
_AFTER_NOT = re.compile(r"[ \u00a0]*(?:[/／%％:：]|[-–]?(?:page|pages|cards?|life|points?|damage|counters?|players?"
                        r"|words?|years?|days?|mana|copies|times|th\b|st\b|nd\b|rd\b)"
                        r"|[枚点人個回年月日円本体ページ件度%])", re.I)
_PRODUCT_BEFORE = re.compile(r"(?<![.!?]\s)(?<!^)\b(?!Rule|Rules|Section|See|CR)[A-Z][a-z]+[*_]*[ \u00a0]+$")
_RULES_WORDS = re.compile(r"(?<![A-Za-z])(?:rules?|sections?|CR|layers?)(?![A-Za-z])|ルール|総合ルール|節|項", re.I)
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z*\"“(\[]|\s*$)|[。！？\n]")


def _sentence(text: str, pos: int, end: int) -> str:
    start = 0
    for m in _SENTENCE_END.finditer(text, max(0, pos - 400), pos):
        start = m.end()
    m = _SENTENCE_END.search(text, end, end + 400)
    return text[start:m.start() if m else min(len(text), end + 400)]


def prose_ok(text: str, hit: Hit, ctx: Context) -> tuple[bool, float, str]:
    """Is a bare number in running text a citation? (ok, confidence, why)."""
    number = canonical(hit.first)
    before, after = text[max(0, hit.start - 24):hit.start], text[hit.end:hit.end + 12]
    if _BEFORE_NOT.search(before) or _AFTER_NOT.match(after):
        return False, 0.0, ""
    if "." in number:
        if number not in ctx.known:
            return False, 0.0, ""
        return True, 0.75, f"{number} is a rule of a loaded edition, written in running text"
    if number not in ctx.sections or _PRODUCT_BEFORE.search(before):
        return False, 0.0, ""
    if _RULES_WORDS.search(_sentence(text, hit.start, hit.end)):
        return True, 0.6, f"section {number} of a loaded edition, in a sentence about rules"
    return False, 0.0, ""


# ---------------------------------------------------------------- finders (one per kind)


# A list is read once, from its first item: every match inside a list already read (the next
# "rule", "(", "・" or number of "601.2a, 601.2a, …") would read the rest of it again, and only
# repeat hits the first reading found - quadratic in the list's length (cubic with the overlap
# check). ``done`` is where the last list read ends.


def _prefix(form: Form, text: str, ctx: Context) -> Iterator[Hit]:
    done = 0
    for k in re.finditer(form.pattern, text):
        if k.start() < done:
            continue
        if form.name == "section":
            title, end = title_after(text, k.end())
            yield Hit(k.start(), end, k.group("n"), None, title, bare=False)
            continue
        hits = list(items(text, k.end(), bare=False, extended=ctx.extended))
        if not hits and (c := re.compile(r"[1-9](?=〔)").match(text, k.end())):  # rule 8〔多人数戦ルール〕
            title, end = title_after(text, c.end())
            hits = [Hit(c.start(), end, c.group(), None, title, bare=False)]
        if hits:
            hits[0].start = k.start()  # raw of the first item includes the keyword
            done = hits[-1].end
        yield from hits


def _suffix(form: Form, text: str, ctx: Context) -> Iterator[Hit]:
    if form.name == "ja_ref":
        pattern = re.compile(rf"{ITEM}(?P<t>{TITLE_JA})?[ \u3000]*(?:を)?参照")
        for m in pattern.finditer(text):
            title = m.group("tja") or m.group("tq")
            end = m.end("t") if m.group("t") else m.end("last") if m.group("last") else m.end("first")
            yield Hit(m.start(), end, m.group("first"), m.group("last"), title, bare=True)
        return
    pattern = re.compile(rf"{ITEM}〔(?P<tja2>[^〕\n]{{1,40}})〕")
    for m in pattern.finditer(text):
        yield Hit(m.start(), m.end(), m.group("first"), m.group("last"), m.group("tja2"), bare=True)


def _range(form: Form, text: str, ctx: Context) -> Iterator[Hit]:
    pattern = re.compile(rf"(?P<first>{_D}{{3}}{_DOT}{_D}+[a-z])[–\-−](?P<last>[a-z](?![a-z])|{NUM})")
    for m in pattern.finditer(text):
        if re.search(r"[0-9０-９.．]$", text[:m.start()]):
            continue
        yield Hit(m.start(), m.end(), m.group("first"), m.group("last"), None, bare=True)


def _enclosed(form: Form, text: str, ctx: Context) -> Iterator[Hit]:
    done = 0
    for m in re.finditer(form.pattern, text):
        if m.start() < done:
            continue
        hits = list(items(text, m.end(), bare=True, extended=ctx.extended))
        if not hits:
            continue
        # "(202.3b)" yes, "(250)" no: a bare section number in parentheses is too often a count.
        if not _CLOSE.match(text, hits[-1].end):
            done = hits[-1].end  # a later "(" inside this list ends at the same place
            continue
        done = _last_bad(hits, lambda h: re.search(_DOT, h.first))
        if done < 0:
            done = hits[-1].end
            yield from hits


def _heading(form: Form, text: str, ctx: Context) -> Iterator[Hit]:
    done = 0
    for m in re.finditer(form.pattern, text, re.M):
        if m.start() < done or ctx.line_of(m.start()) not in ctx.headings:
            continue
        hits = list(items(text, m.end(), bare=False, extended=True))
        if hits and (done := _last_bad(hits, lambda h: _rule_or_section(h, ctx))) < 0:
            done = hits[-1].end
            yield from hits


def _rule_or_section(hit: Hit, ctx: Context) -> bool:
    return "." in canonical(hit.first) or canonical(hit.first) in ctx.sections


def _last_bad(hits: list[Hit], good) -> int:
    """-1 when every hit of a list is good; else where the last bad one ends: a match starting
    inside the list before it reads a tail of the same list that still holds it (skip those)."""
    return next((h.end for h in reversed(hits) if not good(h)), -1)


_GAP_AFTER = re.compile(r"[.．]?[ \u3000]{2}")
_CLOSE = re.compile(r"[ \u3000]*[)）]")


def _entry(form: Form, text: str, ctx: Context) -> Iterator[Hit]:
    done = 0
    for m in re.finditer(form.pattern, text):
        if m.start() < done:
            continue
        hits = list(items(text, m.end(), bare=True, extended=True))
        if not hits:
            continue
        if m.group("gap") is not None and not _GAP_AFTER.match(text, hits[-1].end):
            done = hits[-1].end  # set off by spaces: an entry only when two spaces follow it too
            continue
        if (done := _last_bad(hits, lambda h: _rule_or_section(h, ctx))) < 0:
            done = hits[-1].end
            yield from hits


def _prose(form: Form, text: str, ctx: Context) -> Iterator[Hit]:
    done = 0
    for m in NUM_RE.finditer(text):
        if m.start() < done:
            continue
        for hit in items(text, m.start(), bare=True, extended=True):
            ok, confidence, why = prose_ok(text, hit, ctx)
            if not ok:
                break
            hit.confidence, hit.why = confidence, why
            done = hit.end
            yield hit


FINDERS: dict[str, Callable[[Form, str, Context], Iterator[Hit]]] = {
    "prefix": _prefix, "suffix": _suffix, "range": _range, "enclosed": _enclosed,
    "heading": _heading, "entry": _entry, "prose": _prose}


def run(form: Form, text: str, ctx: Context) -> Iterator[Hit]:
    for hit in FINDERS[form.kind](form, text, ctx):
        hit.form = hit.form or form.name
        if not hit.why:
            hit.confidence, hit.why = form.confidence, form.why
        yield hit
