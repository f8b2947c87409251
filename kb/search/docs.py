"""The model -> search documents: every rule, glossary entry, ruling, quote, mechanic and mentioned card.

Cross-lingual bridges are written into ``expansions`` (searchable, never displayed): an EN rule
carries the JA names of its mechanics and the JA text of the quotes and rulings that cite it
(carried forward to today's number) or that the reasoning engine finds decided by it
(``model.ruling_rules``: the ruling's own situation, run, applied this rule first); a JA ruling
carries the EN names of its mechanics and cards.
"""
from __future__ import annotations

import hashlib
import re

from kb.parse.card_mentions import find_slash_names
from kb.store.lineage import Lineage
from kb.store.rows import Model
from kb.search.index import SearchDoc, SearchIndex
from kb.search.tokenize import EN_WORD, GRAM, HAS_JA, UNI, en_name_key, stem, tokens
from kb.search.tokenize import release as release_tokenizer
from kb.text import normalize

DEFINITION_BOOST = 1.1  # the first rule under a title-only heading (731.1, 701.40a) defines it
NOTE_WEIGHT = 0.6  # trivia bullets rank below rulings
HEADING_WEIGHT = 0.7  # a heading ("702.145. Daybound and Nightbound") says nothing its subrules don't


def _short_line(text: str) -> bool:
    """A ranking feature, not the title test (kb.text.is_title): a line under 60 characters with
    no final period. It takes in the titles, and also the short Japanese rules (ending in 。) and
    lead-ins ending in a colon, which then count as headings of the documents below them here:
    the search was tuned so, and the title test in its place measured worse on the judge
    questions (hybrid recall@10 .425 -> .418) though better on the JA keyword set (.685 -> .710)."""
    return len(text) < 60 and not text.rstrip().endswith(".")


def _is_heading(rule: dict) -> bool:
    return rule["kind"] in ("chapter", "section") or _short_line(rule["text"])


def _locator_citation(locator: dict, **extra) -> dict:
    return {"document": locator["document"], "document_title": locator["document_title"],
            "locator": locator["locator"], "line_start": locator["line_start"], "line_end": locator["line_end"],
            "section": locator["section"]} | extra


class _Mechanics:
    """Most specific mechanics of a current rule: the deepest defining rule among its ancestors."""

    def __init__(self, model: Model):
        self.model = model
        self.by_rule: dict[str, set[str]] = {}
        for m in model.mechanics.values():
            for number in m["rules"]:
                self.by_rule.setdefault(number, set()).add(m["key"])
        self.edition = model.current("en")

    def for_rule(self, number: str | None) -> tuple[str, ...]:
        """A rule that defines only plain terms (709.5g "lock") also belongs to the mechanic of the
        nearest ancestor that defines more than terms (709.5: Room, split cards)."""
        out: set[str] = set()
        while number:
            found = self.by_rule.get(number)
            if found:
                out |= found
                if any(self.model.mechanics[k]["kind"] != "term" for k in found):
                    break
            rule = self.model.rules.get(("en", self.edition, number))
            number = rule["parent"] if rule else None
        return tuple(sorted(out))

    def names(self, keys, lang: str) -> list[str]:
        out = []
        for k in keys:
            m = self.model.mechanics.get(k)
            if m:
                out.extend([m["name_en"], *m["aliases_en"]] if lang == "en" else
                           [n for n in [m["name_ja"], *m["aliases_ja"]] if n])
        return out


def stems(text: str) -> list[str]:
    """The stems of a text's English words, in order."""
    return [stem(w) for w in EN_WORD.findall(normalize(text))]


class _JaTerms:
    """EN game terms -> their JA names, from the JA glossary (``夜（よる）／Night``) and the
    mechanics' JA names; an EN rule that uses a term carries the JA name, as a translation of
    its key words would (731.2a "night" -> 夜, 709.5j "door"/"Room" -> ドア/部屋)."""

    MAX_WORDS = 4

    def __init__(self, model: Model, words=None):
        """``words``: a memo of ``stems`` (the build keeps one across builds), or None."""
        self.words = words or stems
        self.ja: dict[str, set[str]] = {}
        self.longest: dict[str, int] = {}  # a term's first stem -> the most words of a term starting with it
        for (lang, _, term), entry in model.glossary.items():
            if lang == "ja" and entry.get("term_en"):
                self._add(entry["term_en"], term)
        for m in model.mechanics.values():
            if m["name_ja"]:
                for name in [m["name_en"], *m["aliases_en"]]:
                    self._add(name, m["name_ja"])
        # Pairs the JA documents write themselves: 「閉鎖されている/locked」「開放コスト/Unlock cost」.
        for ruling in model.statements():
            if model.documents.get(ruling["document"], {}).get("lang") != "ja":
                continue
            for pair in find_slash_names(ruling["text"]):
                if normalize(pair.en) not in model.card_names:  # cards are not terms
                    self._add(pair.en, pair.ja)

    def _add(self, en: str, ja: str) -> None:
        en = re.sub(r"\s*\(.*?\)\s*$", "", en)  # "Room (2)"
        en = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", en)  # "DoubleFaced" as the JA glossary writes it
        key = en_name_key(en)
        if key and len(key.split()) <= self.MAX_WORDS:
            self.ja.setdefault(key, set()).add(ja)
            first = key.split()[0]
            self.longest[first] = max(self.longest.get(first, 0), len(key.split()))

    def for_text(self, text: str) -> list[str]:
        stems = self.words(text)
        found: set[str] = set()
        for i, first in enumerate(stems):  # only phrases that start with a term's first word
            for n in range(1, min(self.longest.get(first, 0), len(stems) - i) + 1):
                found |= self.ja.get(" ".join(stems[i:i + n]), set())
        return sorted(found)


class _Translations:
    """EN words -> JA words, learned from the loaded parallel text: every JA CR rule with the EN
    rule of the same edition and number, and every JA quote with the EN rule it resolves to.
    A pair of words that occur together in at least MIN_PAIRS pairs with a Dice coefficient of
    at least MIN_DICE is kept (2011 FAQ quotes: "transform" -> 変身, "front" -> 正面, "down" ->
    裏向き). An EN rule then carries the JA words of its own words, so a JA question finds rules
    the JA excerpts don't translate."""

    MIN_PAIRS, MIN_DICE, PER_WORD = 3, 0.5, 2

    def __init__(self, model: Model, tokens=tokens, memo=None):
        """``memo(kind, key, make)``: the build's cache; the word pairs depend only on the parallel
        texts (and the tokenizer, part of ``tokens``' key), which a new EN edition rarely changes."""
        ja_editions = [e["edition"] for e in model.editions.values() if e["lang"] == "ja"]
        pairs = [(r["text"], en[n]["text"]) for e in ja_editions
                 for en in [model.rules.edition("en", e)] for n, r in model.rules.edition("ja", e).items() if n in en]
        for r in model.quotes.values():
            res = r.get("resolved") or {}
            if r["lang"] == "ja" and ("en", res.get("edition"), res.get("number")) \
                    in model.rules:
                pairs.append((r["text"], model.rules[("en", res["edition"], res["number"])]["text"]))
        self.tokens = tokens
        if memo is None:
            self.ja = self._learn(pairs)
            return
        key = hashlib.sha256(repr((getattr(tokens, "key", None), self.MIN_PAIRS, self.MIN_DICE, self.PER_WORD,
                                   pairs)).encode("utf-8")).hexdigest()[:32]
        self.ja = memo("translations", key, lambda: self._learn(pairs))

    def _learn(self, pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
        from collections import Counter
        tokens = self.tokens
        n_ja, n_en, both = Counter(), Counter(), Counter()
        words = []
        for ja, en in pairs:
            ja_words = {t for t in tokens(ja) if HAS_JA.search(t) and not t.startswith((GRAM, UNI))}
            en_words = {t for t in tokens(en) if t.isalpha() and not HAS_JA.search(t)}
            n_ja.update(ja_words)
            n_en.update(en_words)
            words.append((en_words, ja_words))
        # Only pairs that can pass count (most of the cross product cannot: the peak memory of the
        # build). c >= MIN_PAIRS needs both words in MIN_PAIRS pairs; with c <= min(n_en, n_ja),
        # Dice = 2c / (n_en + n_ja) >= 1/2 needs max(n_en, n_ja) <= 3 min(n_en, n_ja).
        for en_words, ja_words in words:
            ja_n = [(j, n_ja[j]) for j in ja_words if n_ja[j] >= self.MIN_PAIRS]
            for e in en_words:
                ne = n_en[e]
                if ne >= self.MIN_PAIRS:
                    both.update((e, j) for j, nj in ja_n if nj <= 3 * ne and ne <= 3 * nj)
        del words
        found: dict[str, list[tuple[float, str]]] = {}
        for (e, j), c in both.items():
            dice = 2 * c / (n_ja[j] + n_en[e])
            if c >= self.MIN_PAIRS and dice >= self.MIN_DICE:
                found.setdefault(e, []).append((dice, j))
        return {e: [j for _, j in sorted(v, reverse=True)[:self.PER_WORD]] for e, v in found.items()}

    def for_text(self, text: str) -> list[str]:
        return list(dict.fromkeys(j for t in self.tokens(text) for j in self.ja.get(t, ())))


def _titles(model: Model, lang: str, edition: str) -> dict[str, str]:
    out = {}
    for number, rule in model.rules.edition(lang, edition).items():
        if rule["kind"] in ("chapter", "section"):
            out[number] = f"{number}. {rule['text']}"
            continue
        head, parent = (rule["text"] if _short_line(rule["text"]) else None), rule["parent"]
        while head is None and parent:
            p = model.rules.get((lang, edition, parent))
            if p is None:
                break
            if p["kind"] == "section" or _short_line(p["text"]):
                head = p["text"]
            parent = p["parent"]
        out[number] = f"{number} {head or ''}".strip()
    return out


def _current_number(model: Model, lineage: Lineage, edition: str, number: str) -> str | None:
    """A rule of any edition/language -> today's EN number (through the EN edition of its date)."""
    if model.current("en") is None or ("en", edition, number) not in model.rules:
        return None
    return lineage.forward(number, edition)[0]


def search_docs(model: Model, tokens=tokens, memo=None, words=None) -> list[SearchDoc]:
    """``tokens``: kb.search.tokenize.tokens, or a memo of it (the build keeps one across builds);
    ``words``: ``stems``, or a memo of it; ``memo``: the build's cache (kb.build.cache), for what only
    the parallel texts decide."""
    lineage = Lineage(model)
    mech = _Mechanics(model)
    terms = _JaTerms(model, words)
    translations = _Translations(model, tokens, memo)
    current_en = model.current("en")
    docs: list[SearchDoc] = []
    cited_texts: dict[str, list[str]] = {}  # current EN number -> JA texts of quotes/rulings citing it
    for key, refs in model.refs_in.items():
        if key[0] == "en" and key[1] == current_en:
            for ref in refs:
                if ref["kind"] in ("quote", "quoted-rule", "ruling", "commentary", "summary") and ref.get("text"):
                    doc = model.documents.get(ref.get("document", ""), {})
                    if doc.get("lang") == "ja":
                        cited_texts.setdefault(key[2], []).append(ref["text"])
    for rid, linked in model.ruling_rules.items():  # rulings whose case the rule decides
        r = model.statement(rid)
        if r and (r.get("lang") or model.documents[r["document"]]["lang"]) == "ja":
            for number in linked["deciding"]:  # the other trace rules: measured, worse
                texts = cited_texts.setdefault(number, [])
                if r["text"] not in texts:
                    texts.append(r["text"])
    for info in model.editions.values():
        if not info["current"]:
            continue  # today's rules only: an older edition's rule is found through today's
        lang, edition = info["lang"], info["edition"]
        titles = _titles(model, lang, edition)
        other = "ja" if lang == "en" else "en"
        is_current = True
        for number, rule in model.rules.edition(lang, edition).items():
            today = number if (lang == "en" and is_current) else (
                _current_number(model, lineage, edition, number) if is_current else None)
            keys = mech.for_rule(today) if today else ()
            parent = model.rules.get((lang, edition, rule["parent"])) if rule["parent"] else None
            defines = parent is not None and _short_line(parent["text"]) and number in (
                f"{rule['parent']}.1", f"{rule['parent']}a")
            expansions = mech.names(keys, other)
            if lang == "en" and is_current:
                expansions += cited_texts.get(number, []) + terms.for_text(rule["text"]) + \
                    translations.for_text(rule["text"])
            title = titles[number]
            if lang == "ja" and today and today != number:  # a translation of an older edition: today's number
                label = model.ja_alignment.get(edition, {}).get("label") or f"和訳 {edition}"
                title = f"{today}{title[len(number):]} ({label}: {number})"
            docs.append(SearchDoc(
                id=f"rule:{lang}:{edition}:{number}", kind="rule", lang=lang, title=title,
                text="\n".join([rule["text"], *(x["text"] for x in rule["examples"])]),
                rule_number=(today or number) if lang == "ja" else number,
                edition=edition, mechanics=keys, expansions=" ".join(expansions),
                boost=DEFINITION_BOOST if defines else (HEADING_WEIGHT if _is_heading(rule) else 1.0),
                citation=_locator_citation(rule["locator"], rule=number, edition=edition, lang=lang)))
    for (lang, edition, term), entry in model.glossary.items():
        if not model.editions.get(f"{lang}/{edition}", {}).get("current"):
            continue
        keys = tuple(sorted({k for k in model.mechanic_names.get(_norm(entry.get("term_en") or term), [])}))
        docs.append(SearchDoc(
            id=f"glossary:{lang}:{edition}:{term}", kind="glossary", lang=lang,
            title=term + (f" / {entry['term_en']}" if entry.get("term_en") else ""), text=entry["text"],
            edition=edition, mechanics=keys, expansions=" ".join(mech.names(keys, "ja" if lang == "en" else "en")),
            citation=_locator_citation(entry["locator"], edition=edition, lang=lang)))
    for r in model.statements():
        if r.get("heading"):  # a quoted bare heading (「711. 両面カード」) is no hit of its own
            continue
        doc = model.documents[r["document"]]
        keys = tuple(r.get("mechanics", ()))
        cards = [c.get("name_en") or "" for c in r.get("cards", [])]
        if r["kind"] == "quoted-rule":
            current = (r.get("resolved") or {}).get("current")
            docs.append(SearchDoc(
                id=r["id"], kind="quote", lang=r["lang"], title=f"{r['number']} ({doc['title']})",
                text=r.get("display") or r["text"],  # what a reader sees (kb.wikitext): snippets without markup
                rule_number=current["number"] if current else r["number"], edition=None, mechanics=keys,
                expansions=" ".join(mech.names(keys, "en" if r["lang"] == "ja" else "ja")),
                citation=_locator_citation(r["locator"], rule=r["number"], edition=r.get("edition"))))
            continue
        section = r["locator"]["section"]
        docs.append(SearchDoc(
            id=r["id"], kind="ruling", lang=doc["lang"], title=doc["title"] + (f" › {section}" if section else ""),
            text=r.get("display") or r["text"], mechanics=keys, expansions=" ".join(mech.names(keys, "en") + cards),
            boost=NOTE_WEIGHT if r["kind"] == "note" else 1.0,
            citation=_locator_citation(r["locator"], date=r.get("date"))))
    for m in model.mechanics.values():
        names = " / ".join(n for n in [m["name_en"], m["name_ja"]] if n)
        docs.append(SearchDoc(
            id=f"mechanic:{m['key']}", kind="mechanic", lang="en", title=names,
            text=f"{names}. Rules {', '.join(m['rules'][:6])}.", mechanics=(m["key"],),
            expansions=" ".join(m["aliases_en"] + m["aliases_ja"]),
            citation={"mechanic": m["key"], "rule": m["rules"][0] if m["rules"] else None, "edition": m["edition"]}))
    for card in model.cards.values():
        if not card["mentions"]:
            continue  # 33k names from the name tables would drown the words of rules and rulings
        docs.append(SearchDoc(
            id=f"card:{card['key']}", kind="card", lang="ja" if card["name_ja"] else "en",
            title=" / ".join(n for n in (card["name_ja"], card["name_en"]) if n),
            text=" / ".join(n for n in (card["name_ja"], card["name_en"]) if n),
            citation={"card": card["key"], "document": model.statement(card["mentions"][0]["ruling"])["document"]}))
    return docs


def _norm(text: str) -> str:
    from kb.text import normalize
    return normalize(text)


def _ja_glossary(model: Model) -> list[tuple[list[str], list[str]]]:
    """The current JA glossary: each entry's headword and reading, and the rules it cites (the
    translation's meant numbers) carried to today's EN numbers. An obsolete entry citing no rule
    whose definition opens with the name of another entry (「点数で見たマナ・コスト」: 「(廃語)マナ総量の
    古い言い方」) takes that entry's rules (マナ総量 -> 202.3)."""
    ja_edition, current = model.current("ja"), model.current("en")
    if not ja_edition or not current:
        return []
    lineage = Lineage(model)
    entries = []
    for (lang, edition, term), entry in model.glossary.items():
        if lang != "ja" or edition != ja_edition:
            continue
        refs = [today for r in entry["refs"] if ("en", edition, r) in model.rules
                and (today := lineage.forward(r, edition)[0])]
        names = [n for n in re.split("[、,]", term.split("（")[0]) if n] + \
            ([entry["reading"]] if entry.get("reading") else [])
        entries.append((names, list(dict.fromkeys(refs)), entry["text"]))
    by_name = {n: refs for names, refs, _ in entries for n in names[:-1] or names if refs and len(n) >= 2}
    longest = sorted(by_name, key=len, reverse=True)
    out = []
    for names, refs, text in entries:
        if not refs:
            lead = re.sub(r"^[\s\u3000]*[(（]廃語[)）]", "", text).strip()
            named = next((n for n in longest if lead.startswith(n) and n not in names), None) if lead != text else None
            refs = by_name.get(named, []) if named else []
        if refs:
            out.append((names, refs))
    return out


def build_index(model: Model, tokens=tokens, memo=None, words=None, postings=None) -> SearchIndex:
    """``tokens``, ``memo``, ``words``: as search_docs; ``postings``: as SearchIndex.build."""
    def evidence(key: str) -> tuple:  # as KB.find_mechanics: the sense the documents are about first
        m = model.mechanics[key]
        return (-len(m["documents"]), -len(m["rulings"]), m["kind"] == "term", key)
    names = {name: tuple(sorted(dict.fromkeys(keys), key=evidence))  # "部屋": Room cards, then dungeon rooms
             for name, keys in model.mechanic_names.items() if keys}
    current = {e for e in (model.current("en"),) if e} | {f"ja:{e}" for e in [model.current("ja")] if e}
    current_en = model.current("en")
    glossary = [(term, entry["text"], entry["refs"]) for (lang, edition, term), entry in model.glossary.items()
                if lang == "en" and edition == current_en]
    index = SearchIndex.build(search_docs(model, tokens, memo, words), tokens=tokens, mechanic_names=names, current_editions=current,
                              term_keys=[k for k, m in model.mechanics.items() if m["kind"] == "term"],
                              glossary=glossary, glossary_ja=_ja_glossary(model), postings=postings)
    release_tokenizer()  # the build's later steps need no Japanese analysis (queries reload it)
    return index
