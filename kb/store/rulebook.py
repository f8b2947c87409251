"""The reasoning engine's view of a loaded KB: kb.reasoning.rulebook.RuleBook over the graph's model."""
from __future__ import annotations

import re

from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from kb.api import KB


class KBRuleBook:
    """The reasoning engine's view of a loaded KB (see kb.reasoning.rulebook.RuleBook).

    A reasoning mechanic ("day-night") is matched to the graph's mechanics by the rules it starts
    from and by its name, so its rules, related mechanics and rulings come from the graph.
    """

    def __init__(self, kb: KB):
        from kb.reasoning.engine import list_mechanics
        self.kb = kb
        self.edition = kb.current_edition("en")
        self._rule_cache: dict[str, object] = {}
        model = kb.model
        self._graph_keys: dict[str, list[str]] = {}
        for m in list_mechanics():
            keys = [k for k, g in model.mechanics.items() if g["rules"] and g["rules"][0] in m["entry_rules"]]
            keys += [x["key"] for x in (kb.find_mechanics(m["name_en"], limit=1, by_question=False) if m["name_en"] else [])]
            self._graph_keys[m["key"]] = list(dict.fromkeys(keys))
        self._reasoning_of = {g: r for r, gs in self._graph_keys.items() for g in gs}
        self._uses = self._keyword_uses()

    def _keyword_uses(self) -> dict[str, set[str]]:
        """Reasoning mechanics whose keyword the mechanic's defining rules use as a word.

        CR 701.1/702.1: keyword actions and abilities are game terms, so "if its left half was
        cast as a spell" (709.5d) invokes the keyword action Cast (701.5) as surely as a
        "See rule 601" would. The graph's related links come from "See rule" citations only;
        this adds the uses, read from the same rule texts.
        """
        model = self.kb.model
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

    def rule(self, number: str):
        from kb.reasoning.rulebook import RuleText
        if number in self._rule_cache:
            return self._rule_cache[number]
        key = ("en", self.edition, number)
        rule = self.kb.model.rules.get(key)
        found = None
        if rule is not None:
            ja_key = self.kb._ja_for(key)
            ja = self.kb.model.rules.get(ja_key) if ja_key else None
            found = RuleText(number=number, edition=self.edition, text_en=rule["text"],
                             text_ja=ja["text"] if ja else None,
                             title=rule["text"] if rule["kind"] in ("chapter", "section") else None,
                             document=rule["locator"]["document"], locator=rule["locator"]["locator"],
                             references=tuple(rule["refs"]))
        self._rule_cache[number] = found
        return found

    def children(self, number: str) -> list[str]:
        return list(self.kb.model.children.get(("en", self.edition, number), []))

    def mechanic(self, key: str):
        from kb.reasoning.rulebook import MechanicView
        graph_keys = self._graph_keys.get(key)
        if not graph_keys:
            return None
        mechanics = [self.kb.model.mechanics[k] for k in graph_keys]
        rules = tuple(dict.fromkeys(n for m in mechanics for n in m["rules"]))
        related = tuple(dict.fromkeys([self._reasoning_of[r] for m in mechanics for r in m["related"]
                                       if r in self._reasoning_of and self._reasoning_of[r] != key]
                                      + sorted(self._uses.get(key, ()))))
        first = mechanics[0]
        return MechanicView(key=key, name_en=first["name_en"], name_ja=first["name_ja"], rules=rules,
                            related=related, aliases=tuple(a for m in mechanics for a in m["aliases_en"] + m["aliases_ja"]))

    def rulings(self, mechanic_key: str):
        from kb.reasoning.rulebook import RulingView
        out, seen = [], set()
        for graph_key in self._graph_keys.get(mechanic_key, []):
            for rid in self.kb.model.mechanics[graph_key]["rulings"]:
                if rid in seen:
                    continue
                seen.add(rid)
                r = self.kb.model.rulings[rid]
                cited = tuple(res["current"]["number"] for c in r.get("citations", []) for res in c["resolved"]
                              if res.get("current"))
                # A quote is shown as its source wrote it: "601.4 コストを変える…", number first.
                text = f"{r['raw_number']} {r['text']}" if r["kind"] == "quoted-rule" and r.get("raw_number") \
                    else r["text"]
                out.append(RulingView(id=rid, document=r["document"], document_title=r["document_title"],
                                      date=r.get("date"), text=text, locator=r["locator"]["locator"],
                                      kind=r["kind"], cited_rules=cited, mechanics=(mechanic_key,)))
        return out
