"""Adding an edition to a built snapshot: the new snapshot starts from the previous store
(kb.build.rdfstore) and must be the graph a build from scratch gives — the same triples, editions,
lineage, history and search answers — while the previous snapshot stays intact."""
from __future__ import annotations

import hashlib
import json

import pyoxigraph as ox
import pytest

from kb import config as settings
from kb.build import pipeline, rdfstore
from kb.build.rdf import parts, ruling_link_triples
from kb.lookup.kb import KB
from kb.sources.files import classify, discover
from kb.store import snapshot
from tests.conftest import newest_en_sources


def _ja(data_dir):
    return sorted(data_dir.glob("cr-ja-*.txt"))


def _build(home, files):
    return pipeline.build(discover(list(files), settings.rules_src_dir()), home / "snapshots")


def _triples(path) -> tuple[int, str]:
    store = ox.Store.read_only(str(path / snapshot.STORE))
    lines = sorted(store.dump(format=ox.RdfFormat.N_QUADS).decode("utf-8").splitlines())
    return len(lines), hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def _meta(path) -> dict:
    return json.loads((path / snapshot.META).read_text(encoding="utf-8"))


def _answers(kb: KB) -> dict:
    return {
        "editions": kb.editions(),
        "lineage": sorted(kb.model.next_link.items()),
        "history": kb.rule("702.2").get("history_spans"),
        "search": {q: [h["id"] for h in kb.search(q)["hits"]] for q in ("予示", "day and night", "601.2c", "変身")},
    }


@pytest.fixture(scope="module")
def three(data_dir):
    """The three newest EN editions' files, oldest first."""
    wanted = [s.edition_hint for s in reversed(newest_en_sources(3))]
    by_edition = {s.edition_hint: p for p in data_dir.glob("cr-en-*.txt") if (s := classify(p))}
    return [by_edition[e] for e in wanted]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory, data_dir, three):
    home = tmp_path_factory.mktemp("scratch")
    path = _build(home, [*three, *_ja(data_dir)])
    return home, path


def test_adding_the_newest_edition_reuses_the_store_and_gives_the_same_graph(tmp_path, data_dir, three, scratch):
    files = three
    first = _build(tmp_path, [*files[:2], *_ja(data_dir)])
    before = _triples(first)
    grown = _build(tmp_path, [*files, *_ja(data_dir)])
    info = _meta(grown)["store"]
    assert info["incremental"] and info["from"] == first.name
    assert info["parts_kept"] >= 3  # both older EN editions, the JA one, their lineage pair
    assert _triples(grown) == _triples(scratch[1])
    assert _triples(first) == before  # the previous snapshot is untouched
    assert _answers(KB.load(tmp_path)) == _answers(KB.load(scratch[0]))


def test_an_edition_put_between_two_replaces_their_lineage_and_gives_the_same_graph(tmp_path, data_dir, three,
                                                                                    scratch):
    files = three
    _build(tmp_path, [files[0], files[2], *_ja(data_dir)])
    grown = _build(tmp_path, [*files, *_ja(data_dir)])
    assert _meta(grown)["store"]["incremental"]
    assert _triples(grown) == _triples(scratch[1])
    assert _answers(KB.load(tmp_path)) == _answers(KB.load(scratch[0]))


def test_a_removed_edition_is_written_from_scratch(tmp_path, data_dir, three, scratch):
    files = three
    _build(tmp_path, [*files, *_ja(data_dir)])
    smaller = pipeline.build(discover([*files[1:], *_ja(data_dir)], settings.rules_src_dir()),
                             tmp_path / "snapshots", allow_fewer=True)
    assert not _meta(smaller)["store"]["incremental"]
    again = _build(tmp_path, [*files, *_ja(data_dir)])  # and back: incremental again, same graph
    assert _triples(again) == _triples(scratch[1])


def test_a_failed_build_after_the_store_is_copied_leaves_the_previous_snapshot_current(tmp_path, data_dir, three,
                                                                                       monkeypatch):
    files = three
    first = _build(tmp_path, [*files[:2], *_ja(data_dir)])
    before = _triples(first)

    def broken(self):
        raise RuntimeError("disk full")
    monkeypatch.setattr(rdfstore.StoreWriter, "add_ruling_links", broken)
    with pytest.raises(RuntimeError):
        _build(tmp_path, [*files, *_ja(data_dir)])
    assert snapshot.current(tmp_path / "snapshots") == first
    assert _triples(first) == before
    assert not list((tmp_path / "snapshots").glob(".tmp-*"))


def test_the_parts_are_disjoint_and_make_the_whole_graph(scratch):
    kb = KB.load(scratch[0])
    seen: dict[str, str] = {}
    clashes = []
    for name, make in parts(kb.model):
        for line in set(rdfstore.lines(make())):
            if line in seen:
                clashes.append((seen[line], "/".join(name), line))
            seen[line] = "/".join(name)
    assert clashes == []
    links = set(rdfstore.lines(ruling_link_triples(kb.model)))
    assert not links & set(seen)
    assert len(seen) + len(links) == _triples(scratch[1])[0]


def test_search_tokens_kept_across_builds_are_the_tokenizer_s(tmp_path):
    from kb.build.cache import BuildCache, TextMemo
    from kb.search.tokenize import tokens
    texts = ["Day and Night 731.2a", "昼と夜は、ゲームの状態である。", "", "701.40a Manifest"]
    first = TextMemo(BuildCache(tmp_path), "tokens", "k", tokens)
    assert [list(first(t)) for t in texts] == [tokens(t) for t in texts]
    first.save()

    def refuse(text):
        raise AssertionError(f"computed again: {text!r}")
    again = TextMemo(BuildCache(tmp_path), "tokens", "k", refuse)
    assert [list(again(t)) for t in texts] == [tokens(t) for t in texts]
