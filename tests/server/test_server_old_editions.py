"""Old editions as they were, and one rendering of rule text, on the full KB (real data):

- under an old number, the text is that edition's; a translation of another edition appears only
  labelled (「現行 701.27a の和訳（2026-01-16）」);
- a number inside a text links to what it meant in the text's edition (2011's 711 is today's 712;
  the 2026 translation's 712 is 2026's), and a JA text's stale 「rule 728〔昼と夜〕」 is flagged and
  linked to 730 on every page kind, as on the rule page;
- "changed since the translation" lists only changes after the translated edition;
- `_Magic_` from the old files never reaches a page; diffs put wording changes first."""
from __future__ import annotations

import re
from html import unescape

import pytest

from server import create_app
from tests.server.pages import HTML, page


@pytest.fixture(scope="module")
def client(full_kb):
    return create_app({"KB": full_kb, "TESTING": True}).test_client()


def items(html: str, list_id: str) -> list[str]:
    body = html.split(f'id="{list_id}"', 1)[1].split("</ul>", 1)[0].split("</ol>", 1)[0]
    return body.split("<li")[1:]


def visible(fragment: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", fragment))


def test_an_old_edition_lists_its_own_text_and_labels_another_editions_translation(client, full_kb):
    html = page(client, "/rules/701.25?edition=2011-09-30&lang=ja")
    for list_id in ("children", "family"):
        for item in items(html, list_id):
            number = re.search(r'>(701\.25[a-z]?)<', item)[1]
            ja = full_kb.brief_titled("2011-09-30", number)["ja"]
            if ja and ja["edition"] != "2011-09-30" and ja["number"] != number:
                # a translation of 2026's rule under a 2011 number: labelled as what it is
                label = f"{ja['number']} の和訳（{ja['edition']}）"
                assert label in visible(item), (list_id, number)
                before_label = visible(item).split(label)[0]
                assert full_kb.rule(number, edition="2011-09-30")["text"]["ja"] not in before_label or \
                    not ja["other_edition"]["text_changed"]
    assert "日本語は和訳 2026-01-16 の文です" in visible(html.split('id="children"')[0].rsplit("<section", 1)[1])
    # 701.25a of 2011 is worded otherwise than the 2026 rule translated: the 2011 English comes first
    first = items(html, "children")[0]
    en_2011 = full_kb.rule("701.25a", edition="2011-09-30")["text"]["en"]
    assert visible(first).index(en_2011[:40]) < visible(first).index("の和訳（2026-01-16）")
    # double-faced tokens did not exist in 2011: that wording is never shown unlabelled under 2011's numbers
    for item in items(html, "children"):
        text = visible(item)
        if "両面トークン" in text:
            assert text.index("の和訳（") < text.index("両面トークン")


def test_links_in_old_text_point_to_what_they_meant_then(client):
    html = page(client, "/rules/701.25?edition=2011-09-30&lang=ja")
    children = html.split('id="children"', 1)[1].split("</ul>", 1)[0]
    # 2011's text says "See rule 711" (double-faced cards then): linked to 2011's 711
    assert '<a class="rn" href="/rules/711?edition=2011-09-30">711</a>' in children
    # the 2026 translation's 「rule 712〔両面カード〕」 links to 2026-01-16's 712, never to 2011's 712
    assert "/rules/712?edition=2011-09-30" not in children
    assert '<a class="rn" href="/rules/712?edition=2026-01-16">712</a>' in children
    own = page(client, "/rules/701.25a?edition=2011-09-30&lang=ja")
    en = own.split('id="text-en"', 1)[1].split("</section>", 1)[0]
    assert '<a class="rn" href="/rules/711?edition=2011-09-30">711</a><span class="today">（現行 712）</span>' in en


def test_changes_since_the_translation_are_only_those_after_it(client, full_kb):
    rule = full_kb.rule("701.25a", edition="2011-09-30")
    official = next(t for t in rule["texts"] if t.get("kind") == "official")
    assert official["edition"] > "2011-09-30" and official["en_changed"] == []
    assert official["en_changed_before"] and all(c["edition"] <= official["edition"] for c in official["en_changed_before"])
    ja = page(client, "/rules/701.25a?edition=2011-09-30&lang=ja").split('id="text-ja"', 1)[1].split("</section>", 1)[0]
    assert 'id="en-changed"' not in ja and 'id="en-changed-before"' in ja
    assert f"現行 {official['number'] if 'number' in official else official['translation_of']['number']} の和訳（{official['edition']}）" in visible(ja)
    assert "後に、英語原文が次のように変わりました" not in visible(ja)


def test_a_stale_japanese_reference_is_flagged_on_every_page_kind(client, full_kb):
    # the 2026-01-16 translation of 702.145b says 「rule 728〔昼と夜〕参照」: day and night was 730 then
    ja = full_kb.rule("702.145b")
    fix = next(f for f in ja["ja_source"]["reference_fixes"] if f["written"] == "728")
    assert fix["meant"] == "730"
    urls = ["/rules/702.145b", "/mechanics/day-night"]
    for url in urls:
        html = page(client, url + "?lang=ja")
        assert 'href="/rules/728"' not in html and 'href="/rules/728?edition=2026-01-16"' not in html, url
        assert 'class="rn ref-fixed" href="/rules/730?edition=2026-01-16"' in html, url
    checked = client.post("/check?lang=ja", data={"text": "日暮は 702.145b を参照。"}, headers=HTML).get_data(as_text=True)
    assert 'class="rn ref-fixed" href="/rules/730?edition=2026-01-16"' in checked and 'href="/rules/728"' not in checked
    # the API carries the same resolution
    body = client.get("/api/rules/702.145b").get_json()
    ref = next(r for t in body["texts"] if t["lang"] == "ja" for r in t["references"] if r["written"] == "728")
    assert (ref["number"], ref["edition"], ref["stale"]["title"]) == ("730", "2026-01-16", "昼と夜")
    assert ref["today"] == full_kb.lineage.forward("730", "2026-01-16")[0]


def test_the_ask_trace_renders_japanese_rule_text_with_the_same_links(client):
    from server.rendering import rule_text

    app = client.application
    with app.test_request_context("/?lang=ja"):
        html = str(rule_text(app.extensions["kb"].rule("702.145b")["text"]["ja"], None, lang="ja", rule="702.145b"))
    assert 'href="/rules/728"' not in html and 'ref-fixed" href="/rules/730?edition=2026-01-16"' in html


def test_no_underscores_from_the_source_reach_a_page(client):
    html = page(client, "/rules/100.1?edition=2011-09-30&lang=ja")
    assert "_Magic_" not in html and "<i>Magic</i>" in html
    for lang in ("ja", "en"):  # rule text, titles in lists, headings and the contents, in both languages
        for url in ("/rules/100.1?edition=2011-09-30", "/rules/101?edition=2011-09-30", "/rules?edition=2011-09-30"):
            assert "_Magic" not in page(client, f"{url}&lang={lang}"), (url, lang)
    home = page(client, "/?lang=ja")
    assert "_Magic" not in home


def test_home_links_editions_and_the_citation_check(client, full_kb):
    home = page(client, "/?lang=ja")
    assert 'id="check-link" href="/check"' in home
    old = "2011-09-30"
    assert f'href="/rules?edition={old}">{old}</a>' in home
    assert client.get(f"/rules?edition={old}", headers=HTML).status_code == 200


def test_a_diff_lists_wording_changes_first_and_folds_renumbering(client, full_kb):
    d = full_kb.diff("2026-01-16", "2026-04-17")
    groups = [e["group"] for e in d["entries"]]
    assert groups == sorted(groups, key=d["groups"].index)  # wording first, numbers only last
    wording = [e for e in d["entries"] if e["group"] == "text-changed"]
    assert wording and all(e["text_changed"] and not e["references_only"] for e in wording)
    runs = d["renumbering_runs"]
    moved_alike = sum(r["count"] for r in runs)
    assert moved_alike == d["group_counts"]["numbers-only"] and len(runs) < moved_alike / 4
    day_night = next(r for r in runs if "730" in r["entries"])
    assert day_night["first_from"] <= "730" and day_night["count"] > 10
    html = page(client, "/diff?from=2026-01-16&to=2026-04-17&lang=ja")
    assert html.index('id="text-changed"') < html.index('id="added"') < html.index('id="numbers-only"')
    folded = html.split('id="numbers-only"', 1)[1]
    assert folded.startswith("><details") and "ul class=\"diff-runs\"" in folded
