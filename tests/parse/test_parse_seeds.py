"""The five seed documents parsed by their format's parser. Counts and the citation list below were
made by reading the files (line numbers as an editor shows them), not copied from the parsers."""
from __future__ import annotations

from collections import Counter

import pytest

from kb.parse import article, faq, wiki_page, wiki_source
from tests.parse.samples import DOCS

PARSERS = {"wiki-source": wiki_source, "wiki-page": wiki_page, "faq": faq, "article": article}




@pytest.fixture(scope="module")
def parsed():
    return {i: PARSERS[d.kind].parse(d.text, d) for i, d in DOCS.items()}


def line(doc_id: str, n: int) -> str:
    return DOCS[doc_id].text.splitlines()[n - 1]


# ---------------------------------------------------------------- counts

# doc: (rulings by kind, quoted rules, sections, footnotes, cards)
COUNTS = {
    # 解説 2 + その他 6 + 参考 7 bullets are notes; ルール: 4 paragraphs + 6 bullets.
    "wiki-hiru-day": ({"ruling": 10, "note": 15}, 0, 7, 2, 2),
    # 8 ＊ rulings and 24 quoted rules (711, 711.1–711.9d, 701.25–701.25c), each once.
    "faq-innistrad-dfc-2011": ({"ruling": 8}, 24, 2, 0, 34),
    # ルーリング: 10 paragraphs, 6 bullets, 4 numbered lines; 概要 1 + 参考 7 bullets; 709.5–709.5j.
    "wiki-heya-room": ({"ruling": 20, "note": 8}, 11, 8, 4, 0),
    # ①–⑨ plus the notes after 601.1a, 601.4, 601.5; the ①–⑨ summary; 601 … 701.4a quoted.
    "blog-cr-601-casting": ({"commentary": 12, "summary": 9}, 15, 0, 0, 31),
    # 定義 3 paragraphs + ルール 26 bullets; 解説 1 + 開発秘話 3 + 参考 6; 7, 701, 701.34–701.34g.
    "wiki-yoji-manifest": ({"ruling": 29, "note": 10}, 10, 11, 4, 0),
}


@pytest.mark.parametrize("doc_id", COUNTS)
def test_counts(parsed, doc_id):
    kinds, quotes, sections, footnotes, cards = COUNTS[doc_id]
    p = parsed[doc_id]
    assert Counter(r.kind for r in p.rulings) == kinds
    assert len(p.quoted_rules) == quotes
    assert len(p.sections) == sections
    assert len(p.footnotes) == footnotes
    assert len(p.cards) == cards


@pytest.mark.parametrize("doc_id", COUNTS)
def test_ids_locators_and_exact_text(parsed, doc_id):
    p = parsed[doc_id]
    assert [r.id for r in p.rulings] == [f"{doc_id}#r{n}" for n in range(1, len(p.rulings) + 1)]
    for rec in [*p.rulings, *p.quoted_rules]:
        assert rec.locator.document == doc_id
        assert rec.text in DOCS[doc_id].text  # original text, not cleaned
        lines = DOCS[doc_id].text.splitlines()[rec.locator.line_start - 1:rec.locator.line_end]
        assert rec.text.splitlines()[0] in "\n".join(lines)
    for r in p.rulings:  # the ruling's first words are on its first line
        assert r.text.splitlines()[0][:12] in line(doc_id, r.locator.line_start)
    starts = [r.locator.line_start for r in p.rulings]
    assert starts == sorted(starts)


def test_defines(parsed):
    assert parsed["wiki-hiru-day"].defines == [("昼", "Day")]
    assert parsed["wiki-heya-room"].defines == [("部屋", "Room")]
    assert parsed["wiki-yoji-manifest"].defines == [("予示", "Manifest")]


# ---------------------------------------------------------------- wiki source (昼)


def test_hiru_rulings_nesting_links_sections(parsed):
    p = parsed["wiki-hiru-day"]
    by_line = {r.locator.line_start: r for r in p.rulings}
    assert 1 not in by_line and 3 not in by_line  # editor chrome and lead are not rulings
    r24 = by_line[24]
    assert r24.text.startswith("昼でも夜でもない状態で、[[不自然な月の出/Unnatural Moonrise]]")
    assert r24.kind == "ruling" and r24.depth == 1
    assert r24.locator.section == ("ルール", "初めて昼や夜になるとき")
    assert "不自然な月の出/Unnatural Moonrise" in r24.links
    para = by_line[29]
    assert (para.kind, para.depth, para.locator.section[-1]) == ("ruling", 0, "昼から夜または夜から昼になるとき")
    assert para.links == ["アンタップ・ステップ", "プレイヤー"]
    nested = by_line[39]
    assert nested.depth == 2 and nested.parent == by_line[38].id and nested.kind == "note"
    assert by_line[30].text == "ゲームが昼であり、直前のターンのアクティブ・プレイヤーがそのターン中に呪文を唱えなかった場合、夜となる。"
    assert [(s.title, s.level, s.locator.line_start) for s in p.sections][:4] == [
        ("解説", 1, 8), ("ルール", 1, 17), ("初めて昼や夜になるとき", 2, 18),
        ("昼から夜または夜から昼になるとき", 2, 28)]
    assert [c.name_en for c in p.cards] == ["Celestus Sanctifier", "The Celestus"]
    (t1, l1), (t2, l2) = p.footnotes
    assert (l1.line_start, l2.line_start, l1.section) == (36, 37, ("その他",))
    assert " Unanswered Questions: Innistrad]/" in t1 and t1.endswith("Mark Rosewater著）")
    assert " Happy Hunt-ing, Part 1]/" in t2 and "<ref>" not in t2


# ---------------------------------------------------------------- rendered wiki pages


def test_heya_sections_from_toc_and_nested_numbered_lines(parsed):
    p = parsed["wiki-heya-room"]
    assert [(s.title, s.level, s.locator.line_start) for s in p.sections] == [
        ("概要", 1, 12), ("ルーリング", 1, 24), ("定義", 2, 30), ("ドアを開放する", 2, 41),
        ("コピー", 2, 57), ("注釈", 1, 65), ("参考", 1, 72), ("引用：総合ルール", 1, 82)]
    by_line = {r.locator.line_start: r for r in p.rulings}
    assert by_line[34].text.startswith("このパーマネントが「左半分が開放された/left half unlocked」")
    assert by_line[50].parent == by_line[49].id and by_line[50].depth == 2
    assert by_line[52].parent == by_line[51].id and by_line[52].depth == 3
    assert by_line[22].kind == "note" and by_line[63].kind == "ruling"
    assert p.footnotes[0][0] == "1. ↑ Blogatog(Blogatog 2024年9月21日)"


def test_heya_quotes_english_cr(parsed):
    quotes = parsed["wiki-heya-room"].quoted_rules
    assert [q.number for q in quotes] == ["709.5"] + [f"709.5{c}" for c in "abcdefghij"]
    q0 = quotes[0]
    assert (q0.raw_number, q0.lang, q0.edition_hint, q0.locator.line_start) == ("709.5.", "en", None, 84)
    assert q0.text.startswith("Some split cards are permanent cards with a single shared type line.")
    assert quotes[-1].text == "Some cards refer to a “door” of a Room permanent. A door is a half of that permanent."
    assert [c.raw for c in quotes[2].citations] == ["rule 709.3b"]


def test_yoji_quotes_with_edition_from_heading(parsed):
    p = parsed["wiki-yoji-manifest"]
    assert p.sections[-1].title == "引用：総合ルール 20231117.0"
    assert [q.number for q in p.quoted_rules] == ["7", "701", "701.34"] + [
        f"701.34{c}" for c in "abcdefg"]
    assert {q.edition_hint for q in p.quoted_rules} == {"2023-11-17"}
    assert {q.lang for q in p.quoted_rules} == {"ja"}
    q = p.quoted_rules[3]
    assert q.locator.line_start == 98 and q.text.startswith("「[[[カード]]を]予示する／Manifest [a card]」")
    by_line = {r.locator.line_start: r for r in p.rulings}
    assert by_line[54].depth == 3 and by_line[54].parent == by_line[53].id
    assert by_line[53].parent == by_line[51].id
    assert by_line[11].kind == "ruling" and by_line[11].locator.section == ("定義",)
    assert by_line[25].kind == "note"


# ---------------------------------------------------------------- FAQ


def test_faq_duplicates_ingested_once(parsed):
    p = parsed["faq-innistrad-dfc-2011"]
    assert max(r.locator.line_start for r in p.rulings) == 54  # second copy (100–107) dropped
    assert max(q.locator.line_end for q in p.quoted_rules) == 46
    numbers = [q.number for q in p.quoted_rules]
    assert len(numbers) == len(set(numbers))
    assert [s.title for s in p.sections] == ["新カードレイアウト：両面カード", "新キーワード処理：変身"]
    assert p.rulings[1].text == "両面カードの裏面は唱えられない。"
    assert all(r.kind == "ruling" for r in p.rulings)
    assert "＊黒＊" not in [r.text for r in p.rulings]


def test_faq_quoted_rules_keep_typos_and_stray_periods(parsed):
    quotes = {q.number: q for q in parsed["faq-innistrad-dfc-2011"].quoted_rules}
    assert quotes["711.1a"].raw_number == "711.1a."
    assert quotes["711.1a"].text == "両面カードの正面は、左上に太陽のシンボルがあることで識別される。"
    assert quotes["701.25"].raw_number == "701.25." and quotes["701.25"].text == "変身"
    assert quotes["711"].raw_number == "711." and quotes["711"].text == "両面カード"
    assert "変身下の地も" in quotes["711.7"].text
    assert "パー蔓延と" in quotes["701.25c"].text
    assert quotes["711.7"].locator.line_end == 35 and "例：《村の鉄鍛冶》" in quotes["711.7"].text
    assert (quotes["711.3"].locator.line_start, quotes["711.3"].locator.line_end) == (28, 30)
    assert {q.edition_hint for q in quotes.values()} == {"2011-09-30"}
    assert [c.numbers for c in quotes["711.1"].citations] == [("701.25",)]


def test_faq_cards(parsed):
    cards = parsed["faq-innistrad-dfc-2011"].cards
    assert (cards[0].raw, cards[0].line, cards[0].column) == ("《修道院の若者》", 7, 1)
    assert Counter(c.name for c in cards)["先兵の精鋭"] == 6


# ---------------------------------------------------------------- article


def test_article_quotes_commentary_summary(parsed):
    p = parsed["blog-cr-601-casting"]
    assert [q.number for q in p.quoted_rules] == [
        "601", "601.1a", "601.2", "601.2a", "601.2b", "601.2c", "601.2d", "601.2e", "601.2f",
        "601.2g", "601.2h", "601.4", "601.5", "701.4", "701.4a"]
    q = p.quoted_rules[1]
    assert (q.locator.line_start, q.locator.line_end) == (11, 12)  # number line + text line
    assert q.text.startswith("効果の一部は、カードを「プレイする／playing」")
    assert p.quoted_rules[0].raw_number == "601." and p.quoted_rules[0].text == "呪文を唱えること"
    commentary = [r for r in p.rulings if r.kind == "commentary"]
    assert [r.links for r in commentary] == [[f"rule:{n}"] for n in (
        "601.1a", "601.2a", "601.2b", "601.2b", "601.2c", "601.2d", "601.2e", "601.2f", "601.2g",
        "601.2h", "601.4", "601.5")]
    third = commentary[3]
    assert third.text.startswith("③代替コストの宣言") and third.text.endswith("フラッシュバックのコストを払う必要性がある）。")
    assert (third.locator.line_start, third.locator.line_end) == (29, 34)
    summary = [r for r in p.rulings if r.kind == "summary"]
    assert [r.locator.line_start for r in summary] == list(range(84, 93))
    assert summary[7].text == "⑧　⑥で決めた総コストをすべて支払う。"
    assert [c.raw for c in p.quoted_rules[2].citations] == ["rule 717〔不正な処理の扱い〕"]


# ---------------------------------------------------------------- every citation in the seeds

FAQ_ONCE = [("701.25「変身」", ("701.25",), 20), ("202.2e", ("202.2e",), 27),
            ("601「呪文を唱える」", ("601",), 31), ("110.6", ("110.6",), 33),
            ("100.6", ("100.6",), 37), ("103.1a", ("103.1a",), 38),
            ("711「両面カード」", ("711",), 44)]

ALL_CITATIONS = {
    "wiki-hiru-day": [],
    "faq-innistrad-dfc-2011": FAQ_ONCE + [(raw, nums, n + 53) for raw, nums, n in FAQ_ONCE],
    "wiki-heya-room": [("rule 709.3b", ("709.3b",), 88), ("rule 116", ("116",), 94)],
    "blog-cr-601-casting": [
        ("rule 717〔不正な処理の扱い〕", ("717",), 17),
        ("rule 700.2", ("700.2",), 25), ("rule 702.45", ("702.45",), 25),
        ("rule 117.8", ("117.8",), 25), ("rule 117.9", ("117.9",), 25),
        ("rule 601.2e", ("601.2e",), 25), ("rule 107.3", ("107.3",), 25),
        ("rule 601.2b", ("601.2b",), 47), ("rule 605〔マナ能力〕", ("605",), 53),
        # JA "from 601.2a to 601.2g": the 2011 EN text of 601.2h says "601.2a-g".
        ("rule 601.2a から rule 601.2g", tuple(f"601.2{c}" for c in "abcdefg"), 64),
        ("rule 601〔呪文を唱えること〕", ("601",), 78)],
    "wiki-yoji-manifest": [
        ("CR:712.15", ("712.15",), 49), ("CR:613.7f", ("613.7f",), 55),
        ("CR:304.4", ("304.4",), 65), ("CR:307.4", ("307.4",), 65),
        ("rule 116.2b", ("116.2b",), 99), ("rule 702.37e", ("702.37e",), 100),
        ("rule 708〔裏向きの呪文やパーマネント〕", ("708",), 104)],
}


@pytest.mark.parametrize("doc_id", ALL_CITATIONS)
def test_every_citation_in_the_seeds(parsed, doc_id):
    got = [(c.raw, c.numbers, c.line) for c in parsed[doc_id].citations]
    assert got == ALL_CITATIONS[doc_id]
    for c in parsed[doc_id].citations:
        assert line(doc_id, c.line)[c.column - 1:].startswith(c.raw)


def test_citations_titles(parsed):
    titles = {c.raw: c.title for p in parsed.values() for c in p.citations}
    assert titles["rule 717〔不正な処理の扱い〕"] == "不正な処理の扱い"
    assert titles["701.25「変身」"] == "変身"
    assert titles["rule 116"] is None


def test_rulings_carry_their_citations(parsed):
    by_line = {r.locator.line_start: r for r in parsed["wiki-yoji-manifest"].rulings}
    assert [c.numbers for c in by_line[65].citations] == [("304.4",), ("307.4",)]
    assert [c.raw for c in by_line[49].citations] == ["CR:712.15"]
