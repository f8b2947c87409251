"""The reasoning engine's view of a loaded model: kb.reasoning.rulebook.RuleBook over the rows.

A question type ("day-night") is matched to the graph's mechanics by the rules it starts from and
by its name, so its rules, related mechanics and rulings come from the graph. The rule graph the
engine walks is the NetworkX view's (kb.graphview), handed in as a factory so that the build, which
has just written the RDF, and a loaded KB use the same one.
"""
from __future__ import annotations

import re
from typing import Callable

from kb.reasoning.catalog import list_mechanics
from kb.reasoning.rulebook import MechanicView, RuleText, RulingView
from kb.store.lineage import Lineage
from kb.store.names import card_key, mechanic_keys
from kb.store.rows import Model


class ModelRuleBook:
    def __init__(self, model: Model, lineage: Lineage, rule_graph: Callable[[str], object]):
        self.model = model
        self.lineage = lineage
        self.edition = model.current("en")
        self._rule_graph = rule_graph
        self._graph = None
        self._rule_cache: dict[str, RuleText | None] = {}
        self._graph_keys: dict[str, list[str]] = {}
        for m in list_mechanics():
            keys = [k for k, g in model.mechanics.items() if g["rules"] and g["rules"][0] in m["entry_rules"]]
            keys += mechanic_keys(model, m["name_en"])[:1] if m["name_en"] else []
            self._graph_keys[m["key"]] = list(dict.fromkeys(keys))
        self._reasoning_of = {g: r for r, gs in self._graph_keys.items() for g in gs}
        self._uses = self._keyword_uses()

    def graph_keys(self, question_key: str) -> list[str]:
        """The graph mechanics a question type covers ("day-night" -> "day-and-night", "daybound…")."""
        return list(self._graph_keys.get(question_key, []))

    def reasoning_key(self, graph_key: str) -> str | None:
        """The question type that covers a graph mechanic, if any."""
        return self._reasoning_of.get(graph_key)

    def _keyword_uses(self) -> dict[str, set[str]]:
        """Question types whose keyword the mechanic's defining rules use as a word.

        CR 701.1/702.1: keyword actions and abilities are game terms, so "if its left half was
        cast as a spell" (709.5d) invokes the keyword action Cast (701.5) as surely as a
        "See rule 601" would. The graph's related links come from "See rule" citations only;
        this adds the uses, read from the same rule texts.
        """
        model = self.model
        words: dict[str, re.Pattern] = {}
        for key, graph_keys in self._graph_keys.items():
            names = [n for g in graph_keys if model.mechanics[g]["kind"] in ("keyword-action", "keyword-ability")
                     for n in [model.mechanics[g]["name_en"], *model.mechanics[g]["aliases_en"]]
                     if n and " " not in n]
            if names:
                words[key] = re.compile(r"\b(?:" + "|".join(re.escape(n.lower()) for n in names) + r")(?:s|ed|ing)?\b")
        uses: dict[str, set[str]] = {}
        for key, graph_keys in self._graph_keys.items():
            stack = list(dict.fromkeys(n for g in graph_keys for n in model.mechanics[g]["rules"]))
            seen: set[str] = set()
            while stack:
                number = stack.pop()
                if number in seen:
                    continue
                seen.add(number)
                stack.extend(model.children.get(("en", self.edition, number), []))
            texts = [model.rules[("en", self.edition, n)]["text"].lower() for n in seen
                     if ("en", self.edition, n) in model.rules]
            uses[key] = {other for other, word in words.items()
                         if other != key and any(word.search(t) for t in texts)}
        return uses

    def rule(self, number: str) -> RuleText | None:
        if number in self._rule_cache:
            return self._rule_cache[number]
        key = ("en", self.edition, number)
        rule = self.model.rules.get(key)
        found = None
        if rule is not None:
            ja_key = self.lineage.ja_for(key)
            ja = self.model.rules.get(ja_key) if ja_key else None
            found = RuleText(number=number, edition=self.edition, text_en=rule["text"],
                             text_ja=ja["text"] if ja else None,
                             title=rule["text"] if rule["kind"] in ("chapter", "section") else None,
                             document=rule["locator"]["document"], locator=rule["locator"]["locator"],
                             references=tuple(rule["refs"]))
        self._rule_cache[number] = found
        return found

    def children(self, number: str) -> list[str]:
        return list(self.model.children.get(("en", self.edition, number), []))

    def rule_graph(self):
        """The current edition's rules and their links, from the graph view (NetworkX)."""
        if self._graph is None:
            self._graph = self._rule_graph(self.edition)
        return self._graph

    def mechanic(self, key: str) -> MechanicView | None:
        graph_keys = self._graph_keys.get(key)
        if not graph_keys:
            return None
        mechanics = [self.model.mechanics[k] for k in graph_keys]
        rules = tuple(dict.fromkeys(n for m in mechanics for n in m["rules"]))
        related = tuple(dict.fromkeys([self._reasoning_of[r] for m in mechanics for r in m["related"]
                                       if r in self._reasoning_of and self._reasoning_of[r] != key]
                                      + sorted(self._uses.get(key, ()))))
        first = mechanics[0]
        return MechanicView(key=key, name_en=first["name_en"], name_ja=first["name_ja"], rules=rules,
                            related=related, aliases=tuple(a for m in mechanics for a in m["aliases_en"] + m["aliases_ja"]))

    def card(self, name: str) -> dict | None:
        """A card of the loaded card data by its JA or EN name: what the model holds of it today
        (names and the documents that list it), for a situation that names a real card."""
        key = card_key(self.model, name)
        if key is None:
            return None
        c = self.model.cards[key]
        return {"key": key, "name_en": c["name_en"], "name_ja": c["name_ja"], "sources": list(c["sources"])}

    def rulings(self, mechanic_key: str) -> list[RulingView]:
        out, seen = [], set()
        for graph_key in self._graph_keys.get(mechanic_key, []):
            for rid in self.model.mechanics[graph_key]["rulings"]:
                if rid in seen:
                    continue
                seen.add(rid)
                r = self.model.statement(rid)
                cited = tuple(res["current"]["number"] for c in r.get("citations", []) for res in c["resolved"]
                              if res.get("current"))
                # A quote is shown as its source wrote it: "601.4 コストを変える…", number first.
                text = f"{r['raw_number']} {r['text']}" if r["kind"] == "quoted-rule" and r.get("raw_number") \
                    else r["text"]
                out.append(RulingView(id=rid, document=r["document"], document_title=r["document_title"],
                                      date=r.get("date"), text=text, locator=r["locator"]["locator"],
                                      kind=r["kind"], cited_rules=cited, mechanics=(mechanic_key,)))
        return out
