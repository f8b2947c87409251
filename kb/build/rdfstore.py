"""Writing a snapshot's RDF store from kb.build.rdf's parts, reusing the previous snapshot's store.

The graph is cut into disjoint parts (kb.build.rdf.parts: one per edition, one per consecutive EN
pair's lineage, the rest, and the reasoning engine's ruling links). Each part is named, with a
digest of the model rows it is made from and of the code that writes it, in ``store-parts.json``
beside the store. A build whose previous snapshot has that file starts from a copy of its store
(``Store.backup`` hard-links RocksDB's immutable files: no bytes are copied, the previous snapshot
is only read) and applies the difference: a part with the same digest is kept as it is, a new one is
loaded, and the rest and the ruling links (which every new current edition changes) change by the
N-Triples lines that differ from the previous build's, kept in the build cache. The result holds
exactly the triples a write from scratch would (tests compare the two). A part that is gone or
changed, other than those, means a write from scratch (an edition replaced or removed: rare), and
so does anything missing from the cache.
"""
from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox

from kb.build.cache import BuildCache, code_digest
from kb.build.rdf import Triple, lineage_rows, part_rows, parts, ruling_link_triples
from kb.store.rows import Model

PARTS = "store-parts.json"
LINES = "nt"  # the build cache's kind for the N-Triples kept to diff against
# Parts rewritten by the lines that differ when they change (the cards: kept whole while their rows
# are the same); the others are kept or loaded whole.
DELTA = ("cards", "rest", "ruling-links")
CHUNK = 100_000


def lines(source: Iterable[Triple]) -> Iterator[str]:
    """Triples as N-Triples lines: one line per triple, always spelt the same way."""
    named: dict[str, str] = {}
    for s, p, o in source:
        out = []
        for value in (s, p, o):
            if isinstance(value, (ox.Literal, ox.BlankNode, ox.NamedNode)):
                out.append(str(value))
            else:
                text = named.get(value)
                if text is None:
                    text = named[value] = str(ox.NamedNode(str(value)))  # validated and escaped by pyoxigraph
                out.append(text)
        yield f"{out[0]} {out[1]} {out[2]} .\n"


def _chunks(source: Iterable[str]) -> Iterator[bytes]:
    """``Store.bulk_load`` parses N-Triples in Rust, several times faster than building Quads here;
    it buffers each call, so 100k lines at a time keep the build's peak ~250 MB above the model."""
    batch: list[str] = []
    for line in source:
        batch.append(line)
        if len(batch) >= CHUNK:
            yield "".join(batch).encode("utf-8")
            batch = []
    if batch:
        yield "".join(batch).encode("utf-8")


def _load(store: ox.Store, source: Iterable[str]) -> None:
    for chunk in _chunks(source):
        store.bulk_load(chunk, format=ox.RdfFormat.N_TRIPLES, lenient=True)  # IRIs validated as written


def _remove(store: ox.Store, source: Iterable[str]) -> None:
    for chunk in _chunks(source):
        for quad in ox.parse(chunk, format=ox.RdfFormat.N_TRIPLES, lenient=True):
            store.remove(quad)


def _digest(name: tuple[str, ...], rows: object) -> str:
    code = code_digest("build/rdf.py", "build/rdf_cards.py", "build/rdfstore.py", "vocab")
    # version 0: no references to shared objects, so equal rows always give the same bytes
    return hashlib.sha256(repr((code, name)).encode() + marshal.dumps(rows, 0)).hexdigest()[:32]


def _edition_digest(model: Model, name: tuple[str, ...], rows_key: str) -> str:
    """An edition's part keyed by what it is written from without reading its rows: the edition
    row's written fields and the key its rules and glossary rows are cached under (a digest of
    the edition's files and of the code that makes the rows: kb.build.model)."""
    row = model.editions[f"{name[1]}/{name[2]}"]
    info = [row[k] for k in ("edition", "effective", "lang", "title", "complete", "document")]
    return _digest(name, ["rows-key", info, rows_key])


def _label(name: tuple[str, ...]) -> str:
    return "/".join(name)


def previous_parts(snapshot: Path | None) -> dict | None:
    """The parts the snapshot's store holds (None when it did not record them)."""
    if snapshot is None:
        return None
    try:
        return json.loads((snapshot / PARTS).read_text(encoding="utf-8"))["parts"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


@dataclass
class StoreWriter:
    """One build's store: ``write`` (the graph without ruling links, as the graph view reads it),
    then ``add_ruling_links`` once the reasoning engine has linked rulings, then ``finish``."""

    folder: Path
    model: Model
    cache: BuildCache
    previous: Path | None = None
    progress: Callable[[str], None] = lambda _: None
    parts: dict[str, dict] = field(default_factory=dict)  # label -> {"key", "triples"}
    reused: int = 0
    written: int = 0
    incremental: bool = False
    store: ox.Store | None = None
    row_keys: dict[tuple[str, str], str] = field(default_factory=dict)  # kb.build.model's, if known
    _loader: ThreadPoolExecutor | None = None
    _loading: Future | None = None

    def _key(self, name: tuple[str, ...], links: dict[str, list]) -> str | None:
        if name[0] == "edition" and (name[1], name[2]) in self.row_keys:
            return _edition_digest(self.model, name, self.row_keys[(name[1], name[2])])
        if name[0] == "lineage":  # part_rows' rows, without a pass over every link per pair
            return _digest(name, links.get(name[1], []))
        rows = part_rows(self.model, name)
        return None if rows is None else _digest(name, rows)

    def write(self) -> ox.Store:
        named = {_label(name): (name, make) for name, make in parts(self.model)}
        links = lineage_rows(self.model)
        keys = {label: key for label, (name, _) in named.items() if (key := self._key(name, links)) is not None}
        before = previous_parts(self.previous)
        plan = self._plan(before, keys)
        path = str(self.folder / "store")
        if plan is None:
            self.progress("write RDF store")
            self.store = ox.Store(path)
            for label, (_, make) in named.items():
                self._add(label, keys.get(label), list(lines(make())))
            self.settle()
            return self.store
        removed, added = plan
        self.incremental = True
        self.progress(f"write RDF store: {len(keys) - len(added)} of {len(keys)} parts kept from "
                      f"{self.previous.name}")
        ox.Store.read_only(str(self.previous / "store")).backup(path)
        self.store = ox.Store(path)
        for label in removed:  # only lineage pairs (an edition put between two): kept in the cache
            _remove(self.store, self._kept_lines(before[label]["key"]))
        for label, (name, make) in named.items():
            if label in added:
                self._add(label, keys[label], list(lines(make())))
            elif label in DELTA and (label not in keys or keys[label] != before[label]["key"]):
                self._delta(label, before[label]["key"], list(lines(make())), keys.get(label))
            else:
                self.parts[label] = before[label]
                self.reused += 1
        self.settle()
        _remove(self.store, self._kept_lines(before["ruling-links"]["key"]))  # added again once computed
        return self.store

    def _plan(self, before: dict | None, keys: dict[str, str]) -> tuple[list[str], set[str]] | None:
        """(parts to remove, parts to load) from the previous store, or None: write from scratch."""
        if not before or any(label not in before for label in DELTA):
            return None
        removed = [label for label, info in before.items() if label not in DELTA and keys.get(label) != info["key"]]
        if any(not label.startswith("lineage/") for label in removed):
            return None  # an edition gone or changed: its triples are not kept anywhere
        added = {label for label, key in keys.items()
                 if label not in DELTA and before.get(label, {}).get("key") != key}
        needed = [before[label]["key"] for label in [*removed, *DELTA]]
        if any(self.cache.read_bytes(LINES, key) is None for key in needed) or len(added) > len(keys) // 2:
            return None
        return removed, added

    def _kept_lines(self, key: str) -> list[str]:
        data = self.cache.read_bytes(LINES, key)
        return data.decode("utf-8").splitlines(keepends=True) if data else []

    def _add(self, label: str, key: str | None, new: list[str]) -> None:
        self._load_behind(new)
        self._record(label, key, new)
        self.written += 1

    def _load_behind(self, new: list[str]) -> None:
        """Load ``new`` in the loader thread while this one makes the next part's lines: pyoxigraph
        releases the GIL while it loads, so with two cores the load (a third of a cold build's CPU)
        costs little wall time. One part at a time is in flight; ``settle`` waits for it."""
        self.settle()
        if self._loader is None:
            self._loader = ThreadPoolExecutor(1, thread_name_prefix="store-load")
        self._loading = self._loader.submit(_load, self.store, new)

    def settle(self) -> None:
        """Wait for the part being loaded (raising what its load raised)."""
        loading, self._loading = self._loading, None
        if loading is not None:
            loading.result()

    def _delta(self, label: str, old_key: str, new: list[str], key: str | None = None) -> None:
        self.settle()
        old = set(self._kept_lines(old_key))
        fresh = set(new)
        _remove(self.store, sorted(old - fresh))
        _load(self.store, sorted(fresh - old))
        self._record(label, key, new)

    def _record(self, label: str, key: str | None, new: list[str]) -> None:
        kept = label in DELTA or label.startswith("lineage/")
        text = "".join(new).encode("utf-8") if kept or key is None else b""  # an edition's lines are not kept
        if key is None:  # a part no rows name: it is keyed by its lines, which the next build diffs against
            key = hashlib.sha256(text).hexdigest()[:32]
        if kept:
            self.cache.write_bytes(LINES, key, text)
        self.parts[label] = {"key": key, "triples": len(new)}

    def add_ruling_links(self) -> None:
        new = list(lines(ruling_link_triples(self.model)))
        _load(self.store, new)
        self._record("ruling-links", None, new)

    def finish(self) -> dict:
        """Flush (and compact a store written from scratch), write ``store-parts.json``; the figures
        for meta.json."""
        self.settle()
        if self._loader is not None:
            self._loader.shutdown()
        self.store.flush()
        if not self.incremental:
            self.store.optimize()
        self.store = None
        (self.folder / PARTS).write_text(json.dumps({"format": 1, "parts": self.parts}, indent=1), encoding="utf-8")
        keep = {info["key"] for info in self.parts.values()}
        keep |= {info["key"] for info in (previous_parts(self.previous) or {}).values()}
        self.cache.prune(LINES, keep)
        return {"incremental": self.incremental, "parts_kept": self.reused, "parts_written": self.written,
                "from": self.previous.name if self.incremental else None}
