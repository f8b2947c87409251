"""Undated texts (issue 37.1): the era is inferred from all the text's evidence together, the
citations share it, a citation whose meaning differs between the candidate editions is ambiguous
with every reading shown, an edition that is not loaded is never the one meant unsaid, and the
answer (API, CLI, page in JA and EN) says which era and why."""
from __future__ import annotations

import json

import pytest

# A JA paragraph of the Innistrad era (2011): transform was 701.25, the double-faced card rules 711
INNISTRAD = ("両面カードが変身しても新しいオブジェクトにはならない（701.25「変身」を参照）。"
             "変身したパーマネントに適用されていた効果は適用され続ける。711.7参照。")
# An English answer about reversing an illegal cast: 717 was "Handling Illegal Actions" then,
# today 717 is Attraction Cards
ILLEGAL = ("If you realize a spell was cast illegally, rule 717.1 says to reverse the illegal action: "
           "the spell returns to your hand and the mana is refunded.")


def _one(report, raw):
    return next(c for c in report["citations"] if c["raw"].startswith(raw))


def test_an_innistrad_paragraph_is_read_in_the_innistrad_era(full_kb):
    report = full_kb.check_citations(INNISTRAD)
    era = report["era"]
    assert era["from"] == "2011-09-30" and era["to"] < "2017" and report["date"] is None
    assert any("変身" in line for line in era["why_ja"]) and any("Transform" in line for line in era["why"])
    transform = _one(report, "701.25")
    assert (transform["status"], transform["current"]["number"]) == ("renumbered", "701.27")
    assert transform["confidence"] >= 0.7
    dfc = _one(report, "711.7")  # 712.18 today; never today's 711.7 with confidence
    assert not (dfc["current"]["number"] == "711.7" and dfc["confidence"] >= 0.7)
    readings = [r["resolved"][0]["current"] for r in dfc.get("readings", [])]
    assert dfc["current"]["number"] == "712.18" and "712.18" in readings
    if dfc["status"] == "ambiguous":  # each reading shown, none taken as sure
        assert len(readings) > 1 and dfc["confidence"] < 0.7


def test_a_number_that_meant_another_rule_is_read_by_what_the_text_speaks_of(full_kb):
    c = _one(full_kb.check_citations(ILLEGAL), "rule 717.1")
    today = (c["current"] or {}).get("number")
    assert today != "717.1" and c["edition"] < "2016"  # never today's Attraction rule
    readings = [r["resolved"][0]["current"] for r in c.get("readings", [])]
    assert today == "733.1" or (c["status"] == "ambiguous" and "733.1" in readings)


def test_an_edition_not_loaded_is_never_meant_unsaid(full_kb):
    report = full_kb.check_citations("Per rule 601.2a the spell moves to the stack.")
    assert all(e["loaded"] for e in report["editions"])
    assert all(c["edition_meant"]["loaded"] for c in report["citations"])
    newer = report["era"]["not_loaded_newer"]
    if newer:  # the shipped list names editions after the newest loaded one: said, not assumed
        assert any(n in note for note in report["notes"] for n in newer)


def test_the_page_and_the_api_say_which_era_and_why(full_kb):
    from server import create_app
    client = create_app({"KB": full_kb, "TESTING": True}).test_client()
    page = client.post("/check?lang=ja", data={"text": INNISTRAD}).get_data(as_text=True)
    assert "推定した時期" in page and "CR 2011-09-30〜" in page and "見出し「変身」" in page
    english = client.post("/check?lang=en", data={"text": INNISTRAD}).get_data(as_text=True)
    assert "Inferred era" in english and "CR 2011-09-30 – " in english and "titled 変身" in english
    api = client.post("/api/citations/check", json={"text": INNISTRAD}).get_json()
    assert api["era"]["from"] == "2011-09-30" and api["method"] == "inferred-era"


@pytest.fixture
def innistrad_file(tmp_path):
    path = tmp_path / "innistrad.txt"
    path.write_text(INNISTRAD, encoding="utf-8")
    return path


def test_the_cli_says_the_era(full_home, innistrad_file, monkeypatch):
    from click.testing import CliRunner

    from kb.cli import main
    monkeypatch.setenv("MTG_KB_HOME", str(full_home))
    out = CliRunner().invoke(main, ["check-citations", str(innistrad_file)])
    assert out.exit_code == 0, out.output
    assert "era inferred: CR 2011-09-30 to" in out.output and "because 701.25「変身」" in out.output
    data = json.loads(CliRunner().invoke(main, ["check-citations", str(innistrad_file), "--json"]).output)
    assert data["era"]["from"] == "2011-09-30"
