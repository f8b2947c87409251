"""Japanese CR excerpts (../shared/data/cr-ja-20260116-excerpt-{a,b,c}.txt).

Counts are checked against an independent regex count over the file itself (the data README's
rule-line pattern), never against numbers copied from the parser's own output.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from kb.parsers.cr_ja import parse_cr_ja, split_senses
from kb.records import CREdition, Document
from kb.settings import shared_data_dir

RULE_LINE = re.compile(r"^\d{3}\.\d+[a-z]?\.? ")  # the data README's rule-line pattern
SECTION_LINE = re.compile(r"^\d{3}\. ")
CHAPTER_LINE = re.compile(r"^[1-9]\. ")  # 0. はじめに is the intro, not a chapter


def _path(part: str) -> Path:
    return shared_data_dir() / f"cr-ja-20260116-excerpt-{part}.txt"


def _load(part: str) -> tuple[str, CREdition]:
    path = _path(part)
    if not path.exists():
        pytest.skip(f"shared data file {path} absent (set MTG_KB_DATA to the data directory)")
    text = path.read_text(encoding="utf-8")
    doc = Document(id=f"cr-ja-2026-01-16-{part}", title=f"総合ルール 抜粋 {part}", kind="cr",
                   lang="ja", path=path.name, text=text)
    return text, parse_cr_ja(text, doc, edition="2026-01-16")


def _body_lines(text: str) -> list[str]:
    """Lines after the title line (excerpt a) or all lines, independent of the parser."""
    lines = text.splitlines()
    if "マジック：ザ・ギャザリング　総合ルール" in lines:
        lines = lines[lines.index("マジック：ザ・ギャザリング　総合ルール") + 1:]
    return lines


@pytest.fixture(scope="module", params=["a", "b", "c"])
def excerpt(request):
    return (request.param, *_load(request.param))


# ---------------------------------------------------------------- counts


def test_rule_counts_match_independent_count(excerpt):
    part, text, ed = excerpt
    expected = sum(1 for line in text.splitlines() if RULE_LINE.match(line))
    assert expected == {"a": 120, "b": 45, "c": 0}[part]  # as the data README says
    assert len([r for r in ed.rules if r.kind in ("rule", "subrule")]) == expected


def test_heading_counts_match_independent_count(excerpt):
    part, text, ed = excerpt
    body = _body_lines(text)
    sections = sum(1 for line in body if SECTION_LINE.match(line))
    chapters = sum(1 for line in body if CHAPTER_LINE.match(line))
    if part == "c":  # glossary senses "1. …" are not chapters
        chapters = 0
    assert len([r for r in ed.rules if r.kind == "section"]) == sections
    assert len([r for r in ed.rules if r.kind == "chapter"]) == chapters
    assert {"a": (7, 1), "b": (3, 1), "c": (0, 0)}[part] == (sections, chapters)


def test_every_rule_raw_is_its_source_line(excerpt):
    _, text, ed = excerpt
    lines = text.splitlines()
    for rule in ed.rules:
        assert rule.raw == lines[rule.locator.line_start - 1]
        assert rule.raw.startswith(rule.number)
        for ex in rule.examples:
            assert ex.text == lines[ex.locator.line_start - 1]


def test_numbers_are_unique_and_parents_exist_within_excerpt(excerpt):
    _, _, ed = excerpt
    numbers = [r.number for r in ed.rules]
    assert len(numbers) == len(set(numbers))
    known = set(numbers)
    for rule in ed.rules:
        if rule.kind == "chapter":
            assert rule.parent is None
        else:
            assert rule.parent in known, rule.number


# ---------------------------------------------------------------- excerpt a: TOC and intro


def test_toc_does_not_produce_rules():
    text, ed = _load("a")
    toc_end = text.splitlines().index("マジック：ザ・ギャザリング　総合ルール") + 1
    assert all(r.locator.line_start > toc_end for r in ed.rules)
    assert [r.number for r in ed.rules if r.kind == "section"] == [
        "100", "101", "102", "103", "104", "105", "106"]
    # 200-905 are only in the TOC of this excerpt
    assert not any(r.number.startswith(("2", "9")) for r in ed.rules)
    assert ed.title == "マジック：ザ・ギャザリング　総合ルール"


def test_intro_is_not_a_rule():
    _, ed = _load("a")
    assert "0" not in {r.number for r in ed.rules}
    assert not any("この文書は" in r.text for r in ed.rules)


def test_chapter_section_rule_shape():
    _, ed = _load("a")
    by = {r.number: r for r in ed.rules}
    assert (by["1"].kind, by["1"].text, by["1"].parent) == ("chapter", "ゲームの考え方", None)
    assert (by["100"].kind, by["100"].text, by["100"].parent) == ("section", "原則", "1")
    assert (by["100.1"].kind, by["100.1"].parent) == ("rule", "100")
    assert (by["100.1a"].kind, by["100.1a"].parent) == ("subrule", "100.1")
    assert by["100.1a"].text == "2人対戦とは、2人で開始されるゲームのことである。"
    assert by["100.1a"].locator.line_start == 169
    assert by["100.1a"].locator.section == ("1. ゲームの考え方", "100. 原則")


def test_scrape_artifacts_kept():
    _, ed = _load("a")
    by = {r.number: r for r in ed.rules}
    assert "基本 土地・カード" in by["100.2b"].text
    assert "引き分け になった" in by["104.1"].raw


def test_half_width_example_colon():
    _, ed = _load("a")
    by = {r.number: r for r in ed.rules}
    assert [e.text[:2] for e in by["101.4"].examples] == ["例:"]
    assert [e.text[:2] for e in by["101.2"].examples] == ["例："]
    assert by["101.4"].examples[0].locator.line_start == 194


# ---------------------------------------------------------------- excerpt b: 601


def test_601_2c_text_and_example():
    _, ed = _load("b")
    by = {r.number: r for r in ed.rules}
    rule = by["601.2c"]
    assert rule.text.startswith("プレイヤーは、その呪文の求める対象それぞれについて、")
    assert rule.raw == "601.2c " + rule.text
    assert (rule.kind, rule.parent, rule.locator.line_start) == ("subrule", "601.2", 9)
    assert rule.locator.section == ("6. 呪文、能力、効果", "601. 呪文を唱えること")
    assert len(rule.examples) == 1
    example = rule.examples[0]
    assert example.text.startswith("例：「クリーチャー2体を対象とする。それらをタップする。」")
    assert example.locator.line_start == 10
    assert by["601.2h"].examples[0].text.startswith("例:マナ・コストが{1}{B}")
    assert len(by["601.3e"].examples) == 2


def test_excerpt_b_starts_at_chapter_then_600():
    _, ed = _load("b")
    assert [(r.number, r.kind, r.text) for r in ed.rules[:3]] == [
        ("6", "chapter", "呪文、能力、効果"), ("600", "section", "総則"),
        ("601", "section", "呪文を唱えること")]
    assert ed.rules[-1].number == "602.5e"


# ---------------------------------------------------------------- excerpt c: glossary, credits


def test_glossary_entry_reading_and_english():
    text, ed = _load("c")
    assert ed.rules == []
    by = {g.term: g for g in ed.glossary}
    fuse = by["融合"]
    assert (fuse.reading, fuse.term_en) == ("ゆうごう", "Fuse")
    assert fuse.text == "プレイヤーが分割カードの両方の半分を唱えられるというキーワード能力。rule 702.102〔融合〕参照。"
    assert (fuse.locator.line_start, fuse.locator.line_end) == (11, 12)
    assert by["予示"].term_en == "Manifest"
    assert by["ライフ、ライフ総量"].term_en == "Life/Life Total"
    assert by["RADカウンター"].reading == "らっどかうんたー"


def test_glossary_count_is_term_lines():
    text, ed = _load("c")
    term_lines = [line for line in text.splitlines() if re.match(r"^\S.*（[^）]+）／", line)]
    assert len(ed.glossary) == len(term_lines) == 59
    assert ed.glossary[0].term == "モードを持つ両面カード"
    assert ed.glossary[-1].term == "ヴァンガード戦"  # ヴ entries sort last


def test_multi_sense_entry():
    _, ed = _load("c")
    library = next(g for g in ed.glossary if g.term == "ライブラリー")
    assert library.senses == ["1. 領域の1つ。ライブラリーはプレイヤーがカードを引く先である。",
                              "2. ライブラリーにあるカードすべての総称。"]
    assert library.text.endswith("rule 401〔ライブラリー〕参照。")
    assert all(not g.senses for g in ed.glossary if g.term != "ライブラリー")


def test_obsolete_entries():
    _, ed = _load("c")
    obsolete = {g.term for g in ed.glossary if g.obsolete}
    assert obsolete == {"レジェンド", "連発型アーティファクト", "脇に置く"}
    legend = next(g for g in ed.glossary if g.term == "レジェンド")
    assert legend.text.startswith("(廃語)既に存在しない")


def test_credits_excluded():
    _, ed = _load("c")
    everything = [g.term for g in ed.glossary] + [g.text for g in ed.glossary]
    assert not any("Richard Garfield" in x or "Wizards of the Coast" in x or "クレジット" in x
                   for x in everything)
    assert ed.glossary[-1].locator.line_end == 118


def test_edition_date_from_closing_line():
    path = _path("c")
    if not path.exists():
        pytest.skip(f"shared data file {path} absent")
    text = path.read_text(encoding="utf-8")
    doc = Document(id="x", title="x", kind="cr", lang="ja", path=path.name, text=text)
    ed = parse_cr_ja(text, doc)  # no edition argument: the closing line gives it
    assert (ed.edition, ed.effective, ed.lang, ed.complete) == (
        "2026-01-16", date(2026, 1, 16), "ja", False)
    # The closing line wins over a contradicting argument.
    assert parse_cr_ja(text, doc, edition="2000-01-01").edition == "2026-01-16"


# ---------------------------------------------------------------- small inputs (no data needed)


def _doc(text: str) -> Document:
    return Document(id="t", title="t", kind="cr", lang="ja", path="t.txt", text=text)


def test_edition_argument_and_missing_date():
    text = "1. ゲームの考え方\n100. 原則\n100.1. 本文。"
    assert parse_cr_ja(text, _doc(text), edition="2026-01-16").edition == "2026-01-16"
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
