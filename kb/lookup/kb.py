"""The knowledge-base API: plain Python lookups over a loaded snapshot (no Flask, no SPARQL per call).

Everything returned is JSON-ready and carries citations: rule number, CR edition, document and a
locator (lines, section) a user can follow.
"""
from __future__ import annotations

import re
import threading
import unicodedata
from pathlib import Path

from rapidfuzz import fuzz, process

from kb import settings, snapshot
from kb.modeldata import Model
from kb.text import normalize, normalize_kana

# "702.30d~2": a number printed twice in one edition, the repeat kept under its own id.
RULE_NUMBER = re.compile(r"^(?:rule\s*|cr[:\s]*)?(\d(?:\d{2}(?:\.\d+[a-z]?)?)?)\.?(~\d+)?$", re.I)


class KBError(ValueError):
    """Bad input to a lookup; ``code`` is stable for the API's error shape."""

    def __init__(self, code: str, message: str, **extra):
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra


class NoSnapshot(RuntimeError):
    pass


def canonical_rule_number(text: str) -> str:
    """"Rule 601.2c" / "６０１．２ｃ" / "601.2." -> "601.2c" / "601.2"; KBError if not a rule number."""
    value = unicodedata.normalize("NFKC", text or "").strip()
    found = RULE_NUMBER.match(value)
    if not found:
        raise KBError("bad_rule_number", f"{text!r} is not a rule number (expected forms like 601, 601.2, 601.2c)")
    return found[1].lower() + (found[2] or "")


class KB:
    def __init__(self, model: Model, path: Path | None = None):
        self.model = model
        self.path = path
        self._store = None
        self._graph = None
        self._search = None
        self._lock = threading.Lock()
        self._numbers = {}  # edition -> sorted rule numbers (for suggestions)
        self._rulebook_obj = None
        self._by_primary = None  # (edition, primary rule) -> mechanic summaries, built on first use

    # ------------------------------------------------------------ loading

    @classmethod
    def load(cls, home: Path | None = None) -> "KB":
        root = (home / "snapshots") if home else settings.snapshot_root()
        path = snapshot.current(root)
        if path is None:
            raise NoSnapshot(f"no snapshot in {root}: run `kb build` first")
        return cls(snapshot.load_model(path), path)

    @classmethod
    def ensure(cls, home: Path | None = None, progress=lambda _: None) -> "KB":
        """Load the snapshot, building one from the default sources first if there is none."""
        try:
            return cls.load(home)
        except NoSnapshot:
            from kb.sources import discover
            from kb.cli import default_paths
            root = (home / "snapshots") if home else settings.snapshot_root()
            snapshot.build(discover(default_paths(), settings.rules_src_dir()), root, progress)
            return cls.load(home)

    @property
    def store(self):
        """The Oxigraph store (read-only), opened on first use."""
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = snapshot.open_store(self.path)
        return self._store

    @property
    def graph(self):
        """The same store as an rdflib Graph (oxrdflib): rdflib is the API for RDF users."""
        if self._graph is None:
            from oxrdflib import OxigraphStore
            from rdflib import Graph
            from kb.graph import PREFIXES
            graph = Graph(store=OxigraphStore(store=self.store))
            for prefix, ns in PREFIXES.items():
                graph.bind(prefix, ns)
            self._graph = graph
        return self._graph

    @property
    def search_index(self):
        if self._search is None:
            with self._lock:
                if self._search is None:
                    self._search = snapshot.load_search(self.path)
        return self._search

    # ------------------------------------------------------------ editions

    def editions(self) -> list[dict]:
        return [dict(info, citation=self._doc_citation(info["document"]))
                for _, info in sorted(self.model.editions.items(), key=lambda kv: (kv[1]["lang"], kv[1]["edition"]))]

    def current_edition(self, lang: str = "en") -> str | None:
        return self.model.current(lang)

    def _edition(self, edition: str | None, lang: str = "en") -> str:
        if edition is None:
            current = self.model.current(lang) or self.model.current("en")
            if current is None:
                raise KBError("no_edition", "no Comprehensive Rules edition is loaded; run `kb build PATH` with a CR file")
            return current
        value = edition.strip()
        if re.fullmatch(r"\d{8}", value):
            value = f"{value[:4]}-{value[4:6]}-{value[6:]}"
        if f"{lang}/{value}" not in self.model.editions and f"en/{value}" not in self.model.editions:
            # the date in the official file name ("MagicCompRules 20240206.txt" is effective 2024-02-02)
            alias = next((e["edition"] for e in self.model.editions.values()
                          if e.get("file_date") == value and e["lang"] in (lang, "en")), None)
            if alias:
                return alias
        if f"{lang}/{value}" not in self.model.editions and f"en/{value}" not in self.model.editions:
            loaded = sorted({e["edition"] for e in self.model.editions.values()})
            raise KBError("unknown_edition", f"edition {edition!r} is not loaded; loaded: {', '.join(loaded)}",
                          editions=loaded)
        return value

    # ------------------------------------------------------------ citations

    def _doc_citation(self, doc_id: str) -> dict:
        doc = self.model.documents.get(doc_id, {})
        return {"document": doc_id, "document_title": doc.get("title"), "path": doc.get("path")}

    def rule_citation(self, key: tuple[str, str, str]) -> dict:
        rule = self.model.rules[key]
        locator = rule["locator"]
        return {"rule": key[2], "edition": key[1], "lang": key[0], "document": locator["document"],
                "document_title": locator["document_title"], "locator": locator["locator"],
                "line_start": locator["line_start"], "line_end": locator["line_end"],
                "section": locator["section"]}

    @staticmethod
    def _locator_citation(locator: dict, **extra) -> dict:
        return {"document": locator["document"], "document_title": locator["document_title"],
                "locator": locator["locator"], "line_start": locator["line_start"],
                "line_end": locator["line_end"], "section": locator["section"]} | extra

    # ------------------------------------------------------------ rules

    def _ja_for(self, key: tuple[str, str, str]) -> tuple[str, str, str] | None:
        """The JA rule translating an EN rule: same edition, else through lineage to the JA edition's date."""
        if key in self.model.ja_of:
            return self.model.ja_of[key]
        en_eds = self.model.en_editions()
        for ja_info in self.model.editions.values():
            if ja_info["lang"] != "ja" or ja_info["edition"] not in en_eds:
                continue
            walk, target = key, ja_info["edition"]
            links = self.model.prev_link if walk[1] > target else self.model.next_link
            while walk[1] != target:
                link = links.get(walk)
                if link is None:
                    break
                position = en_eds.index(walk[1]) + (-1 if walk[1] > target else 1)
                walk = ("en", en_eds[position], link[0])
            if walk[1] == target and walk in self.model.ja_of:
                return self.model.ja_of[walk]
        return None

    def rule(self, number: str, edition: str | None = None, lang: str | None = None) -> dict | None:
        number = canonical_rule_number(number)
        if lang not in (None, "en", "ja"):
            raise KBError("bad_lang", f"lang must be 'ja' or 'en', not {lang!r}")
        if edition is None and not self.model.editions:
            return self._quoted_only(number)
        edition = self._edition(edition, lang or "en")
        key = ("en", edition, number)
        if key not in self.model.rules:
            ja_key = ("ja", edition, number)
            if ja_key in self.model.rules:  # only in a JA excerpt
                key = ja_key
            else:
                return self._quoted_only(number)
        rule = self.model.rules[key]
        ja_key = self._ja_for(key) if key[0] == "en" else key
        ja = self.model.rules.get(ja_key) if ja_key else None
        texts = [{"lang": key[0], "edition": edition, "text": rule["text"], "citation": self.rule_citation(key)}]
        if ja and ja_key != key:
            texts.append({"lang": "ja", "edition": ja_key[1], "text": ja["text"], "citation": self.rule_citation(ja_key),
                          "translation_of": {"number": ja_key[2], "edition": ja_key[1]},
                          "note": None if ja_key[1] == edition else
                          f"JA text is the {ja_key[1]} translation of rule {ja_key[2]}"})
        if lang:
            texts = [t for t in texts if t["lang"] == lang] or texts
        children = self.model.children.get(key, [])
        out = {
            "number": number, "edition": edition, "lang": key[0], "kind": rule["kind"],
            "title": rule["text"] if rule["kind"] in ("chapter", "section") else None,
            "text": {"en": rule["text"] if key[0] == "en" else None, "ja": ja["text"] if ja else None},
            "raw": rule["raw"], "texts": texts, "parent": rule["parent"], "children": children,
            "examples": [{"text": e["text"], "lang": key[0], "citation": self._locator_citation(e["locator"],
                                                                                                rule=number, edition=edition)}
                         for e in rule["examples"]],
            "references_out": [{"number": n, "edition": edition, "exists": (key[0], edition, n) in self.model.rules}
                               for n in rule["refs"]],
            "references_in": self._references_in(key),
            "mechanics": self._mechanics_of_rule(number, edition),
            "history": self.history(number, edition),
            "current": self._current_of(key),
        }
        out["citations"] = [t["citation"] for t in texts]
        return out

    def _quoted_only(self, number: str) -> dict | None:
        """With no official edition holding the rule, the documents' quotes are what we know of it."""
        quotes = [r for r in self.model.rulings.values() if r["kind"] == "quoted-rule" and r["number"] == number]
        if not quotes:
            return None
        texts = [{"lang": q["lang"], "edition": q["edition"], "text": q["text"],
                  "citation": self._locator_citation(q["locator"], rule=number, edition=q["edition"]),
                  "quoted_in": q["document"]} for q in quotes]
        return {"number": number, "edition": None, "lang": quotes[0]["lang"], "kind": "quoted",
                "title": None, "text": {"en": next((q["text"] for q in quotes if q["lang"] == "en"), None),
                                        "ja": next((q["text"] for q in quotes if q["lang"] == "ja"), None)},
                "raw": quotes[0]["text"], "texts": texts, "parent": None, "children": [], "examples": [],
                "references_out": [], "references_in": [], "mechanics": [], "history": [], "current": None,
                "note": "no loaded CR edition has this rule; shown as quoted by the documents",
                "citations": [t["citation"] for t in texts]}

    def today_number(self, number: str, edition: str) -> str | None:
        """The current EN number of rule ``number`` of ``edition`` by lineage (None: removed or unknown)."""
        from kb.resolve import Resolver
        resolver = Resolver(self.model.en_editions(), self.model.rules, self.model.next_link)
        if ("en", edition, number) not in self.model.rules:
            return None
        return resolver.carry_forward(number, edition)[0]

    def _current_of(self, key) -> dict | None:
        from kb.resolve import Resolver
        if key[0] != "en":
            return None
        resolver = Resolver(self.model.en_editions(), self.model.rules, self.model.next_link)
        status = resolver.status(key[2], key[1])
        return status["current"] | {"status": status["status"]} if status["current"] else \
            {"number": None, "edition": resolver.current, "status": status["status"]}

    def _references_in(self, key) -> list[dict]:
        out = []
        for ref in self.model.refs_in.get(key, []):
            entry = {k: v for k, v in ref.items() if k != "locator"}
            if ref.get("locator"):
                entry["citation"] = self._locator_citation(ref["locator"])
            out.append(entry)
        if key[0] == "en" and key[1] == self.model.current("en"):  # rulings the reasoning engine links
            for rid, linked in self.model.ruling_rules.items():
                if key[2] in linked["rules"]:
                    r = self.model.rulings[rid]
                    out.append({"kind": "quote" if r["kind"] == "quoted-rule" else "ruling", "id": rid,
                                "text": r["text"], "document": r["document"], "via": "reasoning",
                                "deciding": key[2] in linked["deciding"],
                                "citation": self._locator_citation(r["locator"], date=r.get("date"))})
        return out

    def _mechanics_of_rule(self, number: str, edition: str) -> list[dict]:
        """Mechanics whose primary rule is this rule or one of its ancestors (712.8e -> 712)."""
        if self._by_primary is None:
            by_primary: dict[tuple[str, str], list[dict]] = {}
            for m in self.model.mechanics.values():
                if m["rules"]:
                    by_primary.setdefault((m["edition"], m["rules"][0]), []).append(self._mechanic_summary(m))
            self._by_primary = by_primary
        out, walk = [], number
        while walk:
            out.extend(self._by_primary.get((edition, walk), ()))
            rule = self.model.rules.get(("en", edition, walk))
            walk = rule["parent"] if rule else None
        return out

    def reasoning_key(self, mechanic_key: str) -> str | None:
        """The key of the state-question mechanic (``kb ask``) that covers a graph mechanic, if any."""
        return self.rulebook()._reasoning_of.get(mechanic_key)

    def suggest(self, number: str, edition: str | None = None, limit: int = 5) -> list[str]:
        try:
            edition = self._edition(edition)
        except KBError:
            return []
        if edition not in self._numbers:
            self._numbers[edition] = sorted({k[2] for k in self.model.rules if k[1] == edition})
        numbers = self._numbers[edition]
        value = unicodedata.normalize("NFKC", number or "").strip().rstrip(".").lower()
        if not value:
            return []
        head = [n for n in numbers if n.startswith(value.rsplit(".", 1)[0] + ".") or n == value.rsplit(".", 1)[0]]
        ranked = process.extract(value, head or numbers, scorer=fuzz.ratio, limit=limit)
        return [n for n, _, _ in ranked]

    def formerly(self, number: str) -> list[dict]:
        """Older editions where ``number`` meant a rule that today has another number."""
        from kb.resolve import Resolver
        resolver = Resolver(self.model.en_editions(), self.model.rules, self.model.next_link)
        out = []
        for edition in self.model.en_editions()[:-1]:
            status = resolver.status(number, edition)
            if status["status"] in ("renumbered", "removed"):
                out.append({"edition": edition, "number": number, "status": status["status"],
                            "current": status["current"]})
        return out

    def history(self, number: str, edition: str | None = None, lang: str = "en") -> list[dict]:
        """The rule across every loaded edition: oldest first, with how each step was matched."""
        number = canonical_rule_number(number)
        edition = self._edition(edition)
        key = ("en", edition, number)
        if key not in self.model.rules:
            return []
        back = []
        walk = key
        while walk in self.model.prev_link:
            old_number, method, score, changed = self.model.prev_link[walk]
            eds = self.model.en_editions()
            walk = ("en", eds[eds.index(walk[1]) - 1], old_number)
            back.append(walk)
        chain = list(reversed(back)) + [key]
        walk = key
        while walk in self.model.next_link:
            new_number = self.model.next_link[walk][0]
            eds = self.model.en_editions()
            walk = ("en", eds[eds.index(walk[1]) + 1], new_number)
            chain.append(walk)
        out = []
        for index, k in enumerate(chain):
            link = self.model.prev_link.get(k) if index else None
            if index == 0:  # before the oldest loaded edition nothing is known
                event = "present" if k[1] == self.model.en_editions()[0] else "created"
            elif link[0] != k[2]:
                event = "moved, text changed" if link[3] else "moved"
            else:
                event = "text changed" if link[3] else "unchanged"
            out.append({"edition": k[1], "number": k[2], "text": self.model.rules[k]["text"], "event": event,
                        "method": link[1] if link else None, "score": link[2] if link else None,
                        "text_changed": link[3] if link else None, "citation": self.rule_citation(k)})
        last = chain[-1]
        if last[1] != self.model.en_editions()[-1]:
            eds = self.model.en_editions()
            out.append({"edition": eds[eds.index(last[1]) + 1], "number": None, "text": None, "event": "removed",
                        "method": None, "score": None, "text_changed": None, "citation": None})
        return out

    # ------------------------------------------------------------ mechanics

    def find_mechanics(self, name: str, limit: int = 10, *, by_question: bool = True) -> list[dict]:
        """Mechanics named ``name`` (JA/EN name, alias, reading, key), best supported first.
        ``by_question``: also accept the name of a state-question mechanic (``kb ask --list``)."""
        if not name or not name.strip():
            raise KBError("empty_name", "a mechanic name is required (JA or EN, e.g. 予示 or manifest)")
        model = self.model
        query = normalize(name)
        keys = list(model.mechanic_names.get(query, []))
        if not keys:
            folded = normalize_kana(name)
            keys = [k for n, ks in model.mechanic_names.items() if normalize_kana(n) == folded for k in ks]
        if not keys and len(query) >= 2:  # "唱える" is inside "呪文を唱える"
            keys = [k for n, ks in model.mechanic_names.items() if query in n for k in ks]
        if not keys and model.mechanics and by_question:  # a question mechanic ("double-faced-card")
            from kb.reasoning.engine import list_mechanics
            for m in list_mechanics():
                if query in {normalize(m["key"]), normalize(m["name_en"] or ""), normalize(m["name_ja"] or "")}:
                    keys = list(self.rulebook()._graph_keys.get(m["key"], []))
        keys = list(dict.fromkeys(keys))

        def weight(key):
            m = model.mechanics[key]
            return (-len(m["documents"]), -len(m["rulings"]), m["kind"] == "term", key)
        return [self._mechanic_summary(model.mechanics[k]) for k in sorted(keys, key=weight)[:limit]]

    @staticmethod
    def _mechanic_summary(m: dict) -> dict:
        return {"key": m["key"], "name_en": m["name_en"], "name_ja": m["name_ja"], "kind": m["kind"]}

    def mechanic(self, name: str) -> dict | None:
        found = self.find_mechanics(name, limit=5)
        if not found:
            return None
        m = self.model.mechanics[found[0]["key"]]
        edition = m["edition"]
        rules = [self._rule_brief(("en", edition, n)) for n in m["rules"] if ("en", edition, n) in self.model.rules]
        related_rules = []
        for n in m["rules"][:1]:
            for ref in self.model.refs_in.get(("en", edition, n), []):
                if ref["kind"] == "rule" and ref["number"] not in m["rules"]:
                    related_rules.append(self._rule_brief(("en", edition, ref["number"])))
        rulings = [self.ruling(rid) for rid in m["rulings"]]
        cards = [self._card_brief(self.model.cards[k]) for k in m["cards"] if k in self.model.cards]
        out = {"key": m["key"], "name": {"en": m["name_en"], "ja": m["name_ja"]},
               "aliases": {"en": m["aliases_en"], "ja": m["aliases_ja"]}, "kind": m["kind"], "edition": edition,
               "rules": rules, "related_rules": related_rules[:30], "rulings": rulings, "cards": cards,
               "related": [self._mechanic_summary(self.model.mechanics[k]) for k in m["related"]
                           if k in self.model.mechanics],
               "documents": [self.model.documents[d] | {"citation": self._doc_citation(d)} for d in m["documents"]],
               "glossary": self._glossary_entries(m),
               "other_matches": found[1:]}
        out["citations"] = [r["citation"] for r in rules] + [r["citation"] for r in rulings if r]
        return out

    def _glossary_entries(self, m: dict) -> list[dict]:
        out = []
        for lang, term in m["glossary"]:
            edition = self.model.current(lang)
            entry = self.model.glossary.get((lang, edition, term))
            if entry:
                out.append({"lang": lang, "edition": edition, "term": term, "text": entry["text"],
                            "citation": self._locator_citation(entry["locator"], edition=edition)})
        return out

    def _rule_brief(self, key) -> dict:
        rule = self.model.rules[key]
        ja_key = self._ja_for(key)
        ja = self.model.rules.get(ja_key) if ja_key else None
        return {"number": key[2], "edition": key[1], "kind": rule["kind"], "text_en": rule["text"],
                "text_ja": ja["text"] if ja else None, "citation": self.rule_citation(key)}

    # ------------------------------------------------------------ rulings, documents, cards

    def ruling(self, ruling_id: str) -> dict | None:
        r = self.model.rulings.get(ruling_id)
        if r is None:
            return None
        out = {k: v for k, v in r.items() if k not in ("locator",)}
        out["citation"] = self._locator_citation(r["locator"], date=r.get("date"))
        out["cited_rules"] = [res for c in r.get("citations", []) for res in c["resolved"]]
        # Rules the reasoning engine applies when it runs this ruling's own situation, deciding first.
        linked = self.model.ruling_rules.get(ruling_id, {})
        current = self.model.current("en")
        out["backed_by"] = [{"number": n, "edition": current, "deciding": n in linked["deciding"],
                             "citation": self.rule_citation(("en", current, n))}
                            for n in linked.get("rules", []) if ("en", current, n) in self.model.rules]
        return out

    def rulings(self, mechanic: str | None = None, document: str | None = None) -> list[dict]:
        ids = list(self.model.rulings)
        if mechanic:
            found = self.find_mechanics(mechanic, limit=1)
            if not found:
                raise KBError("mechanic_not_found", f"no mechanic named {mechanic!r}")
            ids = self.model.mechanics[found[0]["key"]]["rulings"]
        if document:
            if document not in self.model.documents:
                raise KBError("document_not_found", f"no document {document!r}")
            ids = [i for i in ids if self.model.rulings[i]["document"] == document]
        return [self.ruling(i) for i in ids]

    def documents(self) -> list[dict]:
        return [d | {"citation": self._doc_citation(d["id"])} for d in self.model.documents.values()]

    def document(self, doc_id: str) -> dict | None:
        doc = self.model.documents.get(doc_id)
        if doc is None:
            return None
        return doc | {"citation": self._doc_citation(doc_id),
                      "rulings": [self.ruling(i) for i, r in self.model.rulings.items() if r["document"] == doc_id]}

    @staticmethod
    def _card_brief(card: dict) -> dict:
        return {"key": card["key"], "name_ja": card["name_ja"], "name_en": card["name_en"]}

    def card(self, name: str) -> dict | None:
        if not name or not name.strip():
            raise KBError("empty_name", "a card name is required (JA or EN)")
        key = self.model.card_names.get(normalize(name)) or (name if name in self.model.cards else None)
        if key is None:
            return None
        card = self.model.cards[key]
        mentions, mechanics = [], {}
        for m in card["mentions"]:
            ruling = self.model.rulings[m["ruling"]]
            mentions.append({"id": ruling["id"], "kind": ruling["kind"], "text": ruling["text"], "raw": m["raw"],
                             "citation": self._locator_citation(ruling["locator"], line=m["line"], column=m["column"])})
            for k in ruling.get("mechanics", []):
                mechanics[k] = self._mechanic_summary(self.model.mechanics[k]) if k in self.model.mechanics else None
        sources = [self._doc_citation(s) for s in card["sources"]]
        return {"key": key, "name_ja": card["name_ja"], "name_en": card["name_en"], "mentions": mentions,
                "mechanics": [m for m in mechanics.values() if m], "sources": sources,
                "citations": [m["citation"] for m in mentions] + sources}


    # ------------------------------------------------------------ search

    def search(self, q: str, lang: str | None = None, limit: int = 10, kinds: set[str] | None = None) -> dict:
        """Ranked hits over rules, glossary, rulings, quotes, mechanics and cards, JA and EN.
        A rule number goes straight to that rule (``goto``)."""
        from kb.search import is_rule_number
        query = (q or "").strip()
        if not query:
            raise KBError("empty_query", "the search query is empty")
        if len(query) > 500:
            raise KBError("query_too_long", "the search query is longer than 500 characters")
        if lang not in (None, "ja", "en"):
            raise KBError("bad_lang", f"lang must be 'ja' or 'en', not {lang!r}")
        if not 1 <= int(limit) <= 100:
            raise KBError("bad_limit", "limit must be between 1 and 100")
        hits = self.search_index.search(query, lang=lang, kinds=kinds, limit=int(limit))
        number = is_rule_number(query)
        return {"query": query, "goto": number if number and self.model.current("en") and
                ("en", self.model.current("en"), number) in self.model.rules else None,
                "hits": [{"kind": h.doc.kind, "id": h.doc.id, "lang": h.doc.lang, "title": h.doc.title,
                          "snippet": h.snippet, "score": round(h.score, 3), "rule": h.doc.rule_number,
                          "rules": self._rules_of_hit(h.doc), "edition": h.doc.edition,
                          "mechanics": list(h.doc.mechanics), "citation": h.doc.citation}
                         for h in hits]}

    def _rules_of_hit(self, doc) -> list[str]:
        """The rules a hit leads to: a rule or quote its own number; a glossary entry the rules it
        cites; a mechanic its defining rules; a ruling the rules that decide it (or that it cites)."""
        if doc.rule_number:
            return [doc.rule_number]
        if doc.kind == "glossary":
            _, lang, edition, term = doc.id.split(":", 3)
            return list(self.model.glossary.get((lang, edition, term), {}).get("refs", []))[:5]
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

    # ------------------------------------------------------------ reasoning

    def rulebook(self):
        """The reasoning engine's view of this KB (kb.kb_rulebook.KBRuleBook)."""
        if self._rulebook_obj is None:
            from kb.kb_rulebook import KBRuleBook
            self._rulebook_obj = KBRuleBook(self)
        return self._rulebook_obj

    def ask(self, mechanic: str, situation) -> dict:
        """Answer a state question; ``mechanic`` is a reasoning key or any name of its mechanic."""
        from kb.reasoning.engine import ask, list_mechanics
        listed = list_mechanics()
        keys = {m["key"] for m in listed}
        key = mechanic if mechanic in keys else None
        if key is None and mechanic:  # the names `kb ask --list` shows: 昼と夜, Day and night
            key = next((m["key"] for m in listed if normalize(mechanic) in
                        (normalize(m["name_ja"] or ""), normalize(m["name_en"] or ""))), None)
        if key is None and mechanic and mechanic.strip():
            book = self.rulebook()
            for found in self.find_mechanics(mechanic, limit=5):
                key = book._reasoning_of.get(found["key"])
                if key:
                    break
        if key is None:
            raise KBError("mechanic_not_answerable", f"no state questions for {mechanic!r}; "
                          f"ask about one of: {', '.join(sorted(keys))}", mechanics=sorted(keys))
        return ask(self.rulebook(), key, situation)

    @staticmethod
    def ask_schemas() -> list[dict]:
        from kb.reasoning.engine import list_mechanics
        return list_mechanics()

    # ------------------------------------------------------------ citations and rulings over time

    def check_citations(self, text: str, date=None, lang: str | None = None) -> dict:
        """Every rule citation and quoted rule in ``text`` checked against the editions (kb.citecheck)."""
        from kb.citecheck import check_citations
        return check_citations(self, text, date=date, lang=lang)

    def rulings_over_time(self) -> dict:
        """Rulings superseded by later CR changes, and rulings that contradict each other."""
        from kb.rulings_time import rulings_over_time
        return rulings_over_time(self)

