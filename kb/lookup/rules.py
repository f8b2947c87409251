"""Rule lookups: a rule in any loaded edition with its JA/EN texts, family, links, history and
today's number (part of kb.lookup.KB)."""
from __future__ import annotations

import unicodedata

import orjson
from rapidfuzz import fuzz, process

from kb import rulenumbers
from kb.errors import KBError
from kb.lookup import changes, cite, display, translation
from kb.memo import per_owner, per_owner_copy


class RuleLookups:
    """Needs ``model``, ``lineage``, ``edition()``, ``check_lang()`` and the mechanic lookups."""

    def rule_citation(self, key) -> dict:
        return cite.rule(self.model, key)

    def ja_key(self, key):
        """The JA rule whose text translates the EN rule ``key`` (same number, through lineage)."""
        return self.lineage.ja_for(key) if key[0] == "en" else key

    def rule(self, number: str, edition: str | None = None, lang: str | None = None, *,
             serialised: bool = False) -> dict | None:
        """The rule's answer. ``serialised``: the parts derived once per KB (what cites it, its history
        and history spans, its heading) come as ``orjson.Fragment`` (their JSON, for an answer that is
        only written out as JSON: no copy, no second serialisation), the rest as plain values."""
        number = rulenumbers.canonical(number)
        self.check_lang(lang)
        if edition is None and not self.model.editions:
            return self._quoted_only(number)
        edition = self.edition(edition, lang or "en")
        key = ("en", edition, number)
        if key not in self.model.rules:
            if ("ja", edition, number) in self.model.rules:  # a JA edition with no EN edition of its date
                key = ("ja", edition, number)
            else:
                return self._quoted_only(number)
        rule = self.model.rules[key]
        derived = self._derived(key)
        part = orjson.Fragment if serialised else orjson.loads
        texts = [{"lang": key[0], "edition": edition, "text": rule["text"], "citation": self.rule_citation(key),
                  # each number in the text as the pages link it (kb.lookup.reftext: what it meant then)
                  "references": self.references(rule["text"], edition, key[0], number)}]
        texts.extend(orjson.loads(derived["ja_texts"]))
        ja = next((t for t in texts if t["lang"] == "ja"), None)
        if lang:
            texts = [t for t in texts if t["lang"] == lang] or texts
        out = {
            "number": number, "edition": edition, "lang": key[0], "kind": rule["kind"],
            "title": rule["text"] if rule["kind"] in ("chapter", "section") else None,
            "text": {"en": rule["text"] if key[0] == "en" else None, "ja": ja["text"] if ja else None},
            "ja_source": ja and {k: v for k, v in ja.items() if k not in ("text", "examples")},
            "raw": rule["raw"], "texts": texts, "parent": rule["parent"],
            "children": self.model.children.get(key, []),
            "examples": [{"text": e["text"], "lang": key[0],
                          "citation": cite.locator(e["locator"], rule=number, edition=edition)}
                         for e in rule["examples"]] + (ja.get("examples") or [] if ja and key[0] == "en" else []),
            "references_out": [{"number": n, "edition": edition, "exists": (key[0], edition, n) in self.model.rules}
                               for n in rule["refs"]],
            "references_in": part(derived["references_in"]),
            "mechanics": self._mechanics_of_rule(number, edition),
            "history": part(derived["history"]),
            "history_spans": part(derived["history_spans"]),
            "current": self._current_of(key),
            "heading": part(derived["heading"]), "previous": derived["previous"], "next": derived["next"],
        }
        out["citations"] = [t["citation"] for t in texts]
        return out

    def _quoted_only(self, number: str) -> dict | None:
        """With no official edition holding the rule, the documents' quotes are what we know of it."""
        quotes = [q for q in self.model.quotes.values() if q["number"] == number]
        if not quotes:
            return None
        texts = [{"lang": q["lang"], "edition": q["edition"], "text": q["text"],
                  "citation": cite.locator(q["locator"], rule=number, edition=q["edition"]),
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
        if ("en", edition, number) not in self.model.rules:
            return None
        return self.lineage.forward(number, edition)[0]

    def _current_of(self, key) -> dict | None:
        if key[0] != "en":
            return None
        status = self.lineage.status(key[2], key[1])
        return status["current"] | {"status": status["status"]} if status["current"] else \
            {"number": None, "edition": self.lineage.current, "status": status["status"]}

    def _derived(self, key) -> dict:
        """What a rule's answer derives from the model beyond its own row: its JA texts (with word
        diffs of the EN changes since the translation), what cites it, its history steps and spans
        (word diffs), its heading, as JSON (each caller parses its own copy or writes it out as it
        is); the previous and next rule numbers. Computed once per KB and rule (``prepare_rules``
        does an edition's at once, as the server does for the current one before serving)."""
        def compute() -> dict:
            en = key[0] == "en"
            near = self.neighbours(key[2], key[1])
            return {"ja_texts": orjson.dumps(translation.ja_texts(self, key) if en else []),
                    "references_in": orjson.dumps(self._references_in(key)),
                    "history": orjson.dumps(self._history(key[2], key[1]) if en else []),
                    "history_spans": orjson.dumps(self._history_spans(key[2], key[1]) if en else None),
                    "heading": orjson.dumps(self.heading(key[2], key[1])),
                    "previous": near["previous"] and near["previous"]["number"],
                    "next": near["next"] and near["next"]["number"]}
        return per_owner(self, ("rule-derived", key), compute)

    def prepare_rules(self, edition: str | None = None) -> int:
        """Compute the derived parts of every rule of an EN edition (default: the current one) now,
        so that no first request for a rule pays for its word diffs. Returns how many."""
        if not self.model.editions:
            return 0
        edition = self.edition(edition)
        keys = [("en", edition, n) for n in self.model.edition_rules("en", edition)]
        for key in keys:
            self._derived(key)
        return len(keys)

    def _references_in(self, key) -> list[dict]:
        out = []
        for ref in self.model.refs_in.get(key, []):
            entry = {k: v for k, v in ref.items() if k != "locator"}
            if ref.get("locator"):
                entry["citation"] = cite.locator(ref["locator"])
            if entry.get("kind") not in ("rule", "glossary"):
                self._statement_view(entry)
            out.append(entry)
        if key[0] == "en" and key[1] == self.model.current("en"):  # rulings the reasoning engine links
            for rid, linked in self.model.ruling_rules.items():
                if key[2] in linked["rules"]:
                    r = self.statement(rid)
                    out.append(self._statement_view({
                    "kind": "quote" if r["kind"] == "quoted-rule" else "ruling", "id": rid, "text": r["text"],
                    "document": r["document"], "via": "reasoning", "deciding": key[2] in linked["deciding"],
                    "citation": cite.locator(r["locator"], date=r.get("date"))}))
        return out

    def _statement_view(self, entry: dict) -> dict:
        """A ruling or quote in a list: its visible text, whether it is superseded, and the edition
        its rule numbers were written in (so they link to what they meant)."""
        r = self.statement(entry["id"]) or {}
        doc = self.model.documents.get(r.get("document") or entry.get("document") or "", {})
        entry["display"] = display.shown(r if r.get("text") == entry.get("text") else entry)
        entry["superseded"] = display.superseded(self, entry["id"])
        entry["source_type"] = display.source_of(self.model, r or entry)
        entry["written_in"] = r.get("edition") or doc.get("edition")
        return entry

    def _mechanics_of_rule(self, number: str, edition: str) -> list[dict]:
        """Mechanics whose primary rule is this rule or one of its ancestors (712.8e -> 712)."""
        def index() -> dict:
            by_primary: dict[tuple[str, str], list[dict]] = {}
            for m in self.model.mechanics.values():
                if m["rules"]:
                    by_primary.setdefault((m["edition"], m["rules"][0]), []).append(self.mechanic_summary(m))
            return by_primary
        by_primary = per_owner(self, "mechanics-by-primary-rule", index)
        out, walk = [], number
        while walk:
            out.extend(by_primary.get((edition, walk), ()))
            rule = self.model.rules.get(("en", edition, walk))
            walk = rule["parent"] if rule else None
        return out

    def suggest(self, number: str, edition: str | None = None, limit: int = 5) -> list[str]:
        try:
            edition = self.edition(edition)
        except KBError:
            return []
        numbers = per_owner(self, ("numbers", edition),
                            lambda: sorted({*self.model.edition_rules("en", edition), *self.model.edition_rules("ja", edition)}))
        value = unicodedata.normalize("NFKC", number or "").strip().rstrip(".").lower()
        if not value:
            return []
        head = [n for n in numbers if n.startswith(value.rsplit(".", 1)[0] + ".") or n == value.rsplit(".", 1)[0]]
        ranked = process.extract(value, head or numbers, scorer=fuzz.ratio, limit=limit)
        return [n for n, _, _ in ranked]

    def formerly(self, number: str) -> list[dict]:
        """Older editions where ``number`` meant a rule that today has another number."""
        return self.lineage.formerly(number)

    def history(self, number: str, edition: str | None = None) -> list[dict]:
        """The rule across every loaded edition: oldest first, with how each step was matched."""
        number = rulenumbers.canonical(number)
        edition = self.edition(edition)
        if ("en", edition, number) not in self.model.rules:
            return []
        # its own entry, not the rule's derived parts: those ask other rules' history (superseded rulings)
        return per_owner_copy(self, ("history", number, edition), lambda: self._history(number, edition))

    def _history(self, number: str, edition: str) -> list[dict]:
        """One step per loaded edition holding the rule (kb.lookup.changes says what each step may
        claim: "created" only when the official edition before is loaded, …); ``not_loaded``: the
        official editions between this step and the one before that are not loaded."""
        chain = self.lineage.chain(number, edition)
        loaded = self.loaded_dates()
        out = []
        for index, k in enumerate(chain):
            link = self.model.prev_link.get(k) if index else None
            before = chain[index - 1][1] if index else self.lineage.step(k[1], -1)
            if index == 0:  # before the first loaded edition holding it, only the official list tells
                event, gap = changes.begun(loaded, before, k[1])
            else:
                event, gap = changes.step_kind(link[0] != k[2], link[3]), changes.not_loaded(loaded, before, k[1])
            out.append({"edition": k[1], "number": k[2], "text": self.model.rules[k]["text"], "event": event.value,
                        "event_label": {"ja": changes.label(event, "ja"), "en": changes.label(event, "en")},
                        "not_loaded": gap,
                        "method": link[1] if link else None, "score": link[2] if link else None,
                        "text_changed": link[3] if link else None, "citation": self.rule_citation(k)})
        after = self.lineage.step(chain[-1][1], 1)
        if after:
            event, gap = changes.ended(loaded, chain[-1][1], after)
            out.append({"edition": after, "number": None, "text": None, "event": event.value,
                        "event_label": {"ja": changes.label(event, "ja"), "en": changes.label(event, "en")},
                        "not_loaded": gap, "method": None, "score": None, "text_changed": None, "citation": None})
        return out
