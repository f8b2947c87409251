"""JA text on EN rules (kb.lookup.translation), rulings as displayed (kb.lookup.display) and the
rules as a book (kb.lookup.outline), on the full KB built from the real data."""
from __future__ import annotations

import pytest

from kb.wikitext import visible as strip_markup  # the one cleaner (kb.wikitext)
from tests.shared_data import require_data


def ja_line(number: str) -> str:
    text = (require_data() / "cr-ja-20260116.txt").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith(number + " ") or x.startswith(number + ". "))
    return line.split(" ", 1)[1].strip()


def test_current_rule_carries_the_official_translation_labelled(full_kb):
    rule = full_kb.rule("731.2a")
    assert rule["edition"] == full_kb.current_edition("en")
    ja = rule["ja_source"]
    assert rule["text"]["ja"] == ja_line(ja["translation_of"]["number"])
    assert ja["kind"] == "official" and ja["label"] == "和訳 20260116.0" and ja["edition"] == "2026-01-16"
    assert ja["citation"]["document"] == "cr-ja-2026-01-16" and ja["citation"]["lang"] == "ja"
    # 730.2a (2026-01-16) became 731.2a: a renumbering, the wording is the same
    assert ja["translation_of"]["number"] == "730.2a" and ja["en_text_changed"] is False


def test_a_rule_whose_english_changed_after_the_translation_says_so(full_kb):
    rule = full_kb.rule("107.3e")
    changes = [c for c in rule["ja_source"]["en_changed"] if not c["numbers_only"]]
    assert rule["ja_source"]["en_text_changed"] and changes
    first = changes[0]
    assert first["from_edition"] >= "2026-01-16" and first["before"] != first["after"]
    assert first["before"] == full_kb.rule("107.3e", edition=first["from_edition"])["text"]["en"]
    kept = "".join(o["text"] for o in first["diff"] if o["op"] != "delete")
    assert kept == first["after"]


def test_older_japanese_wording_is_attached_to_the_rule_of_its_edition(full_kb):
    # 711.4 (2011): the EN wording changed after 2011, so the FAQ's quote of that edition is the
    # page's JA text and the official translation of today's rule follows it, labelled
    rule = full_kb.rule("711.4", edition="2011-09-30")
    quoted, official = [t for t in rule["texts"] if t["lang"] == "ja"][:2]
    assert quoted["kind"] == "quoted" and quoted["quoted_in"] == "faq-innistrad-dfc-2011"
    assert quoted["label"].startswith("as quoted in ") and quoted["edition"] == "2011-09-30"
    assert rule["text"]["ja"] == quoted["text"] and quoted["text"].startswith("両面カードを呪文として唱える場合")
    assert official["kind"] == "official" and official["label"] == "和訳 20260116.0"
    # the EN wording changed between 2011 and the translated edition: before the translation, so
    # nothing changed "since the translation"; the changes that led to the translated text are listed
    assert official["en_changed"] == [] and any(not c["numbers_only"] for c in official["en_changed_before"])
    assert all("2011-09-30" < c["edition"] <= official["edition"] for c in official["en_changed_before"])
    assert official["other_edition"]["label"]["ja"].endswith(f"の和訳（{official['edition']}）")


def test_official_translation_comes_first_where_the_english_wording_is_unchanged(full_kb):
    # 701.25 Transform (2011) is today's 701.27, worded the same: the official JA text leads,
    # the FAQ's older wording is still attached
    rule = full_kb.rule("701.25", edition="2011-09-30")
    ja = [t for t in rule["texts"] if t["lang"] == "ja"]
    assert ja[0]["kind"] == "official" and ja[0]["translation_of"]["number"] == "701.27"
    assert rule["text"]["ja"] == ja[0]["text"] == ja_line("701.27.")
    assert [(t["text"], t["quoted_in"]) for t in ja if t["kind"] == "quoted"] == [("変身", "faq-innistrad-dfc-2011")]


def test_the_translations_stale_reference_is_reported_with_what_it_meant(full_kb):
    fixes = full_kb.rule("702.145b")["ja_source"]["reference_fixes"]
    assert [(f["written"], f["meant"], f["meant_today"]) for f in fixes] == [("728", "730", "731")]


@pytest.mark.parametrize("raw, shown", [
    ("毎ターン[[#昼から夜または夜から昼になるとき|下記のチェック]]も行われる", "毎ターン下記のチェックも行われる"),
    ("[[能力]]を持つ[[不自然な月の出/Unnatural Moonrise]]", "能力を持つ不自然な月の出/Unnatural Moonrise"),
    ("本文<ref>[https://example.org 出典]</ref>。^[1]", "本文。"),
    ("'''昼'''/''Day''", "昼/Day"),
    ("「[[[カード]]を]予示する」", "「[カードを]予示する」"),
    ("[https://mtg-jp.com/reading/ 『狩り』は楽し]", "『狩り』は楽し"),
])
def test_wiki_markup_is_stripped_for_display(raw, shown):
    assert strip_markup(raw) == shown


def test_rulings_show_their_text_and_superseded_ones_say_so(full_kb):
    old = full_kb.ruling("faq-innistrad-dfc-2011#r4")
    assert "点数で見たマナ・コストは０" in old["display"]
    assert old["superseded"]["kind"] == "outcome" and old["superseded"]["current_rule"] == "712.8e"
    assert old["superseded"]["label"]["ja"] == "古い裁定"
    assert old["written_in"] == "2011-09-30"
    # the editions that changed today's 712.8e since the FAQ, each a real text change in its history
    changes = [(c["edition"], c["rule"]) for c in old["superseded"]["changes"]]
    changed = [(s["edition"], s["number"]) for s in full_kb.history("712.8e") if s["text_changed"]]
    assert changes == [c for c in changed if c[0] > "2011-09-30"] and ("2023-04-14", "712.8e") in changes
    day = full_kb.ruling("wiki-hiru-day#r8")
    assert "[[" not in day["display"] and "下記のチェック" in day["display"] and "[[" in day["text"]
    # the same mark wherever the ruling is listed: on its rule and in search
    listed = [r for r in full_kb.rule("712.8e")["references_in"] if r["id"] == "faq-innistrad-dfc-2011#r4"]
    assert listed and listed[0]["superseded"]["current_rule"] == "712.8e"
    hits = full_kb.search("背面 点数で見たマナ・コスト", limit=20)["hits"]
    assert any(h["id"] == "faq-innistrad-dfc-2011#r4" and h["superseded"] for h in hits)


def test_wiki_link_lists_are_see_also_not_rulings(full_kb):
    m = full_kb.mechanic("昼と夜")  # the 昼 page's link list (参考) is its see-also, not 日暮's rulings
    assert m["key"] == "day-and-night"
    assert all(r["kind"] != "note" or "参考" not in r["citation"]["section"] for r in m["rulings"])
    assert any("日暮" in r["display"] and "[[" not in r["display"] for r in m["see_also"])


def test_rules_read_as_a_book(full_kb):
    current = full_kb.current_edition("en")
    near = full_kb.neighbours("731.2a", current)
    assert near["previous"]["number"] == "731.2" and near["next"]["number"] == "731.2b"
    heading = full_kb.rule("702.145b")["heading"]
    assert [h["number"] for h in heading] == ["7", "702", "702.145"]
    assert heading[-1]["title"]["ja"] == "日暮・夜明／Daybound and Nightbound"
    context = full_kb.context("731.2a", current)
    assert context["rule"] == "731.2" and [c["number"] for c in context["family"]][:2] == ["731.2", "731.2a"]
    contents = full_kb.contents()
    assert [c["number"] for c in contents["chapters"]] == [str(n) for n in range(1, 10)]
    sections = {s["number"]: s for c in contents["chapters"] for s in c["sections"]}
    assert sections["731"]["text"]["ja"] == "昼と夜" and sections["731"]["text"]["en"] == "Day and Night"
