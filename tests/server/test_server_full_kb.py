"""Pages a Japanese judge opens, on the full KB built from the real data (every EN edition and the
whole JA CR): the official translation labelled on today's rules, the EN changes since it, the
older wording quoted by documents, superseded rulings with the editions that changed their rule."""
from __future__ import annotations

import re
from html import unescape

import pytest

from server import create_app
from tests.server.pages import page


@pytest.fixture(scope="module")
def client(full_kb):
    return create_app({"KB": full_kb, "TESTING": True}).test_client()


def block(html: str, element_id: str) -> str:
    return html.split(f'id="{element_id}"', 1)[1].split("</section>", 1)[0]


def test_todays_rule_shows_the_official_translation_labelled(client, full_kb):
    rule = full_kb.rule("731.2a")
    ja = block(page(client, "/rules/731.2a"), "text-ja")
    assert "和訳 20260116.0" in ja and unescape(re.sub(r"<[^>]+>", "", ja)).count(rule["text"]["ja"]) == 1
    assert 'id="en-same"' in ja and 'id="en-changed"' not in ja  # 730.2a -> 731.2a: renumbered only


def test_a_rule_whose_english_changed_after_the_translation_shows_the_change(client, full_kb):
    change = next(c for c in full_kb.rule("107.3e")["ja_source"]["en_changed"] if not c["numbers_only"])
    ja = block(page(client, "/rules/107.3e"), "text-ja")
    assert 'id="en-changed"' in ja and f"CR {change['edition']} {change['number']}" in ja
    assert "<ins" in ja or "<del" in ja  # the word diff of the EN change


def test_an_old_rule_shows_the_wording_its_document_quoted_labelled(client, full_kb):
    ja = block(page(client, "/rules/711.4?edition=2011-09-30"), "text-ja")
    quoted = next(t for t in full_kb.rule("711.4", edition="2011-09-30")["texts"] if t.get("kind") == "quoted")
    assert ja.index('class="ja-version ja-quoted"') < ja.index('class="ja-version ja-official"')
    assert quoted["text"] in unescape(ja) and "イニストラード FAQ" in ja


def test_a_superseded_ruling_lists_the_editions_that_changed_its_rule(client, full_kb):
    html = page(client, "/rulings/faq-innistrad-dfc-2011%23r4")
    assert "古い裁定</strong> — 現行" in html
    listed = block(html, "superseded-changes")
    for c in full_kb.ruling("faq-innistrad-dfc-2011#r4")["superseded"]["changes"]:
        assert f'CR {c["edition"]} <a class="rn" href="/rules/{c["rule"]}?edition={c["edition"]}">' in listed


def test_the_mechanic_page_by_its_japanese_name(client):
    html = page(client, "/mechanics/日暮")
    assert re.search(r'<h1 id="mechanic-name"><span lang="ja">日暮・夜明</span>', html)
    assert "[[" not in block(html, "rulings") and "英語原文" not in block(html, "mechanic-rules")


def test_a_mechanic_newer_than_the_translation_says_it_has_no_japanese_name(client, full_kb):
    heal = full_kb.mechanic("heal")
    assert heal["name"]["ja"] is None and heal["ja_missing"]["reason"] == "newer-than-translation"
    html = page(client, "/mechanics/heal?lang=ja")
    note = html.split('id="ja-name-note"', 1)[1].split("</p>", 1)[0]
    assert "和訳なし" in note and "20260116.0" in note and heal["ja_missing"]["added_in"] in note
    assert '<span lang="en">Heal</span>' in html  # the EN name shown is marked as English


def test_the_japanese_page_shows_the_japanese_glossary_and_keeps_the_english_one_folded(client):
    glossary = block(page(client, "/mechanics/日暮?lang=ja"), "mechanic-glossary")
    shown, folded = glossary.split('<details class="other-glossary">', 1)
    assert '<dt lang="ja">日暮' in shown and '<dt lang="en">' not in shown
    assert '<dt lang="en">Daybound' in folded
    english = block(page(client, "/mechanics/日暮?lang=en"), "mechanic-glossary")
    assert english.split("<details", 1)[0].count('<dt lang="en">') >= 1 and '<dt lang="ja">' not in english.split("<details", 1)[0]


def test_the_mechanic_index_names_every_mechanic_and_counts_those_without_a_japanese_name(client, full_kb):
    html = page(client, "/mechanics?lang=ja")
    every = full_kb.all_mechanics()
    missing = [m for m in every if not m["name_ja"]]
    assert f"{len(every)} 件" in html and f"和訳のないもの: {len(missing)} 件" in html
    assert html.count('class="mech"') == len(every)
    assert all(f'href="/mechanics/{m["key"]}" lang="en">{m["name_en"]}</a> <small class="no-ja">和訳なし' in html
               for m in missing)
