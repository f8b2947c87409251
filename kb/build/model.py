"""Records -> the model: every node of the graph as plain, picklable dicts.

The model is written twice by one build: as RDF triples (kb.graph, the graph users query with
SPARQL and export) and as the lookup indexes the API serves from (kb.store.snapshot). Both come from
this one pass, so they cannot drift apart; a test compares them.
"""
from __future__ import annotations

import functools
import hashlib
import re

from rapidfuzz import fuzz

from kb.parse.corpus import Corpus
from kb.parse.card_mentions import find_slash_names
from kb.citations.extract import find_citations
from kb.build.cache import code_digest
from kb.build import about, ja_names, japanese
from kb.build.cards import add_oracle_cards, fill_from_name, link_cards, record_locator
from kb.build.forms import link_forms
from kb.build.lineage import match_editions
from kb.build.mechanics import Lexicon, slug
from kb.store.rows import Model
from kb.parse.records import CitationMention, Locator, Rule
from kb.citations.editions import EditionChooser
from kb.store.lineage import Lineage
from kb.sources.types import source_type
from kb.text import normalize
from kb.wikitext import visible

_SENTENCE = re.compile(r"[。．.、，,：:「」“”()（）]")


def is_bare_heading(text: str) -> bool:
    """A quoted rule that is only a title (「711. 両面カード」, "601. Casting Spells"): a heading."""
    text = text.strip()
    return 0 < len(text) <= 40 and "\n" not in text and not _SENTENCE.search(text)


SECTION_LINE = re.compile(r"^(\d{3})\.\s*(\S.*?)\s*$")


def loc(locator: Locator, title: str = "") -> dict:
    return {"document": locator.document, "document_title": title, "line_start": locator.line_start,
            "line_end": locator.line_end, "section": " > ".join(locator.section),
            "locator": locator.describe()}


def _mention(c: CitationMention) -> dict:
    return {"raw": c.raw, "numbers": list(c.numbers), "line": c.line, "column": c.column,
            "title": c.title, "is_range": c.is_range}


def build_model(corpus: Corpus, progress=lambda _: None, memo=lambda kind, key, make: make(),
                row_keys: dict | None = None, nouns=None) -> Model:
    """``memo(kind, key, make)``: the build's cache (kb.build.cache), for lineage of unchanged pairs.
    ``row_keys`` (if given) receives each edition's cache key, (lang, edition) -> key: a digest of
    everything its rows are made from (kb.build.rdfstore keys the edition's part by it).
    ``nouns``: a memo of kb.search.tokenize.nouns (kb.build.cache.TextMemo), or None."""
    model = Model()
    _editions(model, corpus, memo, {} if row_keys is None else row_keys)
    _current_flags(model)
    progress("lineage across editions")
    _lineage(model, corpus, memo)
    japanese.align(model, corpus.ja_editions(), memo, row_keys)
    en = corpus.en_editions()
    lineage = Lineage(model)
    resolver = EditionChooser(lineage)
    lexicon = Lexicon(en[-1]) if en else None
    if lexicon:
        for edition, titles in model.ja_section_titles.items():
            lexicon.add_ja_section_titles({
                today: title for number, title in titles.items()
                if model.rules.get(("en", edition, number), {}).get("kind") == "section"
                and (today := lineage.forward(number, edition)[0])})
        for ja in corpus.ja_editions():
            lexicon.add_ja_glossary(ja.glossary)
        japanese.name_mechanics(model, lexicon, lineage)
        ja_names.name_remaining(model, lexicon, lineage, *([nouns] if nouns else []))
    progress("documents, rulings and citations")
    _documents(model, corpus, resolver, lineage, lexicon)
    add_oracle_cards(model, corpus.oracle_cards)
    _cards(model, corpus)
    if lexicon:
        about.attach(model, corpus, lexicon)
        link_cards(model)
    link_forms(model)
    _references_in(model)
    return model


# ---------------------------------------------------------------- editions and rules


def _rule_dict(rule: Rule, lang: str, edition: str, doc_title: str) -> dict:
    refs = []
    mentions = _citations_in(rule.text)
    for c in mentions:
        refs.extend(n for n in c.numbers if n != rule.number and n not in refs)
    return {"number": rule.number, "kind": rule.kind, "lang": lang, "edition": edition,
            "text": rule.text, "raw": rule.raw, "parent": rule.parent, "refs": refs,
            "citations_raw": [c.raw for c in mentions],
            "examples": [{"text": e.text, "locator": loc(e.locator, doc_title)} for e in rule.examples],
            "locator": loc(rule.locator, doc_title)}


@functools.lru_cache(maxsize=32768)
def _citations_in(text: str) -> tuple:
    """Most rule texts repeat unchanged from edition to edition: find their citations once."""
    return tuple(find_citations(text))


def _editions(model: Model, corpus: Corpus, memo, row_keys: dict) -> None:
    titles = {s.document.id: s.document.title for s in corpus.sources}
    shas = {s.document.id: s.document.sha256 for s in corpus.sources}
    for source in corpus.sources:  # every CR file (each JA excerpt too) is a document of its own
        doc = source.document
        if doc.kind in ("cr", "card-data"):
            model.documents[doc.id] = {"id": doc.id, "title": doc.title, "kind": doc.kind, "lang": doc.lang,
                                       "date": doc.date.isoformat() if doc.date else None, "path": doc.path,
                                       "sha256": doc.sha256, "edition": source.edition_hint,
                                       "source_type": source_type(doc.kind, doc.source_type)}
    for source in corpus.sources:
        if source.format == "cr-ja" and source.edition_hint:
            titles_ja = model.ja_section_titles.setdefault(source.edition_hint, {})
            for line in source.document.text.splitlines():
                found = SECTION_LINE.match(line)
                if found:
                    titles_ja.setdefault(found[1], found[2])
    code = code_digest("build/model.py", "citations", "parse", "text.py", "rulenumbers.py")
    for (lang, edition), ed in sorted(corpus.editions.items()):
        doc = ed.document
        counts = ed.counts()
        model.editions[f"{lang}/{edition}"] = {
            "lang": lang, "edition": edition, "effective": ed.effective.isoformat(), "title": ed.title,
            "document": doc.id, "path": doc.path, "sha256": doc.sha256, "complete": ed.complete,
            "file_date": ed.file_date, "encoding": doc.encoding,
            "rules": counts.rules, "glossary": counts.glossary, "examples": counts.examples,
            "warnings": [{"line": line, "message": message} for line, message in ed.warnings],
            "anomalies": [{"line": line, "text": text} for line, text in ed.anomalies]}
        # The rows depend only on the edition's files and this code: kept in the build's cache.
        docs = sorted({doc.id, *counts.documents})
        key = hashlib.sha256(repr((lang, edition, code, [(d, shas.get(d), titles.get(d)) for d in docs])).encode())
        row_keys[(lang, edition)] = key.hexdigest()[:32]
        rows = memo("rows", row_keys[(lang, edition)], lambda: _edition_rows(ed, lang, edition, titles))
        for name in ("rules", "children", "glossary"):
            getattr(model, name).set_block(lang, edition, rows[name])


def _edition_rows(ed, lang: str, edition: str, titles: dict[str, str]) -> dict[str, dict]:
    """One edition's rules, children and glossary rows."""
    doc = ed.document
    rules: dict[str, dict] = {}
    children: dict[str, list[str]] = {}
    glossary: dict[str, dict] = {}
    for rule in ed.rules:
        rules[rule.number] = _rule_dict(rule, lang, edition, titles.get(rule.locator.document, doc.title))
        if rule.parent:
            children.setdefault(rule.parent, []).append(rule.number)
    for entry in ed.glossary:
        glossary[entry.term] = {
            "term": entry.term, "lang": lang, "edition": edition, "text": entry.text,
            "reading": entry.reading, "term_en": entry.term_en, "senses": entry.senses,
            "obsolete": entry.obsolete, "refs": [n for c in find_citations(entry.text) for n in c.numbers],
            "locator": loc(entry.locator, titles.get(entry.locator.document, doc.title))}
    return {"rules": rules, "children": children, "glossary": glossary}


def _current_flags(model: Model) -> None:
    for info in model.editions.values():
        info["current"] = info["edition"] == model.current(info["lang"])


def _lineage(model: Model, corpus: Corpus, memo) -> None:
    en = corpus.en_editions()
    code = code_digest("build/lineage.py", "text.py")
    for old, new in zip(en, en[1:]):
        key = f"{old.document.sha256}-{new.document.sha256}-{code}-tuples"
        # kept as plain tuples (old, new, method, score, text changed): read back several times
        # faster than the Link objects, and a build that adds one edition reads every pair
        for old_number, new_number, method, score, changed in memo("lineage", key, lambda: [
                (link.old, link.new, link.method, link.score, link.text_changed)
                for link in match_editions(old.rules, new.rules)]):
            model.next_link[("en", old.edition, old_number)] = (new_number, method, score, changed)
            # a merge links two old rules to one new rule: the first link is its predecessor
            model.prev_link.setdefault(("en", new.edition, new_number), (old_number, method, score, changed))
    # A JA edition translates the EN edition of the same date, rule for rule.
    for ja in corpus.ja_editions():
        for rule in ja.rules:
            en_key = ("en", ja.edition, rule.number)
            if en_key in model.rules:
                model.ja_of[en_key] = ("ja", ja.edition, rule.number)


# ---------------------------------------------------------------- documents


def _resolve_mentions(model: Model, lineage: Lineage, mentions: list[CitationMention], *, doc_id: str,
                      source: str, edition: str | None, method: str) -> list[dict]:
    out = []
    for c in mentions:
        entry = _mention(c) | {"id": f"{source}#c{c.line}.{c.column}", "document": doc_id, "source": source,
                               "edition": edition, "method": method,
                               "resolved": [lineage.status(n, edition) for n in c.numbers]}
        model.citations.append(entry)
        out.append(entry)
    return out


def _documents(model: Model, corpus: Corpus, resolver: EditionChooser, lineage: Lineage,
               lexicon: Lexicon | None) -> None:
    for parsed in corpus.documents:
        doc = parsed.document
        choice = resolver.choose_edition(parsed)
        source = next(s for s in corpus.sources if s.document.id == doc.id)
        model.documents[doc.id] = {
            "id": doc.id, "title": doc.title, "kind": doc.kind, "lang": doc.lang, "path": doc.path,
            "date": doc.date.isoformat() if doc.date else None, "sha256": doc.sha256,
            "quotes_edition": doc.quotes_edition, "edition": choice.edition, "edition_method": choice.method,
            "edition_detail": choice.detail, "defines": parsed.defines, "mechanic_names": list(source.mechanics),
            "sections": [s.title for s in parsed.sections], "source_type": source_type(doc.kind, doc.source_type),
            "headings": []}
        typed = model.documents[doc.id]["source_type"]
        for ruling in parsed.rulings:
            entry = {"id": ruling.id, "document": doc.id, "document_title": doc.title, "kind": ruling.kind,
                     "text": ruling.text, "display": visible(ruling.text), "source_type": typed,
                     "date": model.documents[doc.id]["date"], "depth": ruling.depth,
                     "parent": ruling.parent, "links": ruling.links, "locator": loc(ruling.locator, doc.title),
                     "cards": [{"raw": c.raw, "name": c.name, "name_ja": c.name_ja, "name_en": c.name_en,
                                "line": c.line, "column": c.column} for c in ruling.cards],
                     "mechanics": []}
            entry["citations"] = _resolve_mentions(model, lineage, ruling.citations, doc_id=doc.id,
                                                   source=ruling.id, edition=choice.edition, method=choice.method)
            model.rulings[ruling.id] = entry
        for index, quote in enumerate(parsed.quoted_rules, 1):
            qid = f"{doc.id}#q{index}"
            heading = is_bare_heading(quote.text)  # 「711. 両面カード」: a heading, kept as a quote, never a ruling
            if heading:
                model.documents[doc.id]["headings"].append({"id": qid, "number": quote.number, "text": quote.text,
                                                            "locator": loc(quote.locator, doc.title)})
            edition = quote.edition_hint if quote.edition_hint in resolver.editions else choice.edition
            method = "stated-by-document" if edition == quote.edition_hint else choice.method
            resolved = lineage.status(quote.number, edition)
            official = model.rules.get(("en", edition, quote.number)) if edition else None
            ja_official = model.rules.get(model.ja_of.get(("en", edition, quote.number), ("", "", "")))
            compare = ja_official if quote.lang == "ja" else official
            similarity = (fuzz.ratio(normalize(quote.text), normalize(compare["text"])) / 100) if compare else None
            model.quotes[qid] = {
                "id": qid, "document": doc.id, "document_title": doc.title, "kind": "quoted-rule",
                "number": quote.number, "raw_number": quote.raw_number, "lang": quote.lang,
                "text": quote.text, "display": visible(quote.text), "source_type": typed, "heading": heading,
                "date": model.documents[doc.id]["date"], "edition": edition,
                "edition_method": method, "resolved": resolved, "official_text": compare["text"] if compare else None,
                "similarity": similarity, "locator": loc(quote.locator, doc.title), "mechanics": [], "cards": [],
                "citations": _resolve_mentions(model, lineage, quote.citations, doc_id=doc.id, source=qid,
                                               edition=edition, method=method)}
        if lexicon:
            _ja_names_from_document(parsed, model, lexicon)


def _ja_names_from_document(parsed, model: Model, lexicon: Lexicon) -> None:
    """Titles written with JA citations (701.25「変身」) and page definitions (予示/Manifest)."""
    if parsed.document.lang != "ja":
        return
    for ruling in [r for r in model.statements() if r["document"] == parsed.document.id]:
        for c in ruling.get("citations", []):
            if not c["title"] or len(c["numbers"]) != 1:
                continue
            current = c["resolved"][0].get("current")
            key = lexicon.for_rule(current["number"]) if current else None
            if key and lexicon.by_key[key].kind != "term":  # a glossary term: the JA glossary names it
                lexicon.add_ja_name(key, c["title"])
    for ja, en in parsed.defines:
        for mechanic in lexicon.find_en(en):
            if mechanic.kind != "term":  # a glossary term's JA headword is the JA glossary's
                lexicon.add_ja_name(mechanic.key, ja)


# ---------------------------------------------------------------- cards and mechanics


def card_key(name_en: str | None, name_ja: str | None) -> str:
    return slug(name_en) if name_en else "ja-" + (name_ja or "")


def _cards(model: Model, corpus: Corpus) -> None:
    for name in corpus.cards:
        key = model.card_names.get(normalize(name.name_en or "")) or card_key(name.name_en, name.name_ja)
        card = model.cards.setdefault(key, {"key": key, "name_en": name.name_en, "name_ja": name.name_ja,
                                            "sources": [], "mentions": []})
        if not fill_from_name(card, name) and name.name_ja and not card["name_ja"]:
            card["name_ja"] = name.name_ja
        if name.source not in card["sources"]:
            card["sources"].append(name.source)
        if name.line is not None or name.pointer is not None:
            named_in = card.setdefault("named_in", [])
            if not any(loc["document"] == name.source for loc in named_in):
                named_in.append(record_locator(model, name.source, name.pointer, name.line))  # a name table's entry
    for card in model.cards.values():
        for n in (card["name_en"], card["name_ja"]):
            if n:
                model.card_names.setdefault(normalize(n), card["key"])
    for ruling in model.statements():
        ruling["cards"].extend(_slash_cards(ruling, model))
        for mention in ruling.get("cards", []):
            key = None
            for n in (mention["name_en"], mention["name_ja"], mention["name"]):
                if n and normalize(n) in model.card_names:
                    key = model.card_names[normalize(n)]
                    break
            if key is None:  # a card the name data doesn't know: still a card node
                key = card_key(mention["name_en"], mention["name_ja"] or mention["name"])
                model.cards[key] = {"key": key, "name_en": mention["name_en"],
                                    "name_ja": mention["name_ja"] or mention["name"], "sources": [], "mentions": []}
                for n in (mention["name_en"], mention["name_ja"] or mention["name"]):
                    if n:
                        model.card_names.setdefault(normalize(n), key)
            mention["key"] = key
            model.cards[key]["mentions"].append({"ruling": ruling["id"], "line": mention["line"],
                                                 "column": mention["column"], "raw": mention["raw"]})


def _slash_cards(ruling: dict, model: Model) -> list[dict]:
    """Rendered wiki text writes cards as "翻弄する魔道士/Meddling Mage": a card when the name data knows
    the English name (the Japanese run may carry leading words, "例えば翻弄する魔道士")."""
    if not model.card_names:
        return []
    found = []
    known = {c["raw"] for c in ruling["cards"]}
    for name in find_slash_names(ruling["text"], ruling["locator"]["line_start"] - 1):
        key = model.card_names.get(normalize(name.en))
        if key is None:
            continue
        card_ja = model.cards[key]["name_ja"]
        ja = card_ja if card_ja and name.ja.endswith(card_ja) else name.ja
        raw = f"{ja}/{name.en}"
        if raw not in known:
            found.append({"raw": raw, "name": name.en, "name_ja": ja, "name_en": name.en,
                          "line": name.line, "column": name.column + len(name.ja) - len(ja)})
    return found


def _references_in(model: Model) -> None:
    for key, rule in model.rules.items():
        for number in rule["refs"]:
            model.refs_in.setdefault((key[0], key[1], number), []).append(
                {"kind": "rule", "id": f"{key[0]}/{key[1]}/{key[2]}", "number": key[2], "edition": key[1],
                 "text": rule["text"], "locator": rule["locator"]})
    for (lang, edition, term), entry in model.glossary.items():
        for number in entry["refs"]:
            model.refs_in.setdefault((lang, edition, number), []).append(
                {"kind": "glossary", "id": term, "text": entry["text"], "locator": entry["locator"]})
    for citation in model.citations:
        source = model.statement(citation["source"])
        for res in citation["resolved"]:
            targets = []
            if res["edition"]:
                targets.append(("en", res["edition"], res["number"]))
            if res.get("current"):
                targets.append(("en", res["current"]["edition"], res["current"]["number"]))
            for target in dict.fromkeys(targets):
                model.refs_in.setdefault(target, []).append(
                    {"kind": source["kind"] if source else "ruling", "id": citation["source"],
                     "raw": citation["raw"], "text": source["text"] if source else "",
                     "document": citation["document"], "status": res["status"],
                     "locator": source["locator"] if source else None})
    for ruling in model.quotes.values():
        if ruling["resolved"].get("current") and not ruling.get("heading"):
            cur = ruling["resolved"]["current"]
            model.refs_in.setdefault(("en", cur["edition"], cur["number"]), []).append(
                {"kind": "quote", "id": ruling["id"], "number": ruling["number"], "text": ruling["text"],
                 "document": ruling["document"], "locator": ruling["locator"], "similarity": ruling["similarity"]})
