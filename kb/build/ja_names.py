"""JA names for the mechanics the glossary and titles did not name, found in the JA CR's own text.

``kb.build.mechanics`` names a mechanic when the JA glossary's English term is written exactly as
the EN headword, or when a JA title belongs to its primary rule. What is left is looked for, in
this order, in the JA edition's text of the mechanic's own rules (carried back by lineage to the
EN edition the JA edition translates):

1. the JA glossary entry written another way, citing one of those rules: a leading article ("The
   City's Blessing" for "City's Blessing"), another inflection ("Die" / "Dies", "Removed from
   Combat" / "Remove from Combat"), the first of a list ("Kicker" for "Kicker, Kicked"), a term the
   translation cut short ("Nonmodal" for "Nonmodal Double-Faced Card");
2. a pair the JA rule text writes itself, 「騎乗された状態／Saddled」 in 702.171b;
3. the EN name spelt with the words of glossary pairs written word for word in katakana
   (Phyrexian = ファイレクシア, Symbol = シンボル), kept only when the JA rule text has it
   (「ファイレクシア・シンボル」 in 107.4g);
4. for a one-word name, the JA noun that occurs in exactly the JA rules whose EN rule of the same
   number has the word (speed -> 速度 in 702.179a-f), the rarest such noun in the whole JA edition.

A glossary term (a mechanic of kind "term") is named by step 1, or else by step 2 with the exact
EN term anywhere in the JA rules (the official glossary line 「（へや）／Room」 lost its headword; 205.3h
writes 「部屋／Room」): its JA headword is the official JA CR's, or it has none — never guessed from a
section title, katakana or co-occurring words. Each name found records how (``ja_source``). A mechanic the JA edition cannot name says why
(``ja_missing``): its rule or glossary term is newer than the translation (with the EN edition
that added it), or the translation has the rule but no word for the name.
"""
from __future__ import annotations

import re

from kb.parse.card_mentions import find_slash_names
from kb.search.tokenize import JA_RUN, KATAKANA_ONLY, en_name_key, nouns
from kb.text import normalize

_PARTS = re.compile(r"\s*[,，]\s*|[“”\"]+")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)
MIN_RULES_FOR_NOUN = 3  # a noun guessed from co-occurrence needs at least this many rules
MIN_DICE = 0.8


def _key(term: str) -> str:
    term = re.sub(r"\s*\((?:\d|obsolete)\)$", "", term.strip(), flags=re.I)
    term = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", term)  # "DoubleFaced" as the JA glossary writes it
    return en_name_key(_ARTICLE.sub("", term))


def parts(term: str) -> list[str]:
    """"Partner, “Partner—[text],” “Partner with [name]”" -> its three names; "Kicker, Kicked" -> two."""
    return [p.strip(" .") for p in _PARTS.split(term) if p and p.strip(" .")]


def _related(a: str, b: str) -> bool:
    """The same rule, or one inside the other (a glossary citing 107.4 for 107.4g)."""
    return a == b or a.startswith(b + ".") or b.startswith(a + ".") or \
        (len(b) > len(a) and b.startswith(a) and b[len(a)].isalpha()) or \
        (len(a) > len(b) and a.startswith(b) and a[len(b)].isalpha())


class _JaEdition:
    """One JA edition's rules and glossary, with the EN edition it translates."""

    def __init__(self, model, edition: str, nouns=nouns):
        self.nouns = nouns  # kb.search.tokenize.nouns or a memo of it (the build keeps one across builds)
        self.edition = edition
        self.version = model.ja_alignment.get(edition, {}).get("translation") or edition
        self.label = model.ja_alignment.get(edition, {}).get("label") or f"和訳 {edition}"
        self.rules = model.rules.edition("ja", edition)
        self.en_rules = model.rules.edition("en", edition)
        self.glossary = [e | {"term": t} for t, e in model.glossary.edition("ja", edition).items() if e.get("term_en")]
        self.en_glossary = {normalize(t) for t in model.glossary.edition("en", edition)}
        self.children: dict[str, list[str]] = {}
        for number, rule in self.rules.items():
            if rule["parent"]:
                self.children.setdefault(rule["parent"], []).append(number)
        self.katakana = self._katakana_words()
        self._noun_rules: dict[str, int] | None = None
        self._all_pairs: list | None = None

    def family(self, numbers: list[str]) -> list[str]:
        """The rules and every rule under them, in order."""
        out: list[str] = []
        todo = list(numbers)
        while todo:
            n = todo.pop(0)
            if n in self.rules and n not in out:
                out.append(n)
                todo[:0] = self.children.get(n, [])
        return out

    def _katakana_words(self) -> dict[str, str]:
        """EN word -> katakana word, from glossary pairs written word for word
        (ファイレクシア・マナ・シンボル／Phyrexian Mana Symbol); a word spelt two ways is dropped."""
        found: dict[str, set[str]] = {}
        for e in self.glossary:
            ja, en = e["term"].split("（")[0].split("・"), _key(e["term_en"]).split()
            if len(ja) == len(en) > 1 and all(KATAKANA_ONLY.match(w) for w in ja):
                for word, kana in zip(en, ja):
                    found.setdefault(word, set()).add(kana)
        return {w: next(iter(k)) for w, k in found.items() if len(k) == 1}

    def all_pairs(self) -> list:
        """Every quoted 「JA／EN」 pair of the edition's rules, (rule, pair), read once."""
        if self._all_pairs is None:
            self._all_pairs = list(_pairs(self, list(self.rules)))
        return self._all_pairs

    def noun_rules(self) -> dict[str, int]:
        """How many JA rules of the edition each noun occurs in (its rarity)."""
        if self._noun_rules is None:
            counts: dict[str, int] = {}
            for rule in self.rules.values():
                for noun in {n for run in JA_RUN.findall(normalize(rule["text"])) for n in self.nouns(run)}:
                    counts[noun] = counts.get(noun, 0) + 1
            self._noun_rules = counts
        return self._noun_rules


def name_remaining(model, lexicon, lineage, nouns=nouns) -> None:
    """Name every mechanic still without a JA name, or record why the JA edition cannot.
    ``nouns``: kb.search.tokenize.nouns or a memo of it."""
    current = lexicon.edition
    en_terms: dict[str, set[str]] = {}
    for lang, edition, term in model.glossary:
        if lang == "en":
            en_terms.setdefault(edition, set()).add(normalize(term))
    for ja_edition in reversed(lineage.ja_editions):  # the newest translation first
        if ja_edition not in lineage.editions:
            continue
        ja = _JaEdition(model, ja_edition, nouns)
        for mechanic in lexicon.by_key.values():
            if mechanic.name_ja:
                continue
            numbers = [b for n in mechanic.rules if (b := lineage.backward(n, current, ja_edition))]
            terms = [t for lang, t in mechanic.glossary if lang == "en"] or [mechanic.name_en]
            found = _find(ja, mechanic, numbers, terms)
            if found:
                name, source = found
                lexicon.add_ja_name(mechanic.key, name, source.pop("reading", None))
                mechanic.ja_source = source
                mechanic.ja_missing = None
                _aliases(ja, lexicon, mechanic, numbers, terms)
            elif mechanic.ja_missing is None:
                mechanic.ja_missing = _why_missing(ja, lineage, en_terms, mechanic, numbers, terms)


def _exact(term: str) -> str:
    return " ".join(normalize(_ARTICLE.sub("", term)).split())


def _find(ja: _JaEdition, mechanic, numbers: list[str], terms: list[str]):
    """The same words first (glossary, then a pair in the rules), then the same stems, then the rest:
    "Saddled" is 「騎乗された状態／Saddled」, not the glossary's 騎乗／Saddle of the same stem."""
    if not numbers:
        return None
    family = ja.family(numbers)
    if mechanic.kind == "term":  # a glossary term's JA headword is the official JA CR's, or none
        for same in (_exact, _key):  # "Saddled" is 「騎乗された状態／Saddled」 (702.171b), not 騎乗／Saddle
            found = _from_glossary(ja, mechanic, numbers, terms, same) or _from_pairs(ja, family, terms, same)
            if found:
                return found
        return (_from_glossary(ja, mechanic, numbers, terms, _key, shortened=True)
                or _from_pairs(ja, [], terms, _exact, pairs=ja.all_pairs()))
    for same in (_exact, _key):
        found = _from_glossary(ja, mechanic, numbers, terms, same) or _from_pairs(ja, family, terms, same)
        if found:
            return found
    return (_from_glossary(ja, mechanic, numbers, terms, _key, shortened=True)
            or _from_katakana(ja, family, terms) or _from_nouns(ja, family, terms))


def _from_glossary(ja: _JaEdition, mechanic, numbers: list[str], terms: list[str], same, shortened=False):
    """An entry citing one of the rules whose EN term is the mechanic's (or the first of its list);
    ``shortened``: an EN term the translation cut short ("Nonmodal")."""
    wanted = [same(t) for t in terms] + [same(parts(t)[0]) for t in terms]
    hits: list[dict] = []
    for entry in ja.glossary:
        if not any(_related(r, n) for r in entry["refs"] for n in numbers):
            continue
        key = same(entry["term_en"])
        if key and any((w.startswith(key + " ") if shortened else w == key) for w in wanted):
            hits.append(entry)
    entries = list({e["term"]: e for e in hits}.values())
    if len(entries) != 1:
        return None
    e = entries[0]
    mechanic.glossary.append(("ja", e["term"]))
    return e["term"], {"how": "glossary", "term": e["term"], "term_en": e["term_en"],
                       "edition": ja.edition, "label": ja.label, "reading": e.get("reading")}


def _pairs(ja: _JaEdition, family: list[str]):
    """「JA／EN」 pairs written as a whole quoted name (not the tail of 「[名前]との共闘／…」)."""
    for number in family:
        text = ja.rules[number]["text"]
        for pair in find_slash_names(text):
            if pair.start > 0 and text[pair.start - 1] in "「“\"":
                yield number, pair


def _from_pairs(ja: _JaEdition, family: list[str], terms: list[str], same, pairs=None):
    hits = {}
    for number, pair in (_pairs(ja, family) if pairs is None else pairs):
        if any(same(pair.en) == same(t) for t in terms):
            hits.setdefault(pair.ja, number)
    if len(hits) != 1:
        return None
    name, number = next(iter(hits.items()))
    return name, {"how": "rule-text", "rule": number, "edition": ja.edition, "label": ja.label}


def _from_katakana(ja: _JaEdition, family: list[str], terms: list[str]):
    for term in terms:
        words = _key(term).split()
        if len(words) < 2 or not all(w in ja.katakana for w in words):
            continue
        name = "・".join(ja.katakana[w] for w in words)
        for number in family:
            if name in ja.rules[number]["text"]:
                return name, {"how": "rule-text", "rule": number, "edition": ja.edition, "label": ja.label}
    return None


def _from_nouns(ja: _JaEdition, family: list[str], terms: list[str]):
    """speed -> 速度: the noun in exactly the rules whose EN text has the word, the rarest of them."""
    words = {w for t in terms for w in [_key(t)] if w and " " not in w}
    if len(words) != 1:
        return None
    word = next(iter(words))
    with_word = {n for n in family if n in ja.en_rules and word in _key(ja.en_rules[n]["text"]).split()}
    if len(with_word) < MIN_RULES_FOR_NOUN:
        return None
    seen: dict[str, set[str]] = {}
    for n in family:
        for noun in {x for run in JA_RUN.findall(normalize(ja.rules[n]["text"])) for x in ja.nouns(run)}:
            seen.setdefault(noun, set()).add(n)
    scored = [(2 * len(s & with_word) / (len(s) + len(with_word)), noun) for noun, s in seen.items()]
    good = [noun for dice, noun in scored if dice >= MIN_DICE]
    if not good:
        return None
    rarity = ja.noun_rules()
    good.sort(key=lambda noun: (rarity.get(noun, 0), noun))
    if len(good) > 1 and rarity.get(good[0], 0) == rarity.get(good[1], 0):
        return None  # two equally rare nouns: cannot tell
    first = next(n for n in family if good[0] in ja.rules[n]["text"])
    return good[0], {"how": "rule-text-words", "rule": first, "rules": sorted(with_word),
                     "edition": ja.edition, "label": ja.label}


def _aliases(ja: _JaEdition, lexicon, mechanic, numbers: list[str], terms: list[str]) -> None:
    """The other names of a list ("Kicked" of "Kicker, Kicked": 「キッカーされた／Kicked」 in 702.33d)."""
    others = [p for t in terms for p in parts(t)[1:]]
    for number, pair in _pairs(ja, ja.family(numbers)):
        if any(normalize(pair.en) == normalize(o) for o in others):
            lexicon.add_ja_name(mechanic.key, pair.ja)


def _why_missing(ja: _JaEdition, lineage, en_terms, mechanic, numbers: list[str], terms: list[str]) -> dict:
    newer = not numbers or (mechanic.kind == "term" and not any(normalize(t) in ja.en_glossary for t in terms))
    out = {"reason": "newer-than-translation" if newer else "not-in-translation",
           "translation": ja.version, "label": ja.label, "edition": ja.edition}
    if newer:
        out["added_in"] = _added_in(lineage, en_terms, mechanic, ja.edition, terms)
    return out


def _added_in(lineage, en_terms: dict[str, set[str]], mechanic, after: str, terms: list[str]) -> str | None:
    """The first EN edition after the translation's that holds the mechanic's rule (and term)."""
    current = lineage.current
    for edition in lineage.editions:
        if edition <= after:
            continue
        number = lineage.backward(mechanic.rules[0], current, edition) if mechanic.rules else None
        if number is not None and (mechanic.kind != "term" or
                                   any(normalize(t) in en_terms.get(edition, ()) for t in terms)):
            return edition
    return None
