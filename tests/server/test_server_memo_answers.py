"""What the uncached paths memoise per snapshot (kb.memo) changes no answer: the same requests give
the same bodies with every memo dropped and with them warm, and each memoised part equals what it
replaces (snippets, links, picture labels, reachable rules, ruling views). Full KB, answer cache off."""
from __future__ import annotations

import random
import unicodedata
from urllib.parse import quote

import flask
import pytest

from kb import memo
from kb.search import tokenize as tk
from kb.search.snippet import Marker
from server import create_app
from tests.server.references import old_spans as _old_spans

ASK = {"event": "untap-step", "designation": "day", "previous_turn_spells": []}
QUERIES = ("manifest", "予示", "ward", "呪禁", "day night", "昼夜", "優先権", "combat damage", "戦闘ダメージ", "変身")
GETS = ([f"/api/search?q={quote(q)}" for q in QUERIES] + [f"/search?q={quote(q)}&nogoto=1" for q in QUERIES]
        + [f"/mechanics/{quote(m)}{lang}" for m in ("予示", "day-and-night", "ward", "変身") for lang in ("", "?lang=en")]
        + [f"/api/rules/{n}" for n in ("601.2c", "702.21a", "100.1")] + ["/rules/601.2c", "/rules/601.2c?edition=2015-07-17"])


@pytest.fixture(scope="module")
def app(full_kb):
    return create_app({"KB": full_kb, "TESTING": True, "RESPONSE_CACHE_SIZE": 0})


def _forget(app, kb) -> None:
    for owner in (app, kb, kb.rulebook(), kb.search_index, app.extensions.get("mechanic_pages")):
        if owner is not None:
            memo.forget(owner)


def _bodies(client) -> dict:
    out = {url: client.get(url) for url in GETS}
    out["ask"] = client.post("/api/ask/day-night", json=ASK)
    for url, response in out.items():
        assert response.status_code == 200, url
    return {url: response.get_data(as_text=True) for url, response in out.items()}


def test_answers_are_the_same_with_the_memos_dropped_and_warm(app, full_kb):
    client = app.test_client(use_cookies=False)  # ?lang=en sets the page-language cookie
    _forget(app, full_kb)
    fresh = _bodies(client)
    warm = _bodies(client)
    assert warm == fresh
    page = fresh["/mechanics/" + quote("予示")]
    assert 'href="/rules/701.40"' in page or 'href="/rules/701.40a"' in page  # the rule links are still there
    assert "<mark>" in fresh["/api/search?q=manifest"]


@pytest.mark.parametrize("query", QUERIES + ("601.2c", "cast a spell", "トークン"))
def test_snippets_are_what_the_hit_texts_give_without_the_memo(full_kb, query):
    index = full_kb.search_index
    hits = index.search(query, limit=20)
    assert hits
    terms, mechanics = index._query_terms(query) if not tk.is_rule_number(query) else ({}, set())
    marker = Marker(query, terms, index._names_for(mechanics))
    for hit in index.search(query, limit=20):  # the second time from the memo
        normed, _ = tk.norm_with_map(hit.doc.text)
        assert marker.spans(normed) == _old_spans(marker, normed)
        if terms:
            assert hit.snippet == marker.snippet(hit.doc.text)
    assert [h.snippet for h in hits] == [h.snippet for h in index.search(query, limit=20)]


def test_memoised_links_are_flask_url_for(app):
    values = [("rules.page", {"number": "601.2c"}), ("rules.page", {"number": "601.2c", "edition": "2015-07-17"}),
              ("rules.page", {"number": "601.2c", "edition": None}), ("mechanics.page", {"name": "予示"}),
              ("search.page", {"q": "day night", "lang": "en"}), ("static", {"filename": "style.css"}),
              ("rules.page", {"number": "601.2c", "_anchor": "x"})]
    from server.urls import url_for
    for root in ("", "/kb"):
        with app.test_request_context("/", base_url="http://localhost" + root):
            for endpoint, args in values * 2:
                assert url_for(endpoint, **args) == flask.url_for(endpoint, **args)
            assert url_for("rules.page", number="100.1").startswith(root + "/rules/")


def test_picture_labels_are_cut_as_before():
    from server.svg import _short

    def cells(text):
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    def old_short(label, width):
        label = " ".join(str(label).split())
        if cells(label) <= width:
            return label
        out = ""
        for c in label:
            if cells(out + c) > width - 1:
                break
            out += c
        return out + "…"
    rng = random.Random(14)
    labels = ["予示", "Day and night 昼と夜", "702.19b", ""] + [
        "".join(rng.choice("ab 予示夜ｱ1.\n") for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    for label in labels:
        for width in (1, 2, 16, 22):
            assert _short(label, width) == old_short(label, width), (label, width)


def test_reachable_rules_are_those_of_the_rule_book(full_kb):
    from kb.reasoning import engine
    book = full_kb.rulebook()
    memo.forget(book)
    for m in engine.registered_all():
        starts = list(engine.entry_rules(book, m))
        for rel in engine.related_mechanics(book, m.key):
            other, view = engine._MECHANICS.get(rel), book.mechanic(rel)
            starts += list(view.rules if view else (other.entry_rules if other else ()))
        cited = [n for k in [m.key] + engine.related_mechanics(book, m.key) for r in book.rulings(k)
                 for n in r.cited_rules] + list(m.relies_on)
        expected = engine.reachable_rules(book, starts, cited)
        assert engine.reachable(book, m) == expected == engine.reachable(book, m)
        assert expected  # a question type applies some rules


def test_a_memoised_ruling_is_a_fresh_dict_each_time(full_kb):
    rid = next(iter(full_kb.model.rulings))
    memo.forget(full_kb)
    first = full_kb.ruling(rid)
    assert first == full_kb._ruling(rid) and first["citation"] and first["display"]
    first["display"] = "changed by a caller"
    assert full_kb.ruling(rid)["display"] == full_kb._ruling(rid)["display"] != "changed by a caller"
    assert full_kb.ruling("no-such-document#r1") is None


def test_prepared_mechanic_pages_are_the_pages_rendered_on_request(full_kb):
    """Every mechanic page's main part rendered once before serving (server.views.mechanics.prepare)
    gives the same pages, in both languages and under a script root, as rendering on request."""
    from server.views import mechanics
    keys = sorted(full_kb.model.mechanics)
    urls = [f"/mechanics/{quote(k)}{lang}" for k in keys[::7] for lang in ("", "?lang=en")]
    urls += [f"/mechanics/{quote(n)}" for n in ("予示", "manifest", "face-down", "昼と夜", "部屋")]
    on_request = create_app({"KB": full_kb, "TESTING": True, "RESPONSE_CACHE_SIZE": 0})
    fresh = {u: on_request.test_client(use_cookies=False).get(u).get_data(as_text=True) for u in urls}
    app = create_app({"KB": full_kb, "TESTING": True, "RESPONSE_CACHE_SIZE": 0})
    assert mechanics.prepare(app) == 2 * len(keys)
    client = app.test_client(use_cookies=False)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200 and response.get_data(as_text=True) == fresh[url], url
    assert "<h1 id=\"mechanic-name\">" in fresh[f"/mechanics/{quote('予示')}"]
    rooted = client.get(f"/mechanics/{quote('予示')}", base_url="http://localhost/kb").get_data(as_text=True)
    assert 'href="/kb/rules/701.40' in rooted and 'href="/rules/701.40' not in rooted
    assert client.get("/mechanics/no-such-mechanic").status_code == 404
