"""Rulings, quotes, documents, cards, search and the citation checker (part of kb.lookup.KB)."""
from __future__ import annotations

from kb import rulenumbers
from kb.errors import DocumentNotFound, InvalidParameter, MechanicNotFound, MissingParameter, QueryTooLong
from kb.lookup import cite

MAX_QUERY = 4000  # characters: a judge's question with its game state fits; a pasted article goes to /check


class DocumentLookups:
    # ------------------------------------------------------------ rulings and quotes

    def statement(self, statement_id: str) -> dict | None:
        """The raw row of a ruling or a quoted rule."""
        return self.model.rulings.get(statement_id) or self.model.quotes.get(statement_id)

    def ruling(self, ruling_id: str) -> dict | None:
        """A ruling or a quoted rule, with its citation, the rules it cites and the rules that back it."""
        r = self.statement(ruling_id)
        if r is None:  # an official ruling from card data ("card:<key>#r<n>")
            return self.card_ruling(ruling_id)
        out = {k: v for k, v in r.items() if k != "locator"}
        out["citation"] = cite.locator(r["locator"], date=r.get("date"))
        out["cited_rules"] = [res for c in r.get("citations", []) for res in c["resolved"]]
        # Rules the reasoning engine applies when it runs this ruling's own situation, deciding first.
        linked = self.model.ruling_rules.get(ruling_id, {})
        current = self.model.current("en")
        out["backed_by"] = [{"number": n, "edition": current, "deciding": n in linked["deciding"],
                             "citation": self.rule_citation(("en", current, n))}
                            for n in linked.get("rules", []) if ("en", current, n) in self.model.rules]
        return out

    def rulings(self, mechanic: str | None = None, document: str | None = None) -> list[dict]:
        ids = list(self.model.rulings) + list(self.model.quotes)
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
        return [d | {"citation": cite.document(self.model, d["id"])} for d in self.model.documents.values()]

    def document(self, doc_id: str) -> dict | None:
        doc = self.model.documents.get(doc_id)
        if doc is None:
            return None
        ids = [i for i, r in self.model.rulings.items() if r["document"] == doc_id]
        ids += [i for i, q in self.model.quotes.items() if q["document"] == doc_id]
        return doc | {"citation": cite.document(self.model, doc_id), "rulings": [self.ruling(i) for i in ids]}

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
        hits = self.search_index.search(query, lang=lang, kinds=kinds, limit=int(limit))
        number = rulenumbers.as_query(query)
        current = self.model.current("en")
        return {"query": query, "goto": number if number and current and ("en", current, number) in self.model.rules
                else None, **self._question_rules(query, int(limit), current),
                "hits": [{"kind": h.doc.kind, "id": h.doc.id, "lang": h.doc.lang, "title": h.doc.title,
                          "snippet": h.snippet, "score": round(h.score, 3), "rule": h.doc.rule_number,
                          "rules": self._rules_of_hit(h.doc), "edition": h.doc.edition,
                          "mechanics": list(h.doc.mechanics), "citation": h.doc.citation}
                         for h in hits]}

    def _question_rules(self, query: str, limit: int, current: str | None) -> dict:
        """For a question: today's rules it needs, one per rule (kb.search.retrieval: BM25, the
        cards it names, dense vectors, the CR's links), and the cards it names."""
        from kb.search.retrieval import is_question
        if current is None or not is_question(query):
            return {}
        found = self.retriever().search(query, limit=limit)
        return {"rules": [{"number": h.number, "edition": current, "text": self.model.rules[("en", current, h.number)]["text"],
                           "via": sorted(h.sources), "citation": self.rule_citation(("en", current, h.number))}
                          for h in found.rules if ("en", current, h.number) in self.model.rules],
                "cards": [{"key": c.key, "name": c.name, "oracle_name": self.model.cards[c.key]["oracle_name"]}
                          for c in found.cards]}

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
