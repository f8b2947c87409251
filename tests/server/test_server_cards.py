"""The card page and JSON on the full KB: Japanese first, ?lang=en, Oracle text in both languages,
faces, the meld, dated official rulings with their citation; an unknown card is a 404 (JSON and
HTML)."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

import pytest

from server import create_app

HTML = {"Accept": "text/html"}
URZA_JA = "あなたがアーティファクトやインスタントやソーサリーである呪文を唱えるためのコストは{1}少なくなる。"
URZA_EN = "Artifact, instant, and sorcery spells you cast cost {1} less to cast."


@pytest.fixture(scope="module")
def client(full_kb):
    return create_app({"KB": full_kb, "TESTING": True}).test_client()


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def _page(client, url):
    response = client.get(url, headers=HTML)
    assert response.status_code == 200, (url, response.data[:300])
    return response.get_data(as_text=True)


@pytest.mark.parametrize("name", ["護国卿、ウルザ", "Urza, Lord Protector"])
def test_the_card_page_in_japanese(client, name):
    html = _page(client, "/cards/" + quote(name))
    title = _text(html.split('id="card-name"', 1)[1].split("</h1>", 1)[0])
    assert title.startswith(">護国卿、ウルザ") and "Urza, Lord Protector" in title
    text = _text(html)
    assert URZA_JA in text and URZA_EN in text
    assert text.index(URZA_JA) < text.index(URZA_EN)  # Japanese first
    meld = _text(html.split('id="meld"', 1)[1].split("</section>", 1)[0])
    assert ("護国卿、ウルザ Urza, Lord Protector + マイトストーンとウィークストーン The Mightstone and Weakstone"
            " → プレインズウォーカー、ウルザ Urza, Planeswalker") in meld
    rulings = html.split('id="card-rulings"', 1)[1].split("</section>", 1)[0]
    assert rulings.count('<time datetime="2022-10-14">2022-10-14</time>') == 13
    assert "Urza, Lord Protector’s first ability can’t reduce the colored mana costs" in _text(rulings)
    assert "mtgjson-set-BRO.json /cards/225/rulings/0" in _text(rulings)


def test_the_card_page_in_english(client):
    html = _page(client, "/cards/" + quote("護国卿、ウルザ") + "?lang=en")
    title = _text(html.split('id="card-name"', 1)[1].split("</h1>", 1)[0])
    assert title.startswith(">Urza, Lord Protector") and "護国卿、ウルザ" in title
    text = _text(html)
    assert text.index(URZA_EN) < text.index(URZA_JA)
    assert ("Urza, Lord Protector 護国卿、ウルザ + The Mightstone and Weakstone マイトストーンとウィークストーン"
            " → Urza, Planeswalker プレインズウォーカー、ウルザ") in _text(
        html.split('id="meld"', 1)[1].split("</section>", 1)[0])


def test_the_card_json(client):
    response = client.get("/api/cards/" + quote("護国卿、ウルザ"))
    assert response.status_code == 200
    data = response.get_json()
    card = data.get("data", data)
    assert card["name_en"] == "Urza, Lord Protector" and len(card["rulings"]) == 13
    assert card["rulings"][0]["citation"]["locator"] == "mtgjson-set-BRO.json /cards/225/rulings/0"


def test_an_unknown_card_is_404_json_and_html(client):
    response = client.get("/api/cards/Zzyzx%20Quorble")
    assert response.status_code == 404
    error = response.get_json()["error"]
    assert error["code"] == "card_not_found" and "Zzyzx Quorble" in error["message"]
    page = client.get("/cards/Zzyzx%20Quorble", headers=HTML)
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "Zzyzx Quorble" in _text(page.get_data(as_text=True))


@pytest.mark.parametrize("query, shown, how", [("Urza, Lord Protector", "Urza, Lord Protector", "name"),
                                               ("護国卿", "護国卿、ウルザ", "part of the name"),
                                               ("Urza Lord Protecter", "Urza, Lord Protector", "spelling")])
def test_search_finds_a_card_by_name_part_or_spelling(client, query, shown, how):
    found = client.get("/api/search?q=" + quote(query)).get_json()
    card = found["cards"][0]
    assert (card["name"], card["oracle_name"], card["match"]) == (shown, "Urza, Lord Protector", how)
    assert card["citation"]["locator"] == "mtgjson-set-BRO.json /cards/225"
    assert card["citation"] in found["citations"]
    html = _page(client, "/search?lang=ja&nogoto=1&q=" + quote(query))  # an exact name goes to the card otherwise
    box = html.split('id="card-matches"', 1)[1].split("</section>", 1)[0]
    assert 'href="/cards/Urza,%20Lord%20Protector">護国卿、ウルザ</a>' in box
    assert "カード" in box and "mtgjson-set-BRO.json /cards/225" in box


def test_a_question_keeps_its_named_cards_and_a_rule_number_shows_none(client):
    question = client.get("/api/search?q=" + quote("Can I respond when Lightning Bolt targets my creature "
                                                    "with ward?")).get_json()
    assert [c["oracle_name"] for c in question["cards"]] == ["Lightning Bolt"] and question["rules"]
    assert client.get("/api/search?q=601.2c").get_json()["cards"] == []


def test_an_unknown_card_suggests_close_names(client):
    error = client.get("/api/cards/" + quote("Lightning")).get_json()["error"]
    assert error["code"] == "card_not_found" and "Lightning Bolt" in error["suggestions"]
    page = client.get("/cards/Lightning?lang=ja", headers=HTML)
    html = page.get_data(as_text=True)
    assert page.status_code == 404 and "近い名前のカード" in html and "近いルール番号" not in html
    assert '<a class="card-named" href="/cards/Lightning%20Bolt">Lightning Bolt</a>' in html
    ja = client.get("/api/cards/" + quote("稲妻の")).get_json()["error"]  # part of JA names: JA suggestions
    assert "稲妻の斧" in ja["suggestions"] and not any(s.isascii() for s in ja["suggestions"])
