"""The whole Japanese CR (../shared/data/cr-ja-20260116.txt, translation 20260116.0).

Counts and line numbers are checked against an independent reading of the file itself (regexes
and line searches), never against numbers copied from the parser's own output.
"""
from __future__ import annotations

import re
from collections import Counter
from datetime import date

import pytest

from kb.parse.cr_ja import parse_cr_ja, split_senses
from kb.parse.records import Document
from kb.config import shared_data_dir
from kb.sources.files import classify

PATH = shared_data_dir() / "cr-ja-20260116.txt"
TITLE_LINE = "マジック：ザ・ギャザリング　総合ルール"
# A numbered rule line: the data README's pattern, plus numbers that run into the text (702.176.兆候)
# and a number on a line of its own (500.10a).
RULE_LINE = re.compile(r"^(\d{3}\.\d+[a-z]?)(?:\.? |\.?$|\.?(?=[^\x00-\x7f]))")
SECTION_LINE = re.compile(r"^\d{3} ?\. ")  # also "720 . 前兆カード"
CHAPTER_LINE = re.compile(r"^[1-9]\. ")  # 0. はじめに is the intro, not a chapter
TERM_LINE = re.compile(r"^\S.*（[^）]+）／")


@pytest.fixture(scope="module")
def ja(data_dir):
    source = classify(PATH)
    return source.document.text, parse_cr_ja(source.document.text, source.document)


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def _parts(text: str) -> tuple[list[str], int, int]:
    """(lines, 1-based line of the body title, of the glossary heading, of the credits), read directly."""
    lines = text.splitlines()
    return lines, lines.index(TITLE_LINE) + 1, lines.index("用語集") + 1, lines.index("クレジット") + 1


# ---------------------------------------------------------------- counts and coverage


def test_the_whole_document_is_recognised_by_content(ja):
    _, ed = ja
    assert (ed.edition, ed.effective, ed.lang, ed.complete) == ("2026-01-16", date(2026, 1, 16), "ja", True)
    assert ed.title == TITLE_LINE


def test_rule_numbers_equal_an_independent_count(ja):
    text, ed = ja
    lines, title, glossary, _ = _parts(text)
    expected = Counter(m[1] for line in lines[title:glossary - 1] if (m := RULE_LINE.match(line)))
    got = [r.number for r in ed.rules if r.kind in ("rule", "subrule")]
    assert len(got) == len(set(got))
    assert Counter(n.split("~")[0] for n in got) == expected
    assert sum(expected.values()) >= 3100 and len(got) == 3115  # the data README: 3,115 numbered lines


def test_heading_counts_match_independent_count(ja):
    text, ed = ja
    lines, title, glossary, _ = _parts(text)
    body = lines[title:glossary - 1]
    assert sum(r.kind == "section" for r in ed.rules) == sum(1 for l in body if SECTION_LINE.match(l)
                                                             and not RULE_LINE.match(l))
    assert sum(r.kind == "chapter" for r in ed.rules) == sum(1 for l in body if CHAPTER_LINE.match(l)) == 9


def test_every_glossary_term_line_is_an_entry(ja):
    text, ed = ja
    lines, _, glossary, credits = _parts(text)
    terms = [n for n in range(glossary + 1, credits) if TERM_LINE.match(lines[n - 1])]
    assert [g.locator.line_start for g in ed.glossary] == terms and len(terms) == 727
    assert ed.glossary[0].term == "相棒" and ed.glossary[-1].term == "ヴァンガード戦"  # ヴ sorts last


def test_every_line_of_rules_and_glossary_lands_in_exactly_one_record(ja):
    text, ed = ja
    lines, title, glossary, credits = _parts(text)
    owner: Counter = Counter()
    spans = [(r.locator.line_start, r.locator.line_end) for r in ed.rules]
    spans += [(e.locator.line_start, e.locator.line_end) for r in ed.rules for e in r.examples]
    spans += [(g.locator.line_start, g.locator.line_end) for g in ed.glossary]
    for first, last in spans:
        owner.update(range(first, last + 1))
    intro_end = next(n for n in range(title, credits) if lines[n - 1].startswith("1. "))  # 0. はじめに is prose
    body = [n for n in range(intro_end, credits) if lines[n - 1].strip() and n != glossary]
    assert [n for n in body if owner[n] != 1] == []


def test_every_rule_raw_is_its_source_line(ja):
    text, ed = ja
    lines = text.splitlines()
    for rule in ed.rules:
        assert rule.raw.split("\n")[0] == lines[rule.locator.line_start - 1]
        assert rule.raw.startswith(rule.number.split("~")[0])
        for ex in rule.examples:
            assert ex.text.split("\n")[0] == lines[ex.locator.line_start - 1]


def test_parents_exist(ja):
    _, ed = ja
    known = {r.number for r in ed.rules}
    assert [r.number for r in ed.rules if r.kind != "chapter" and r.parent not in known] == []


# ---------------------------------------------------------------- the translation's own quirks


def test_a_repeated_rule_is_kept_twice_and_odd_headings_read_with_warnings(ja):
    text, ed = ja
    by = {r.number: r for r in ed.rules}
    first, second = by["505.4"], by["505.4~2"]  # two versions of 505.4, one line after the other
    assert first.text != second.text and second.locator.line_start == first.locator.line_start + 1
    section = by["720"]
    assert (section.kind, section.text, section.raw) == ("section", "前兆カード", "720 . 前兆カード")
    assert by["720.1"].parent == "720"
    assert ed.warnings == sorted([
        (second.locator.line_start, f"rule 505.4 appears twice (first at line {first.locator.line_start}): "
                                    "the repeat is kept as 505.4~2"),
        (section.locator.line_start, "section heading written '720 .': read as section 720")])


def test_numbers_running_into_the_text_and_a_number_on_its_own_line(ja):
    text, ed = ja
    by = {r.number: r for r in ed.rules}
    assert by["702.176"].text == "兆候／Impending"
    assert by["708.12"].text.startswith("裏向きのパーマネントを公開するように")
    assert by["709.5b"].text.startswith("共有タイプ行を持つ")
    assert by["500.10a"].raw.startswith("500.10a\n") and by["500.10a"].text.startswith("追加のフェイズやステップを")


def test_the_contents_list_omits_721_but_the_body_has_it(ja):
    text, ed = ja
    lines, title, _, _ = _parts(text)
    assert "721. 配備カード" not in lines[:title] and "720. 前兆カード" in lines[:title]
    assert {r.number: r for r in ed.rules}["721"].text == "配備カード"


def test_contents_do_not_produce_rules_and_intro_is_not_a_rule(ja):
    text, ed = ja
    _, title, _, _ = _parts(text)
    assert all(r.locator.line_start > title for r in ed.rules)
    assert "0" not in {r.number for r in ed.rules}
    assert not any("この文書は" in r.text for r in ed.rules)


def test_chapter_section_rule_shape(ja):
    text, ed = ja
    by = {r.number: r for r in ed.rules}
    assert (by["1"].kind, by["1"].text, by["1"].parent) == ("chapter", "ゲームの考え方", None)
    assert (by["100"].kind, by["100"].text, by["100"].parent) == ("section", "原則", "1")
    assert (by["100.1"].kind, by["100.1"].parent) == ("rule", "100")
    assert (by["100.1a"].kind, by["100.1a"].parent) == ("subrule", "100.1")
    assert by["100.1a"].text == "2人対戦とは、2人で開始されるゲームのことである。"
    assert by["100.1a"].locator.line_start == _line_of(text, "100.1a ")
    assert by["100.1a"].locator.section == ("1. ゲームの考え方", "100. 原則")


def test_scrape_artifacts_kept(ja):
    _, ed = ja
    by = {r.number: r for r in ed.rules}
    assert "基本 土地・カード" in by["100.2b"].text
    assert "引き分け になった" in by["104.1"].raw
    assert any("《エルフの再生<》" in e.text for e in by["510.1c"].examples)


def test_half_width_and_full_width_example_colons(ja):
    text, ed = ja
    by = {r.number: r for r in ed.rules}
    assert [e.text[:2] for e in by["101.4"].examples] == ["例:"]
    assert [e.text[:2] for e in by["101.2"].examples] == ["例："]
    assert by["101.4"].examples[0].locator.line_start == _line_of(text, "101.4. ") + 1
    examples = sum(1 for l in text.splitlines() if re.match(r"^例[：:]", l))
    assert sum(len(r.examples) for r in ed.rules) == examples


def test_601_2c_text_and_example(ja):
    text, ed = ja
    by = {r.number: r for r in ed.rules}
    rule = by["601.2c"]
    assert rule.text.startswith("プレイヤーは、その呪文の求める対象それぞれについて、")
    assert rule.raw == "601.2c " + rule.text
    assert (rule.kind, rule.parent, rule.locator.line_start) == ("subrule", "601.2", _line_of(text, "601.2c "))
    assert rule.locator.section == ("6. 呪文、能力、効果", "601. 呪文を唱えること")
    assert rule.examples[0].text.startswith("例：「クリーチャー2体を対象とする。それらをタップする。」")
    assert by["601.2h"].examples[0].text.startswith("例:マナ・コストが{1}{B}")
    assert len(by["601.3e"].examples) == 2


def test_day_night_and_daybound_are_translated(ja):
    _, ed = ja
    by = {r.number: r for r in ed.rules}
    assert by["730"].text == "昼と夜" and by["702.145"].text.startswith("日暮")
    assert by["730.2a"].text and by["712.8e"].text and by["701.40b"].text


# ---------------------------------------------------------------- glossary


def test_glossary_entry_reading_and_english(ja):
    text, ed = ja
    by = {g.term: g for g in ed.glossary}
    fuse = by["融合"]
    assert (fuse.reading, fuse.term_en) == ("ゆうごう", "Fuse")
    assert fuse.text == "プレイヤーが分割カードの両方の半分を唱えられるというキーワード能力。rule 702.102〔融合〕参照。"
    assert fuse.locator.line_start == _line_of(text, "融合（ゆうごう）")
    assert by["予示"].term_en == "Manifest" and by["日暮"].term_en == "Daybound"
    assert by["ライフ、ライフ総量"].term_en == "Life/Life Total"
    assert by["RADカウンター"].reading == "らっどかうんたー"


def test_multi_sense_entry(ja):
    _, ed = ja
    library = next(g for g in ed.glossary if g.term == "ライブラリー")
    assert library.senses == ["1. 領域の1つ。ライブラリーはプレイヤーがカードを引く先である。",
                              "2. ライブラリーにあるカードすべての総称。"]
    assert library.text.endswith("rule 401〔ライブラリー〕参照。")


def test_obsolete_entries(ja):
    text, ed = ja
    lines, _, glossary, credits = _parts(text)
    expected = sum(1 for l in lines[glossary:credits] if re.match(r"^[(（]廃語[)）]", l.lstrip("\u3000")))
    assert sum(g.obsolete for g in ed.glossary) == expected >= 3
    legend = next(g for g in ed.glossary if g.term == "レジェンド")
    assert legend.obsolete and legend.text.startswith("(廃語)既に存在しない")


def test_credits_excluded(ja):
    text, ed = ja
    everything = [g.term for g in ed.glossary] + [g.text for g in ed.glossary]
    assert not any("Richard Garfield" in x or "クレジット" in x for x in everything)
    assert ed.glossary[-1].locator.line_end < _parts(text)[3]


def test_edition_date_from_closing_line(ja):
    text, ed = ja
    doc = Document(id="x", title="x", kind="cr", lang="ja", path=PATH.name, text=text)
    assert parse_cr_ja(text, doc, edition="2000-01-01").edition == "2026-01-16"  # the closing line wins


# ---------------------------------------------------------------- small inputs (no data needed)


def _doc(text: str) -> Document:
    return Document(id="t", title="t", kind="cr", lang="ja", path="t.txt", text=text)


def test_edition_argument_and_missing_date():
    text = "1. ゲームの考え方\n100. 原則\n100.1. 本文。"
    assert parse_cr_ja(text, _doc(text), edition="2026-01-16").edition == "2026-01-16"
    assert parse_cr_ja(text, _doc(text), edition="2026-01-16").complete is False  # an excerpt
    assert parse_cr_ja(text, _doc(text), edition="2026-01-16", complete=True).complete is True
    with pytest.raises(ValueError):
        parse_cr_ja(text, _doc(text))


def test_glossary_heading_then_numbered_senses_on_own_lines():
    text = ("10. 用語集\n"
            "カード（かーど）／Card\n"
            "1. 一つ目。\n"
            "2. 二つ目。\n"
            "rule 108 参照。\n"
            "クレジット\n"
            "1. これはルールではない\n"
            "このルールは2026年1月16日から有効です。")
    ed = parse_cr_ja(text, _doc(text))
    assert ed.rules == []
    assert [(g.term, g.senses) for g in ed.glossary] == [("カード", ["1. 一つ目。", "2. 二つ目。"])]
    assert ed.glossary[0].locator.line_end == 5


def test_split_senses_single_sense():
    assert split_senses(["1. ただ一つ。"]) == []
    assert split_senses(["　定義。"]) == []
