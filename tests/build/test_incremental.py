"""Adding an edition to a built snapshot: the new snapshot starts from the previous store
(kb.build.rdfstore) and must be the graph a build from scratch gives — the same triples, editions,
lineage, history and search answers — while the previous snapshot stays intact."""
from __future__ import annotations

import hashlib
import json
import marshal
import os
import shutil

import pyoxigraph as ox
import pytest

from kb import config as settings
from kb.build import pipeline, rdfstore
from kb.build.rdf import parts, ruling_link_triples
from kb.graphview import FILE as GRAPH
from kb.graphview.extract import card_list, edition_part, extract
from kb.lookup.kb import KB
from kb.sources.files import classify, discover
from kb.store import snapshot
from tests.shared_data import newest_en_sources


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


def _view(path) -> dict:
    """The graph view a snapshot holds: its nodes with their attributes and its typed edges, in order."""
    return marshal.loads((path / GRAPH).read_bytes())


def _model(path) -> dict:
    """Every lookup row a snapshot holds (older editions' read from their files)."""
    return vars(snapshot.load_model(path))


def _index(path) -> dict:
    """The search index a snapshot holds, as loaded (postings, weights, rows, bridges)."""
    return marshal.loads((path / snapshot.SEARCH).read_bytes())


def _copy_home(source, target):
    """A home as it was: every build writes new files (snapshots, cache entries by rename), so the
    big files are hard links (as bench/bench_build.py copies a home) and the small ones, the build
    lock among them, real copies."""
    def link_big(src, dst):
        if os.path.getsize(src) > 1 << 16:
            os.link(src, dst)
        else:
            shutil.copy2(src, dst)
    shutil.copytree(source, target, copy_function=link_big, dirs_exist_ok=True)
    return target


# Builds are shared between the tests (module fixtures) and each test starts from a copy of the home
# it needs, so the module builds 8 graphs instead of 10 and parses each file about once.
@pytest.fixture(scope="module")
def three(data_dir):
    """The three newest EN editions' files, oldest first: the current edition must be one the
    reasoning logic was written for, or the ruling links (a part of their own) are not made."""
    wanted = [s.edition_hint for s in reversed(newest_en_sources(3))]
    by_edition = {s.edition_hint: p for p in data_dir.glob("cr-en-*.txt") if (s := classify(p))}
    return [by_edition[e] for e in wanted]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory, data_dir, three):
    """All three and the JA edition, built from scratch: what every incremental build must equal."""
    home = tmp_path_factory.mktemp("scratch")
    path = _build(home, [*three, *_ja(data_dir)])
    return home, path


@pytest.fixture(scope="module")
def scratch_graph(scratch):
    return (_triples(scratch[1]), _answers(KB.load(scratch[0])), _view(scratch[1]), _index(scratch[1]),
            _model(scratch[1]))


@pytest.fixture(scope="module")
def first(tmp_path_factory, data_dir, three):
    """The two older editions and the JA one: the snapshot the newest edition is added to."""
    home = tmp_path_factory.mktemp("first")
    path = _build(home, [*three[:2], *_ja(data_dir)])
    return home, path, _triples(path)


def test_adding_the_newest_edition_reuses_the_store_and_gives_the_same_graph(tmp_path, data_dir, three, first,
                                                                               scratch_graph):
    home, first_path, before = first
    _copy_home(home, tmp_path)
    grown = _build(tmp_path, [*three, *_ja(data_dir)])
    info = _meta(grown)["store"]
    assert info["incremental"] and info["from"] == first_path.name
    assert info["parts_kept"] >= 3  # both older EN editions, the JA one, their lineage pair
    assert _triples(grown) == scratch_graph[0]
    assert _triples(tmp_path / "snapshots" / first_path.name) == before  # the previous snapshot is untouched
    assert _triples(first_path) == before
    assert _answers(KB.load(tmp_path)) == scratch_graph[1]
    assert _view(grown) == scratch_graph[2]  # the older editions' and the cards' reads were kept
    assert _index(grown) == scratch_graph[3]
    assert _model(grown) == scratch_graph[4]  # the JA alignment kept from the first build among them
    before_files = tmp_path / "snapshots" / first_path.name / snapshot.EDITIONS_DIR
    linked = [f.name for f in (grown / snapshot.EDITIONS_DIR).glob("*.marshal")
              if (before_files / f.name).exists() and os.path.samefile(f, before_files / f.name)]
    assert linked  # an older edition's file, unchanged, is the previous snapshot's (hard-linked)
    kept = _meta(grown)["cache"]["search_documents"]
    assert kept["kept"] > kept["computed"] > 0  # most documents' term frequencies were kept


def test_an_edition_put_between_two_replaces_their_lineage_and_gives_the_same_graph(tmp_path, data_dir, three,
                                                                                    first, scratch_graph):
    _copy_home(first[0] / "cache", tmp_path / "cache")  # the parses of two of the three files
    _build(tmp_path, [three[0], three[2], *_ja(data_dir)])
    grown = _build(tmp_path, [*three, *_ja(data_dir)])
    assert _meta(grown)["store"]["incremental"]
    assert _triples(grown) == scratch_graph[0]
    assert _answers(KB.load(tmp_path)) == scratch_graph[1]
    assert _view(grown) == scratch_graph[2]


def test_a_removed_edition_is_written_from_scratch(tmp_path, data_dir, three, scratch, scratch_graph):
    _copy_home(scratch[0], tmp_path)  # all three built
    smaller = pipeline.build(discover([*three[1:], *_ja(data_dir)], settings.rules_src_dir()),
                             tmp_path / "snapshots", allow_fewer=True)
    assert not _meta(smaller)["store"]["incremental"]
    again = _build(tmp_path, [*three, *_ja(data_dir)])  # and back: incremental again, same graph
    assert _meta(again)["store"]["incremental"]
    assert _triples(again) == scratch_graph[0]
    assert _view(again) == scratch_graph[2]


def test_a_failed_build_after_the_store_is_copied_leaves_the_previous_snapshot_current(tmp_path, data_dir, three,
                                                                                       first, monkeypatch):
    home, first_path, before = first
    _copy_home(home, tmp_path)

    def broken(self):
        raise RuntimeError("disk full")
    monkeypatch.setattr(rdfstore.StoreWriter, "add_ruling_links", broken)
    with pytest.raises(RuntimeError):
        _build(tmp_path, [*three, *_ja(data_dir)])
    assert snapshot.current(tmp_path / "snapshots") == tmp_path / "snapshots" / first_path.name
    assert _triples(tmp_path / "snapshots" / first_path.name) == before
    assert not list((tmp_path / "snapshots").glob(".tmp-*"))


def test_the_parts_are_disjoint_and_make_the_whole_graph(scratch, scratch_graph):
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
    assert len(seen) + len(links) == scratch_graph[0][0]


def test_what_the_view_keeps_by_store_part_is_read_from_that_part_alone(scratch, tmp_path):
    """The build keeps the graph view's reads of an edition part and of the cards part under the
    part's key (kb.build.pipeline._view_memo): they must be what a store holding only that part's
    triples gives, in the same order."""
    kb = KB.load(scratch[0])
    whole = ox.Store.read_only(str(scratch[1] / snapshot.STORE))
    made = {name: make for name, make in parts(kb.model)}

    def alone(name):  # on disk, as a build's: the order of a query's answers is the indexes' order
        store = ox.Store(str(tmp_path / "-".join(name)))
        store.bulk_load("".join(rdfstore.lines(made[name]())).encode("utf-8"), format=ox.RdfFormat.N_TRIPLES)
        return store
    current = extract(whole)["current"]
    assert set(current) == {"en", "ja"}
    for lang, edition in current.items():
        read = edition_part(whole, lang, edition)
        assert read[0] and read[1] and edition_part(alone(("edition", lang, edition)), lang, edition) == read
    assert card_list(alone(("cards",))) == card_list(whole) != []


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


def test_a_cached_edition_reads_its_records_only_when_asked(tmp_path, data_dir):
    """An add reads the records of the new and current editions only: the others come from the
    cache as their head (dates, counts, warnings), the records read on first use, equal to the parse."""
    from kb.build.cache import BuildCache
    from kb.parse.corpus import LazyEdition, parse_all
    path = data_dir / "cr-en-20110930.txt"
    sources = discover([path], None)
    cache = BuildCache(tmp_path)
    whole = parse_all(sources, memo=cache.get, code="c").en_editions()[0]
    assert not isinstance(whole, LazyEdition)  # parsed this time: nothing to defer
    again = parse_all(discover([path], None), memo=cache.get, code="c").en_editions()[0]
    assert isinstance(again, LazyEdition) and not again._loaded
    assert (again.edition, again.title, again.warnings, again.document.sha256) == \
        (whole.edition, whole.title, whole.warnings, whole.document.sha256)
    assert again.counts() == whole.counts() and whole.counts().rules > 1800
    assert not again._loaded  # the counts came from the cache, not the records
    assert again.rules == whole.rules and again.glossary == whole.glossary and again._loaded


def test_the_index_s_weights_are_those_of_a_loop_over_the_postings():
    """kb.search.indexing computes lengths and BM25 weights column-wise: bit for bit what a loop
    over each term's postings (the formula as written) gives."""
    import math
    from array import array
    from collections import Counter, defaultdict
    from kb.search import tokenize as tk
    from kb.search.index import SearchDoc, SearchIndex
    from kb.search.rows import B, FIELD_WEIGHT, K1, RULE_SELF_TF, length_class
    docs = [SearchDoc(id=f"d{i}", kind="rule", lang="en" if i % 3 else "ja", title=f"title {i % 4} 昼",
                      text=" ".join(["day", "night", "夜", "transform"][: 1 + i % 4] * (1 + i % 5)),
                      rule_number=f"70{i % 3}.{i}", mechanics=("daybound",) if i % 2 else (),
                      expansions="変身 transform" if i % 5 == 0 else "") for i in range(40)]
    index = SearchIndex.build(docs, tokens=str.split, current_editions=None)
    lengths = defaultdict(lambda: [0.0] * len(docs))
    postings: dict[str, list[tuple[int, float]]] = {}
    for i, d in enumerate(docs):
        tf: dict[str, float] = defaultdict(float)
        for name, text in (("title", d.title), ("text", d.text), ("expansions", d.expansions)):
            for t, n in Counter(text.split()).items():
                tf[t] += FIELD_WEIGHT[name] * n
        for key in d.mechanics:
            tf[f"{tk.MECH}{d.lang}:{key}"] = 1.0
        tf[tk.RULE_TOKEN + d.rule_number] += RULE_SELF_TF
        for t, n in tf.items():
            lengths[length_class(t)][i] += n
            postings.setdefault(t, []).append((i, n))
    avg = {c: (sum(l) / (sum(1 for x in l if x) or 1)) or 1.0 for c, l in lengths.items()}
    ids, ws, spans = array("i"), array("f"), {}
    for t, plist in postings.items():
        idf = math.log(1 + (len(docs) - len(plist) + 0.5) / (len(plist) + 0.5))
        length, a, b = lengths[length_class(t)], avg[length_class(t)], B[tk.namespace(t)]
        spans[t] = (len(ids), len(ids) + len(plist))
        ids.extend(doc for doc, _ in plist)
        ws.extend(idf * n * (K1 + 1) / (n + K1 * (1 - b + b * length[doc] / a)) for doc, n in plist)
    assert list(index.postings.items()) == list(spans.items())
    assert index._ids == ids and index._ws.tobytes() == ws.tobytes()


def test_slash_names_are_found_as_the_plain_regex_finds_them():
    """kb.parse.card_mentions searches JA runs' first characters only (a build's card-mention time
    was quadratic in long JA paragraphs): the same matches as _SLASH.finditer, on real-looking and
    random texts."""
    import random
    from kb.parse import card_mentions as cm
    rng = random.Random(8)
    alphabet = "あア漢、ー+＋・ /／abAB c,:-'’[]\n１"
    texts = ["例えば翻弄する魔道士/Meddling Mage、部屋／Room と 予示する / Manifest [a card]",
             "不自然な月の出/Unnatural Moonrise+ドア/Door", "漢" * 150 + "/", "a/b ア/", ""]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(3000)]
    for text in texts:
        assert [(m.span(), m.groupdict()) for m in cm._slash_matches(text)] == \
            [(m.span(), m.groupdict()) for m in cm._SLASH.finditer(text)], text
