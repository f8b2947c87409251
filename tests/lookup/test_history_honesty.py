"""A rule's history claims only what the loaded editions show (kb.lookup.changes), on a small KB
built from three real editions: 2021-07-23, 2022-02-18 and 2022-04-29. The official list has
2021-11-19 between the first two (not loaded here) and nothing between the last two.

- Daybound (702.145) is first in 2022-02-18 here: it was not created there (2021-11-19 is not
  loaded), so the history says "first seen in the loaded editions" and names 2021-11-19;
- a rule first in 2022-04-29 was created there: the official edition before (2022-02-18) is
  loaded and lacks it;
- a rule of 2021-07-23 absent from 2022-02-18 is not said to be removed on 2022-02-18.
The same words reach the CLI, the API and the rule page."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.lookup.changes import Change, label
from tests.shared_data import build_kb as _build_kb

EDITIONS = ("cr-en-20210712.txt", "cr-en-20220218.txt", "cr-en-20220429.txt")  # effective 2021-07-23, …


@pytest.fixture(scope="module")
def home(tmp_path_factory, data_dir):
    home = tmp_path_factory.mktemp("three-editions")
    _build_kb(home, [data_dir / "cr-archive" / name for name in EDITIONS])
    return home


@pytest.fixture(scope="module")
def kb(home):
    from kb.lookup.kb import KB
    return KB.load(home)


def test_the_editions_are_the_ones_chosen(kb):
    assert {"2021-07-23", "2022-02-18", "2022-04-29"} <= set(kb.lineage.editions)
    assert "2021-11-19" in [e["effective"] for e in kb.official_not_loaded()]


def test_a_rule_whose_first_edition_is_not_loaded_is_first_seen_not_created(kb):
    h = kb.history_spans("702.145", "2022-02-18")
    first = h["spans"][0]
    assert first["from"] == "2022-02-18" and first["number"] == "702.145"
    assert first["change"]["kind"] == Change.FIRST_SEEN and first["change"]["not_loaded_before"] == ["2021-11-19"]
    assert h["summary"][0] == "first seen in the loaded editions: 2022-02-18; earlier official editions not loaded: 2021-11-19"
    assert h["summary_ja"][0].startswith("読み込まれた版での初出: 2022-02-18")
    assert not any("created" in line for line in h["summary"]) and not any("新設" in line for line in h["summary_ja"])
    steps = kb.history("702.145", "2022-02-18")
    assert (steps[0]["event"], steps[0]["not_loaded"]) == ("first-seen", ["2021-11-19"])
    assert steps[0]["event_label"] == {"ja": "読み込まれた版での初出", "en": "first seen in the loaded editions"}


def test_a_rule_first_in_an_edition_whose_official_predecessor_is_loaded_was_created(kb):
    new = [n for n in kb.model.edition_rules("en", "2022-04-29")
           if kb.lineage.chain(n, "2022-04-29")[0][1] == "2022-04-29"]
    assert new  # Streets of New Capenna's rules
    for number in new[:20]:
        change = kb.history_spans(number, "2022-04-29")["spans"][0]["change"]
        assert (change["kind"], change["not_loaded_before"]) == (Change.CREATED, [])


def test_a_rule_gone_across_an_unloaded_edition_is_absent_not_removed(kb):
    gone = next(n for n in kb.model.edition_rules("en", "2021-07-23")
                if kb.lineage.forward(n, "2021-07-23", "2022-02-18")[0] is None)
    h = kb.history_spans(gone, "2021-07-23")
    assert h["removed"]["kind"] == Change.ABSENT and h["removed"]["not_loaded_between"] == ["2021-11-19"]
    assert h["removed"]["last_seen"] == "2021-07-23" and h["removed"]["edition"] == "2022-02-18"
    assert not any(line.startswith("removed") for line in h["summary"])
    assert h["summary"][-1].startswith("last seen in the loaded editions: 2021-07-23")
    assert kb.history(gone, "2021-07-23")[-1]["event"] == Change.ABSENT


def test_a_span_does_not_claim_the_editions_it_skips(kb):
    h = kb.history_spans("100.1", "2021-07-23")
    span = h["spans"][0]
    if span["to"] >= "2022-02-18":  # the same text across 2021-11-19, which is not loaded
        assert "2021-11-19" in span["not_loaded"]
        assert "official editions between not loaded: 2021-11-19" in h["summary"][1]


def test_cli_api_and_page_say_first_seen(home, kb, monkeypatch):
    from kb.cli import main
    from server import create_app

    monkeypatch.setenv("MTG_KB_HOME", str(home))
    result = CliRunner().invoke(main, ["history", "702.145", "--edition", "2022-02-18"])
    assert result.exit_code == 0, result.output
    assert "first seen in the loaded editions: 2022-02-18" in result.output and "created" not in result.output
    data = json.loads(CliRunner().invoke(main, ["history", "702.145", "--edition", "2022-02-18", "--json"]).output)
    assert data["steps"][0]["event"] == "first-seen"

    client = create_app({"KB": kb, "TESTING": True}).test_client()
    body = client.get("/api/rules/702.145?edition=2022-02-18").get_json()
    assert body["history"][0]["event"] == "first-seen" and body["history_spans"]["spans"][0]["change"]["kind"] == "first-seen"
    html = client.get("/rules/702.145?edition=2022-02-18&lang=ja", headers={"Accept": "text/html"}).get_data(as_text=True)
    history = html.split('id="history"', 1)[1].split("</table>", 1)[0]
    assert label(Change.FIRST_SEEN, "ja") in history and "2021-11-19" in history
    assert label(Change.CREATED, "ja") not in history
