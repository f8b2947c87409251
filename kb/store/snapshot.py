"""Snapshots on disk: written atomically (the build calls ``writing`` then ``commit``), loaded read-only.

Layout under ``config.snapshot_root()``::

    CURRENT            name of the snapshot in use (replaced atomically with os.replace, fsynced)
    .build.lock        flock held by the one build running (its pid inside)
    snap-<stamp>/      model.marshal (lookup rows), editions/ (older editions' rows), search.bin
                       (search index), cardnames.bin (the card names' matcher), graph.marshal (the
                       NetworkX view's nodes and edges), store/ (Oxigraph RDF store), meta.json, .in-use
                       (flock shared by every process that has the snapshot loaded: ``hold``)

A build takes the lock, writes into a temporary folder, fsyncs it, renames it and only then swaps
CURRENT, so a failed, interrupted or concurrent build leaves the previous snapshot untouched.
Pruning keeps the current snapshot and the one before it, and never removes one a process holds;
a build that finds no CURRENT prunes nothing (it cannot tell which snapshots the user meant to keep).
"""
from __future__ import annotations

import calendar
import contextlib
import dataclasses
import json
import fcntl
import marshal
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pyoxigraph as ox

from kb import config
from kb.errors import KBError, SnapshotDamaged
from kb.store.rows import Model
from kb.store.tables import EditionTable, PartedBlock

FORMAT_VERSION = 8  # 2: quotes apart from rulings, graph.marshal; 3: older editions in editions/; 4: their rules in
# parts; 5: parts by rule, each other table as its own bytes (a file read decodes none of them); 6: the card tables
# as bytes; 7: in parts; 8: a card's text forms (kb.build.forms)


class SnapshotError(RuntimeError):
    pass


MODEL, SEARCH, GRAPH, STORE, META = "model.marshal", "search.bin", "graph.marshal", "store", "meta.json"


PER_EDITION = ("rules", "children", "glossary", "refs_in")  # EditionTables: one block per edition
PARTED = ("rules",)  # in an older edition's file: in parts by rule (kb.store.tables.PartedBlock)
LAZY = ("cards", "card_names")  # in model.marshal in parts too, each decoded on first use (a PartedBlock)
EDITIONS_DIR = "editions"


def _kept(model: Model) -> set[tuple[str, str]]:
    """The editions a loaded snapshot holds in memory: the current one of each language."""
    return {(lang, edition) for lang in ("en", "ja") if (edition := model.current(lang))}


EDITION_KEYS = "keys.json"  # in editions/: file name -> the key of what it holds


def write_model(folder: Path, model: Model, previous: Path | None = None,
                keys: dict[tuple[str, str], str] | None = None) -> None:
    """The model as marshal (tuple keys stay tuples; marshal loads ~5x faster than pickle): the current
    editions' rows in model.marshal, each older edition's in editions/<lang>_<edition>.marshal.
    ``keys``: (lang, edition) -> a digest of everything that edition's blocks are made from (the
    build's); an older edition's file whose key the ``previous`` snapshot recorded for the same
    file is hard-linked from it instead of written again (an add changes no older edition's rows)."""
    keys = keys or {}
    before = _edition_keys(previous) if previous else {}
    kept = _kept(model)
    data = {f.name: getattr(model, f.name) for f in dataclasses.fields(model) if f.name not in PER_EDITION}
    for name in LAZY:
        data[name] = PartedBlock.split(data[name])
    tables = {name: getattr(model, name).blocks() for name in PER_EDITION}
    older: list[tuple[str, str]] = []
    for name, blocks in tables.items():
        data[name] = {k: v for k, v in blocks.items() if k in kept}
        older.extend(k for k in blocks if k not in kept and k not in older)
    (folder / EDITIONS_DIR).mkdir(exist_ok=True)
    written = {}
    for lang, edition in older:  # one file's bytes at a time: their sum is ~250 MB with every edition
        name, key = f"{lang}_{edition}.marshal", keys.get((lang, edition))
        key = f"{FORMAT_VERSION}:{key}" if key is not None else None  # a file of another format is never reused
        if key is not None:
            written[name] = key
            if before.get(name) == key:
                try:
                    os.link(previous / EDITIONS_DIR / name, folder / EDITIONS_DIR / name)
                    continue
                except OSError:
                    pass  # gone or another file system: written below
        fields = {table: (PartedBlock.split(blocks[(lang, edition)]) if table in PARTED
                          else marshal.dumps(dict(blocks[(lang, edition)])))
                  for table, blocks in tables.items() if (lang, edition) in blocks}
        (folder / EDITIONS_DIR / name).write_bytes(marshal.dumps(fields))
    (folder / EDITIONS_DIR / EDITION_KEYS).write_text(json.dumps(written, indent=0), encoding="utf-8")
    data["_older"] = sorted(older)
    (folder / MODEL).write_bytes(marshal.dumps(data))


def _edition_keys(snapshot: Path) -> dict[str, str]:
    try:
        found = json.loads((snapshot / EDITIONS_DIR / EDITION_KEYS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


class _EditionFiles:
    """Older editions' blocks, each file read once, on the first use of any of its tables; a table
    is decoded when it is asked for (a rule's history reads no glossary of older editions)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._read: dict[tuple[str, str], dict] = {}

    def block(self, lang: str, edition: str, name: str) -> dict:
        fields = self._read.get((lang, edition))
        if fields is None:
            file = f"{EDITIONS_DIR}/{lang}_{edition}.marshal"
            fields = self._read[(lang, edition)] = read_part(
                self.folder, file, lambda: marshal.loads((self.folder / file).read_bytes()))
        found = fields.pop(name, None)  # each table is asked for once (EditionTable); its bytes are not kept
        if name in PARTED:
            return PartedBlock(found or {})
        return marshal.loads(found) if found is not None else {}


def meta(model: Model, sources, warnings, seconds: float) -> dict:
    return {"format": FORMAT_VERSION, "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seconds": round(seconds, 2),
            "sources": [{"id": s.document.id, "path": s.document.path, "sha256": s.document.sha256,
                         "format": s.format} for s in sources.files],
            "editions": sorted(model.editions), "rules": len(model.rules),
            "warnings": [{"file": f, "line": line, "message": m} for f, line, m in warnings],
            "rulings": len(model.rulings) + len(model.quotes), "mechanics": len(model.mechanics),
            "cards": len(model.cards)}


LOCK, IN_USE, POINTER = ".build.lock", ".in-use", "CURRENT"
SNAP_NAME = re.compile(r"snap-\d{8}T\d{6}-\d{6}")


class BuildLocked(SnapshotError):
    """Another build holds the lock (``wait=False``)."""


class CurrentUnreadable(SnapshotError):
    """CURRENT exists but does not name a complete snapshot (empty, damaged, unreadable, dangling)."""


# ---------------------------------------------------------------- one build at a time


@contextlib.contextmanager
def build_lock(root: Path, wait: bool = True, on_wait: Callable[[str], None] = lambda _: None):
    """Hold the root's build lock (``flock``: released by the kernel if the build dies). A second
    build waits (saying so through ``on_wait``) or, with ``wait=False``, raises BuildLocked. While
    the lock is held no other build runs, so any ``.tmp-*`` folder is a killed build's: removed."""
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            message = f"another build (pid {holder}) is writing {root}"
            if not wait:
                raise BuildLocked(message + "; run this one when it has finished") from None
            on_wait(message + "; waiting for it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        for stale in root.glob(".tmp-*"):
            shutil.rmtree(stale, ignore_errors=True)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def writing(root: Path):
    """A temporary folder for a new snapshot (call under ``build_lock``), removed if anything fails
    before ``commit``."""
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / f".tmp-{os.getpid()}-{time.time_ns()}"
    tmp.mkdir()
    (tmp / IN_USE).touch()
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _fsync(path: Path, directory: bool = False) -> None:
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_tree(folder: Path) -> None:
    for dirpath, _, filenames in os.walk(folder):
        for name in filenames:
            _fsync(Path(dirpath) / name)
        _fsync(Path(dirpath), directory=True)


def commit(tmp: Path, root: Path, info: dict) -> Path:
    """Make the finished folder durable, rename it into place and switch CURRENT to it: every file
    and folder is fsynced before the rename, CURRENT's new content before the swap and the root
    after it, so a crash at any point leaves CURRENT naming a complete snapshot. Then prune."""
    (tmp / META).write_text(json.dumps(info, ensure_ascii=False, indent=1), encoding="utf-8")
    _fsync_tree(tmp)
    try:
        previous = current(root)
    except CurrentUnreadable:
        previous = None
    final = root / _later_name(previous.name if previous else "")
    tmp.rename(final)
    _fsync(root, directory=True)
    pointer = root / (POINTER + ".tmp")
    with open(pointer, "w", encoding="utf-8") as out:
        out.write(final.name)
        out.flush()
        os.fsync(out.fileno())
    os.replace(pointer, root / POINTER)
    _fsync(root, directory=True)
    if previous is not None:  # with no CURRENT to say which came before, every snapshot there is kept
        prune(root, keep={final.name, previous.name})
    return final


def _later_name(after: str) -> str:
    """``snap-<UTC time>-<microseconds>`` from one clock reading, so names sort in the order builds
    committed (two builds in one second included), and always after ``after``, the current one
    (one microsecond after it if the clock reads earlier)."""
    now = time.time_ns() // 1000
    if SNAP_NAME.fullmatch(after):
        stamp, micro = after[len("snap-"):].split("-")
        now = max(now, calendar.timegm(time.strptime(stamp, "%Y%m%dT%H%M%S")) * 10**6 + int(micro) + 1)
    return f"snap-{time.strftime('%Y%m%dT%H%M%S', time.gmtime(now // 10**6))}-{now % 10**6:06d}"


def prune(root: Path, keep: set[str]) -> list[str]:
    """Remove every snapshot but ``keep`` (the current one and the one before it) that no process
    holds (``hold``): a complete snapshot a killed build never switched to goes too. Returns the
    names removed."""
    removed = []
    for old in sorted(p for p in root.glob("snap-*") if p.is_dir()):
        if old.name in keep:
            continue
        fd = _try_exclusive(old)
        if fd is None:  # a running server (or a kb command) still reads it
            continue
        try:
            shutil.rmtree(old, ignore_errors=True)
            removed.append(old.name)
        finally:
            os.close(fd)
    return removed


def _try_exclusive(folder: Path) -> int | None:
    try:
        fd = os.open(folder / IN_USE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def hold(path: Path) -> int:
    """Mark the snapshot as in use by this process until the returned descriptor is closed (or the
    process ends): ``prune`` never removes it meanwhile. Forked children share the hold."""
    try:
        fd = os.open(path / IN_USE, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)  # a read-only copy: nobody prunes it either
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise SnapshotError(f"{path.name} is being removed by a build; load the current snapshot") from None
    return fd


# ---------------------------------------------------------------- which snapshot is current


def current(root: Path | None = None) -> Path | None:
    """The snapshot CURRENT names; None when there is no CURRENT yet. A CURRENT that cannot be read,
    is empty or damaged, or names a folder that is not there raises CurrentUnreadable with what to do."""
    root = root or config.snapshot_root()
    pointer = root / POINTER
    try:
        raw = pointer.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CurrentUnreadable(f"{pointer} cannot be read ({exc.strerror}); fix it or run `kb build`") from None
    name = raw.decode("utf-8", "replace").strip()
    if not SNAP_NAME.fullmatch(name):
        shown = repr(name[:40]) if name else "nothing"
        raise CurrentUnreadable(f"{pointer} does not name a snapshot (it holds {shown}); "
                                "run `kb build` to write a new one")
    path = root / name
    if not (path / META).is_file():
        raise CurrentUnreadable(f"{pointer} names {name}, which is not a complete snapshot in {root}; "
                                "run `kb build` to write a new one")
    return path


def complete_snapshots(root: Path) -> list[Path]:
    """Every finished snapshot folder under ``root`` (with its meta.json), oldest first, whatever CURRENT says."""
    return sorted(p for p in root.glob("snap-*") if SNAP_NAME.fullmatch(p.name) and (p / META).is_file())


def current_editions(root: Path) -> list[str] | None:
    """The CR editions ("en/2026-04-17") of the current snapshot, from its meta.json; None if none is readable."""
    try:
        path = current(root)
    except CurrentUnreadable:
        return None
    if path is None:
        return None
    try:
        return list(json.loads((path / META).read_text(encoding="utf-8")).get("editions", []))
    except (OSError, ValueError):
        return None


def load_model(path: Path) -> Model:
    try:
        written = json.loads((path / META).read_text(encoding="utf-8")).get("format")
    except (OSError, ValueError):
        written = None
    if written != FORMAT_VERSION:
        raise SnapshotError(f"{path.name} was written by another version of kb (format {written}, "
                            f"this is {FORMAT_VERSION}): run `kb build` again")
    data = read_part(path, MODEL, lambda: marshal.loads((path / MODEL).read_bytes()))
    if not isinstance(data, dict):
        raise SnapshotDamaged(f"snapshot {path.name}: {MODEL} is damaged (not the lookup rows); run `kb build`")
    older = [tuple(k) for k in data.pop("_older", [])]
    for name in LAZY:
        data[name] = PartedBlock(data[name])
    files = _EditionFiles(path)
    for name in PER_EDITION:
        pending = {key: (lambda key=key, name=name: files.block(key[0], key[1], name)) for key in older}
        data[name] = EditionTable(data[name], pending)
    return Model(**data)


def open_store(path: Path) -> ox.Store:
    """Read-only: any number of worker processes can open the same snapshot."""
    return read_part(path, STORE + "/", lambda: ox.Store.read_only(str(path / STORE)))


DAMAGE = (OSError, EOFError, ValueError, TypeError, KeyError, IndexError)  # what a cut or missing file raises


def read_part(path: Path, name: str, read: Callable):
    """``read()`` of one file of the snapshot at ``path``: a file missing, cut short or of other
    bytes (marshal, the search index, Oxigraph) raises SnapshotDamaged (503 / CLI one line) naming the
    snapshot and the file, never the absolute path, instead of the reader's own error."""
    try:
        return read()
    except KBError:
        raise
    except DAMAGE as exc:
        what = "missing" if isinstance(exc, FileNotFoundError) else \
            f"damaged ({type(exc).__name__}: {str(exc).replace(str(path), '').strip()[:120]})"
        raise SnapshotDamaged(f"snapshot {path.name}: {name} is {what}; run `kb build` to write a new one") from None
