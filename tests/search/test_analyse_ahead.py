"""Japanese runs analysed ahead (kb.search.tokenize.analyse_ahead): the build analyses its search
documents' JA runs while the dictionary is loaded for the model, then drops the dictionary, so the
search index step (the build's peak memory) runs without it and finds the same tokens."""
from __future__ import annotations

import pytest

from kb import config as settings
from kb.build import pipeline
from kb.lookup.kb import KB
from kb.search import tokenize
from kb.sources.files import discover

TEXTS = ["プレイヤーは優先権を得る。予示されたクリーチャーは裏向きになる。",
         "オモテ向きのカードを唱えなかった場合、rule 702.6a〔呪禁〕参照。",
         "長い" * 40 + "文"]  # a run of more than 64 characters is analysed uncached


@pytest.fixture
def fresh_tokenizer():
    tokenize.release()
    yield
    tokenize.release()


def _loads(monkeypatch) -> list[bool]:
    """Appends to the returned list each time the dictionary is loaded."""
    loads: list[bool] = []
    real = tokenize._shared

    def shared():
        if tokenize._dictionary is None:
            loads.append(True)
        return real()
    monkeypatch.setattr(tokenize, "_shared", shared)
    return loads


def test_texts_analysed_ahead_give_the_same_tokens_without_the_dictionary(fresh_tokenizer, monkeypatch):
    expected = [tokenize.tokens(t) for t in TEXTS]
    words = sorted({w for t in TEXTS for w in tokenize.tokens(t) if tokenize.HAS_JA.search(w) and ":" not in w})
    joined = " ".join([TEXTS[0], *words])  # a rule's expansions: texts and learnt words, space-joined
    expected_joined = tokenize.tokens(joined)
    tokenize.release()
    tokenize.analyse_ahead(TEXTS)
    tokenize.release_dictionary()
    loads = _loads(monkeypatch)
    assert [tokenize.tokens(t) for t in TEXTS] == expected
    assert tokenize.tokens(joined) == expected_joined
    assert loads == []
    assert "裏向き" in expected[0] and "§702.6a" in expected[1]


def test_a_run_not_analysed_ahead_is_still_analysed(fresh_tokenizer, monkeypatch):
    expected = tokenize.tokens("墓地に置かれる")
    tokenize.release()
    tokenize.analyse_ahead(TEXTS)
    tokenize.release_dictionary()
    loads = _loads(monkeypatch)
    assert tokenize.tokens("墓地に置かれる") == expected
    assert loads == [True]
    tokenize.release()
    assert not tokenize._ahead_words


def test_a_cold_build_makes_its_search_index_without_loading_the_dictionary_again(tmp_path, data_dir, monkeypatch):
    tokenize.release()
    loads: list[str] = []
    steps: list[str] = []
    real = tokenize._shared

    def shared():
        if tokenize._dictionary is None:
            loads.append(steps[-1])
        return real()
    monkeypatch.setattr(tokenize, "_shared", shared)
    sources = discover([data_dir / "cr-en-20260116.txt", data_dir / "cr-ja-20260116.txt"], settings.rules_src_dir())
    pipeline.build(sources, tmp_path / "snapshots", progress=steps.append)
    # once: by the model's JA names when a name needs its nouns, else by the search index (glossary
    # terms are named by the JA glossary only, so with these two editions no JA name needs the nouns)
    assert len(loads) == 1 and loads[0] in ("lineage across editions", "search index")
    hits = KB.load(tmp_path).search("唱えなかった", lang="ja")["hits"]
    assert any(h["id"].startswith("rule:ja:2026-01-16:") for h in hits)
