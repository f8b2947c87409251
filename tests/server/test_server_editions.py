"""/api/editions, /editions, /api/diff and /diff over the tiny corpus (three newest EN editions,
rewritten as excerpts, so their bytes are not the official ones)."""
from __future__ import annotations

import re

import pytest
from markupsafe import escape

from kb.lookup.changes import label
from server import create_app
from tests.shared_data import newest_en_sources
from tests.server.corpus import tiny_kb

CURRENT, PREVIOUS, OLDEST = (s.edition_hint for s in newest_en_sources(3))


@pytest.fixture(scope="module")
def kb():
    return tiny_kb()[0]


@pytest.fixture(scope="module")
def client(kb):
    return create_app({"KB": kb, "TESTING": True}).test_client()


def test_api_editions_say_how_each_stands_against_the_official_list(client):
    body = client.get("/api/editions").get_json()
    en = [e for e in body["editions"] if e["lang"] == "en"]
    assert [e["edition"] for e in en] == [OLDEST, PREVIOUS, CURRENT]
    # excerpts written by the fixture: listed official editions whose bytes are not the official ones
    assert {e["official"]["status"] for e in en} <= {"different", "unknown"}
    assert all(e["official"]["url"].startswith("https://media.wizards.com/") for e in en)


def test_editions_page_lists_every_edition_japanese_first(client, kb):
    html = client.get("/editions?lang=ja").get_data(as_text=True)
    assert "<h1>版</h1>" in html and "発効日" in html
    for e in kb.editions():
        row = html.split(f'id="edition-{e["lang"]}-{e["edition"]}"')[1].split("</tr>")[0]
        assert e["sha256"][:12] in row and f">{e['rules']}<" in row and (e["encoding"] or "—") in row
    assert 'id="official-unloaded"' in html  # the official editions this corpus does not hold
    english = client.get("/editions?lang=en").get_data(as_text=True)
    assert "<h1>Editions</h1>" in english and "Effective" in english


def test_home_page_footer_links_the_editions_and_diff_pages(client):
    html = client.get("/?lang=ja").get_data(as_text=True)
    assert 'id="footer-editions" href="/editions"' in html and 'id="footer-diff" href="/diff"' in html


def test_api_diff_between_two_editions(client, kb):
    body = client.get(f"/api/diff?from={OLDEST}&to={CURRENT}").get_json()
    assert (body["from"], body["to"], body["editions_between"]) == (OLDEST, CURRENT, [PREVIOUS])
    assert sum(body["counts"][k] for k in ("unchanged", "text-changed", "moved", "removed")) == \
        sum(1 for k in kb.model.rules if k[:2] == ("en", OLDEST))
    for e in body["entries"]:
        if e["to"]:
            assert e["new_text"] == kb.rule(e["to"], edition=CURRENT)["text"]["en"]
        if e["from"]:
            assert e["old_text"] == kb.rule(e["from"], edition=OLDEST)["text"]["en"]
    assert {c["edition"] for c in body["citations"] if "sha256" in c} == {OLDEST, CURRENT}
    only = client.get(f"/api/diff?from={OLDEST}&to={CURRENT}&kind=moved").get_json()
    assert only["entries"] and {e["kind"] for e in only["entries"]} == {"moved"}


def test_api_diff_defaults_to_the_changes_of_the_current_edition(client, kb):
    assert client.get("/api/diff").get_json() == client.get(f"/api/diff?from={PREVIOUS}&to={CURRENT}").get_json()
    assert client.get(f"/api/diff?to={PREVIOUS}").get_json()["from"] == OLDEST


@pytest.mark.parametrize("query, status, code", [
    (f"from={CURRENT}&to={OLDEST}", 400, "invalid_parameter"),
    (f"to={OLDEST}", 400, "invalid_parameter"),  # nothing older loaded
    ("from=2001-01-01&to=2026-06-19", 404, "edition_not_found"),
    ("from=yesterday", 400, "invalid_edition"),
    ("kind=everything", 400, "invalid_parameter"),
    ("limit=0", 400, "invalid_parameter"),
])
def test_api_diff_bad_input_is_a_clear_error(client, query, status, code):
    response = client.get(f"/api/diff?{query}")
    assert response.status_code == status and response.get_json()["error"]["code"] == code


def test_diff_page_shows_counts_moves_and_word_diffs(client, kb):
    d = kb.diff(OLDEST, CURRENT)
    html = client.get(f"/diff?from={OLDEST}&to={CURRENT}&lang=ja").get_data(as_text=True)
    assert "版の比較" in html and f'<span id="diff-from">{OLDEST}</span>' in html
    counts = re.search(r'id="diff-counts".*?</p>', html, re.S)[0]
    groups = d["group_counts"]
    assert f"{label('text-changed', 'ja')} <strong>{groups['text-changed']}</strong>" in counts
    # renumbering-only moves are folded, in runs, after every wording change
    assert f"{label('numbers-only', 'ja')} <strong>{groups['numbers-only']}</strong>" in counts
    assert html.index('id="text-changed"') < html.index('id="numbers-only"')
    assert '<details id="numbers-only-details">' in html
    run = d["renumbering_runs"][0]
    assert f'/rules/{run["first_from"]}' in html.split('id="renumbering-runs"')[1]
    changed = next(e for e in d["entries"] if e["diff"])
    inserted = next(o["text"] for o in changed["diff"] if o["op"] == "insert")
    assert f"<ins>{escape(inserted)}</ins>" in html  # the words, escaped, marked as inserted
    assert client.get(f"/diff?from={CURRENT}&to={OLDEST}").status_code == 400
