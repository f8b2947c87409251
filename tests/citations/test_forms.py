"""Every citation form of kb.citations.forms.FORMS, by its own examples, and the near-misses no form
may take (prices, dates, set, page and collector numbers, P/T, counts), with markup stripped the
way the checker strips it: offsets, lines and columns stay those of the original text."""
from __future__ import annotations

import pytest

from kb.citations.extract import detect, find_citations
from kb.citations.forms import FORMS
from kb.citations.markup import strip_markup
from kb.citations.quotes import find_quotes


class _Everything:
    """The worst case for precision: every number is a rule of some loaded edition."""

    def __contains__(self, number) -> bool:
        return True


SECTIONS = frozenset(str(n) for r in ((100, 124), (200, 214), (300, 316), (400, 409), (500, 515),
                                      (600, 617), (700, 735), (800, 811), (900, 907)) for n in range(*r))
EXAMPLES = [(form.name, text, numbers) for form in FORMS for text, numbers in form.examples]


@pytest.mark.parametrize("form,text,numbers", EXAMPLES, ids=[f"{f}:{t[:24]}" for f, t, _ in EXAMPLES])
def test_each_form_finds_its_examples(form, text, numbers):
    found = detect(text, known=_Everything(), sections=SECTIONS)
    assert [n for c in found for n in c.numbers] == list(numbers)
    assert any(c.form == form for c in found), [(c.raw, c.form) for c in found]
    for c in found:
        assert text[c.start:c.end] == c.raw and 0 < c.confidence <= 1 and c.why


def test_every_form_has_examples_and_a_reason():
    for form in FORMS:
        assert form.examples and form.why and 0 < form.confidence <= 1, form.name


def test_build_forms_are_the_seed_forms():
    # the build reads documents with these forms only: what the seeds' citations were established with
    assert [f.name for f in FORMS if f.build] == ["keyword", "section", "ja_ref", "ja_bracket", "bare_range", "paren"]
    assert find_citations("### 614.12\n**106.6**\n:207.2c ルール 609.7b") == []


NEAR_MISSES = [
    "Posted on January 28, 2013 (2013-01-28)",
    "[the FAQ](/en/node/634111) and https://example.com/feature/231d&page=1",
    "it gets +1/+0 and you pay 2 life.",
    "When I wrote *Planechase* (2012 Edition), it was fun.",
    "this edition of *Commander* will always be *Commander* 508 in my heart.",
    "Here's the friendliest bunch in the whole 241-page document",
    "Beck // Call's converted mana cost is 8, and 8 > 3, so no.",
    "collector number 1408/249, cycling 1, cycling 2",
    "Page 10 of 11  •  Prev 1 ... 6 7 8 9 10 11 Next",
    "Apr 27, 2010 - 8:21PM #91  Posts: 27,218  Date Joined: Jul 3, 2003",
    "2019年8月2日 1ライフを支払う。1点しかない。2点のライフ。{2} {U}{U}{U}",
    "0以下のプレイヤー、10個以上の毒カウンター、1枚も存在しない",
    "ダメージを与える工程は3つではなく4つの段階に",
    "$100.50 and 100.5% of 250 cards (250)",
    "version 1.2.3 build 702.1.4",
    "第二回 2019/09/02時点 ライフ0点の支払い",
    "![](authorpic_Eli-Shiffrin.jpg) Tr. YONEMURA \"Pao\" Kaoru",
    "The 100 cards of a Commander deck, 500 life, 300 damage",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_not_citations(text):
    assert detect(text, known=_Everything(), sections=SECTIONS) == []


def test_markup_is_blanked_with_offsets_kept():
    text = "Title\n=====\n\n### 120.2a\n\n**106.6**\n\n[see](http://x.org/702.1) <ref>CR 601.2</ref>\n"
    plain = strip_markup(text)
    assert len(plain.text) == len(text) and plain.text.splitlines()[1].strip() == ""
    assert plain.headings == {1, 4, 6}
    found = detect(text, known=_Everything(), sections=SECTIONS, plain=plain)
    assert [(c.raw, c.line, c.column, c.form) for c in found] == [
        ("120.2a", 4, 5, "heading"), ("106.6", 6, 3, "heading"), ("CR 601.2", 8, 32, "keyword")]


def test_underlines_are_not_quotes():
    # a setext heading's underline once read as the quoted text of rule 607.5
    text = "607.5\n-----\n\n706.7a was a rule that talked about linked abilities.\n"
    plain = strip_markup(text)
    assert [q.number for q, _, _ in find_quotes(plain.text, headings=plain.headings, original=text)] == []
    found = detect(text, known=_Everything(), sections=SECTIONS, plain=plain)
    assert [(c.raw, c.form) for c in found] == [("607.5", "heading"), ("706.7a", "prose")]


def test_a_quote_keeps_its_text_as_written():
    text = "702.84a Annihilator is a *triggered* ability.\n"
    plain = strip_markup(text)
    [(quote, column, shown)] = find_quotes(plain.text, headings=plain.headings, original=text)
    assert (quote.number, column, shown) == ("702.84a", 1, "Annihilator is a *triggered* ability.")
    assert "*" not in quote.text  # compared without the markup


def test_full_width_and_lists():
    found = detect("総合ルール７０１．３４、701.35・701.36および 701.37 を参照", known=_Everything(), sections=SECTIONS)
    assert [n for c in found for n in c.numbers] == ["701.34", "701.35", "701.36", "701.37"]
    found = detect("See rules 721, 107.14 & 608.2d or 601.2a through 601.2c.", known=_Everything(),
                   sections=SECTIONS)
    assert [n for c in found for n in c.numbers] == ["721", "107.14", "608.2d", "601.2a", "601.2b", "601.2c"]


def test_a_bare_dotted_number_needs_a_rule_of_a_loaded_edition():
    text = "See also the changes to 706.7a and 999.9z."
    assert [c.raw for c in detect(text, known={"706.7a"}, sections=SECTIONS)] == ["706.7a"]


def test_every_explanation_has_japanese_wording():
    import re
    # each evidence template and each form's why, values filled in, reads in Japanese with its values
    from kb.citations.forms import FORMS
    from kb.citations.wording import _ROWS, ja
    from kb.parse.common import is_japanese
    for pattern, _ in _ROWS:
        names = pattern.groupindex
        line = pattern.pattern[1:-1]
        for name in names:
            line = re.sub(rf"\(\?P<{name}>\.\+\?\)", "702.25k" if name.startswith("n") else "2017-09-29", line)
        line = re.sub(r"\\(.)", r"\1", line)
        said = ja(line)
        assert said != line and is_japanese(said), line
        assert all(v in said for v in ("702.25k", "2017-09-29") if v in line), (line, said)
    for form in FORMS:
        assert is_japanese(ja(form.why)), form.why
    assert ja("not titled Transform in CR 2011-09-30") == "CR 2011-09-30 では「Transform」という見出しではない"
    assert ja("something new the table does not say") == "something new the table does not say"
