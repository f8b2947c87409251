"""The knowledge-base API: plain Python lookups over a loaded snapshot (no Flask, no SPARQL per call).

``KB`` is assembled from one mixin per kind of lookup (kb.lookup.rules, .diffs, .mechanics, .documents, .graph);
this module holds loading and what they share: the model rows, the lineage object, the graph
view, the search index and the RDF store, each loaded once per process and on first use.
Everything returned is JSON-ready and carries citations (kb.lookup.cite).
"""
from __future__ import annotations

import os
import threading
import weakref
from pathlib import Path

from kb import config
from kb.errors import EditionNotFound, InvalidEdition, InvalidLang, NoEditionLoaded, NoSnapshot
from kb.lookup import cite
from kb.lookup.cards import CardLookups
from kb.lookup.diffs import DiffLookups
from kb.lookup.documents import DocumentLookups
from kb.lookup.graph import GraphLookups
from kb.lookup.mechanics import MechanicLookups
from kb.lookup.outline import OutlineLookups
from kb.lookup.reftext import RefTextLookups
from kb.lookup.rules import RuleLookups
import kb.sources.official as official
import kb.sources.editions as editions
from kb.sources.editions import iso_day
from kb.store import snapshot
from kb.store.lineage import Lineage
from kb.store.rows import Model

LANGS = ("ja", "en")


class KB(RuleLookups, DiffLookups, MechanicLookups, CardLookups, DocumentLookups, GraphLookups, OutlineLookups,
         RefTextLookups):
    def __init__(self, model: Model, path: Path | None = None):
        self.model = model
        self.path = path
        self.lineage = Lineage(model)
        self._lock = threading.RLock()  # re-entrant: a part may be made of other parts (retriever)
        self._loaded: dict[str, object] = {}

    # ------------------------------------------------------------ loading

    @classmethod
    def load(cls, home: Path | None = None) -> "KB":
        root = (Path(home) / "snapshots") if home else config.snapshot_root()
        path = snapshot.current(root)
        if path is None:
            raise NoSnapshot(f"no snapshot in {root}: run `kb build` first")
        hold = snapshot.hold(path)  # no build prunes it while this process has it loaded
        try:
            kb = cls(snapshot.load_model(path), path)
        except BaseException:
            os.close(hold)
            raise
        kb._release = weakref.finalize(kb, os.close, hold)
        return kb

    def close(self) -> None:
        """Let the snapshot go now (a server moving to a new one); the object must not be used after."""
        release = getattr(self, "_release", None)
        if release is not None:
            release()

    @classmethod
    def ensure(cls, settings: config.Settings | None = None, progress=lambda _: None) -> "KB":
        """Load the snapshot, building one from the default sources first if there is none."""
        settings = settings or config.current()
        try:
            return cls.load(settings.home)
        except NoSnapshot:
            from kb.build.pipeline import build
            from kb.sources.files import discover
            build(discover(settings.default_sources(), settings.rules_src), settings.snapshot_root, progress)
            return cls.load(settings.home)

    def _once(self, name: str, make):
        """A part of the snapshot loaded on first use, once per process (thread-safe)."""
        found = self._loaded.get(name)
        if found is None:
            with self._lock:
                found = self._loaded.get(name)
                if found is None:
                    found = self._loaded[name] = make()
        return found

    @property
    def store(self):
        """The Oxigraph store (read-only)."""
        return self._once("store", lambda: snapshot.open_store(self.path))

    @property
    def graph(self):
        """The same store as an rdflib Graph (oxrdflib): rdflib is the API for RDF users."""
        def make():
            from oxrdflib import OxigraphStore
            from rdflib import Graph
            from kb.vocab import PREFIXES
            graph = Graph(store=OxigraphStore(store=self.store))
            for prefix, ns in PREFIXES.items():
                graph.bind(prefix, ns)
            return graph
        return self._once("graph", make)

    @property
    def search_index(self):
        from kb.search.index import SearchIndex
        return self._once("search", lambda: snapshot.read_part(
            self.path, snapshot.SEARCH, lambda: SearchIndex.loads((self.path / snapshot.SEARCH).read_bytes())))

    def dense_index(self):
        """The snapshot's dense rule vectors (kb.search.dense), or None: built without them, or
        the model's package not installed."""
        def make():
            from kb.search import dense
            path = self.path / dense.FILE if self.path else None
            if path is None or not path.exists() or not dense.available():
                return False
            return snapshot.read_part(self.path, dense.FILE, lambda: dense.DenseIndex.loads(path.read_bytes()))
        return self._once("dense", make) or None

    def retriever(self, dense: bool = True):
        """The hybrid rule retriever for questions (kb.search.retrieval): BM25, the cards the
        question names, dense vectors and the CR's links, fused."""
        def make(with_dense: bool):
            from kb.search.cardnames import CardNames
            from kb.search.examples import CRExamples
            from kb.search.retrieval import Retriever, rule_links
            from kb.search.terms import DefinedTerms
            return Retriever(self.search_index, self.dense_index() if with_dense else None,
                             CardNames(self.model), rule_links(self.model),
                             terms=DefinedTerms(self.search_index, self.model),
                             examples=CRExamples.from_model(self.model))
        return self._once(f"retriever-{dense}", lambda: make(dense))

    def graph_view(self):
        """The NetworkX view of the graph (kb.graphview), built from the snapshot's RDF edges."""
        from kb.graphview import GraphView
        return self._once("graph_view", lambda: snapshot.read_part(self.path, snapshot.GRAPH,
                                                                   lambda: GraphView.load(self.path)))

    def rulebook(self):
        """The reasoning engine's view of this KB (kb.store.rulebook.ModelRuleBook)."""
        from kb.store.rulebook import ModelRuleBook
        return self._once("rulebook", lambda: ModelRuleBook(self.model, self.lineage,
                                                            lambda edition: self.graph_view().rule_graph(edition)))

    # ------------------------------------------------------------ editions

    def editions(self) -> list[dict]:
        """Every loaded edition; EN ones say how they stand against the official list
        (``official.status``: official bytes / different / unknown official hash / unlisted)."""
        listed = official.load()
        out = []
        for _, info in sorted(self.model.editions.items(), key=lambda kv: (kv[1]["lang"], kv[1]["edition"])):
            entry = dict(info, citation=cite.document(self.model, info["document"]))
            if info["lang"] == "en":
                found = next((m for d in (info["edition"], info.get("file_date")) if d and (m := listed.find(d))), None)
                status = ("unlisted" if not found else "unknown" if not found.sha256 else
                          "official" if found.sha256 == info.get("sha256") else "different")
                entry["official"] = {"status": status, "url": found.url if found else None,
                                     "sha256": found.sha256 if found else None}
            aligned = self.model.ja_alignment.get(info["edition"]) if info["lang"] == "ja" else None
            if aligned:  # the translation checked against the EN edition it translates (kb.build.japanese)
                entry["alignment"] = {k: v for k, v in aligned.items() if k != "fixes"} | {"reference_fixes": [
                    dict(f, where=where) for where, found in aligned.get("fixes", {}).items() for f in found]}
            out.append(entry)
        return out

    def official_not_loaded(self) -> list[dict]:
        """Official EN editions (kb/sources/official_editions.json) that no loaded edition is."""
        loaded = {d for e in self.model.editions.values() if e["lang"] == "en"
                  for d in (e["edition"], e.get("file_date")) if d}
        return [e.to_dict() for e in official.load().editions if not loaded & set(e.dates())]

    def current_edition(self, lang: str = "en") -> str | None:
        return self.model.current(lang)

    def edition(self, edition: str | None, lang: str = "en") -> str:
        """The edition key meant by ``edition``: its effective date or its file date; the newest
        when None. EditionNotFound lists the loaded editions."""
        if edition is None:
            current = self.model.current(lang) or self.model.current("en")
            if current is None:
                raise NoEditionLoaded("no Comprehensive Rules edition is loaded; run `kb build PATH` with a CR file")
            return current
        try:  # a parameter is ASCII, like every other number a request takes (full-width digits are
            # read only in texts: kb.citations)
            if not edition.isascii():
                raise ValueError(edition)
            value = iso_day(edition)
        except ValueError:
            raise InvalidEdition(f"edition={edition[:40]!r}: expected an effective date YYYY-MM-DD") from None
        # by its effective date, or the date in the official file name ("MagicCompRules
        # 20240206.txt" is effective 2024-02-02): kb.sources.editions, one edition either way
        for wanted in (lang, "en"):
            found = editions.loaded((e["edition"], e.get("file_date")) for e in self.model.editions.values()
                                    if e["lang"] == wanted).key(value)
            if found:
                return found
        loaded = sorted({e["edition"] for e in self.model.editions.values()})
        raise EditionNotFound(f"no edition {value} is loaded", suggestions=loaded)

    @staticmethod
    def check_lang(lang: str | None) -> str | None:
        if lang not in (None, *LANGS):
            raise InvalidLang(f"lang={lang!r}: expected one of {', '.join(LANGS)}")
        return lang
