"""The faster implementations behind uncached searches and questions change no answer: the same
requests give the same bodies through them and through the plain definitions they replace, put
back for the comparison — BM25 summed and sorted over every document with no pass shared between
the hits and the question retriever, the rerank's pairs from ``pairs_of``, mechanic and glossary
names found by testing every name, snippets escaped by html.escape, situations read by
accept_labels, citations gathered by the recursive walk. A sample of the bench's keyword queries
(JA and EN), judge questions (some naming cards), the API and the page, and every bench question
through the three ask routes. Full KB, answer cache off."""
from __future__ import annotations

import contextlib
import html
import json
from urllib.parse import quote

import numpy as np
import pytest

from kb.reasoning import compiled, engine
from kb.search import pairs as stem_pairs
from kb.search import scoring
from kb.search import snippet as sn
from kb.search.index import SearchIndex
from kb.search.rows import GLOSS, GLOSS_JA, OTHER_LANGUAGE, STATEMENT_KINDS, VERSIONED_KINDS
from server import create_app
import server.resources as res
from tests.server.references import old_window as _old_window, old_with_citations as _old_with_citations, sample_queries

def _urls() -> list[str]:
    queries = sample_queries(1411, 30, 20) + ["601.2c", "昼", "真夜中", "《翻弄する魔道士》"]
    return ([f"/api/search?q={quote(q)}" for q in queries] + [f"/api/search?q={quote(q)}&lang=ja" for q in queries[::5]]
            + [f"/search?q={quote(q)}&nogoto=1" for q in queries[::4]])


def _plain_scored(self, query, terms, lang, kinds, prefer, cut, k):
    """_scored as a loop over every posting and a sort of every scored document."""
    rows, n_docs = self._rows, len(self._rows)
    scores, touched = [0.0] * n_docs, [False] * n_docs
    for t, qw in terms.items():
        start, end = self.postings.get(t, (0, 0))
        for d, w in zip(self._ids[start:end], self._ws[start:end]):
            if d < cut:
                scores[d] += float(w) * qw
                touched[d] = True
    for number, w in (self._glossary_terms(query) if GLOSS else {}).items():
        for d in self.by_rule.get(number, ()):
            if d < cut and rows[d].kind == "rule":
                scores[d] += GLOSS * w
                touched[d] = True
    rules_ja = self._glossary_ja(query) if GLOSS_JA else {}
    if rules_ja:
        top = max((s for s, t in zip(scores, touched) if t), default=1.0)
        for number, w in rules_ja.items():
            for d in self.by_rule.get(number, ()):
                if d < cut and rows[d].kind == "rule":
                    scores[d] += GLOSS_JA * w * top
                    touched[d] = True
    factor = self._columns()["factor"]
    out = []
    for d in range(n_docs):
        r = rows[d]
        if not touched[d] or (lang and r.lang != lang) or (kinds and r.kind not in kinds):
            continue
        if prefer == "en" and r.lang == "ja" and r.kind in VERSIONED_KINDS:
            continue
        other = not lang and prefer == "en" and r.lang != "en" and r.kind in STATEMENT_KINDS
        out.append((float(np.float64(scores[d]) * (factor[d] * (OTHER_LANGUAGE if other else 1.0))), d))
    out.sort(key=lambda p: (-p[0], -p[1]))
    return out[:k]


def _plain_names_inside(index, key, names, runs, shortest=2):
    longest = max(map(len, names), default=0)
    return {run[i:j] for run in runs for i in range(len(run))
            for j in range(i + shortest, min(len(run), i + longest) + 1) if run[i:j] in names}


@pytest.fixture(scope="module")
def app(full_kb):
    app = create_app({"KB": full_kb, "TESTING": True, "RESPONSE_CACHE_SIZE": 0})
    full_kb.prepare_search()
    full_kb.prepare_questions()
    return app


def _bodies(app) -> dict[str, tuple[int, str]]:
    from bench.bench_http import _questions

    client = app.test_client(use_cookies=False)
    out = {url: client.get(url) for url in _urls()}
    for _, path, situation in _questions():
        mechanic = path.rsplit("/", 1)[1]
        out["POST " + path] = client.post(path, json=situation)
        out["POST /api/ask " + mechanic] = client.post("/api/ask", json={"mechanic": mechanic, "situation": situation})
        out["FORM " + mechanic] = client.post(f"/mechanics/{mechanic}/ask", data={"_json": json.dumps(situation)})
    return {key: (r.status_code, r.get_data(as_text=True)) for key, r in out.items()}


def test_answers_are_the_same_through_the_plain_definitions(app, monkeypatch):
    fast = _bodies(app)
    assert all(status == 200 for status, _ in fast.values()), [k for k, (s, _) in fast.items() if s != 200]
    assert sum('"rules":[{' in body for _, body in fast.values()) >= 10  # the question retriever ran
    assert sum("<mark>" in body for _, body in fast.values()) >= 30
    with monkeypatch.context() as m:
        m.setattr(SearchIndex, "_scored", _plain_scored)
        m.setattr(scoring, "one_pass", contextlib.nullcontext)
        m.setattr(stem_pairs, "prepared", lambda index: None)
        m.setattr(scoring, "names_inside", _plain_names_inside)
        m.setattr(scoring, "names_in", lambda index, key, names, text: [n for n in names if n in text])
        m.setattr(sn, "escape", html.escape)
        m.setattr(sn, "_window", _old_window)
        m.setattr(res, "with_citations", _old_with_citations)
        for mech in engine.registered_all():
            m.setattr(mech, "compiled", compiled.Compiled(mech.compiled.valid, mech.compiled.fill, None))
        plain = _bodies(app)
    assert plain.keys() == fast.keys()
    assert [k for k in fast if fast[k] != plain[k]] == []
