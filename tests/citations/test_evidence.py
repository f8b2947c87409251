"""Which edition each citation means, from evidence: the document's date, the edition a changes
article announces, tense, quotes, and honesty when that edition is not loaded (with a small list
of real official editions as the shipped list would give them), on a snapshot of 34 of the editions
(conftest.SPARSE_EDITIONS), so that the editions these texts mean are really not loaded."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.citations import official
from kb.citations.evidence import Chooser, DocumentFacts
from kb.parse.common import is_japanese
from kb.sources.editions import Edition
from kb.sources.official import load

SMALL_LIST = Path(__file__).with_name("data") / "official_editions_small.json"


@pytest.fixture
def listed():
    official.use(SMALL_LIST)
    yield official.official()
    official.use(None)


def _one(report, raw):
    found = [c for c in report["citations"] if c["raw"] == raw]
    assert found, [c["raw"] for c in report["citations"]]
    return found[0]


def test_the_list_reads_both_dates():
    small = load(SMALL_LIST)
    assert small.find("2017-09-25").effective == "2017-09-29"  # the file date is an alias
    assert small.in_force("2017-09-01").effective == "2017-08-25"
    assert [e.effective for e in small.between("2012-06-01", "2013-09-27")] == [
        "2012-07-01", "2012-10-01", "2013-02-01", "2013-04-29", "2013-07-11"]


def test_an_edition_that_is_not_loaded_is_named_never_called_in_force(sparse_kb, listed):
    report = sparse_kb.check_citations("Per rule 702.94a, overload changes the cost.", date="2013-03-01")
    assert report["in_force"] == "2013-02-01"
    assert "edition of 2013-02-01 not loaded; nearest loaded 2012-06-01 and 2013-09-27; results may be wrong" \
        in report["notes"]
    assert report["suggestions"] == ["kb fetch --history"]
    c = _one(report, "rule 702.94a")
    meant = c["edition_meant"]
    assert (meant["edition"], meant["loaded"]) == ("2013-02-01", False)
    assert meant["resolved_with"] in ("2012-06-01", "2013-09-27") and c["edition"] == meant["resolved_with"]
    assert "not loaded" in meant["caveat"] and "kb fetch --history" in meant["caveat"]
    assert meant["caveat_ja"].startswith("2013-02-01 版は読み込まれていません（最も近い読み込み済みの版は 2012-06-01 と "
                                         "2013-09-27）")
    assert report["notes_ja"][report["notes"].index(
        "edition of 2013-02-01 not loaded; nearest loaded 2012-06-01 and 2013-09-27; results may be wrong")] == (
        "2013-02-01 版は読み込まれていません。最も近い読み込み済みの版は 2012-06-01 と 2013-09-27 です。"
        "結果が誤っている可能性があります")
    assert meant["evidence"][0] == "in force on the text's date 2013-03-01"  # said of 2013-02-01, not of a loaded one


def test_a_changes_article_cites_the_edition_it_announces_and_what_was(sparse_kb, listed):
    text = ("Ixalan Comprehensive Rules Changes\n\n### 120.2a\n\nThis rule assures you that draw three can be "
            "modified. Alms Collector baps the existing 120.2a down a couple letters.\n")
    report = sparse_kb.check_citations(text, date="2017-09-28")
    assert report["kind"] == "rules-change article" and report["announced_edition"] == "2017-09-29"
    new, old = [c for c in report["citations"] if c["numbers"] == ["120.2a"]]
    assert (new["form"], new["edition_meant"]["edition"], new["edition_meant"]["method"]) == (
        "heading", "2017-09-29", "announced-edition")
    assert new["current"]["number"] == "121.2a"
    assert old["edition_meant"]["edition"] == "2017-08-25" and old["edition_meant"]["method"] == "previous-edition"
    assert old["edition_meant"]["loaded"] is False and old["edition"] == "2017-06-05"
    assert old["current"]["number"] == "121.2c"  # the old 120.2a is today's 121.2c
    assert old["edition_meant"]["runner_up"]["edition"] == "2017-09-29"


def test_a_changes_article_heading_means_the_rule_that_changed(sparse_kb, listed):
    # Ixalan's "### 704.5j": in 2017-09-29 704.5j is 2017-06-05's 704.5k shifted up unchanged; the
    # article is about the old 704.5j (the planeswalker uniqueness rule), which was removed
    text = ("Ixalan Comprehensive Rules Changes\n\n### 306.4, 704.5j\n\nAll planeswalkers are now legendary!\n")
    report = sparse_kb.check_citations(text, date="2017-09-28")
    c = _one(report, "704.5j")
    meant = c["edition_meant"]
    assert (meant["edition"], meant["method"], c["edition"]) == ("2017-08-25", "edition-before-announced", "2017-06-05")
    assert (c["status"], c["current"]) == ("removed", None)
    assert any("704.5j of CR 2017-09-29 is 704.5k of CR 2017-06-05 renumbered, text unchanged" in e
               for e in meant["evidence"])
    # a heading whose rule in the announced edition is new or changed stays with the announced edition
    assert _one(report, "306.4")["edition_meant"]["edition"] == "2017-09-29"
    # every line of evidence and every form's why is also said in Japanese (the JA /check page)
    for cited in report["citations"]:
        lines = cited["edition_meant"]["evidence"] + [cited["why"]]
        said = cited["edition_meant"]["evidence_ja"] + [cited["why_ja"]]
        assert len(said) == len(lines) and all(is_japanese(j) and j != en for j, en in zip(said, lines)), said
    assert "CR 2017-09-29 の 704.5j は CR 2017-06-05 の 704.5k が本文そのままで番号だけ変わったもの" in \
        " ".join(c["edition_meant"]["evidence_ja"])


def test_a_quote_outweighs_the_date(sparse_kb, listed):
    # a 2010 forum post edited after Innistrad: its quote is 2011-09-30's annihilator, not 2010's level up
    text = ("Sticky: The Keyword FAQ  Apr 27, 2010\n\n702.84a Annihilator is a triggered ability. "
            "\"Annihilator N\" means \"Whenever this creature attacks, defending player sacrifices N permanents.\"\n")
    report = sparse_kb.check_citations(text)
    assert (report["date"], report["date_source"]) == ("2010-04-27", "guessed from line 1")
    [q] = [c for c in report["citations"] if c["kind"] == "quote"]
    assert q["edition_meant"]["edition"] == "2011-09-30" and q["edition_meant"]["method"] == "quoted-text"
    assert q["current"]["number"] == "702.86a" and q["quote_check"]["identical"]
    assert any("quote fits 1.00" in e for e in q["edition_meant"]["evidence"])


def test_without_a_list_the_checker_says_it_cannot_tell(sparse_kb):
    official.use(Path("/nonexistent/official_editions.json"))
    try:
        report = sparse_kb.check_citations("Per rule 702.94a, overload.", date="2013-03-01")
    finally:
        official.use(None)
    assert report["in_force"] == "2012-06-01"
    assert any("no list of official editions" in n for n in report["notes"])


class _Lineage:  # the rule a changes article heads with exists only in the edition before the announced one
    editions = ["2020-01-01", "2020-06-01"]
    rules = {("en", "2020-01-01", "100.1"): {"text": "A rule.", "refs": []}}


def test_close_scores_are_ambiguous_with_a_runner_up():
    old, new = (Edition(e, e) for e in _Lineage.editions)
    facts = DocumentFacts("2020-05-30", True, old, new, old, new.effective, [old, new], True)
    verdict = Chooser(_Lineage(), facts).choose(["100.1"])
    assert verdict.edition == "2020-01-01" and verdict.ambiguous
    assert verdict.runner_up == {"edition": "2020-06-01", "score": 1.75, "loaded": True}
    assert "100.1 not in CR 2020-06-01" not in verdict.evidence  # the winner's own evidence only


GATECRASH = ("Gatecrash Update Bulletin - Comprehensive Rules Changes\n\n**702.97**\n\n{about}\n\n"
             "**702.18b**\n\nShroud is unchanged.\n")


@pytest.mark.parametrize("about, read_as, today", [
    ("The new rules for an ability I can't tell you about. Okay, it's cipher.", "702.98", "702.99"),
    ("暗号の新しいルールです。", "702.98", "702.99"),          # the JA name of the keyword
    ("The new rules for something I can't tell you about.", None, None),  # nothing named: as written
])
def test_a_number_of_an_unloaded_edition_is_read_by_the_name_the_text_gives(sparse_kb, listed, about, read_as,
                                                                             today):
    # the Gatecrash edition (2013-02-01) is not loaded; in 2012-06-01 there is no 702.97 at all, in
    # 2013-09-27 702.97 is another keyword (M14 added one before cipher): the name decides
    report = sparse_kb.check_citations(GATECRASH.format(about=about), date="2013-02-01")
    c = _one(report, "702.97")
    meant = c["edition_meant"]
    assert (meant["edition"], meant["loaded"]) == ("2013-02-01", False) and c["numbers"] == ["702.97"]
    resolved = c["resolved"][0]
    assert resolved["number"] == "702.97" and resolved.get("read_as") == read_as
    if read_as:
        assert (c["edition"], c["status"], resolved["current"]) == ("2013-09-27", "renumbered", today)
        assert report["texts"][c["rule_then"]["text_ref"]] == "Cipher"
        assert "read in 2013-09-27 as 702.98" in meant["caveat"]
        assert any("702.97 read as 702.98 of CR 2013-09-27" in e for e in meant["evidence"])
    else:
        assert resolved["current"] != "702.99"
    shroud = _one(report, "702.18b")  # a rule whose number did not move is read as written
    assert "read_as" not in shroud["resolved"][0]


def test_an_article_announces_the_loaded_edition_whatever_date_the_list_gives_it(full_kb, tmp_path):
    # the list names the Hour of Devastation edition by its file date (2017-07-07); the loaded file
    # says it is effective 2017-07-08: one edition, loaded - never the edition before it
    listing = tmp_path / "list.json"
    listing.write_text(json.dumps({"source": "test", "editions": [
        {"effective": d, "file_date": d, "url": None, "sha256": None, "notes": "test"}
        for d in ("2017-06-05", "2017-07-07", "2017-08-25")]}), encoding="utf-8")
    official.use(listing)
    try:
        report = full_kb.check_citations("Hour of Devastation Comprehensive Rules Changes\n\n"
                                         "Rule 702.1 is unchanged.\n", date="2017-07-01")
    finally:
        official.use(None)
    assert report["announced_edition"] == "2017-07-08"
    c = _one(report, "Rule 702.1")
    assert (c["edition_meant"]["edition"], c["edition_meant"]["loaded"], c["edition"]) == (
        "2017-07-08", True, "2017-07-08")
