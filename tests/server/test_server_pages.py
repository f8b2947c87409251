"""Web pages through Flask's test client: what each page shows (texts, links, citations, the SVG,
the question form and its answer), the JA/EN toggle, escaping, and the rule-number linkifier."""
from __future__ import annotations

import re
from html import unescape

import pytest
from markupsafe import Markup

from server import create_app
from server.rendering import linkify
from tests.server.corpus import tiny_kb

HTML = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}


@pytest.fixture(scope="module")
def kb():
    return tiny_kb()[0]


@pytest.fixture(scope="module")
def app(kb):
    return create_app({"KB": kb, "TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


def page(client, url, status=200, **kw):
    response = client.get(url, headers=HTML, **kw)
    assert response.status_code == status, response.data[:300]
    assert response.mimetype == "text/html"
    return response.get_data(as_text=True)


def text_of(html: str) -> str:
    inline = re.sub(r"</?(a|mark|span)\b[^>]*>", "", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", inline)).split())


def shown(c: dict) -> str:
    """How a citation's place reads on a Japanese page: 行 N[–M][ § section]."""
    out = f"行 {c['line_start']}"
    if c.get("line_end") and c["line_end"] != c["line_start"]:
        out += f"–{c['line_end']}"
    return out + (f" § {c['section']}" if c.get("section") else "")


def test_rule_page_shows_ja_and_en_text_links_and_citations(client, kb):
    rule = kb.rule("731.2")
    html = page(client, "/rules/731.2")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert '<html lang="ja">' in html
    body = text_of(html)
    assert " ".join(rule["text"]["en"].split()) in body
    # every rule number in the text is a link: "See rule 502"
    assert 'See rule <a class="rn" href="/rules/502">502</a>' in html.replace("&#34;", '"')
    # parent, links in and out, history, citation with edition, document and locator
    assert 'href="/rules/731"' in html
    assert re.search(r'id="refs-out">.*href="/rules/502"', html, re.S)
    cite = rule["citations"][0]
    assert cite["edition"] in cite["document_title"]
    # a Japanese page names the source in Japanese: the EN original, never a JA text as "(English)"
    assert f"総合ルール {cite['edition']}（英語原文） {shown(cite)}" in body
    assert "(English)" not in body
    english_page = text_of(page(client, "/rules/731.2?lang=en"))
    assert cite["document_title"] in english_page
    assert "<svg" in html and 'href="/rules/502"' in html.split("<svg", 1)[1]


def test_rule_page_japanese_first_then_english_toggle(client, kb):
    html = page(client, "/rules/601.2c")
    assert html.index('id="text-ja"') < html.index('id="text-en"')
    assert "子ルール" not in html and "参照しているルール" in html
    rule = kb.rule("601.2c")
    assert rule["text"]["ja"][:30] in text_of(html)
    response = client.get("/rules/601.2c?lang=en", headers=HTML)
    assert "lang=en" in response.headers["Set-Cookie"]
    html_en = response.get_data(as_text=True)
    assert html_en.index('id="text-en"') < html_en.index('id="text-ja"') and "Rules it references" in html_en
    # the cookie keeps English for the next page
    assert "Rules it references" in page(client, "/rules/601.2")
    assert "参照しているルール" in page(client, "/rules/601.2?lang=ja")


def test_children_listed_with_links(client, kb):
    html = page(client, "/rules/601.2")
    for child in kb.rule("601.2")["children"]:
        assert f'<a class="rn" href="/rules/{child}">{child}</a>' in html


def test_unknown_rule_page_is_404_with_suggestion_links(client, kb):
    html = page(client, "/rules/601.2z", status=404)
    assert 'data-code="rule_not_found"' in html and "no rule 601.2z" in html
    for number in kb.suggest("601.2z"):
        assert f'href="/rules/{number}"' in html
    assert 'data-code="invalid_rule_number"' in page(client, "/rules/hello", status=400)


def test_mechanic_page_rules_rulings_sources_graph(client, kb):
    m = kb.mechanic("予示")
    html = page(client, "/mechanics/予示")
    body = text_of(html)
    assert "予示" in body and "Manifest" in body
    for rule in m["rules"]:
        assert f'href="/rules/{rule["number"]}"' in html
    assert f'{m["rulings"][0]["document_title"]}' in body  # rulings grouped under their document
    for ruling in m["rulings"][:5]:
        assert " ".join(ruling["text"].split())[:25] in body
        assert f'{" ".join(ruling["text"].split())[-10:]} {shown(ruling["citation"])}' in body
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'href="/rules/701.40"' in svg and "<script" not in html
    assert 'id="ask-link" href="/mechanics/manifest/ask"' in html


def test_card_page(client):
    html = page(client, "/cards/夜帳の死霊")
    body = text_of(html)
    assert "夜帳の死霊" in body and "個人的CR確認その1、キーワード処理「唱える」(personal blog) 行 14" in body
    assert "None" not in body and "解説:" in body
    assert 'href="/mechanics/cast"' in html


def test_search_page_links_hits_and_goes_to_a_rule(client, kb):
    if not hasattr(kb, "search"):
        pytest.skip("kb.search.index not available yet")
    response = client.get("/search?q=601.2c", headers=HTML)
    assert response.status_code == 302 and response.headers["Location"].endswith("/rules/601.2c")
    html = page(client, "/search?q=day night")
    result = kb.search("day night", limit=20)
    assert result["hits"]
    assert 'id="hits"' in html and "<mark>" in html
    titles = re.findall(r'<a class="hit-title" href="([^"]+)">(.*?)</a>', html)
    assert len(titles) == len(result["hits"])
    for (_, shown_title), h in zip(titles, result["hits"]):
        names = h.get("names") or {}
        if names.get("ja"):  # a mechanic is named in the page's language first, the other marked
            assert shown_title == f'{names["ja"]} <span class="alt" lang="en">{names["en"]}</span>'
        elif h.get("ja"):  # an EN rule hit reads in Japanese on a Japanese page, cited as the translation
            assert unescape(shown_title) == h["ja"]["title"] and h["ja"]["citation"]["lang"] == "ja"
        else:
            assert unescape(shown_title) == h["title"]
    assert any((h.get("names") or {}).get("ja") for h in result["hits"])
    links = {}
    for (href, _), h in zip(titles, result["hits"]):
        links.setdefault(h["kind"], href)
    assert links["rule"] == "/rules/731.1" and links["mechanic"].startswith("/mechanics/")
    for href, _ in titles:  # every hit's link opens a page
        assert client.get(href, headers=HTML).status_code == 200, href


def test_question_form_generated_from_schema_and_answered(client, kb):
    html = page(client, "/mechanics/day-night/ask")
    assert '<select name="event" id="f-event">' in html
    assert '<option value="untap-step">アンタップ・ステップのチェック</option>' in html
    assert 'name="battlefield.0.ability"' in html and 'type="checkbox" name="shared_team_turns"' in html
    response = client.post("/mechanics/day-night/ask", data={"event": "untap-step", "designation": "day"},
                           headers=HTML)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    expected = kb.ask("day-night", {"event": "untap-step", "designation": "day"})
    outcome = html.split('id="outcome"', 1)[1].split("</div>", 1)[0]
    assert "<dt>昼夜</dt><dd>night</dd>" in outcome  # labels, not raw keys
    assert 'id="verdict"' in html and "夜" in html.split('id="verdict"', 1)[1].split("</p>", 1)[0]
    trace = html.split('id="trace"', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r'<li><a class="rn" href="/rules/([^"]+)"', trace) == [s["rule"] for s in expected["trace"]]
    assert "731.2a" in [s["rule"] for s in expected["trace"]]


def test_question_form_reports_the_bad_field(client):
    response = client.post("/mechanics/day-night/ask", data={"_json": '{"event": "bogus"}'}, headers=HTML)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="ask-error" data-field="event"' in html and "出来事: 次のいずれかを選んでください" in html


def test_source_text_is_escaped_and_numbers_linked():
    from flask import Flask

    app = Flask(__name__)
    app.add_url_rule("/rules/<path:number>", "rules.page", lambda number: "")
    with app.test_request_context():
        out = linkify('<script>alert("x")</script> see rule 702.145b, rules 601.2a–d and 704〔状況起因処理〕; rule 117')
        assert "<script>" not in out and "&lt;script&gt;" in out
        assert '<a class="rn" href="/rules/702.145b">702.145b</a>,' in out
        assert '<a class="rn" href="/rules/601.2a">601.2a</a>–d' in out
        assert '<a class="rn" href="/rules/704">704</a>〔' in out
        assert 'rule <a class="rn" href="/rules/117">117</a>' in out
        # not rule numbers: years, prices, longer numbers, escaped entities
        plain = linkify("2026.04 costs 1.50 and 1234.5 or &#39;")
        assert "<a" not in plain
        # Markup input (a search snippet) keeps its <mark> tags
        assert linkify(Markup("<mark>601.2c</mark>")) == Markup('<mark><a class="rn" href="/rules/601.2c">601.2c</a></mark>')


def test_home_page_lists_question_forms_and_editions(client, kb):
    html = page(client, "/")
    for schema in kb.ask_schemas():
        assert f'href="/mechanics/{schema["key"]}/ask"' in html
    assert 'action="/search"' in html and all(e["edition"] in html for e in kb.editions())


def test_every_question_form_renders_and_answers_or_names_the_field(client, kb):
    for schema in kb.ask_schemas():
        html = page(client, f"/mechanics/{schema['key']}/ask")
        for name, sub in schema["schema"]["properties"].items():
            assert f'name="{name}' in html, (schema["key"], name)
        response = client.post(f"/mechanics/{schema['key']}/ask", data={}, headers=HTML)
        assert response.status_code in (200, 400), (schema["key"], response.status_code)
        body = response.get_data(as_text=True)
        assert ('id="outcome"' in body) if response.status_code == 200 else ('id="ask-error"' in body)


def test_documents_pages_show_their_citations(client, kb):
    html = page(client, "/documents")
    assert html.count('class="cite"') >= len(kb.documents()) == 9
    doc = page(client, "/documents/wiki-yoji-manifest")
    assert "wiki-yoji-manifest" in doc and 'href="/rulings/wiki-yoji-manifest%23r1"' in doc


def test_language_toggle_link_keeps_the_page(client):
    html = page(client, "/rules/601.2c?edition=2026-01-16")
    assert 'href="/rules/601.2c?edition=2026-01-16&amp;lang=en"' in html
    assert client.get("/rules/601.2c?number=1&lang=en", headers=HTML).status_code == 200


def test_older_edition_pages_link_within_that_edition(client, kb):
    old = "2026-01-16"
    html = page(client, f"/rules/601.2?edition={old}")
    assert "CR 2026-01-16" in html
    for child in kb.rule("601.2", edition=old)["children"]:
        assert f'href="/rules/{child}?edition={old}"' in html
    assert f'href="/rules/601?edition={old}"' in html  # the parent
    current = page(client, "/rules/601.2")
    english = current.split('id="text-en"')[1].split("</section>")[0]
    assert "href=\"/rules/601.2a\"" in english and "?edition=" not in english  # current links stay short
    # the JA text is the 2026-01-16 translation: its numbers are that edition's numbers
    japanese = current.split('id="text-ja"')[1].split("</section>")[0]
    # that translation's own reference is stale: it writes 731〔不正な処理の扱い〕 where 不正な処理の扱い
    # is 732; the number links to the rule its 〔title〕 names, flagged, never to 731 行動の省略
    assert f'class="rn ref-fixed" href="/rules/732?edition={old}"' in japanese
    assert "番号ずれ: 〔不正な処理の扱い〕は 732" in japanese
    assert f'href="/rules/731?edition={old}">731</a>〔不正な処理の扱い〕' not in japanese

    # the same stale reference where 601.2 is listed as a child of 601 and in 601.2a's section context
    for url, block in (("/rules/601", 'id="children"'), ("/rules/601.2a", 'id="family"')):
        listed = page(client, url).split(block)[1].split("</section>")[0]
        assert f'class="rn ref-fixed" href="/rules/732?edition={old}"' in listed, url
        assert f'href="/rules/731?edition={old}">731</a>〔不正な処理の扱い〕' not in listed, url

def test_array_items_of_a_form_are_included_only_when_ticked(client, kb):
    data = {"event": "permanents-enter", "designation": "neither",
            "entering.0": "on", "entering.0.name": "Brutal Werewolf", "entering.0.ability": "daybound",
            "entering.0.double_faced": "on",
            "entering.1.name": "ignored", "entering.1.ability": "nightbound"}  # slot 1 not ticked
    response = client.post("/mechanics/day-night/ask", data=data, headers=HTML)
    assert response.status_code == 200
    expected = kb.ask("day-night", {"event": "permanents-enter", "designation": "neither", "entering": [
        {"name": "Brutal Werewolf", "ability": "daybound", "double_faced": True,
         "becomes_day_on_entry": False, "day_night_trigger": False}]})
    html = response.get_data(as_text=True)
    assert f"<dt>昼夜</dt><dd>{expected['outcome']['designation']}</dd>" in html
    assert re.findall(r'<li><a class="rn" href="/rules/([^"]+)"', html.split('id="trace"')[1].split("</ol>")[0]) == \
        [s["rule"] for s in expected["trace"]]
    # the submitted values come back in the form: slot 0 open and ticked
    assert '<details class="slot" open><summary>' in html
    assert 'name="entering.0" id="f-entering.0" checked' in html and 'value="Brutal Werewolf"' in html


def test_rule_page_history_and_a_rule_known_only_from_quotes(client, kb):
    html = page(client, "/rules/601.2c")
    table = html.split('id="history"')[1].split("</table>")[0]
    rows = re.findall(r'<tr(?: class="here")?><td>([\d-]+)</td><td><a class="rn" href="([^"]+)">([^<]+)</a>', table)
    assert [(e, n) for e, _, n in rows] == [(h["edition"], h["number"]) for h in kb.history("601.2c")]
    assert rows[0][1] == "/rules/601.2c?edition=2026-01-16"
    quoted = kb.rule("701.34")  # not in the excerpts: the 予示 wiki page quotes the 2023 text
    assert quoted["edition"] is None and quoted["texts"]
    html = page(client, "/rules/701.34")
    assert "文書の引用でのみ知られるルール" in html and "CR None" not in html
    assert quoted["note"] in page(client, "/rules/701.34?lang=en")
    assert " ".join(quoted["texts"][0]["text"].split())[:20] in text_of(html)


def test_pages_forbid_scripts_and_vary_on_accept_and_cookie(client):
    response = client.get("/rules/601.2c", headers=HTML)
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert "script-src" not in response.headers["Content-Security-Policy"]  # none allowed
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert {"Accept", "Cookie"} <= set(response.vary)
    assert "<script" not in response.get_data(as_text=True)


def test_superseded_rulings_are_marked_in_search_and_quotes_say_what_their_number_was(client, kb):
    html = page(client, "/search?q=背面 点数で見たマナ・コスト")
    hit = re.search(r'<li class="hit hit-ruling is-superseded">\s*<a class="hit-title" href="/rulings/faq-innistrad-dfc-2011%23r4">'
                    r'.*?</li>', html, re.S)
    assert hit and "古い裁定</strong> — 現行 <a class=\"rn\" href=\"/rules/712.8e\">712.8e</a>" in hit.group(0)
    quote = kb.ruling("faq-innistrad-dfc-2011#q1")
    html = page(client, "/rulings/faq-innistrad-dfc-2011%23q1")
    shown = re.search(r'<p class="quoted-number" id="quoted-number">(.*?)</p>', html).group(1)
    assert f"<small>CR {quote['edition']}</small>" in shown
    if quote["resolved"]["status"] == "never-existed":  # the edition it quotes is not loaded: no link
        assert 'class="rn"' not in shown and quote["number"] in shown
    else:
        assert f'href="/rules/{quote["number"]}?edition={quote["edition"]}"' in shown


def test_mechanic_page_cites_each_text_as_what_it_is(client, kb):
    html = page(client, "/mechanics/日暮")
    rules = re.search(r'<ul id="mechanic-rules">(.*?)</ul>', html, re.S).group(1)
    expected = kb.mechanic("日暮")["rules"][0]
    assert f'<span lang="ja">{expected["text_ja"]}</span>' in rules
    assert "総合ルール 和訳 2026-01-16" in rules and "英語原文" not in rules  # a JA text is never cited as the EN
    english = page(client, "/mechanics/日暮?lang=en")
    rules_en = re.search(r'<ul id="mechanic-rules">(.*?)</ul>', english, re.S).group(1)
    assert f'<span lang="en">{expected["text_en"]}</span>' in rules_en and "(English)" in rules_en


def test_table_of_contents_lists_every_section_in_japanese_first(client, kb):
    contents = kb.contents()
    html = page(client, "/rules")
    for chapter in contents["chapters"]:
        for s in chapter["sections"]:
            title = s["text"]["ja"] or s["text"]["en"]
            shown = re.search(rf'<a class="rn" href="/rules/{s["number"]}(?:\?edition=[^"]*)?">{s["number"]}</a> <span lang="(\w+)">([^<]*)</span>'
                              rf'.*?<small class="meta">([^<]*)</small>', html)
            assert shown, s["number"]
            assert (shown.group(1), unescape(shown.group(2))) == ("ja" if s["text"]["ja"] else "en", title)
            assert shown.group(3) == f"{s['rules']} 項"
    english = page(client, "/rules?lang=en")
    first = contents["chapters"][0]["sections"][0]
    assert f'<span lang="en">{first["text"]["en"]}</span>' in english and f"{first['rules']} rules" in english


def test_edge_words_in_the_picture_are_never_crossed_by_their_line():
    """A steep edge (the node straight above the centre) has its words beside the line, a flat one
    above it; always horizontal, on a halo of the background's colour."""
    import re as _re
    from server.svg import Node, draw
    svg = str(draw("centre", [Node("702.33", "rule", "/rules/702.33", edge="定義"),
                               Node("キッカー", "mechanic", "/mechanics/kicker", edge="関連"),
                               Node("702.33a", "rule", "/rules/702.33a", edge="子"),
                               Node("多重キッカー", "mechanic", "/mechanics/multikicker", edge="関連")]))
    lines = _re.findall(r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"', svg)
    labels = _re.findall(r'<text class="edge-label" x="([\d.]+)" y="([\d.]+)"[^>]*text-anchor="(\w+)"[^>]*>([^<]+)<', svg)
    assert len(lines) == len(labels) == 4 and "rotate" not in svg
    for (x1, y1, x2, y2), (x, y, anchor, words) in zip(lines, labels):
        x1, y1, x2, y2, x, y = map(float, (x1, y1, x2, y2, x, y))
        steep = abs(x2 - x1) < abs(y2 - y1)
        if steep:  # the words start to the right of the line at that height
            line_x = x1 + (x2 - x1) * ((y - y1) / (y2 - y1))
            assert anchor == "start" and x > line_x + 2, words
        else:  # the words sit above the line at that x
            line_y = y1 + (y2 - y1) * ((x - x1) / (x2 - x1))
            assert anchor == "middle" and y < line_y, words
    assert svg.count('paint-order="stroke"') == 4 and {a for *_, a, _ in labels} == {"start", "middle"}
