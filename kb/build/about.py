"""What a document and each of its statements is about: the mechanics a mechanic page lists them under.

A statement is attached to a mechanic by what it is about, never by words it shares with the
mechanic's names (the casting blog's 「…によるコスト増加」 holds よる, a reading of 夜, and is not about
day and night):
- the mechanics its document is about: those its manifest entry names (``mechanics = ["cast"]``)
  and those the page defines (``予示（よじ）/Manifest``);
- the mechanic whose rules it cites or quotes (today's number, the nearest titled ancestor that is
  a keyword or rules-section mechanic's rule: a quote of 702.37c is about morph).
A mechanic's example cards are those of its statements about the game rules (a note's trivia —
「日中の光/Light of Day…はゲームの昼夜と無関係に働く」 — names cards that are not examples of it).
"""
from __future__ import annotations

from collections import defaultdict

from kb.build.mechanics import Lexicon, Mechanic
from kb.parse.corpus import Corpus
from kb.store.rows import Model
from kb.text import normalize

NOT_EXAMPLES = ("note",)  # statement kinds whose cards are not examples of the mechanic


def _named(lexicon: Lexicon, name: str) -> list[Mechanic]:
    """A manifest's mechanic name: an EN name, or a key as written ("double-faced-card")."""
    found = lexicon.find_en(name) or lexicon.find_en(name.replace("-", " "))
    if found:
        return found
    return [lexicon.by_key[k] for k in (name, name + "s") if k in lexicon.by_key]


def _by_rule(lexicon: Lexicon, number: str) -> str | None:
    """The keyword or rules-section mechanic whose own rule is ``number`` or its nearest ancestor."""
    while number:
        key = lexicon.for_rule(number)
        if key and lexicon.by_key[key].kind != "term":
            return key
        if "." in number:
            head, tail = number.split(".", 1)
            number = head + "." + tail.rstrip("abcdefghijkmnpqrstuvwxyz") if tail[-1:].isalpha() else head
        else:
            number = ""
    return None


def attach(model: Model, corpus: Corpus, lexicon: Lexicon) -> None:
    current = lexicon.edition
    doc_mechanics: dict[str, set[str]] = defaultdict(set)
    for doc in model.documents.values():
        for name in doc.get("mechanic_names", []):
            for m in _best_for_document(_named(lexicon, name), doc, model):
                doc_mechanics[doc["id"]].add(m.key)
        for _, en in doc.get("defines", []):
            for m in _best_for_document(lexicon.find_en(en), doc, model):
                doc_mechanics[doc["id"]].add(m.key)
    for ruling in model.statements():
        about = set(doc_mechanics.get(ruling["document"], ()))
        cited = [res for c in ruling.get("citations", []) for res in c["resolved"]]
        if ruling["kind"] == "quoted-rule" and ruling.get("resolved"):
            cited.append(ruling["resolved"])
        for res in cited:
            today = (res.get("current") or {}).get("number")
            key = _by_rule(lexicon, today) if today else None
            if key:
                about.add(key)
        ruling["mechanics"] = sorted(about)
    for m in lexicon.by_key.values():
        rulings = [r["id"] for r in model.statements() if m.key in r["mechanics"] and not r.get("heading")]
        cards = list(dict.fromkeys(c["key"] for rid in rulings for c in model.statement(rid).get("cards", [])
                                   if c.get("key") and model.statement(rid)["kind"] not in NOT_EXAMPLES))
        model.mechanics[m.key] = {
            "key": m.key, "name_en": m.name_en, "name_ja": m.name_ja, "aliases_en": m.aliases_en,
            "aliases_ja": m.aliases_ja, "kind": m.kind, "edition": current, "rules": m.rules,
            "related": sorted(m.related), "glossary": m.glossary, "rulings": rulings, "cards": cards,
            "documents": sorted(d for d, keys in doc_mechanics.items() if m.key in keys),
            "ja_source": m.ja_source, "ja_missing": m.ja_missing if not m.name_ja else None}
        for name in m.names():
            model.mechanic_names.setdefault(normalize(name), []).append(m.key)
        model.mechanic_names.setdefault(normalize(m.key), []).append(m.key)


def _best_for_document(candidates: list[Mechanic], doc: dict, model: Model) -> list[Mechanic]:
    """"Room" names two mechanics (dungeon room, Room enchantment): keep the one whose rules the
    document quotes or cites."""
    if len(candidates) <= 1:
        return candidates
    cited = {r["resolved"]["current"]["number"] for r in model.quotes.values()
             if r["document"] == doc["id"] and r["resolved"].get("current")}
    cited |= {r["number"] for r in model.quotes.values() if r["document"] == doc["id"]}
    scored = [(sum(1 for n in m.rules if any(c == n or c.startswith(n + ".") or n.startswith(c) for c in cited)), m)
              for m in candidates]
    best = max(s for s, _ in scored)
    return [m for s, m in scored if s == best][:1]
