"""Why a rule is listed for a question: the phrase of the question, or of a named card's text, its
rulings or the CR's examples, that led to it (kb.search.retrieval's lists, read back for the hits).

Each reason is ``{"via": ..., "from": "question" | "card" | "ruling" | "example" | "rule", "phrase": ...}``
(``card``: the card's name when it came from a card). What each list reads:
- the question's words (``bm25``, ``dense``, ``terms``): the question's own words the rule's text
  shares (their stems; a Japanese question: its runs of two or more characters the official JA text
  of the rule shares), and for ``terms`` the glossary term the question names;
- a named card (``cards``, ``card_rules``, ``forms``, ``card_terms``): its keyword or mechanic whose
  defining rules it is, the line of its Oracle text that takes the form the rule quotes, or its name;
- a ruling (``rulings``, ``ruled``, ``similar``): the official ruling's opening words;
- an example (``examples``): the CR example under that rule most like the question;
- ``refs``: the listed rule that refers to it.
Only the hits shown are explained, after the fusion (a few ms for ten).
"""
from __future__ import annotations

import re

from kb.memo import per_owner
from kb.search import tokenize as tk
from kb.search.terms import bigrams
from kb.text import normalize

MIN_IDF = 1.5  # a word shared with a rule says something only if few rules use it ("the", "card" do not)
WORDS = 4  # shared words shown per reason
SNIPPET = 110  # characters of a ruling or an example
_WORD = re.compile(r"[A-Za-z0-9]+(?:['’][a-z]+)?")
# how a list is named to a user: both rulings lists are the cards' official rulings, both glossary lists defined terms
VIA = {"ruled": "rulings", "similar": "rulings", "card_terms": "terms", "forms": "card_rules"}
_KANA = re.compile(r"[\u3040-\u309f、。]+")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SNIPPET else text[:SNIPPET - 1].rsplit(" ", 1)[0] + "…"


def _shared_words(retriever, query: str, number: str, min_idf: float = MIN_IDF) -> str:
    """The question's words (as written) whose stems the rule's text has, rarest rules' words only."""
    terms = retriever.terms
    if terms is None:
        return ""
    if tk.HAS_JA.search(query):
        have = set(terms.ja.docs.get(number, ()))
        runs, run = [], ""
        for ch in normalize(query):
            if run and tk.fold(run[-1] + ch) in have:
                run += ch
                continue
            if len(run) >= 2:
                runs.append(run)
            run = ch
        if len(run) >= 2:
            runs.append(run)
        runs = [r for r in dict.fromkeys(runs) if len(r) >= 3 or not _KANA.fullmatch(r)]  # "なっ" says nothing
        return "、".join(sorted(runs, key=len, reverse=True)[:WORDS - 1])
    have, idf = terms.en.docs.get(number, {}), terms.en.idf
    out: list[str] = []
    for m in _WORD.finditer(query):
        stem = tk.stem(m.group().lower())
        if stem in have and idf.get(stem, 0.0) >= min_idf and m.group() not in out:
            out.append(m.group())
    return ", ".join(out[:WORDS])


def _glossary_terms(retriever, query: str, number: str, found: dict) -> str:
    """The glossary terms the question names (``found``: their entries) whose entry cites the rule (or its parent)."""
    index = retriever.index
    names = per_owner(index, "why-gloss-names", lambda: {no: name for name, entries in index.gloss_names.items()
                                                         for _, no in entries})
    parent = number.rstrip("abcdefghijkmnpqrstuvwxyz")
    section = number.split(".")[0]
    asked = [(m.group(), tk.stem(m.group().lower())) for m in _WORD.finditer(query)]
    out = []
    for no in found:
        cited = {n for n, _ in index.gloss_entries[no][1]}
        if number in cited or parent in cited or section in cited:
            out.append(_as_written(asked, names.get(no, "").split()))
    return ", ".join(dict.fromkeys(filter(None, out)))


def _as_written(asked: list[tuple[str, str]], stems: list[str]) -> str:
    """The question's words that spell a stemmed glossary name ("resolves" for "resolv")."""
    for i in range(len(asked) - len(stems) + 1):
        if stems and [s for _, s in asked[i:i + len(stems)]] == stems:
            return " ".join(w for w, _ in asked[i:i + len(stems)])
    return ""


def _card_reason(retriever, named, number: str, via: str) -> dict | None:
    model = retriever.cards.model
    for card in named:
        data = model.cards[card.key]
        if via == "card_rules":
            for link in data.get("mechanics", []):
                m = model.mechanics.get(link["key"])
                if m and number in m.get("rules", ()):
                    return {"from": "card", "card": data["oracle_name"], "phrase": m["name_en"]}
        if via == "forms" and any(f[0] == number for f in data.get("forms", ())):
            line = _form_line(retriever, data, number)
            return {"from": "card", "card": data["oracle_name"], "phrase": line or data["oracle_name"]}
    if via in ("cards", "card_terms", "card_rules"):
        for card in named:  # the words of its Oracle text (and type line) the rule shares
            data = model.cards[card.key]
            text = " ".join(f"{f.get('type_line') or ''} {f.get('text') or ''}" for f in data["faces"])
            for name in {f["name"] for f in data["faces"]} | {data["oracle_name"]}:
                text = text.replace(name, " ")
            phrase = _shared_words(retriever, text, number)
            if phrase:
                return {"from": "card", "card": data["oracle_name"], "phrase": phrase}
    return None


def _form_line(retriever, card: dict, number: str) -> str:
    """The line of the card's Oracle text that takes the rule's form: the one sharing the most of the
    rule's words (the forms themselves are matched at build time, kb.build.forms)."""
    best, most = "", 0
    for face in card.get("faces", ()):
        for line in (face.get("text") or "").split("\n"):
            shared = _shared_words(retriever, line, number, min_idf=0.0)  # a form's words are common ones
            count = len(shared.split(", ")) if shared else 0
            if count > most:
                best, most = line, count
    return _short(best) if best else ""


def _ruling_reason(retriever, named, pairs: list, number: str, via: str) -> dict | None:
    cards, similar = retriever.cards, retriever.similar
    if similar is None:
        return None
    for key, i in pairs:
        if number in similar.rules_of(retriever.index, key, i):
            card = cards.model.cards[key]
            return {"from": "ruling", "card": card["oracle_name"],
                    "phrase": _short(cards.model.card_rulings[card["rulings"][i]]["text"])}
    if named and via != "similar":
        return {"from": "ruling", "card": cards.model.cards[named[0].key]["oracle_name"], "phrase": ""}
    return None


def _example_reason(retriever, like: list[int], lang: str, number: str) -> dict | None:
    examples = retriever.examples
    mine = [i for i in like if examples.keys[i][0] == number]
    for i in sorted(mine, key=lambda i: examples.langs[i] != lang):  # one in the question's language first
        return {"from": "example", "phrase": _short(re.sub(r"^\s*(?:Example|例)\s*[:：]\s*", "", examples.texts[i]))}
    return None


def explain(retriever, query: str, words: str, named: list, hits: list) -> None:
    """Set each hit's ``why``: one reason per kind of evidence that found it, strongest list first."""
    named = [c for c in named if c.loaded]
    used = {name for hit in hits for name in hit.sources}
    like = retriever.examples.like(query, 20) if "examples" in used and retriever.examples else []
    lang = "ja" if tk.HAS_JA.search(query) else "en"
    similar = retriever.similar.like(words, 3) if "similar" in used and retriever.similar else []
    own = [(c.key, i) for c in named for i in range(len(retriever.cards.ruling_texts(c)))] \
        if used & {"rulings", "ruled"} else []
    gloss = retriever.terms.entries(tk.en_stems(words)) if "terms" in used and retriever.terms else {}
    for hit in hits:
        reasons: list[dict] = []
        seen: set[str] = set()
        for name, rank in sorted(hit.sources.items(), key=lambda kv: -retriever.weights.get(kv[0], 0) / (20 + kv[1])):
            via = VIA.get(name, name)
            reason: dict | None = None
            if name in ("bm25", "dense"):
                phrase = _shared_words(retriever, words, hit.number)
                reason = {"from": "question", "phrase": phrase} if phrase else None
            elif name == "terms":
                phrase = _glossary_terms(retriever, words, hit.number, gloss) or _shared_words(retriever, words, hit.number)
                reason = {"from": "question", "phrase": phrase} if phrase else None
            elif name in ("cards", "card_rules", "forms", "card_terms"):
                reason = _card_reason(retriever, named, hit.number, name)
            elif name in ("rulings", "ruled", "similar"):
                reason = _ruling_reason(retriever, named, similar if name == "similar" else own, hit.number, name)
            elif name == "examples" and retriever.examples:
                reason = _example_reason(retriever, like, lang, hit.number)
            elif name == "refs":
                shown = {h.number for h in hits}
                by = [n for n in retriever.referring.get(hit.number, ()) if n in shown]
                reason = {"from": "rule", "phrase": ", ".join(by[:3])} if by else None
            key = f"{reason.get('from')}:{reason.get('card')}:{reason.get('phrase')}" if reason else ""
            if reason is not None and key not in seen:  # one phrase once, under the strongest list that read it
                seen.add(key)
                reasons.append({"via": via} | reason)
        hit.why = reasons
