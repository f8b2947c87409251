"""Rule citations and card mentions found in free text (table-driven)."""
from __future__ import annotations

import pytest

from kb.parse.card_mentions import find_cards, find_slash_names, find_wiki_links
from kb.citations.extract import expand, find_citations, rule_heading

ABCD = ("601.2a", "601.2b", "601.2c", "601.2d")

# text, [(raw, numbers, title, is_range)]
CASES = [
    ("rule 601.2e", [("rule 601.2e", ("601.2e",), None, False)]),
    ("Rule 601.2e applies.", [("Rule 601.2e", ("601.2e",), None, False)]),
    ("See rules 601.2a–d.", [("rules 601.2a–d", ABCD, None, True)]),
    ("steps 601.2a-g", [("601.2a-g", ABCD + ("601.2e", "601.2f", "601.2g"), None, True)]),
    ("per rule 601.2a-d here", [("rule 601.2a-d", ABCD, None, True)]),
    ("総コストは601.2e参照。", [("601.2e", ("601.2e",), None, False)]),
    ("（701.25「変身」を参照。）", [("701.25「変身」", ("701.25",), "変身", False)]),
    ("巻き戻される(rule 717〔不正な処理の扱い〕参照)。",
     [("rule 717〔不正な処理の扱い〕", ("717",), "不正な処理の扱い", False)]),
    ("rule 704〔状況起因処理〕参照。", [("rule 704〔状況起因処理〕", ("704",), "状況起因処理", False)]),
    ("704〔状況起因処理〕", [("704〔状況起因処理〕", ("704",), "状況起因処理", False)]),
    ("rule 8〔多人数戦ルール〕参照。", [("rule 8〔多人数戦ルール〕", ("8",), "多人数戦ルール", False)]),
    ("表向きになる（CR:712.15）。", [("CR:712.15", ("712.15",), None, False)]),
    ("(CR:304.4、CR:307.4)", [("CR:304.4", ("304.4",), None, False),
                              ("CR:307.4", ("307.4",), None, False)]),
    ("See rule 702.37e.", [("rule 702.37e", ("702.37e",), None, False)]),
    ("See rule 113, “Abilities,” and rule 602.",
     [("rule 113, “Abilities,”", ("113",), "Abilities", False), ("rule 602", ("602",), None, False)]),
    ("用いない(rule 116.2b 参照)。", [("rule 116.2b", ("116.2b",), None, False)]),
    ("rules 702.10 and 702.11", [("rules 702.10", ("702.10",), None, False),
                                 ("702.11", ("702.11",), None, False)]),
    ("rules 601.2a–d and 601.2f–h.", [("rules 601.2a–d", ABCD, None, True),
                                      ("601.2f–h", ("601.2f", "601.2g", "601.2h"), None, True)]),
    ("rules 403.3, 603.6a, and 614.12.", [("rules 403.3", ("403.3",), None, False),
                                          ("603.6a", ("603.6a",), None, False),
                                          ("614.12", ("614.12",), None, False)]),
    ("(rule 117.8、rule 117.9 参照)", [("rule 117.8", ("117.8",), None, False),
                                      ("rule 117.9", ("117.9",), None, False)]),
    ("rule 601.2a から rule 601.2g で", [("rule 601.2a から rule 601.2g",
                                         ABCD + ("601.2e", "601.2f", "601.2g"), None, True)]),
    ("601.2a から、rule 601.2g", [("rule 601.2g", ("601.2g",), None, False)]),
    ("its color indicator (202.3b).", [("202.3b", ("202.3b",), None, False)]),
    ("色指標（202.2e参照）", [("202.2e", ("202.2e",), None, False)]),
    ("100.6を参照。", [("100.6", ("100.6",), None, False)]),
    ("601「呪文を唱える」を参照。", [("601「呪文を唱える」", ("601",), "呪文を唱える", False)]),
    ("see rule 704.", [("rule 704", ("704",), None, False)]),
    ("See section 6, “Spells, Abilities, and Effects.”",
     [("section 6, “Spells, Abilities, and Effects.”", ("6",), "Spells, Abilities, and Effects",
       False)]),
    ("see section 9.", [("section 9", ("9",), None, False)]),
    ("rules 702.1–702.5", [("rules 702.1–702.5", ("702.1", "702.2", "702.3", "702.4", "702.5"),
                            None, True)]),
    ("rules 701.2–4", [("rules 701.2–4", ("701.2", "701.3", "701.4"), None, True)]),
    ("rules 712.9–10", [("rules 712.9–10", ("712.9", "712.10"), None, True)]),
    ("rules 509.1a-c", [("rules 509.1a-c", ("509.1a", "509.1b", "509.1c"), None, True)]),
    ("rule ７０１．２５ 参照", [("rule ７０１．２５", ("701.25",), None, False)]),
]

NOT_CITATIONS = [
    "2011年9月23日 TCG全般",
    "引用：総合ルール 20231117.0",
    "Blogatog 2024-09-21",
    "2/2のクリーチャー、１/１、＋２/＋２",
    "{1}{W}{X} X=2 (X=1)",
    "統率者2018、モダンホライゾン",
    "^[1] ^{2.0 2.1} 1. ↑ Blogatog",
    "1. そのドアが戦場で開放される。",
    "$100.50 and 100.5% of 250 cards (250)",
    "version 1.2.3 build 702.1.4",
    "https://mtg-jp.com/reading/mm/0035378/",
    "護法(2)を持つ",
    "２番目に使われてる",
]


@pytest.mark.parametrize("text,expected", CASES, ids=[c[0] for c in CASES])
def test_citation_forms(text, expected):
    got = [(c.raw, c.numbers, c.title, c.is_range) for c in find_citations(text)]
    assert got == expected
    for c in find_citations(text):
        assert text[c.start:c.end] == c.raw


@pytest.mark.parametrize("text", NOT_CITATIONS)
def test_not_citations(text):
    assert find_citations(text) == []


def test_line_and_column_use_splitlines_and_offset():
    text = "first line\rsecond (rule 601.2e 参照)\r\nthird 110.6参照"
    got = [(c.raw, c.line, c.column) for c in find_citations(text, line_offset=10)]
    assert got == [("rule 601.2e", 12, 9), ("110.6", 13, 7)]


def test_leading_rule_number_of_a_quoted_rule_is_not_a_citation():
    text = "701.25「変身」を参照 heading\n• 601.2a-d heading\nsee (202.3b) and rule 601.2a-d"
    assert [c.raw for c in find_citations(text)] == ["701.25「変身」", "601.2a-d", "202.3b",
                                                     "rule 601.2a-d"]
    kept = find_citations(text, exclude_line_heads=True)
    assert [(c.raw, c.line) for c in kept] == [("202.3b", 3), ("rule 601.2a-d", 3)]


@pytest.mark.parametrize("first,last,expected", [
    ("601.2a", "d", ABCD),
    ("509.1k", "n", ("509.1k", "509.1m", "509.1n")),  # no 509.1l
    ("100.1n", "q", ("100.1n", "100.1p", "100.1q")),  # no 100.1o
    ("601.2a", "601.2d", ABCD),
    ("702.1", "702.3", ("702.1", "702.2", "702.3")),
    ("100", "102", ("100", "101", "102")),
    ("601.2.", None, ("601.2",)),
])
def test_expand(first, last, expected):
    assert expand(first, last) == expected


@pytest.mark.parametrize("line,raw,number,rest", [
    ("711.1a.両面カードの正面は", "711.1a.", "711.1a", "両面カードの正面は"),
    ("701.25.変身", "701.25.", "701.25", "変身"),
    ("711. 両面カード", "711.", "711", "両面カード"),
    ("601.1a", "601.1a", "601.1a", ""),
    ("709.5. Some split cards", "709.5.", "709.5", "Some split cards"),
    ("      • 701.34a 「[[[カード]]を]", "701.34a", "701.34a", "「[[[カード]]を]"),
])
def test_rule_heading(line, raw, number, rest):
    head = rule_heading(line)
    assert (head.raw, head.number, line[head.text_start:]) == (raw, number, rest)


@pytest.mark.parametrize("line", ["2011年9月23日", "1. このパーマネント", "１/１", "7 その他のルール"])
def test_not_rule_heading(line):
    assert rule_heading(line) is None


def test_chapter_heading_only_when_allowed():
    assert rule_heading("• 7 その他のルール", allow_chapter=True).number == "7"


# ---------------------------------------------------------------- card mentions


def test_find_cards_brackets_and_templates():
    text = "《修道院の若者》と《エルフの再生<》\n{{#Card:The Celestus}}"
    got = [(c.raw, c.name, c.name_ja, c.name_en, c.line, c.column) for c in find_cards(text, 4)]
    assert got == [("《修道院の若者》", "修道院の若者", "修道院の若者", None, 5, 1),
                   ("《エルフの再生<》", "エルフの再生", "エルフの再生", None, 5, 10),
                   ("{{#Card:The Celestus}}", "The Celestus", None, "The Celestus", 6, 1)]


def test_wiki_links_are_cards_only_when_the_predicate_says_so():
    text = "[[夜]]と[[不自然な月の出/Unnatural Moonrise]]、[[#昼から夜|下記のチェック]]"
    links = find_wiki_links(text)
    assert [(l.target, l.label, l.ja, l.en) for l in links] == [
        ("夜", None, "夜", None),
        ("不自然な月の出/Unnatural Moonrise", None, "不自然な月の出", "Unnatural Moonrise"),
        ("#昼から夜", "下記のチェック", None, None)]
    assert find_cards(text) == []
    cards = find_cards(text, is_card=lambda t: "/" in t)
    assert [(c.name, c.name_ja, c.name_en) for c in cards] == [
        ("不自然な月の出", "不自然な月の出", "Unnatural Moonrise")]


def test_slash_names():
    text = "部屋/Roomとは。\n• 例えば翻弄する魔道士/Meddling Mageや撲滅/Eradicateの\n太陽の神、ヘリオッド/Heliod, God of the Sunは"
    got = [(s.ja, s.en, s.line, s.column) for s in find_slash_names(text)]
    assert got == [("部屋", "Room", 1, 1), ("例えば翻弄する魔道士", "Meddling Mage", 2, 3),
                   ("や撲滅", "Eradicate", 2, 27), ("太陽の神、ヘリオッド", "Heliod, God of the Sun", 3, 1)]
    assert find_slash_names("2/2 と 昼/夜") == []
