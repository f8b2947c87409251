"""Mechanic lookups and state questions (part of kb.lookup.KB)."""
from __future__ import annotations

from kb.errors import InvalidParameter, MechanicNotAnswerable, MissingParameter, NotAnswerable
from kb.lookup import cite, display
from kb.lookup.cards import MAX_NAME_QUERY
from kb.store.names import mechanic_keys
from kb.text import normalize


class MechanicLookups:
    @staticmethod
    def mechanic_summary(m: dict) -> dict:
        return {"key": m["key"], "name_en": m["name_en"], "name_ja": m["name_ja"], "kind": m["kind"],
                "ja_missing": m.get("ja_missing")}

    def find_mechanics(self, name: str, limit: int = 10, *, by_question: bool = True) -> list[dict]:
        """Mechanics named ``name`` (JA/EN name, alias, reading, key), best supported first.
        ``by_question``: also accept the name of a state-question mechanic (``kb ask --list``)."""
        if not name or not name.strip():
            raise MissingParameter("name: a mechanic name is required (JA or EN, e.g. 予示 or manifest)")
        if len(name.strip()) > MAX_NAME_QUERY:  # as a card name is (kb.lookup.cards): bad input, not "not found"
            raise InvalidParameter(f"name: a mechanic name is at most {MAX_NAME_QUERY} characters (got {len(name.strip())})")
        keys = mechanic_keys(self.model, name)
        if not keys and self.model.mechanics and by_question:  # a question mechanic ("double-faced-card")
            keys = self._question_graph_keys(name)
        return [self.mechanic_summary(self.model.mechanics[k]) for k in keys[:limit]]

    def all_mechanics(self) -> list[dict]:
        """Every mechanic, by kind then EN name: the /mechanics index."""
        order = {"keyword-action": 0, "keyword-ability": 1, "rules-section": 2, "designation": 3, "term": 4}
        return [self.mechanic_summary(m) for m in sorted(
            self.model.mechanics.values(), key=lambda m: (order.get(m["kind"], 9), normalize(m["name_en"])))]

    def _question_graph_keys(self, name: str) -> list[str]:
        """The graph mechanics of the question type whose key or JA/EN name ``name`` is, if any."""
        query = normalize(name)
        book = self.rulebook()
        for m in self.ask_schemas():
            if query in {normalize(m["key"]), normalize(m["name_en"] or ""), normalize(m["name_ja"] or "")}:
                keys = book.graph_keys(m["key"])
                # its own mechanics first: one it shares with another type (manifest) goes last
                return sorted(keys, key=lambda k: book.reasoning_key(k) != m["key"])
        return []

    def mechanic(self, name: str) -> dict | None:
        chosen = self.mechanic_choice(name)
        return None if chosen is None else self.mechanic_view(*chosen)

    def mechanic_choice(self, name: str) -> tuple[str, list[dict]] | None:
        """The key of the mechanic ``name`` opens, and the other mechanics it also names."""
        found = self.find_mechanics(name, limit=5)
        if not found:
            return None
        # A question type's own name (face-down, 昼と夜) opens the mechanic it answers for, not another
        # sense of the same words (the glossary's Face Down of 110.5).
        covered = self._question_graph_keys(name) if self.model.mechanics else []
        own = [k for k in covered if self.reasoning_key(k) == self.reasoning_key(covered[0])] if covered else []
        named = [f["key"] for f in found]
        key = next((k for k in named if k in own), None) or (own[0] if own else named[0])
        return key, [f for f in found if f["key"] != key]

    def mechanic_view(self, key: str, found: list[dict] | None = None) -> dict:
        """The mechanic ``key``: names, rules, glossary, rulings, cards, related mechanics and
        documents, each cited; ``found``: the other mechanics the name asked for also matches."""
        found = found or []
        m = self.model.mechanics[key]
        edition = m["edition"]
        rules = [self.rule_brief(("en", edition, n)) for n in m["rules"] if ("en", edition, n) in self.model.rules]
        related_rules = []
        for n in m["rules"][:1]:
            for ref in self.model.refs_in.get(("en", edition, n), []):
                if ref["kind"] == "rule" and ref["number"] not in m["rules"]:
                    related_rules.append(self.rule_brief(("en", edition, ref["number"])))
        statements = [self.ruling(rid) for rid in m["rulings"]]
        rulings = display.by_authority([r for r in statements if r and not display.is_navigation(r)])
        see_also = [r for r in statements if r and display.is_navigation(r)]
        cards = [self.card_brief(self.model.cards[k]) for k in m["cards"] if k in self.model.cards]
        out = {"key": m["key"], "name": {"en": m["name_en"], "ja": m["name_ja"]},
               "aliases": {"en": m["aliases_en"], "ja": m["aliases_ja"]}, "kind": m["kind"], "edition": edition,
               "rules": rules, "related_rules": related_rules[:30], "rulings": rulings, "see_also": see_also,
               "cards": cards,
               "related": [self.mechanic_summary(self.model.mechanics[k]) for k in m["related"]
                           if k in self.model.mechanics],
               "documents": [self.model.documents[d] | {"citation": cite.document(self.model, d),
                                                        "source_type": display.source_of(self.model, self.model.documents[d])}
                             for d in m["documents"]],
               "glossary": self._glossary_entries(m),
               # how a JA name found in the JA rule text was found; why there is none
               "ja_source": self._ja_source(m), "ja_missing": m.get("ja_missing"),
               "other_matches": found}
        out["citations"] = [r["citation"] for r in rules] + [r["citation"] for r in rulings if r]
        return out

    def _ja_source(self, m: dict) -> dict | None:
        """Where the JA name was found in the JA text (a rule: with its citation)."""
        source = m.get("ja_source")
        if source and source.get("rule") and ("ja", source["edition"], source["rule"]) in self.model.rules:
            source = source | {"citation": self.rule_citation(("ja", source["edition"], source["rule"]))}
        return source

    def _glossary_entries(self, m: dict) -> list[dict]:
        out = []
        for lang, term in m["glossary"]:
            edition = self.model.current(lang)
            entry = self.model.glossary.get((lang, edition, term))
            if entry:
                fixes = self.model.ja_alignment.get(edition, {}).get("fixes", {}).get(f"glossary:{term}", [])
                out.append({"lang": lang, "edition": edition, "term": term, "text": entry["text"],
                            "reading": entry.get("reading"), "term_en": entry.get("term_en"),
                            "reference_fixes": [dict(f, meant_today=self.lineage.forward(f["meant"], edition)[0]
                                                     if f["meant"] else None) for f in fixes],
                            "citation": cite.locator(entry["locator"], edition=edition)})
        return out

    def rule_brief(self, key) -> dict:
        rule = self.model.rules[key]
        ja_key = self.ja_key(key)
        ja = self.model.rules.get(ja_key) if ja_key else None
        # each text with its own citation: a JA text is cited as the translation it is, never as the EN
        return {"number": key[2], "edition": key[1], "kind": rule["kind"], "text_en": rule["text"],
                "text_ja": ja["text"] if ja else None, "citation": self.rule_citation(key),
                "citation_ja": self.rule_citation(ja_key) if ja else None}

    # ------------------------------------------------------------ state questions

    def reasoning_key(self, mechanic_key: str) -> str | None:
        """The key of the state-question mechanic (``kb ask``) that covers a graph mechanic, if any."""
        return self.rulebook().reasoning_key(mechanic_key)

    def question_key(self, mechanic: str) -> str:
        """The question type meant by ``mechanic``: its key, a name `kb ask --list` shows (昼と夜), or
        any name of a graph mechanic it covers; MechanicNotAnswerable otherwise."""
        from kb.reasoning.catalog import is_question_key
        if is_question_key(mechanic):  # the usual case, without listing every schema
            return mechanic
        listed = self.ask_schemas()
        keys = sorted(m["key"] for m in listed)
        if mechanic and mechanic.strip():
            wanted = normalize(mechanic)
            for m in listed:
                if wanted in (normalize(m["name_ja"] or ""), normalize(m["name_en"] or "")):
                    return m["key"]
            for found in self.find_mechanics(mechanic, limit=5):
                key = self.reasoning_key(found["key"])
                if key:
                    return key
        raise MechanicNotAnswerable(f"no state questions for {mechanic!r}; ask about one of: {', '.join(keys)}",
                                    suggestions=keys)

    def ask(self, mechanic: str, situation) -> dict:
        """Answer a state question; ``mechanic`` is a question key or any name of its mechanic."""
        from kb.reasoning.catalog import ask
        from kb.reasoning.engine import UnreachableRule
        book = self.rulebook()
        key = self.question_key(mechanic)
        try:
            return ask(book, key, situation)
        except UnreachableRule as exc:  # a CR without the rule or link the logic follows: no answer, said so
            rule = f"規則 {exc.rule} " if exc.rule else "必要な規則"
            raise NotAnswerable(f"this snapshot's CR ({book.edition}) cannot answer this situation: {exc}",
                                edition=book.edition, rule=exc.rule,
                                message_ja=f"読み込まれている総合ルール（{book.edition}）では、この状況に答えられません"
                                           f"（{rule}にたどり着けません）。") from None

    def prepare_questions(self) -> int:
        """Before serving: each question type's situation-independent parts (kb.reasoning.catalog.prepare)."""
        from kb.reasoning.catalog import prepare
        return prepare(self.rulebook())

    def ask_procedure(self, mechanic: str, key: str | None = None) -> dict:
        """Every step of a CR procedure of the question type (casting 601.2a–i …), each cited."""
        from kb.reasoning.catalog import procedure
        return procedure(self.rulebook(), self.question_key(mechanic), key)

    @staticmethod
    def ask_schemas() -> list[dict]:
        from kb.reasoning.catalog import list_mechanics
        return list_mechanics()
