"""What is prepared before serving for search (kb ``prepare_search``: every document's snippet
analysis, every current rule's search parts, the question retriever) changes no answer: /api/search
and /search give the same bodies with nothing prepared or memoised and after preparing, on a sample
of JA/EN keyword queries and judge questions (some naming cards); the analysis behind snippets is
the per-character normalisation and the scan of every word and morpheme it replaces; the citations
gathered for an answer are those the recursive walk gathered. Full KB, answer cache off."""
from __future__ import annotations

import random
import unicodedata
from urllib.parse import quote

import pytest

from kb import memo
from kb.search import snippet as sn
from kb.search import tokenize as tk
from server import create_app
from server.resources import with_citations
from tests.server.references import old_spans as _old_spans, old_window as _old_window
from tests.server.references import old_with_citations as _old_with_citations, sample_queries

def _queries() -> list[str]:
    return sample_queries(1407, 40, 25) + ["601.2c", "昼", "《翻弄する魔道士》", "Meddling Mage"]


QUERIES = _queries()
URLS = ([f"/api/search?q={quote(q)}" for q in QUERIES] + [f"/api/search?q={quote(q)}&lang=ja" for q in QUERIES[::4]]
        + [f"/api/search?q={quote(q)}&limit=25" for q in QUERIES[1::5]] + [f"/search?q={quote(q)}&nogoto=1" for q in QUERIES[::3]])


@pytest.fixture(scope="module")
def app(full_kb):
    return create_app({"KB": full_kb, "TESTING": True, "RESPONSE_CACHE_SIZE": 0})


def _bodies(app) -> dict[str, str]:
    client = app.test_client(use_cookies=False)
    out = {}
    for url in URLS:
        response = client.get(url)
        assert response.status_code == 200, url
        out[url] = response.get_data(as_text=True)
    return out


def test_search_answers_are_the_same_prepared_and_not(app, full_kb):
    for owner in (full_kb, full_kb.search_index, app):
        memo.forget(owner)
    plain = _bodies(app)
    assert memo.peek(full_kb.search_index, sn.PREPARED) is None  # nothing was prepared on the way
    assert full_kb.prepare_search() == len({d.text for d in full_kb.search_index.docs})
    prepared = _bodies(app)
    assert prepared == plain
    assert any('"rules":[{' in body for body in plain.values())  # the question path ran
    assert any("<mark>" in body for body in plain.values())


def _old_norm_with_map(text: str):
    if text.isascii():
        return text.lower(), list(range(len(text)))
    if not tk.HAS_JA.search(text):
        low = text.lower().translate(tk._PUNCT)
        if len(low) == len(text) and low.isascii():
            return low, list(range(len(text)))
    out, where = [], []
    for i, c in enumerate(text):
        n = c if c.isascii() else unicodedata.normalize("NFKC", c)
        n = tk.fold(n.casefold()).translate(tk._PUNCT)
        out.append(n)
        where.extend([i] * len(n))
    return "".join(out), where


def test_normalised_text_and_offsets_are_the_per_character_loop(full_kb):
    texts = [d.text for d in full_kb.search_index.docs]
    texts += ["ｱｲｳ ﬁ ß İ ①② ㍿", "Æther ½ 〜—“x”", "ＡＢＣ　７０２．６ ｶﾞ", "", "x\u0301y", "\u2460\u00bd"]
    for text in texts:
        assert tk.norm_with_map(text) == _old_norm_with_map(text), text


def test_prepared_analysis_finds_the_scanned_spans(full_kb):
    index = full_kb.search_index
    full_kb.prepare_search()
    for query in QUERIES[::2]:
        if tk.is_rule_number(query):
            continue
        terms, mechanics = index._query_terms(query)
        marker = sn.Marker(query, terms, index._names_for(mechanics), owner=index)
        fresh = sn.Marker(query, terms, index._names_for(mechanics))  # no owner: analysed anew
        for hit in index.search(query, limit=15, snippets=False):
            analysed = sn.prepared(index, hit.doc.text)
            assert analysed is not None
            normed, where = _old_norm_with_map(hit.doc.text)
            assert (analysed.normed, list(analysed.where)) == (normed, where)
            assert marker.spans(normed, analysed) == _old_spans(marker, normed)
            assert marker.snippet(hit.doc.text) == fresh.snippet(hit.doc.text)


class Label(str):
    """A str subclass: its repr is a plain string's, so the recursive walk took it for one."""


def _without_citations(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "citations"}


def test_a_search_answer_gathers_its_citations_as_the_recursive_walk_does(full_kb):
    """kb.search lists its citations itself (kb.lookup.documents._nested_citations) instead of the
    server's walk over every field: the same citations, in the same order, for JA/EN keywords, judge
    questions naming cards, rule numbers and card names."""
    for q in QUERIES:
        for lang in (None, "ja"):
            answer = full_kb.search(q, lang=lang, limit=10)
            assert answer["citations"], q
            assert answer["citations"] == _old_with_citations(_without_citations(answer))["citations"], q


def test_citations_are_gathered_as_the_recursive_walk_did(full_kb):
    answers = [_without_citations(full_kb.search(q, limit=10)) for q in QUERIES[:30]]
    answers += [full_kb.mechanic(name) for name in ("予示", "day-and-night", "ward")]
    answers += [{"a": [{"citation": {"x": 1}}, [{"citation": {"x": 1}}, {"citation": None, "b": [{"citation": {"y": [1]}}]}]],
                 "citation": {"x": 1, "z": None}, "c": ({"citation": {"t": 1}},)},
                {"a": [{"citation": {"x": 1, "s": "a"}}, {"citation": {"s": "a", "x": 1}}, {"citation": {"x": True}},
                       {"citation": {"x": 1.0}}, {"citation": {"x": 1}}, {"citation": {"x": True}}, {"citation": {1: "a"}},
                       {"citation": {True: "a"}}, {"citation": {"x": "1"}}, {"citation": {"x": None}}]},
                {"a": [{"citation": {"x": 1}}, {"citation": {"x": Label("a")}}, {"citation": {"x": "a"}},
                       {"citation": {"x": 1}}]}]
    for answer in answers:
        assert with_citations(answer) == _old_with_citations(answer)


def test_snippet_escaping_is_html_escape():
    import html
    rng = random.Random(14)
    texts = ["", "a & b < c > d \"e\" 'f'", "&amp;", "予示 <mark>"] + [
        "".join(rng.choice("&<>\"'a予 ;#x") for _ in range(rng.randint(0, 30))) for _ in range(3000)]
    for text in texts:
        assert sn.escape(text) == html.escape(text)


def test_snippet_window_is_the_scan_of_every_span(full_kb):
    """The window found by bisection over the merged spans is the one the scan of every span gave,
    on every long document text a sample of queries matches and on random spans over real texts."""
    index = full_kb.search_index
    rng = random.Random(21)
    checked = 0
    for query in QUERIES:
        if tk.is_rule_number(query):
            continue
        terms, mechanics = index._query_terms(query)
        marker = sn.Marker(query, terms, index._names_for(mechanics))
        for hit in index.search(query, limit=20, snippets=False):
            analysed = sn.analyse(hit.doc.text)
            spans = marker.spans(analysed.normed, analysed)
            args = (spans, analysed.normed, analysed.where, len(hit.doc.text))
            assert sn._window(*args) == _old_window(*args)
            checked += bool(spans)
    texts = [d.text for d in index.docs if len(d.text) > 400][:300]
    for text in texts:
        analysed = sn.analyse(text)
        n = len(analysed.normed)
        cuts = sorted(rng.sample(range(n), min(n, 2 * rng.randint(1, 30))))
        spans = sn._merge([(a, b, rng.choice("abcde")) for a, b in zip(cuts[::2], cuts[1::2]) if b > a])
        args = (spans, analysed.normed, analysed.where, len(text))
        assert sn._window(*args) == _old_window(*args)
    assert checked > 200
