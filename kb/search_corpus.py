"""SearchDocs straight from the parsers, for the search benchmark and tests.

The KB build will produce the documents itself (with resolved citations, lineage and card links);
this module only gives the benchmark a realistic corpus before that exists: every EN edition, the
JA excerpts, the seed documents' rulings and quotes, the mechanic lexicon and card names.
"""
from __future__ import annotations

import re
from pathlib import Path

from . import settings
from .mechanics import Lexicon, _is_title
from .parsers import article, card_data, faq, wiki_page, wiki_source
from .parsers.cr_en import parse_cr_en
from .parsers.cr_ja import parse_cr_ja
from .records import CREdition, Rule
from .search import SearchDoc
from .sources import classify, load_manifest

SEED_PARSERS = {"wiki-source": wiki_source, "wiki-page": wiki_page, "faq": faq, "article": article}
DEFINITION_BOOST = 1.1
CARD_PARSERS = {"wiki-names": card_data.parse_wiki_name_table, "names-tsv": card_data.parse_names_tsv}


def _rule_titles(edition: CREdition) -> dict[str, str]:
    """number -> "<number> <nearest titled ancestor>" (702.6a -> "702.6a Equip")."""
    by = {r.number: r for r in edition.rules}
    titles = {}
    for r in edition.rules:
        if r.kind in ("chapter", "section"):
            titles[r.number] = f"{r.number}. {r.text}"
            continue
        parent = by.get(r.parent or "")
        head = r.text if _is_title(r.text) else None
        while head is None and parent is not None:
            if parent.kind == "section" or _is_title(parent.text):
                head = parent.text
            parent = by.get(parent.parent or "")
        titles[r.number] = f"{r.number} {head or ''}".strip()
    return titles


def _rule_text(rule: Rule) -> str:
    return "\n".join([rule.text, *(e.text for e in rule.examples)])


class _Mechanics:
    def __init__(self, lexicon: Lexicon):
        self.lexicon = lexicon
        self.by_rule: dict[str, set[str]] = {}
        for m in lexicon.by_key.values():
            for number in m.rules:
                self.by_rule.setdefault(number, set()).add(m.key)

    def for_rule(self, number: str) -> set[str]:
        found: set[str] = set()
        while number:
            found |= self.by_rule.get(number, set())
            if found:
                return found
            number = re.sub(r"[a-z]$", "", number) if number[-1].isalpha() else \
                (number.split(".")[0] if "." in number else "")
        return found

    def resolve(self, key: str) -> set[str]:
        lex = self.lexicon
        for k in (key, key + "s"):
            if k in lex.by_key:
                return {k}
        for name in (key.replace("-", " "), *key.split("-")):
            found = {m.key for m in lex.find_en(name)}
            if found:
                return found
        return set()

    def names(self, keys, lang: str) -> str:
        out = []
        for k in sorted(keys):
            m = self.lexicon.by_key[k]
            out.extend([m.name_en, *m.aliases_en] if lang == "en" else
                       [n for n in [m.name_ja, *m.aliases_ja] if n])
        return " ".join(out)


def corpus_docs(data_dir: Path | None = None, rules_src: Path | None = None, *,
                cards: str = "set") -> tuple[list[SearchDoc], dict[str, str], set[str]]:
    """(docs, mechanic_names, current_editions). ``cards``: "none" | "set" (one set) | "all"."""
    data_dir = data_dir or settings.shared_data_dir()
    rules_src = rules_src or settings.rules_src_dir()
    en = []
    for path in sorted(data_dir.glob("cr-en-*.txt")):
        sf = classify(path)
        en.append(parse_cr_en(sf.document.text, sf.document))
    en.sort(key=lambda e: e.edition)
    current = en[-1]
    ja = []
    for path in sorted(data_dir.glob("cr-ja-*.txt")):
        sf = classify(path)
        ja.append(parse_cr_ja(sf.document.text, sf.document, sf.edition_hint))
    lexicon = Lexicon(current)
    lexicon.add_ja_glossary([g for e in ja for g in e.glossary])
    seeds = []
    for sf in load_manifest(rules_src):
        parsed = SEED_PARSERS[sf.format].parse(sf.document.text, sf.document)
        for ja_name, en_name in parsed.defines:
            for m in lexicon.find_en(en_name):
                lexicon.add_ja_name(m.key, ja_name)
        seeds.append((sf, parsed))
    by_edition = {e.edition: {r.number: r for r in e.rules} for e in en}
    for sf, parsed in seeds:  # a quoted JA title names the EN rule of that number in that edition
        for q in parsed.quoted_rules:
            rules = by_edition.get(q.edition_hint or current.edition)
            rule = rules.get(q.number) if rules else None
            if q.lang == "ja" and rule and "." in q.number and _is_title(rule.text) and len(q.text) < 20:
                for m in lexicon.find_en(rule.text):
                    lexicon.add_ja_name(m.key, q.text)
    mech = _Mechanics(lexicon)

    docs: list[SearchDoc] = []
    for edition in [*en, *ja]:
        is_current = edition is current or edition.lang == "ja"
        titles = _rule_titles(edition)
        other = "ja" if edition.lang == "en" else "en"
        by_number = {r.number: r for r in edition.rules}
        for r in edition.rules:
            keys = tuple(sorted(mech.for_rule(r.number))) if is_current else ()
            parent = by_number.get(r.parent or "")
            # The first rule under a title-only heading defines the heading (731.1, 701.40a).
            defines = parent is not None and _is_title(parent.text) and r.number in (
                f"{parent.number}.1", f"{parent.number}a")
            docs.append(SearchDoc(
                id=f"rule:{edition.lang}:{edition.edition}:{r.number}", kind="rule", lang=edition.lang,
                title=titles[r.number], text=_rule_text(r), rule_number=r.number,
                edition=edition.edition, mechanics=keys, expansions=mech.names(keys, other),
                boost=DEFINITION_BOOST if defines else 1.0,
                citation={"document": edition.document.id, "number": r.number,
                          "lines": [r.locator.line_start, r.locator.line_end]}))
        for g in edition.glossary:
            keys = tuple(sorted(m.key for m in lexicon.find_en(g.term_en or g.term))) if is_current else ()
            docs.append(SearchDoc(
                id=f"glossary:{edition.lang}:{edition.edition}:{g.term}", kind="glossary",
                lang=edition.lang, title=g.term + (f" / {g.term_en}" if g.term_en else ""), text=g.text,
                rule_number=None, edition=edition.edition, mechanics=keys,
                expansions=mech.names(keys, other),
                citation={"document": edition.document.id, "lines": [g.locator.line_start, g.locator.line_end]}))
    for m in lexicon.by_key.values():
        names = " / ".join(n for n in [m.name_en, m.name_ja] if n)
        docs.append(SearchDoc(
            id=f"mechanic:{m.key}", kind="mechanic", lang="en", title=names,
            text=f"{names}. Rules {', '.join(m.rules)}.", mechanics=(m.key,),
            expansions=" ".join(m.aliases_en + m.aliases_ja), citation={"mechanic": m.key}))
    names_ja = {n for m in lexicon.by_key.values() for n in [m.name_ja, *m.aliases_ja] if n}
    for sf, parsed in seeds:
        doc = sf.document
        base = set().union(*(mech.resolve(k) for k in sf.mechanics)) if sf.mechanics else set()
        for r in parsed.rulings:
            keys = set(base)
            for c in r.citations:
                for n in c.numbers:
                    keys |= mech.for_rule(n) if doc.quotes_edition in (None, current.edition) else set()
            for link in r.links:
                if link in names_ja:
                    keys |= {m.key for m in lexicon.by_key.values() if link in (m.name_ja, *m.aliases_ja)}
            keys = tuple(sorted(keys))
            docs.append(SearchDoc(
                id=r.id, kind="ruling", lang=doc.lang, title=f"{doc.title} › {' > '.join(r.locator.section)}",
                text=r.text, rule_number=None, edition=None, mechanics=keys,
                expansions=mech.names(keys, "en"), boost=0.6 if r.kind == "note" else 1.0,
                citation={"document": doc.id, "lines": [r.locator.line_start, r.locator.line_end]}))
        for i, q in enumerate(parsed.quoted_rules):
            keys = tuple(sorted(base))
            docs.append(SearchDoc(
                id=f"{doc.id}#q{i}", kind="quote", lang=q.lang, title=f"{q.number} ({doc.title})",
                text=q.text, rule_number=q.number, edition=q.edition_hint, mechanics=keys,
                expansions=mech.names(keys, "en" if q.lang == "ja" else "ja"),
                citation={"document": doc.id, "lines": [q.locator.line_start, q.locator.line_end]}))
    if cards != "none":
        pattern = "mtgjson-set-*-names-en-ja.tsv" if cards == "set" else "*"
        for path in sorted((data_dir / "cards").glob(pattern)):
            sf = classify(path)
            if sf is None or sf.format not in CARD_PARSERS:
                continue
            for i, c in enumerate(CARD_PARSERS[sf.format](sf.document.text, sf.document)):
                if not c.name_ja:
                    continue
                docs.append(SearchDoc(
                    id=f"card:{sf.document.id}:{i}", kind="card", lang="ja", title=c.name_ja,
                    text=f"{c.name_ja} / {c.name_en}" + (f" — {c.type_ja}" if c.type_ja else ""),
                    rule_number=None, edition=None, mechanics=(), expansions=c.type_en or "",
                    citation={"document": sf.document.id, "name_en": c.name_en}))
    mechanic_names = {n: m.key for m in lexicon.by_key.values() for n in m.names()}
    return docs, mechanic_names, {current.edition, *(f"ja:{e.edition}" for e in ja)}
