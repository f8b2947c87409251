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
from kb.store.tables import EditionTable

FORMAT_VERSION = 3  # 2: quotes apart from rulings, graph.marshal; 3: older editions in editions/
KEEP = 2  # snapshots kept on disk (the current one and the one before)


class SnapshotError(RuntimeError):
    pass


MODEL, SEARCH, GRAPH, STORE, META = "model.marshal", "search.bin", "graph.marshal", "store", "meta.json"


PER_EDITION = ("rules", "children", "glossary", "refs_in")  # EditionTables: one block per edition
EDITIONS_DIR = "editions"


def _kept(model: Model) -> set[tuple[str, str]]:
    """The editions a loaded snapshot holds in memory: the current one of each language."""
    return {(lang, edition) for lang in ("en", "ja") if (edition := model.current(lang))}


def write_model(folder: Path, model: Model) -> None:
    """The model as marshal (tuple keys stay tuples; marshal loads ~5x faster than pickle): the current
    editions' rows in model.marshal, each older edition's in editions/<lang>_<edition>.marshal."""
    kept = _kept(model)
    data = {f.name: getattr(model, f.name) for f in dataclasses.fields(model) if f.name not in PER_EDITION}
    older: dict[tuple[str, str], dict] = {}
    for name in PER_EDITION:
        blocks = getattr(model, name).blocks()
        data[name] = {k: v for k, v in blocks.items() if k in kept}
        for key, block in blocks.items():
            if key not in kept:
                older.setdefault(key, {})[name] = block
    (folder / EDITIONS_DIR).mkdir(exist_ok=True)
    for (lang, edition), fields in older.items():
        (folder / EDITIONS_DIR / f"{lang}_{edition}.marshal").write_bytes(marshal.dumps(fields))
    data["_older"] = sorted(older)
    (folder / MODEL).write_bytes(marshal.dumps(data))


class _EditionFiles:
    """Older editions' blocks, each file read once, on the first use of any of its tables."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._read: dict[tuple[str, str], dict] = {}

    def block(self, lang: str, edition: str, name: str) -> dict:
        fields = self._read.get((lang, edition))
        if fields is None:
            fields = self._read[(lang, edition)] = marshal.loads(
                (self.folder / EDITIONS_DIR / f"{lang}_{edition}.marshal").read_bytes())
        return fields.get(name, {})


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
    older = [tuple(k) for k in data.pop("_older", [])]
    files = _EditionFiles(path)
    for name in PER_EDITION:
        pending = {key: (lambda key=key, name=name: files.block(key[0], key[1], name)) for key in older}
        data[name] = EditionTable(data[name], pending)
    return Model(**data)


def open_store(path: Path) -> ox.Store:
    """Read-only: any number of worker processes can open the same snapshot."""
    return ox.Store.read_only(str(path / STORE))
