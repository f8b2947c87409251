"""Graph lookups over the NetworkX view: the neighbourhood pictured on rule and mechanic pages,
and how two rules, mechanics or cards connect (`kb path`). Part of kb.lookup.KB."""
from __future__ import annotations

from kb import rulenumbers
from kb.errors import InvalidParameter, MissingParameter, NotFound
from kb.store.names import card_key, mechanic_keys

# Edge types worth picturing, most telling first (a picture has room for a few of each).
MAX_PATHS = 20  # shortest paths asked for at once (kb path --limit)
PICTURE_EDGES = ("defined-by", "parent", "references", "related", "has-mechanic", "lineage", "decided-by",
                 "cites", "about")


class GraphLookups:
    def node_id(self, kind: str, key: str, edition: str | None = None, lang: str = "en") -> str:
        """The graph node (its IRI) of a rule, mechanic, card, ruling or document."""
        from kb import vocab  # here, not at the top: rdflib is a tenth of a second `kb rule` need not pay
        if kind == "rule":
            return str(vocab.rule_iri(lang, edition or self.edition(None, lang), key))
        if kind == "mechanic":
            return str(vocab.mechanic_iri(key))
        if kind == "card":
            return str(vocab.card_iri(key))
        if kind == "document":
            return str(vocab.document_iri(key))
        statement = self.statement(key)
        kind = "quote" if statement and statement["kind"] == "quoted-rule" else "ruling"
        return str(vocab.node_iri(key.split("#", 1)[0], kind, key.split("#", 1)[-1]))

    def resolve_node(self, text: str) -> tuple[str, dict]:
        """A rule number (today's), a mechanic name or a card name -> (node id, summary)."""
        if not text or not text.strip():
            raise MissingParameter("a rule number, mechanic or card name is required")
        number = rulenumbers.parse(text)
        current = self.model.current("en")
        if number and current and ("en", current, number) in self.model.rules:
            return self.node_id("rule", number, current), {"kind": "rule", "number": number, "edition": current}
        keys = mechanic_keys(self.model, text)
        if keys:
            m = self.model.mechanics[keys[0]]
            return self.node_id("mechanic", m["key"]), {"kind": "mechanic", "key": m["key"], "name_en": m["name_en"],
                                                        "name_ja": m["name_ja"]}
        card = card_key(self.model, text)
        if card:
            c = self.model.cards[card]
            return self.node_id("card", card), {"kind": "card", "key": card, "name_en": c["name_en"],
                                                "name_ja": c["name_ja"]}
        raise NotFound(f"{text!r} is neither a rule of the current edition, a mechanic nor a card")

    def describe_node(self, node_id: str) -> dict:
        attrs = self.graph_view().node(node_id) or {}
        out = {"id": node_id, "kind": attrs.get("kind"), "label": attrs.get("label"),
               "label_ja": attrs.get("label_ja")}
        if attrs.get("kind") == "rule":
            out |= {"number": attrs["number"], "edition": attrs["edition"], "lang": attrs["lang"]}
            if ("en", attrs["edition"], attrs["number"]) in self.model.rules and attrs["lang"] == "en":
                out["citation"] = self.rule_citation(("en", attrs["edition"], attrs["number"]))
        elif attrs.get("locator"):
            out["locator"] = attrs["locator"]
        return out

    def neighbourhood(self, node_id: str, limit: int = 30) -> dict:
        """The node's direct neighbours through the typed edges worth picturing, one node each."""
        around = self.graph_view().neighbourhood(node_id, kinds=PICTURE_EDGES, limit=limit)
        return {"centre": self.describe_node(node_id),
                "nodes": [self.describe_node(n) | {"edge": kind, "direction": way} for n, kind, way in around]}

    def paths_between(self, source: str, target: str, limit: int = 3) -> dict:
        """Shortest typed paths between two rules, mechanics or cards; every edge with its evidence."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PATHS:
            raise InvalidParameter(f"limit={limit!r}: expected 1..{MAX_PATHS} paths")
        a, a_info = self.resolve_node(source)
        b, b_info = self.resolve_node(target)
        paths = self.graph_view().paths(a, b, limit=limit)
        nodes = {n for p in paths for step in p for n in (step["from"], step["to"])}
        described = {n: self.describe_node(n) for n in nodes}
        citations = [d["citation"] for d in described.values() if d.get("citation")]
        return {"from": a_info | {"id": a}, "to": b_info | {"id": b}, "paths": paths, "nodes": described,
                "found": bool(paths), "citations": citations,
                "note": None if paths else "no path of at most 6 typed edges between them in the current editions"}
