"""The NetworkX view of the knowledge graph: what traversal, pictures and path finding walk.

A ``networkx.MultiDiGraph`` whose nodes are the RDF graph's IRIs (rules of the current editions,
glossary terms, mechanics, cards, documents, rulings and quotes, and the older rules documents
cite) and whose edges are typed (the edge key): ``parent``, ``references``, ``translation-of``,
``lineage``, ``cites``, ``decided-by``, ``defined-by``, ``related``, ``has-mechanic``, ``about``,
``mentions``, ``in-document``. It is read from the RDF graph at build time (kb.graphview.extract),
stored in the snapshot as plain data and built once per process, on first use.
"""
from __future__ import annotations

import itertools
import marshal
from pathlib import Path

import networkx as nx

from kb.reasoning.reach import rule_graph as cost_graph

FILE = "graph.marshal"
HUB_COST = 4  # a path through a section, a chapter or a document
WEAK_COST = {"has-mechanic": 2, "mentions": 2}  # a card only named in rulings about a mechanic
# Edges a path may follow, and the words a user reads for each (JA, EN).
EDGE_WORDS = {
    "parent": ("親ルール", "part of"), "references": ("参照", "refers to"), "translation-of": ("和訳", "translation of"),
    "lineage": ("旧版から", "became"), "cites": ("引用", "cites"), "decided-by": ("裁定の根拠", "decided by"),
    "defined-by": ("定義", "defined by"), "related": ("関連", "related to"), "has-mechanic": ("メカニズム", "has mechanic"),
    "about": ("話題", "about"), "mentions": ("カード", "mentions"), "in-document": ("出典", "in document"),
    "uses-mechanic": ("能力・処理", "uses"), "uses-rule": ("使うルール", "uses rule"),
    "ruling-on": ("公式裁定", "ruling on"), "melds": ("合体", "melds with"),
}


class GraphView:
    def __init__(self, data: dict):
        self.current: dict[str, str] = data["current"]
        self._nodes: dict[str, dict] = data["nodes"]
        self._edges: list = data["edges"]
        self._graph: nx.MultiDiGraph | None = None
        self._undirected: nx.Graph | None = None

    # ------------------------------------------------------------ storage

    @classmethod
    def load(cls, snapshot: Path) -> "GraphView":
        return cls(marshal.loads((snapshot / FILE).read_bytes()))

    def dumps(self) -> bytes:
        return marshal.dumps({"current": self.current, "nodes": self._nodes,
                              "edges": [tuple(e) for e in self._edges]})

    def add_edges(self, edges) -> None:
        """More edges (the build adds the reasoning engine's decided-by links after the first read)."""
        self._edges.extend(e for e in edges if e[0] in self._nodes and e[1] in self._nodes)
        self._graph = self._undirected = None

    # ------------------------------------------------------------ the NetworkX graph

    @property
    def graph(self) -> nx.MultiDiGraph:
        if self._graph is None:
            graph = nx.MultiDiGraph()
            graph.add_nodes_from(self._nodes.items())
            for source, target, kind, attrs in self._edges:
                graph.add_edge(source, target, key=kind, **attrs)
            self._graph = graph
        return self._graph

    def node(self, node_id: str) -> dict | None:
        return self._nodes.get(node_id)

    def rule_graph(self, edition: str) -> nx.DiGraph:
        """The rules of one edition with the costs the reasoning engine walks (kb.reasoning.reach)."""
        graph = self.graph
        rules = [n for n, a in graph.nodes(data=True) if a.get("kind") == "rule" and a.get("edition") == edition
                 and a.get("lang") == "en"]

        def links(node):
            parent = next((graph.nodes[t]["number"] for _, t, k in graph.out_edges(node, keys=True) if k == "parent"), None)
            refs = [graph.nodes[t]["number"] for _, t, k in graph.out_edges(node, keys=True) if k == "references"
                    and graph.nodes[t].get("edition") == edition]
            return graph.nodes[node]["number"], parent, refs
        return cost_graph(links(n) for n in rules)

    # ------------------------------------------------------------ neighbourhoods and paths

    def neighbourhood(self, node_id: str, kinds: tuple[str, ...] = (), per_kind: int = 8,
                      limit: int = 40) -> list[tuple[str, str, str]]:
        """The node's direct neighbours as (neighbour, edge type, "out" | "in"): edge types in the
        order of ``kinds`` (all types when empty), at most ``per_kind`` of each, one entry per
        neighbour (its first edge in that order)."""
        graph = self.graph
        if node_id not in graph:
            return []
        found: dict[str, tuple[str, str, str]] = {}
        for source, target, kind in list(graph.out_edges(node_id, keys=True)) + list(graph.in_edges(node_id, keys=True)):
            other, way = (target, "out") if source == node_id else (source, "in")
            if other == node_id or (kinds and kind not in kinds):
                continue
            rank = kinds.index(kind) if kinds else 0
            if other not in found or rank < found[other][0]:
                found[other] = (rank, kind, way)
        order = sorted(((rank, kind, way, other) for other, (rank, kind, way) in found.items()))
        taken: dict[str, int] = {}
        out = []
        for _, kind, way, other in order:
            if taken.get(kind, 0) < per_kind:
                taken[kind] = taken.get(kind, 0) + 1
                out.append((other, kind, way))
        return out[:limit]

    def _weighted(self) -> nx.Graph:
        """Edges either way, weighted so that paths say something: through a section or chapter
        (which holds hundreds of rules) or a whole document costs more than a reference."""
        if getattr(self, "_undirected", None) is None:
            graph, undirected = self.graph, nx.Graph()
            for a, b, kind in graph.edges(keys=True):
                if a == b:
                    continue
                hub = kind in ("in-document", "about") or (
                    kind == "parent" and graph.nodes[b].get("rule_kind") in ("section", "chapter"))
                cost = HUB_COST if hub else WEAK_COST.get(kind, 1)
                if not undirected.has_edge(a, b) or undirected[a][b]["cost"] > cost:
                    undirected.add_edge(a, b, cost=cost)
            self._undirected = undirected
        return self._undirected

    def paths(self, source: str, target: str, limit: int = 3, max_length: int = 8) -> list[list[dict]]:
        """Cheapest typed paths between two nodes (edges followed in either direction), each step
        with its edge type, direction and the edge's own evidence (locator, how it was made)."""
        if source not in self.graph or target not in self.graph:
            return []
        try:
            found = list(itertools.islice(nx.all_shortest_paths(self._weighted(), source, target, weight="cost"), limit))
        except nx.NetworkXNoPath:
            return []
        if found and len(found[0]) - 1 > max_length:
            return []
        return [[self._step(a, b) for a, b in zip(path, path[1:])] for path in found]

    def _step(self, a: str, b: str) -> dict:
        graph = self.graph
        forward = graph.get_edge_data(a, b) or {}
        backward = graph.get_edge_data(b, a) or {}
        kind, attrs, direction = next(((k, v, "forward") for k, v in forward.items()), None) or \
            next(((k, v, "backward") for k, v in backward.items()))
        return {"from": a, "to": b, "edge": kind, "direction": direction, "words": EDGE_WORDS.get(kind),
                "evidence": {k: v for k, v in attrs.items() if v is not None}}

    def stats(self) -> dict:
        graph = self.graph
        kinds: dict[str, int] = {}
        for _, _, k in graph.edges(keys=True):
            kinds[k] = kinds.get(k, 0) + 1
        return {"nodes": graph.number_of_nodes(), "edges": graph.number_of_edges(), "edge_kinds": kinds}
