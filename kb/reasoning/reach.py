"""Which rules a question may use: those reachable from its defining rules through the rule graph.

The rule graph is the NetworkX view of the CR (``book.rule_graph()``): typed edges from a rule to
its children (free, cost 0), to the rules it references and back from the rules that reference it,
and from a subrule to its rule (cost 1 each). A rule is reachable when its cheapest path from a
defining rule costs at most ``MAX_HOPS``; rules a mechanic's rulings cite start one hop away.
"""
from __future__ import annotations

import networkx as nx

MAX_HOPS = 3  # 731.2 -> 502 -> 503 -> 603


def reachable_rules(book, starts: list[str], cited: list[str] = ()) -> frozenset:
    graph: nx.DiGraph = book.rule_graph()
    found: dict[str, int] = {}
    for offset, sources in ((0, starts), (1, cited)):
        sources = [s for s in dict.fromkeys(sources) if s in graph]
        if not sources or offset > MAX_HOPS:
            continue
        lengths = nx.multi_source_dijkstra_path_length(graph, sources, cutoff=MAX_HOPS - offset, weight="cost")
        for number, cost in lengths.items():
            if cost + offset < found.get(number, MAX_HOPS + 1):
                found[number] = cost + offset
    return frozenset(n for n in found if book.rule(n) is not None)


def rule_graph(rules) -> nx.DiGraph:
    """The cost graph over ``rules`` = (number, parent, referenced numbers): a rule to each child
    (cost 0), a subrule to its rule (1; never up to a section: 701 holds every keyword action),
    a rule to each rule it references and back (1)."""
    graph = nx.DiGraph()
    for number, parent, refs in rules:
        graph.add_node(number)
        if parent:
            graph.add_edge(parent, number, kind="child", cost=0)
            if "." in number and number[-1].isalpha():
                graph.add_edge(number, parent, kind="parent", cost=1)
        for ref in refs:
            if ref != number:
                for a, b, kind in ((number, ref, "references"), (ref, number, "referenced-by")):
                    if not graph.has_edge(a, b) or graph[a][b]["cost"] > 1:
                        graph.add_edge(a, b, kind=kind, cost=1)
    return graph
