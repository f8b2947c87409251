"""The JA CR aligned with the EN edition it translates (kb.build.japanese) and the JA mechanic names,
on the real files: EN 2026-01-16 (the edition translated), the newest EN edition and the JA CR,
with the seeds. Expected values are read from the files where they can be."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tests.shared_data import newest_en_source, require_data


@functools.cache
def model():
    from kb import config
    from kb.build.model import build_model
    from kb.parse.corpus import parse_all
    from kb.sources.files import discover
    data = require_data()
    paths = [data / "cr-en-20260116.txt", data / "cr-ja-20260116.txt", Path(newest_en_source().origin)]
    return build_model(parse_all(discover(paths, config.rules_src_dir())))


def ja_line(number: str) -> str:
    text = (require_data() / "cr-ja-20260116.txt").read_text(encoding="utf-8")
    return next(line for line in text.splitlines() if line.startswith(number + " ") or line.startswith(number + ". "))


@pytest.fixture(scope="module")
def aligned():
    return model().ja_alignment["2026-01-16"]


def test_the_translation_is_aligned_rule_for_rule_and_its_differences_reported(aligned):
    assert aligned["label"] == "和訳 20260116.0" and aligned["en_edition"] == "2026-01-16"
    assert aligned["aligned"] >= 3200
    assert {x["number"] for x in aligned["only_ja"]} == {"505.4~2", "805.10g"}
    assert [x["number"] for x in aligned["only_en"]] == ["610.5"]
    assert next(x["why"] for x in aligned["only_ja"] if x["number"] == "505.4~2").startswith("printed twice")
    assert aligned["contents"]["missing"] == ["721"]  # the JA もくじ jumps from 720 to 722


def test_a_stale_cross_reference_is_resolved_by_its_title_and_flagged(aligned):
    m = model()
    assert "rule 728〔昼と夜〕" in ja_line("702.145b")  # as the translation prints it
    [fix] = aligned["fixes"]["rule:702.145b"]
    assert (fix["written"], fix["title"], fix["meant"], fix["status"]) == ("728", "昼と夜", "730", "number-disagrees")
    assert m.rules[("ja", "2026-01-16", "730")]["text"] == "昼と夜"
    # the rule's references follow the meaning, so the graph never links 702.145b to 728 サブゲーム
    assert "730" in m.rules[("ja", "2026-01-16", "702.145b")]["refs"]
    assert "728" not in m.rules[("ja", "2026-01-16", "702.145b")]["refs"]
    # glossary: 日暮 … rule 729〔昼と夜〕 (729 is パーマネントの合同)
    assert [(f["written"], f["meant"]) for f in aligned["fixes"]["glossary:日暮"]] == [("729", "730")]
    # a reference whose title fits its number is left alone
    assert "rule:731.2a" not in aligned["fixes"] and aligned["references"]["unresolved"] == 0


def test_translation_version_and_contents_are_read_from_the_file():
    from kb.parse.cr_ja import contents, translation_version
    text = (require_data() / "cr-ja-20260116.txt").read_text(encoding="utf-8")
    assert translation_version(text) == "20260116.0"
    listed = [n for n, _, _ in contents(text)]
    assert "720" in listed and "722" in listed and "721" not in listed
    assert translation_version("もくじ\n") is None


def test_mechanics_take_their_japanese_names_from_the_translation():
    m = model()
    day = m.mechanics["daybound-and-nightbound"]
    title = ja_line("702.145.").split(" ", 1)[1].split("／")[0]
    assert day["name_ja"] == title == "日暮・夜明"
    assert {"日暮", "夜明"} <= set(day["aliases_ja"])
    for name in ("日暮", "夜明", "日暮・夜明"):
        assert "daybound-and-nightbound" in m.mechanic_names[name]
    assert m.mechanics["transform"]["name_ja"] == "変身"  # the glossary headword stays the name
    face_down = [x for x in m.mechanics.values() if x["name_en"] == "Face Down"]
    assert len(face_down) >= 2 and all(x["name_ja"] == "裏向き" for x in face_down)


def test_japanese_glossary_names_terms_the_english_glossary_writes_differently():
    # JA 「モードを持つ両面カード／Modal DoubleFaced Cards」 (no hyphen) is EN "Modal Double-Faced Cards";
    # JA 「変身する両面カード／Transforming Double-Faced Cards」 is EN "… Cards (Obsolete)"
    m = model()
    names = {x["name_en"]: x["name_ja"] for x in m.mechanics.values()}
    assert names["Modal Double-Faced Cards"] == "モードを持つ両面カード"
    assert names.get("Transforming Double-Faced Cards (Obsolete)", names.get("Transforming Double-Faced Cards")) == "変身する両面カード"


def _by_en(m, name_en: str) -> dict:
    return next(x for x in m.mechanics.values() if x["name_en"] == name_en)


def test_glossary_terms_written_another_way_are_matched_through_the_rules_they_cite():
    # EN "City’s Blessing" / JA "The City's Blessing"; EN "Dies" / JA "Die"; EN "Kicker, Kicked" /
    # JA "Kicker"; EN "Remove from Combat" / JA "Removed from Combat"; JA "Nonmodal " (cut short)
    m = model()
    for name_en, line_start in (("City’s Blessing", "都市の承認（"), ("Dies", "死亡（"), ("Kicker, Kicked", "キッカー（"),
                                ("Remove from Combat", "戦闘から取り除く（"),
                                ("Nonmodal Double-Faced Card", "モードを持たない両面カード（")):
        found = _by_en(m, name_en)
        assert found["name_ja"] == line_start[:-1], name_en
        assert found["ja_source"]["how"] == "glossary" and found["ja_missing"] is None
        assert ("ja", found["name_ja"]) in [tuple(g) for g in found["glossary"]]  # its JA entry is shown
    assert "キッカーされた" in _by_en(m, "Kicker, Kicked")["aliases_ja"]  # 702.33d 「キッカーされた／Kicked」


def test_names_the_glossary_lacks_are_read_from_the_ja_rule_of_the_same_number():
    m = model()
    saddled = _by_en(m, "Saddled")  # 「騎乗された状態／Saddled」, not the glossary's 騎乗／Saddle
    assert "「騎乗された状態／Saddled」" in ja_line("702.171b")
    assert saddled["name_ja"] == "騎乗された状態"
    assert saddled["ja_source"].items() >= {"how": "rule-text", "rule": "702.171b", "edition": "2026-01-16"}.items()
    # a glossary term is never named by a guess (issue 37.8): not spelt from katakana words
    # (ファイレクシア・シンボル) nor by a co-occurring noun (速度); it says why it has no JA name
    for name_en in ("Phyrexian Symbol", "Speed"):
        term = _by_en(m, name_en)
        assert term["kind"] == "term" and term["name_ja"] is None
        assert term["ja_missing"]["reason"] == "not-in-translation"


def test_a_mechanic_the_translation_cannot_name_says_why():
    m = model()
    unnamed = [x for x in m.mechanics.values() if not x["name_ja"]]
    assert unnamed and all(x["ja_missing"] for x in unnamed)
    newest = newest_en_source().edition_hint
    for name_en in ("Heal", "Sneak", "Vibranium Token"):  # rules / glossary terms after 2026-01-16
        found = _by_en(m, name_en)
        assert found["name_ja"] is None
        assert found["ja_missing"].items() >= {"reason": "newer-than-translation", "translation": "20260116.0"}.items()
        assert "2026-01-16" < found["ja_missing"]["added_in"] <= newest
    named = [x for x in m.mechanics.values() if x["name_ja"]]
    assert all(x["ja_missing"] is None for x in named)
