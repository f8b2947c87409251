"""Japanese analysis from many threads at once (gthread workers answer searches and citation checks
on concurrent threads): a Sudachi tokenizer cannot be shared, so each thread gets its own, over one
shared dictionary, and every thread gets the same words as a single thread does."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from kb.citations import reading
from kb.search import tokenize

TEXTS = [f"{i}番目の呪文を唱える際に、プレイヤーは優先権を得る。予示されたクリーチャーは裏向きになる。" * 4
         for i in range(400)]


def test_search_morphemes_from_many_threads_match_one_thread():
    alone = [tokenize.morphemes(t) for t in TEXTS[:5]]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(tokenize.morphemes, TEXTS))
    assert together[:5] == alone
    assert all({"優先", "予示", "クリーチャー"} <= {s for _, _, s, _ in words} for words in together)


def test_citation_reading_tokens_from_many_threads():
    alone = reading._tokens(TEXTS[0])
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(reading._tokens, TEXTS))
    assert together[0] == alone and len(together) == len(TEXTS)


def test_release_drops_the_shared_dictionary_and_it_comes_back():
    tokenize.morphemes("予示")
    tokenize.release()
    assert tokenize._dictionary is None
    assert [s for _, _, s, _ in tokenize.morphemes("予示する")][0] == "予示"


def test_english_stems_from_many_threads_match_one_thread():
    words = [f"{w}{suffix}{i}" for i in range(300) for w in ("manifest", "activat", "attack", "sacrific")
             for suffix in ("ing", "ed", "ation", "ions", "ness")]
    texts = [" ".join(words[i:i + 50]) for i in range(0, len(words), 50)]
    tokenize.stem.cache_clear()
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(tokenize.en_stems, texts))
    tokenize.stem.cache_clear()
    assert together == [tokenize.en_stems(t) for t in texts]
