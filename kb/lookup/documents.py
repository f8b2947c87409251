"""Rulings, quotes, documents, cards, search and the citation checker (part of kb.lookup.KB)."""
from __future__ import annotations

from kb import rulenumbers
from kb.errors import DocumentNotFound, InvalidParameter, MechanicNotFound, MissingParameter, QueryTooLong
from kb.lookup import cite, display
from kb.lookup.cards import MAX_NAME_QUERY
from kb.memo import per_owner
from kb.search.tokenize import HAS_JA

MAX_QUERY = 4000  # characters: a judge's question with its game state fits; a pasted article goes to /check
CARDS_NAMED_LIKE = 5  # cards a lookup shows by name
CARD_SHOWN = 85.0  # find_cards score: exact 100, part of a name 85-100, a spelling's rapidfuzz ratio


def _nested_citations(answer: dict):
    """A search answer's nested citations in the order a walk of the whole answer meets them (the
    rules' JA text's, then the rule's; the cards'; each hit's, then its JA text's), without walking
    every field (tests compare it with server.resources.with_citations' walk)."""
    for part in ("rules", "cards", "hits"):
        for item in answer.get(part, ()):
            if part == "rules" and item.get("ja"):
                yield item["ja"]["citation"]
            if isinstance(item.get("citation"), dict):
                yield item["citation"]
            if part == "hits" and item.get("ja"):
                yield item["ja"]["citation"]


class DocumentLookups:
    # ------------------------------------------------------------ rulings and quotes

    def statement(self, statement_id: str) -> dict | None:
        """The raw row of a ruling or a quoted rule."""
        return self.model.rulings.get(statement_id) or self.model.quotes.get(statement_id)

    def ruling(self, ruling_id: str) -> dict | None:
        """A ruling or a quoted rule, with its citation, the rules it cites and the rules that back it.
        Memoised per KB (a mechanic page lists dozens): each call gets its own top-level dict."""
        if self.statement(ruling_id) is None:  # an official ruling from card data ("card:<key>#r<n>")
            return self.card_ruling(ruling_id)
        return dict(per_owner(self, ("ruling", ruling_id), lambda: self._ruling(ruling_id)))

    def _ruling(self, ruling_id: str) -> dict:
        r = self.statement(ruling_id)
        out = {k: v for k, v in r.items() if k != "locator"}
        out["citation"] = cite.locator(r["locator"], date=r.get("date"))
        out["display"] = display.shown(r)
        out["source_type"] = display.source_of(self.model, r)
        out["superseded"] = display.superseded(self, ruling_id)
        out["written_in"] = r.get("edition") or self.model.documents.get(r["document"], {}).get("edition")
        out["cited_rules"] = [res for c in r.get("citations", []) for res in c["resolved"]]
        # Rules the reasoning engine applies when it runs this ruling's own situation, deciding first.
        linked = self.model.ruling_rules.get(ruling_id, {})
        current = self.model.current("en")
        out["backed_by"] = [{"number": n, "edition": current, "deciding": n in linked["deciding"],
                             "citation": self.rule_citation(("en", current, n))}
                            for n in linked.get("rules", []) if ("en", current, n) in self.model.rules]
        return out

    def rulings(self, mechanic: str | None = None, document: str | None = None) -> list[dict]:
        ids = list(self.model.rulings) + [i for i, q in self.model.quotes.items() if not q.get("heading")]
        if mechanic:
            found = self.find_mechanics(mechanic, limit=1)
            if not found:
                raise MechanicNotFound(f"no mechanic named {mechanic!r}")
            ids = self.model.mechanics[found[0]["key"]]["rulings"]
        if document:
            if document not in self.model.documents:
                raise DocumentNotFound(f"no document {document!r}", suggestions=sorted(self.model.documents))
            ids = [i for i in ids if self.statement(i)["document"] == document]
        return [self.ruling(i) for i in ids]

    # ------------------------------------------------------------ documents

    def documents(self) -> list[dict]:
        return [d | {"citation": cite.document(self.model, d["id"]), "source_type": display.source_of(self.model, d)}
                for d in self.model.documents.values()]

    def document(self, doc_id: str) -> dict | None:
        doc = self.model.documents.get(doc_id)
        if doc is None:
            return None
        ids = [i for i, r in self.model.rulings.items() if r["document"] == doc_id]
        ids += [i for i, q in self.model.quotes.items() if q["document"] == doc_id and not q.get("heading")]
        return doc | {"citation": cite.document(self.model, doc_id), "source_type": display.source_of(self.model, doc),
                      "rulings": [self.ruling(i) for i in ids]}

    # ------------------------------------------------------------ search

    def search(self, q: str, lang: str | None = None, limit: int = 10, kinds: set[str] | None = None) -> dict:
        """Ranked hits over rules, glossary, rulings, quotes, mechanics and cards, JA and EN.
        A rule number goes straight to that rule (``goto``)."""
        query = (q or "").strip()
        if not query:
            raise MissingParameter("q: the search text is required")
        if len(query) > MAX_QUERY:
            raise QueryTooLong(f"q: at most {MAX_QUERY} characters (got {len(query)})")
        self.check_lang(lang)
        if not 1 <= int(limit) <= 100:
            raise InvalidParameter(f"limit={limit}: expected 1..100")
        from kb.search.scoring import one_pass
        number = rulenumbers.as_query(query)
        current = self.model.current("en")
        with one_pass():  # the hits and the question retriever share each query's BM25 pass
            hits = self.search_index.search(query, lang=lang, kinds=kinds, limit=int(limit))
            questions = self._question_rules(query, int(limit), current)
        if not questions:  # a lookup may be a card's name, part of one or a misspelt one
            questions = {"cards": [] if number else self._cards_named_like(query)}
        found = {"query": query, "goto": number if number and current and ("en", current, number) in self.model.rules
                 else None, "goto_card": None if number else self._card_named(query), **questions,
                 "hits": [self._hit_view({"kind": h.doc.kind, "id": h.doc.id, "lang": h.doc.lang, "title": h.doc.title,
                                          "snippet": h.snippet, "score": round(h.score, 3), "rule": h.doc.rule_number,
                                          "rules": self._rules_of_hit(h.doc), "edition": h.doc.edition,
                                          "mechanics": list(h.doc.mechanics), "citation": h.doc.citation})
                          for h in hits]}
        found["citations"] = cite.distinct(_nested_citations(found))
        return found

    def _card_named(self, query: str) -> dict | None:
        """The card whose exact EN or JA name (or face name) the query is, as a rule number goes to
        its rule; None when the words also name a mechanic (「夜」 is a card and a game state)."""
        from kb.store.names import card_key, mechanic_keys
        key = card_key(self.model, query) if len(query) <= MAX_NAME_QUERY else None
        if key is None or mechanic_keys(self.model, query):
            return None
        return self.card_brief(self.model.cards[key])

    def _cards_named_like(self, query: str) -> list[dict]:
        """The cards whose EN or JA name is the query, holds it or is spelt like it (kb.lookup.cards),
        each cited by its card data record, as a question's named cards are shown."""
        if len(query) > MAX_NAME_QUERY:
            return []
        return [c | {"name": c["name_ja"] if HAS_JA.search(query) and c["name_ja"] else c["name_en"],
                     "oracle_name": self.model.cards[c["key"]].get("oracle_name") or c["name_en"]}
                for c in self.find_cards(query, limit=CARDS_NAMED_LIKE) if c["score"] >= CARD_SHOWN]

    def _hit_view(self, hit: dict) -> dict:
        """What a results page needs besides the hit: the edition its numbers were written in, the
        JA translation's resolved cross-references, a ruling's superseded mark, a mechanic's names."""
        kind, edition = hit["kind"], hit.get("edition")
        hit["written_in"] = edition
        if kind in ("rule", "glossary") and hit["lang"] == "ja" and edition:
            local = hit["citation"].get("rule") if kind == "rule" else hit["id"].split(":", 3)[-1]
            fixes = self.model.ja_alignment.get(edition, {}).get("fixes", {})
            hit["reference_fixes"] = fixes.get(f"{'rule' if kind == 'rule' else 'glossary'}:{local}", [])
        elif kind == "rule" and edition and hit.get("rule"):
            hit["ja"] = self._ja_of_rule_hit(("en", edition, hit["rule"]))
        elif kind in ("ruling", "quote"):
            r = self.statement(hit["id"]) or self.model.card_rulings.get(hit["id"]) or {}
            hit["written_in"] = r.get("edition") or self.model.documents.get(r.get("document", ""), {}).get("edition")
            hit["superseded"] = display.superseded(self, hit["id"])
            hit["source_type"] = display.source_of(self.model, r)
        elif kind == "mechanic" and hit["mechanics"]:
            m = self.model.mechanics.get(hit["mechanics"][0], {})
            hit["names"] = {"ja": m.get("name_ja"), "en": m.get("name_en")}
        return hit

    def _ja_of_rule_hit(self, key) -> dict | None:
        """An EN rule hit's official JA text, so a Japanese results page can show the rule in Japanese
        (title from its titled ancestor, cited as the translation it is). Made once per KB and rule
        (``_rule_parts``); each call gets its own top-level dict."""
        ja = self._rule_parts(key)["ja"]
        return dict(ja) if ja else None

    def _rule_parts(self, key) -> dict:
        """What a search answer shows of an EN rule whatever the query: its JA text (``ja``), the
        EN/JA title of its titled ancestor (``title``) and its citation (shared by the answers: never
        changed by a caller). The same for every search, so kept per KB in one table (kb.memo;
        ``prepare_search`` fills it for the current edition before serving)."""
        table = per_owner(self, "rule-hit-parts", dict)
        found = table.get(key)
        if found is None:
            found = table[key] = {"ja": self._make_ja_of_rule_hit(key), "title": self._heading_title(key),
                                  "citation": self.rule_citation(key)}
        return found

    def _heading_title(self, key) -> dict:
        heading = self.heading(key[2], key[1])
        title = heading[-1]["title"] if heading else {"en": None, "ja": None}
        return {"en": title.get("en"), "ja": title.get("ja")}

    def _make_ja_of_rule_hit(self, key) -> dict | None:
        ja_key = self.ja_key(key) if key in self.model.rules else None
        ja = self.model.rules.get(ja_key) if ja_key else None
        if not ja:
            return None
        heading = self.heading(key[2], key[1])
        title = heading[-1]["title"]["ja"] if heading and heading[-1]["title"].get("ja") else None
        fixes = self.model.ja_alignment.get(ja_key[1], {}).get("fixes", {}).get(f"rule:{ja_key[2]}", [])
        return {"title": f"{key[2]} {title}" if title else key[2], "text": ja["text"], "edition": ja_key[1],
                "number": ja_key[2], "reference_fixes": fixes, "citation": self.rule_citation(ja_key)}

    def prepare_search(self) -> int:
        """Before serving: analyse every search document's text for its snippets (kb.search.snippet),
        index its stem pairs for the rerank (kb.search.pairs), make the search parts of every current EN
        rule, build the card-name matcher and the question retriever with every card ruling's rules, so that a first search
        costs what a repeated one does. Returns how many texts were analysed."""
        from kb.search import pairs, rerank, snippet
        index = self.search_index
        count = snippet.prepare(index, [d.text for d in index.docs])
        pairs.prepare(index)
        rerank.merge_columns(index)
        self.prepare_cards()  # the card-name matcher a lookup asks
        current = self.model.current("en")
        if current:
            for number in self.model.edition_rules("en", current):
                self._rule_parts(("en", current, number))
            self.retriever().prepare()
        return count

    def _question_rules(self, query: str, limit: int, current: str | None) -> dict:
        """For a question: today's rules it needs, one per rule (kb.search.retrieval: BM25, the
        cards it names, dense vectors, the CR's links), and the cards it names."""
        from kb.search.retrieval import is_question
        if current is None or not is_question(query):
            return {}
        found = self.retriever().search(query, limit=limit, explain=True)
        return {"rules": [self._question_rule(("en", current, h.number), h.via) | {"why": h.why}
                          for h in found.rules if ("en", current, h.number) in self.model.rules],
                "cards": [{"key": c.key, "name": c.name,
                           "oracle_name": self.model.cards[c.key].get("oracle_name") or self.model.cards[c.key]["name_en"],
                           "name_ja": self.model.cards[c.key].get("name_ja"), "text_loaded": c.loaded,
                           "citation": self._card_citation(c.key)}
                          for c in found.cards]}

    def _question_rule(self, key, via: list[str]) -> dict:
        """A rule a question needs: today's EN text, the EN/JA title of its titled ancestor (608 Resolving
        Spells and Abilities / 呪文や能力の解決), its official JA text, each cited."""
        parts = self._rule_parts(key)
        return {"number": key[2], "edition": key[1], "text": self.model.rules[key]["text"], "via": via,
                "title": dict(parts["title"]), "ja": dict(parts["ja"]) if parts["ja"] else None,
                "citation": parts["citation"]}

    def _rules_of_hit(self, doc) -> list[str]:
        """The rules a hit leads to, numbered as today: a rule or quote its own number; a glossary
        entry the rules it cites (a JA entry's stale numbers carried from its edition); a mechanic
        its defining rules; a ruling the rules that decide it (or that it cites)."""
        if doc.rule_number:
            return [doc.rule_number]
        if doc.kind == "glossary":
            _, lang, edition, term = doc.id.split(":", 3)
            refs = self.model.glossary.get((lang, edition, term), {}).get("refs", [])
            return list(dict.fromkeys(t for n in refs if (t := self.today_number(n, edition) or n)))[:5]
        if doc.kind == "mechanic":
            return list(self.model.mechanics.get(doc.id.split(":", 1)[1], {}).get("rules", []))[:5]
        if doc.kind == "ruling":
            decided = self.model.ruling_rules.get(doc.id, {}).get("deciding")
            if decided:
                return list(decided)
            ruling = self.model.rulings.get(doc.id, {})
            return [res["current"]["number"] for c in ruling.get("citations", []) for res in c["resolved"]
                    if res.get("current")]
        return []

    # ------------------------------------------------------------ citations and rulings over time

    def check_citations(self, text: str, date=None, lang: str | None = None) -> dict:
        """Every rule citation and quoted rule in ``text`` checked against the editions (kb.citations.check)."""
        from kb.citations.check import check_citations
        return check_citations(self, text, date=date, lang=lang)

    def rulings_over_time(self) -> dict:
        """Rulings superseded by later CR changes, and rulings that contradict each other."""
        from kb.lookup.rulings_time import rulings_over_time
        return rulings_over_time(self)
