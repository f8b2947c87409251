"""Snapshots on disk: written atomically (the build calls ``writing`` then ``commit``), loaded read-only.

Layout under ``config.snapshot_root()``::

    CURRENT            name of the snapshot in use (replaced atomically with os.replace)
    snap-<stamp>/      model.marshal (lookup rows), search.bin (search index), graph.marshal (the NetworkX
                       view's nodes and edges), store/ (Oxigraph RDF store), meta.json

A build writes into a temporary folder and only then renames it and swaps CURRENT, so a failed
or interrupted build leaves the previous snapshot untouched.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import marshal
import os
import shutil
import time
from pathlib import Path

import pyoxigraph as ox

from kb import config
from kb.store.rows import Model

FORMAT_VERSION = 2  # 2: quotes apart from rulings, the graph view's graph.marshal
KEEP = 2  # snapshots kept on disk (the current one and the one before)


class SnapshotError(RuntimeError):
    pass


MODEL, SEARCH, GRAPH, STORE, META = "model.marshal", "search.bin", "graph.marshal", "store", "meta.json"


def write_model(folder: Path, model: Model) -> None:
    """Model -> marshal-able containers (tuple keys stay tuples; marshal loads ~5x faster than pickle)."""
    (folder / MODEL).write_bytes(marshal.dumps({f.name: getattr(model, f.name) for f in dataclasses.fields(model)}))


def meta(model: Model, sources, warnings, seconds: float) -> dict:
    return {"format": FORMAT_VERSION, "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seconds": round(seconds, 2),
            "sources": [{"id": s.document.id, "path": s.document.path, "sha256": s.document.sha256,
                         "format": s.format} for s in sources.files],
            "editions": sorted(model.editions), "rules": len(model.rules),
            "warnings": [{"file": f, "line": line, "message": m} for f, line, m in warnings],
            "rulings": len(model.rulings) + len(model.quotes), "mechanics": len(model.mechanics),
            "cards": len(model.cards)}


@contextlib.contextmanager
def writing(root: Path):
    """A temporary folder for a new snapshot, removed if anything fails before ``commit``."""
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / f".tmp-{os.getpid()}-{time.time_ns()}"
    tmp.mkdir()
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def commit(tmp: Path, root: Path, info: dict) -> Path:
    """Rename the finished folder into place and switch CURRENT to it (atomically)."""
    (tmp / META).write_text(json.dumps(info, ensure_ascii=False, indent=1), encoding="utf-8")
    final = root / f"snap-{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 10**6:06d}"
    tmp.rename(final)
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
    root = root or config.snapshot_root()
    try:
        name = (root / "CURRENT").read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    path = root / name
    return path if path.is_dir() else None


def load_model(path: Path) -> Model:
    try:
        written = json.loads((path / META).read_text(encoding="utf-8")).get("format")
    except (OSError, ValueError):
        written = None
    if written != FORMAT_VERSION:
        raise SnapshotError(f"{path.name} was written by another version of kb (format {written}, "
                            f"this is {FORMAT_VERSION}): run `kb build` again")
    data = marshal.loads((path / MODEL).read_bytes())
    return Model(**data)


def open_store(path: Path) -> ox.Store:
    """Read-only: any number of worker processes can open the same snapshot."""
    return ox.Store.read_only(str(path / STORE))
