"""The KB API over the full corpus: what users look up, with the citations they rely on."""
from __future__ import annotations

import pytest

from kb.errors import KBError
from kb.rulenumbers import canonical as canonical_rule_number


def _line_in(data_dir, source_name: str, start: str) -> int:
    from kb.sources.files import classify
    text = classify(data_dir / source_name).document.text
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_rule_601_2c_has_current_english_and_japanese_text(full_kb, data_dir):
    today = full_kb.current_edition()
    rule = full_kb.rule("601.2c")
    assert rule["edition"] == today == "2026-06-19"
    assert rule["text"]["en"].startswith("The player announces their choice of an appropriate object or player")
    assert rule["text"]["ja"].startswith("プレイヤーは、その呪文の求める対象それぞれについて")
    en, ja = rule["texts"]
    assert en["citation"]["document"] == f"cr-en-{today}"
    assert en["citation"]["line_start"] == _line_in(data_dir, "cr-en-20260619.txt", "601.2c ")
    assert ja["citation"]["document"] == "cr-ja-2026-01-16" and ja["edition"] == "2026-01-16"
    assert ja["citation"]["line_start"] == _line_in(data_dir, "cr-ja-20260116.txt", "601.2c ")
    assert rule["parent"] == "601.2"
    editions = [h["edition"] for h in rule["history"]]
    assert {"2011-09-30", "2023-11-17", "2026-01-16", "2026-04-17", today} <= set(editions)
    assert editions == sorted(editions) and editions[-1] == today


def test_old_transform_number_leads_to_today(full_kb):
    today = full_kb.current_edition()
    rule = full_kb.rule("701.25", edition="2011-09-30")
    assert rule["text"]["en"] == "Transform"
    assert rule["current"] == {"number": "701.27", "edition": today, "status": "renumbered"}
    steps = dict((h["edition"], h["number"]) for h in rule["history"])
    assert [steps[e] for e in ("2011-09-30", "2023-11-17", "2026-01-16", "2026-04-17", today)] == [
        "701.25", "701.28", "701.27", "701.27", "701.27"]
    assert full_kb.rule("701.27")["text"]["en"] == "Transform"


@pytest.mark.parametrize("old, edition, today", [
    ("711", "2011-09-30", "712"), ("601.2e", "2011-09-30", "601.2f"), ("717", "2011-09-30", "733"),
    ("701.34", "2023-11-17", "701.40"), ("701.34a", "2023-11-17", "701.40a")])
def test_lineage_matches_text_not_numbers(full_kb, old, edition, today):
    assert full_kb.rule(old, edition=edition)["current"]["number"] == today


def test_number_reused_by_another_rule_is_not_lineage(full_kb):
    # Today's 711 is Leveler Cards; 2011's 711 (double-faced cards) went to 712.
    assert full_kb.rule("711")["title"] == "Leveler Cards"
    assert full_kb.rule("711", edition="2011-09-30")["current"]["number"] == "712"


def test_unknown_rule_suggests_close_numbers_and_former_meaning(full_kb):
    assert full_kb.rule("702.999") is None
    assert "702.9" in full_kb.suggest("702.999") or full_kb.suggest("702.999")
    formerly = full_kb.formerly("701.25")
    assert {"edition": "2011-09-30", "number": "701.25", "status": "renumbered",
            "current": {"number": "701.27", "edition": full_kb.current_edition()}} in formerly


@pytest.mark.parametrize("text, number", [("601.2c", "601.2c"), ("rule 601.2c", "601.2c"), ("６０１．２ｃ", "601.2c"),
                                          ("601.2.", "601.2"), ("CR:712.15", "712.15"), ("7", "7")])
def test_rule_numbers_are_canonicalised(text, number):
    assert canonical_rule_number(text) == number


@pytest.mark.parametrize("bad", ["foo", "60", "601.2cc", "", "1234.5"])
def test_malformed_rule_numbers_are_refused(full_kb, bad):
    with pytest.raises(KBError) as err:
        full_kb.rule(bad)
    assert (err.value.code, err.value.status) == ("invalid_rule_number", 400)


def test_unknown_edition_is_a_clear_error(full_kb):
    with pytest.raises(KBError) as err:
        full_kb.rule("601.2c", edition="1999-01-01")
    assert (err.value.code, err.value.status) == ("edition_not_found", 404)
    assert full_kb.current_edition() in err.value.suggestions


@pytest.mark.parametrize("name, key", [("予示", "manifest"), ("manifest", "manifest"), ("Manifest", "manifest"),
                                       ("昼", "day-and-night"), ("day", "day-and-night"), ("夜", "day-and-night"),
                                       ("部屋", "room-split-cards"), ("Room", "room-split-cards"),
                                       ("変身", "transform"), ("transform", "transform"),
                                       ("唱える", "cast"), ("cast", "cast"), ("ヨジ", "manifest")])
def test_mechanic_by_any_name(full_kb, name, key):
    assert full_kb.mechanic(name)["key"] == key


def test_manifest_mechanic_lists_rules_rulings_and_cards(full_kb):
    m = full_kb.mechanic("予示")
    assert m["name"] == {"en": "Manifest", "ja": "予示"}
    assert m["rules"][0]["number"] == "701.40" and m["rules"][0]["citation"]["edition"] == full_kb.current_edition()
    ruling = next(r for r in m["rulings"] if r["text"].startswith("予示されたカードは、文章やカード名"))
    assert ruling["citation"]["document"] == "wiki-yoji-manifest"
    assert ruling["citation"]["line_start"] == 31 and ruling["citation"]["section"] == "ルール > 戦場に出る際"
    assert {"key": "meddling-mage", "name_ja": "翻弄する魔道士", "name_en": "Meddling Mage"} in m["cards"]


@pytest.mark.parametrize("name", ["Meddling Mage", "翻弄する魔道士", "meddling mage"])
def test_card_by_either_name(full_kb, name):
    card = full_kb.card(name)
    assert (card["name_en"], card["name_ja"]) == ("Meddling Mage", "翻弄する魔道士")
    assert card["mentions"][0]["citation"]["line_start"] == 41
    assert any(s["document"] == "cards-ja-card-names-mtgwiki-20250922" for s in card["sources"])


def test_ruling_citations_are_resolved_to_todays_rules(full_kb):
    blog = [r for r in full_kb.rulings(document="blog-cr-601-casting")]
    quotes = {r["number"]: r for r in full_kb.model.quotes.values() if r["document"] == "blog-cr-601-casting"}
    assert "2011-09-30" <= quotes["601.2e"]["edition"] <= "2013-05-01"  # editions whose 601 the blog quotes
    assert quotes["601.2e"]["resolved"]["current"]["number"] == "601.2f"
    assert blog  # the blog's commentary is there, each with its citation
    assert all(r["citation"]["document"] == "blog-cr-601-casting" for r in blog)


def test_documents_know_which_edition_they_quote(full_kb):
    docs = {d["id"]: d for d in full_kb.documents()}
    assert (docs["faq-innistrad-dfc-2011"]["edition"], docs["faq-innistrad-dfc-2011"]["edition_method"]) == \
        ("2011-09-30", "stated-by-document")
    blog = docs["blog-cr-601-casting"]
    assert blog["edition_method"] == "quoted-text" and "2011-09-30" <= blog["edition"] <= "2013-05-01"
    assert "2011-09-30" in blog["edition_detail"]  # the whole run of editions that fit is reported
    # Dated 2024-09-21, when 2024-07-30 was in force, but its 709.5 quotes are Rooms: the text decides.
    heya = docs["wiki-heya-room"]
    assert heya["edition_method"] == "quoted-text" and heya["edition"] > "2024-09-21"  # the nearest with Rooms
    assert full_kb.rule("709.5", edition=heya["edition"])["text"]["en"].startswith("Some split cards are permanent")


def test_rules_src_alone_answers_from_the_quotes(seed_kb):
    rule = seed_kb.rule("709.5")
    assert rule["kind"] == "quoted" and rule["text"]["en"].startswith("Some split cards are permanent cards")
    assert rule["citations"][0]["document"] == "wiki-heya-room"
    assert seed_kb.mechanic("予示") is None  # no CR loaded: mechanics come from the CR


@pytest.mark.parametrize("old, today", [("711.2b", "712.8e"), ("711.1", "712.2"), ("711.4", "712.11")])
def test_rewritten_2011_double_faced_rules_find_their_successor(full_kb, old, today):
    # 2011's 711.2b "back face up: only the back face's characteristics" is today's 712.8e, not
    # its front-face sibling 712.8d: the words that tell siblings apart decide.
    assert full_kb.rule(old, edition="2011-09-30")["current"]["number"] == today


def test_every_question_mechanic_has_a_mechanic_page(full_kb):
    # The home page links each `kb ask` mechanic by its name; each must open a mechanic.
    for m in full_kb.ask_schemas():
        for name in (m["key"], m["name_en"], m["name_ja"]):
            found = full_kb.mechanic(name)
            assert found is not None, name
            assert full_kb.reasoning_key(found["key"]) == m["key"], name


def test_every_search_hit_says_which_rules_it_leads_to(full_kb):
    rule = full_kb.search("部屋 コピー", kinds={"rule"}, limit=1)["hits"][0]
    assert rule["rules"] == [rule["rule"]]
    # A 部屋 ruling about copies leads to the rule the reasoning engine decides it with.
    ruling = full_kb.search("部屋 コピー", kinds={"ruling"}, limit=1)["hits"][0]
    assert "709.5b" in ruling["rules"]
    night = next(h for h in full_kb.search("昼", limit=10)["hits"] if h["kind"] == "glossary")
    assert night["rules"] == ["731", "702.145"]


def test_an_edition_is_found_by_its_effective_date_or_its_file_date(full_kb):
    by_effective = full_kb.rule("601.2c", edition="2024-02-02")
    by_file_date = full_kb.rule("601.2c", edition="2024-02-06")  # "MagicCompRules 20240206.txt"
    assert by_effective["edition"] == by_file_date["edition"] == "2024-02-02"
    assert by_file_date["texts"][0]["citation"]["document"] == "cr-en-2024-02-02"
    info = next(e for e in full_kb.editions() if e["edition"] == "2024-02-02")
    assert (info["file_date"], info["encoding"]) == ("2024-02-06", "utf-8-sig")


def test_a_rule_printed_twice_in_an_edition_keeps_both(full_kb):
    first, second = full_kb.rule("702.30d", edition="2009-09-04"), full_kb.rule("702.30d~2", edition="2009-09-04")
    assert first["text"]["en"] != second["text"]["en"] and second["parent"] == "702.30"
    info = next(e for e in full_kb.editions() if e["edition"] == "2009-09-04")
    assert any("702.30d appears twice" in w["message"] for w in info["warnings"])
