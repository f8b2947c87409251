"""Cards (part of kb.lookup.KB): a card by any name, with its Oracle text in both languages, faces,
official rulings, the mechanics and rules it uses and related cards; finding cards by EN/JA name,
part of a name or a misspelt one."""
from __future__ import annotations

from kb.errors import InvalidParameter, MissingParameter
from kb.lookup import cite, display
from kb.memo import per_owner
from kb.sources.types import typed
from kb.store.names import card_key
from kb.store.tables import PartedBlock
from kb.text import compact, normalize, normalize_kana

FUZZY_CUTOFF = 80  # rapidfuzz ratio without punctuation: "Urza Lord Protecter" -> Urza, Lord Protector (~94)
INSIDE_A_WORD = 5.0  # "ward" in "Coward" ranks below "Red Ward"
MAX_NAME_QUERY = 200


class CardLookups:
    @staticmethod
    def card_brief(card: dict) -> dict:
        return {"key": card["key"], "name_ja": card["name_ja"], "name_en": card["name_en"]}

    # ------------------------------------------------------------ one card

    def card(self, name: str) -> dict | None:
        if not name or not name.strip():
            raise MissingParameter("name: a card name is required (JA or EN)")
        key = card_key(self.model, name) or card_key(self.model, compact(name))
        if key is None:
            found = self.find_cards(name, limit=2)
            # a misspelt or partial name that fits one card clearly is that card
            if found and (len(found) == 1 or found[0]["score"] - found[1]["score"] >= 5) and found[0]["score"] >= 90:
                key = found[0]["key"]
        if key is None:
            return None
        return per_owner(self, ("card", key), lambda: self._card(key))

    def _card(self, key: str) -> dict:
        card = self.model.cards[key]
        mentions, mechanics = [], {}
        for m in card["mentions"]:
            ruling = self.statement(m["ruling"])
            mentions.append({"id": ruling["id"], "kind": ruling["kind"], "text": ruling["text"], "raw": m["raw"],
                             "display": display.shown(ruling), "source_type": display.source_of(self.model, ruling),
                             "superseded": display.superseded(self, ruling["id"]),
                             "citation": cite.locator(ruling["locator"], line=m["line"], column=m["column"])})
            for k in ruling.get("mechanics", []):
                if k in self.model.mechanics:
                    mechanics.setdefault(k, self.mechanic_summary(self.model.mechanics[k]) | {"how": "ruling"})
        for link in card.get("mechanics", []):
            if link["key"] in self.model.mechanics:
                mechanics[link["key"]] = self.mechanic_summary(self.model.mechanics[link["key"]]) | {"how": link["how"]}
        sources = [cite.document(self.model, s) for s in card["sources"]]
        current = self.model.current("en")
        # each rule with the phrase of the card's text (keyword, type line, a form the CR quotes) that
        # led to it; a rule without one is not listed (a snapshot built before phrases lists none)
        led = card.get("rule_phrases", {})
        rules = [{"number": n, "edition": current, "text": self.model.rules[("en", current, n)]["text"],
                  "phrase": led[n]["phrase"], "how": led[n]["how"],
                  "citation": self.rule_citation(("en", current, n))}
                 for n in dict.fromkeys([*card.get("rules", []), *(r for r, _ in card.get("forms", []))])
                 if current and ("en", current, n) in self.model.rules and led.get(n, {}).get("phrase")]
        rulings = [self.card_ruling(rid) for rid in card.get("rulings", [])]
        data = [cite.locator(loc) for loc in card.get("data", [])]
        data += [cite.locator(loc) for loc in card.get("named_in", [])]  # the name tables' entries
        out = {"key": key, "name_ja": card["name_ja"], "name_en": card["name_en"],
               "oracle_name": card.get("oracle_name"), "layout": card.get("layout"),
               "faces": card.get("faces", []), "keywords": card.get("keywords", []), "sets": card.get("sets", []),
               "meld": self._meld(card), "rulings": rulings, "rules": rules,
               "related": [self.card_brief(self.model.cards[k]) for k in card.get("related", [])
                           if k in self.model.cards],
               "mentions": mentions, "mechanics": list(mechanics.values()), "sources": sources,
               "has_oracle": "faces" in card, "text_loaded": bool(card.get("faces")),
               "not_loaded": None if card.get("faces") else self._not_loaded(card)}
        out["citations"] = data + [m["citation"] for m in mentions] + sources
        return out

    def _not_loaded(self, card: dict) -> dict:
        """What is known of a card whose text is not loaded, and how to load it."""
        return {"reason": "no-card-text",
                "message": {"ja": "このカードの文章（オラクル）は読み込まれていません。名前だけが次の資料から分かっています。",
                            "en": "This card's Oracle text is not loaded; only its names are known, from the sources below."},
                "names_from": [cite.document(self.model, s) for s in card.get("sources", [])],
                "fetch": "kb fetch --cards",
                "fetch_hint": {"ja": "カード・データ（MTGJSON）を取得して再構築するには: kb fetch --cards",
                               "en": "To download the card data (MTGJSON) and rebuild: kb fetch --cards"}}

    def _meld(self, card: dict) -> dict | None:
        meld = card.get("meld")
        if not meld:
            return None

        def brief(name: str) -> dict:
            key = self.model.card_names.get(normalize(name))
            return self.card_brief(self.model.cards[key]) if key else {"key": None, "name_en": name, "name_ja": None}
        return {"fronts": [brief(n) for n in meld["fronts"]], "result": brief(meld["result"])}

    def card_ruling(self, ruling_id: str) -> dict | None:
        """An official ruling from card data: date, text, its card, source and the rules it uses."""
        r = self.model.card_rulings.get(ruling_id)
        if r is None:
            return None
        current = self.model.current("en")
        return {"id": r["id"], "kind": r["kind"], "source_type": typed("official-ruling"), "date": r["date"], "text": r["text"],
                "card": self.card_brief(self.model.cards[r["card"]]), "mechanics": r["mechanics"],
                "rules": [{"number": n, "edition": current, "citation": self.rule_citation(("en", current, n))}
                          for n in r["rules"] if current and ("en", current, n) in self.model.rules],
                "cited": r["citations"],
                "citation": cite.locator(r["locator"], date=r["date"],
                                         sources=[cite.document(self.model, s) for s in r["sources"]])}

    # ------------------------------------------------------------ finding cards by name

    def _card_names(self):
        """Every EN and JA name of every card and face (folded: kb.text.normalize_kana), their card
        keys, and the matcher finding names by part or spelling (kb.search.namematch): read from the
        snapshot, where the build wrote them, or made (a KB made in memory, a snapshot without them)."""
        from kb.search import namematch  # here, not at the top: numpy, which `kb rule` need not load

        def make():
            path = self.path / namematch.SNAPSHOT_FILE if getattr(self, "path", None) else None
            if path is not None and path.exists():
                from kb.store.snapshot import read_part
                return read_part(self.path, namematch.SNAPSHOT_FILE, lambda: namematch.loads_card_names(path.read_bytes()))
            return namematch.card_name_matcher(self.model.card_names)
        return per_owner(self, "card-names", make)

    def prepare_cards(self) -> int:
        """Before serving: the name matcher read, and the card tables decoded (a snapshot's are
        decoded part by part on first use, kb.store.tables.PartedBlock), so that no request does
        either and forked workers share them. Returns the names."""
        for table in (self.model.cards, self.model.card_names):
            if isinstance(table, PartedBlock):
                table.read_all()
        return len(self._card_names()[1])

    def find_cards(self, query: str, limit: int = 10) -> list[dict]:
        """Cards by name, best first: exact (any language, full or face name), then names that
        contain the query ("護国卿", "Lord Protector"; a part inside a word, "ward" in "Coward",
        below whole words), then close spellings ("Urza Lord Protecter") when fewer than ``limit``
        were found."""
        q = (query or "").strip()
        if not q:
            raise MissingParameter("q: a card name is required (JA or EN)")
        if len(q) > MAX_NAME_QUERY:
            raise InvalidParameter(f"q: a card name is at most {MAX_NAME_QUERY} characters (got {len(q)})")
        if not 1 <= int(limit) <= 100:
            raise InvalidParameter(f"limit={limit}: expected 1..100")
        from kb.search.namematch import bare
        folded = normalize_kana(q)
        matcher, keys = self._card_names()
        scored: dict[str, tuple[float, str]] = {}

        def add(key: str, score: float, how: str) -> None:
            if key not in scored or scored[key][0] < score:
                scored[key] = (score, how)
        exact = card_key(self.model, q)
        if exact:
            add(exact, 100.0, "name")
        if len(folded) >= 2:  # "urza lord" is part of "urza, lord protector", "護国卿ウルザ" of "護国卿、ウルザ"
            squeezed = bare(folded)
            for i, whole in matcher.parts(folded):
                name = matcher.names[i]
                share = len(folded) / len(name) if folded in name else len(squeezed) / max(1, len(matcher.bare[i]))
                add(keys[i], 90.0 + 10.0 * share - 0.01 - (0.0 if whole else INSIDE_A_WORD), "part of the name")
        if len(scored) < limit:
            for i, score in matcher.close(folded, limit * 3, FUZZY_CUTOFF):
                add(keys[i], min(score, 99.0), "spelling")
        ranked = sorted(scored.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
        return [self.card_brief(self.model.cards[k]) | {"score": round(s, 1), "match": how,
                                                        "has_oracle": "faces" in self.model.cards[k],
                                                        "citation": self._card_citation(k)}
                for k, (s, how) in ranked]

    def _card_citation(self, key: str) -> dict:
        """Where a card comes from: its record in card data, else the name table's entry for it."""
        card = self.model.cards[key]
        if card.get("data"):
            return cite.locator(card["data"][0])
        if card.get("named_in"):
            return cite.locator(card["named_in"][0])
        return cite.document(self.model, card["sources"][0]) if card.get("sources") else {}
