"""Build and store snapshots atomically; load the current one.

Layout under ``settings.snapshot_root()``::

    CURRENT            name of the snapshot in use (replaced atomically with os.replace)
    snap-<stamp>/      model.marshal (lookup indexes), store/ (Oxigraph RDF store), meta.json

A build writes into a temporary folder and only then renames it and swaps CURRENT, so a failed
or interrupted build leaves the previous snapshot untouched.
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import marshal
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pyoxigraph as ox

from kb import settings
from kb.modeldata import Model
from kb.sources import SourceSet

FORMAT_VERSION = 1
KEEP = 2  # snapshots kept on disk (the current one and the one before)
STORE_BATCH = 100_000


class SnapshotError(RuntimeError):
    pass


class StaleLogicError(SnapshotError):
    """The reasoning logic no longer matches the loaded CR (a pinned rule is gone or reworded)."""


def link_rulings(model: Model) -> None:
    """Ruling -> rules that decide its case (``model.ruling_rules``), computed by the reasoning engine
    over this model. Needs a current EN edition (skipped without one). When the newest EN edition
    is the one the logic was written for or later, a pinned rule that is gone or no longer says
    what the logic assumes raises StaleLogicError naming the rule(s), in one line; a KB of older
    editions only (2011) builds without links, as the engine never reasoned about them."""
    current = model.current("en")
    if current is None:
        return
    from kb.api import KB
    from kb.reasoning.engine import ruling_rules
    from kb.reasoning.registry import WRITTEN_FOR, PinError
    try:
        model.ruling_rules = ruling_rules(KB(model, path=None).rulebook())
    except PinError as exc:
        if current < WRITTEN_FOR:
            return
        raise StaleLogicError("rule logic no longer matches the loaded CR: " + "; ".join(exc.failures)) from exc


def _encode(model: Model) -> dict:
    """Model -> marshal-able containers (tuple keys stay tuples; marshal loads ~5x faster than pickle)."""
    return {f.name: getattr(model, f.name) for f in dataclasses.fields(model)}


def build(sources: SourceSet, root: Path | None = None, progress: Callable[[str], None] = lambda _: None) -> Path:
    """Parse, build and write a new snapshot; returns its folder. Raises before touching CURRENT."""
    # Build-only code is imported here, so loading a snapshot never pays for parsers or rdflib.
    from kb.corpus import parse_all
    from kb.graph import quads
    from kb.model import build_model
    from kb.search_docs import build_index
    root = root or settings.snapshot_root()
    root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    corpus = parse_all(sources, progress)
    model = build_model(corpus, progress)
    progress("rulings -> rules by reasoning")
    link_rulings(model)
    tmp = root / f".tmp-{os.getpid()}-{time.time_ns()}"
    try:
        tmp.mkdir()
        progress("write indexes")
        (tmp / "model.marshal").write_bytes(marshal.dumps(_encode(model)))
        progress("search index")
        (tmp / "search.bin").write_bytes(build_index(model).dumps())
        progress("write RDF store")
        store = ox.Store(str(tmp / "store"))
        stream = quads(model)
        # In batches: one bulk load of all ~450k quads peaks near 500 MB; batches keep it ~250 MB.
        while batch := list(itertools.islice(stream, STORE_BATCH)):
            store.bulk_extend(batch)
        store.flush()
        store.optimize()
        del store
        meta = {"format": FORMAT_VERSION, "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "seconds": round(time.perf_counter() - started, 2),
                "sources": [{"id": s.document.id, "path": s.document.path, "sha256": s.document.sha256,
                             "format": s.format} for s in sources.files],
                "editions": sorted(model.editions), "rules": len(model.rules),
                "warnings": [{"file": f, "line": line, "message": m} for f, line, m in corpus.warnings],
                "rulings": len(model.rulings), "mechanics": len(model.mechanics), "cards": len(model.cards)}
        (tmp / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
        final = root / f"snap-{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 10**6:06d}"
        tmp.rename(final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    pointer = root / "CURRENT.tmp"
    pointer.write_text(final.name, encoding="utf-8")
    os.replace(pointer, root / "CURRENT")
    _prune(root, keep=final.name)
    return final


def _prune(root: Path, keep: str) -> None:
    snaps = sorted(p for p in root.glob("snap-*") if p.is_dir())
    for old in snaps[:-KEEP]:
        if old.name != keep:
            shutil.rmtree(old, ignore_errors=True)
    for stale in root.glob(".tmp-*"):  # left by a build that was killed
        if time.time() - stale.stat().st_mtime > 3600:
            shutil.rmtree(stale, ignore_errors=True)


def current(root: Path | None = None) -> Path | None:
    root = root or settings.snapshot_root()
    try:
        name = (root / "CURRENT").read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    path = root / name
    return path if path.is_dir() else None


def load_model(path: Path) -> Model:
    data = marshal.loads((path / "model.marshal").read_bytes())
    return Model(**data)


def open_store(path: Path) -> ox.Store:
    """Read-only: any number of worker processes can open the same snapshot."""
    return ox.Store.read_only(str(path / "store"))


def load_search(path: Path):
    from kb.search import SearchIndex
    return SearchIndex.loads((path / "search.bin").read_bytes())
