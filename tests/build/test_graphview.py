"""The NetworkX view: read from the RDF graph at build time, walked by the reasoning engine, used for
pictures and `kb path`."""
from __future__ import annotations

import json

import networkx as nx
from click.testing import CliRunner

from kb.cli import main
from kb.reasoning.engine import reachable, registered
from kb.vocab import mechanic_iri, rule_iri


def test_the_view_holds_what_the_rdf_says(full_kb):
    view = full_kb.graph_view()
    today = full_kb.current_edition()
    rule = str(rule_iri("en", today, "601.2c"))
    parents = [t for _, t, k in view.graph.out_edges(rule, keys=True) if k == "parent"]
    assert parents == [str(rule_iri("en", today, "601.2"))]
    rows = full_kb.store.query(f"ASK {{ <{rule}> <https://w3id.org/mtg-kb/vocab#parentRule> <{parents[0]}> }}")
    assert bool(rows)
    manifest = str(mechanic_iri("manifest"))
    defined = {view.node(t)["number"] for _, t, k in view.graph.out_edges(manifest, keys=True) if k == "defined-by"}
    assert "701.40" in defined
    kinds = view.stats()["edge_kinds"]
    assert {"parent", "references", "defined-by", "related", "cites", "decided-by", "lineage"} <= set(kinds)


def test_reasoning_reachability_walks_the_view(full_kb):
    book = full_kb.rulebook()
    graph = book.rule_graph()
    assert isinstance(graph, nx.DiGraph) and graph.has_edge("601.2", "601.2c")
    assert graph["601.2"]["601.2c"]["cost"] == 0 and graph["601.2c"]["601.2"]["cost"] == 1
    reach = reachable(book, registered("manifest"))
    assert {"701.40", "701.40b", "708.2a"} <= reach
    # what the view does not link is not reachable: cut every edge into 701.40b and it is gone
    from kb.reasoning.reach import reachable_rules

    class Cut:
        edition = book.edition

        def rule_graph(self):
            cut = nx.DiGraph(graph)
            cut.remove_edges_from(list(cut.in_edges("701.40b")))
            return cut

        def rule(self, number):
            return book.rule(number)
    assert "701.40b" not in reachable_rules(Cut(), ["701.40", "708"])
    assert "701.40b" in reachable_rules(book, ["701.40", "708"])


def test_kb_path_connects_two_rules_with_cited_edges(full_home, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(full_home))
    result = CliRunner().invoke(main, ["path", "712.8e", "702.145b", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["found"] and answer["from"]["number"] == "712.8e"
    for path in answer["paths"]:
        assert path[0]["from"] == answer["from"]["id"] and path[-1]["to"] == answer["to"]["id"]
        for a, b in zip(path, path[1:]):
            assert a["to"] == b["from"]
        assert all(step["edge"] and step["evidence"] for step in path)  # every edge says where it comes from
    text = CliRunner().invoke(main, ["path", "予示", "翻弄する魔道士"]).output
    assert "has-mechanic" in text and "Meddling Mage" in text


def test_path_between_unknown_names_is_not_found(full_kb):
    import pytest
    from kb.errors import NotFound
    with pytest.raises(NotFound):
        full_kb.paths_between("601.2c", "no such thing at all")
