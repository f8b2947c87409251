"""Check every rule citation in any text (a wiki page, a blog post, a judge's answer; JA or EN).

For each citation: as written, where (line, column), the edition it refers to and how that was
decided, the rule then and today (number and text, JA/EN), a status (current / renumbered /
text-changed / removed / never-existed / ambiguous) and the lineage steps between. A line that
opens with a rule number and goes on with text is a quote of that rule: it is compared with the
official text of that edition (EN word by word, JA character by character).

Pieces reused: ``find_citations`` and ``rule_heading`` (kb.extract.citations) find citations and
quotes; ``Resolver.choose_edition`` picks the edition from a ParsedDocument built here, and
``Resolver.status`` carries each number forward.
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date as Date
from difflib import SequenceMatcher
from functools import lru_cache

from kb.extract.citations import find_citations, rule_heading
from kb.parsers.common import is_japanese
from kb.records import Document, Locator, ParsedDocument, QuotedRule
from kb.resolve import Resolver
from kb.text import normalize

STATUS_ORDER = ("never-existed", "removed", "ambiguous", "renumbered", "text-changed", "current")
_EXAMPLE = re.compile(r"^[ \t\u3000]*(?:例[：:]|Example:)")
_WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")


def _kb_error(code: str, message: str, **extra):
    from kb.api import KBError
    return KBError(code, message, **extra)


def parse_date(value) -> Date | None:
    """None, a date, "YYYY-MM-DD" or "YYYYMMDD"; anything else is KBError("bad_date")."""
    if value is None or value == "":
        return None
    if isinstance(value, Date):
        return value
    text = unicodedata.normalize("NFKC", str(value)).strip()
    m = re.fullmatch(r"(\d{4})-?(\d{2})-?(\d{2})", text)
    try:
        if m:
            return Date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        pass
    raise _kb_error("bad_date", f"{value!r} is not a date (expected YYYY-MM-DD)")


# ---------------------------------------------------------------- quotes in arbitrary text


def find_quotes(text: str, doc_id: str = "text") -> list[tuple[QuotedRule, int]]:
    """Lines opening with a rule number followed by text ("601.2e プレイヤーは…", "711.1a.両面…");
    a number alone on its line quotes the next line ("601.2e" then the rule text). ``例：`` /
    ``Example:`` lines below belong to the quote. Each with the 1-based column of its number."""
    lines = text.splitlines()
    out: list[tuple[QuotedRule, int]] = []
    n = 0
    while n < len(lines):
        line = lines[n]
        head = rule_heading(line)
        if head is None:
            n += 1
            continue
        first, body = n, line[head.text_start:]
        if not body.strip():
            nxt = n + 1
            if nxt < len(lines) and lines[nxt].strip() and rule_heading(lines[nxt]) is None:
                first, body = nxt, lines[nxt]
            else:
                n += 1
                continue
        last = first
        while last + 1 < len(lines) and _EXAMPLE.match(lines[last + 1]):
            last += 1
            body += "\n" + lines[last]
        lang = "ja" if is_japanese(body) else "en"
        q = QuotedRule(head.number, body, lang, Locator(doc_id, n + 1, last + 1), None, head.raw,
                       citations=find_citations(body))
        out.append((q, head.start + 1))
        n = last + 1
    return out


# ---------------------------------------------------------------- differences


def _char_key(ch: str) -> str:
    return normalize(ch) or " "


def _diff(a: str, b: str, *, words: bool) -> dict:
    """Readable ops between a quote ``a`` and the official ``b``: EN by words, JA by characters.
    Normalisation (width, case, quotes, white space) only decides equality; ops show originals."""
    if normalize(a) == normalize(b):
        return {"similarity": 1.0, "identical": True, "ops": [], "summary": "identical"}
    if words:
        ta, tb = _WORD.findall(a), _WORD.findall(b)
        ka, kb_ = [normalize(t) for t in ta], [normalize(t) for t in tb]
        join = " ".join
    else:
        ta = [ch for ch in a if not ch.isspace()]
        tb = [ch for ch in b if not ch.isspace()]
        ka, kb_ = [_char_key(c) for c in ta], [_char_key(c) for c in tb]
        join = "".join
    sm = SequenceMatcher(None, ka, kb_, autojunk=False)
    ops = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal":
            ops.append([tag, join(ta[i1:i2]), join(tb[j1:j2])])
    parts = [f"{q or '∅'} → {o or '∅'}" for _, q, o in ops[:8]]
    summary = f"{len(ops)} difference{'s' * (len(ops) != 1)}: " + "; ".join(parts) + (" …" if len(ops) > 8 else "")
    return {"similarity": round(sm.ratio(), 3), "identical": False, "ops": ops, "summary": summary}


# ---------------------------------------------------------------- the checker


class _Checker:
    def __init__(self, kb):
        self.kb = kb
        self.model = kb.model
        self.resolver = Resolver(self.model.en_editions(), self.model.rules, self.model.next_link)

    # ------------------------------------------------------------ rules then and now

    def rule_text(self, key) -> str | None:
        rule = self.model.rules.get(key)
        return rule["text"] if rule else None

    def ja_text(self, edition: str, number: str) -> tuple[tuple, str] | None:
        """The official JA text of (edition, number), if a JA edition of that date holds it."""
        key = self.model.ja_of.get(("en", edition, number)) or ("ja", edition, number)
        rule = self.model.rules.get(key)
        return (key, rule["text"]) if rule else None

    def lineage(self, edition: str, number: str) -> list[tuple[str, str]]:
        """(edition, number) of the same rule in every edition it reaches, nearest first."""
        eds = self.model.en_editions()
        out, found = [], []
        key = ("en", edition, number)
        while key in self.model.next_link:
            key = ("en", eds[eds.index(key[1]) + 1], self.model.next_link[key][0])
            found.append(key)
        back, key = [], ("en", edition, number)
        while key in self.model.prev_link:
            key = ("en", eds[eds.index(key[1]) - 1], self.model.prev_link[key][0])
            back.append(key)
        pos = eds.index(edition) if edition in eds else 0
        out = sorted(found + back, key=lambda k: (abs(eds.index(k[1]) - pos), k[1] < edition))
        return [(k[1], k[2]) for k in out]

    def current_block(self, status: dict) -> dict | None:
        cur = status.get("current")
        if not cur:
            return None
        key = ("en", cur["edition"], cur["number"])
        ja_key = self.kb._ja_for(key)
        return {"number": cur["number"], "edition": cur["edition"], "text_en": self.rule_text(key),
                "text_ja": self.rule_text(ja_key) if ja_key else None,
                "text_ja_edition": ja_key[1] if ja_key else None}

    # ------------------------------------------------------------ titles

    @property
    def titles(self) -> "_Titles":
        if not hasattr(self, "_titles"):
            self._titles = _titles_for(self.model)
        return self._titles

    def title_check(self, title: str, number: str, edition: str) -> dict | None:
        """Does the title written with a citation name the rule with that number in ``edition``?"""
        if not title or edition is None:
            return None
        wanted = self.titles.english(title)
        if not wanted:
            return {"title": title, "matches": None, "note": "title not known in EN or JA"}
        own = self.titles.of_rule(self.model, edition, number)
        if own & wanted:
            return {"title": title, "matches": True}
        others = [n for n in self.titles.rules_titled(self.model, edition, wanted) if n != number]
        # the same number with that title in another edition: the writer used that edition's numbering
        other_editions = [e for e in self.model.en_editions()
                          if e != edition and self.titles.of_rule(self.model, e, number) & wanted]
        return {"title": title, "matches": False, "rule_title": self._title(edition, number),
                "titled_rules": others, "same_number_titled_in": other_editions}

    # ------------------------------------------------------------ one citation

    def entry(self, *, raw: str, line: int, column: int, numbers: list[str], title: str | None,
              edition: str | None, method: str, kind: str) -> dict:
        statuses = [self.resolver.status(n, edition) for n in numbers]
        first = statuses[0]
        status = min((s["status"] for s in statuses), key=STATUS_ORDER.index)
        out = {"kind": kind, "raw": raw, "line": line, "column": column, "numbers": list(numbers),
               "title": title, "edition": edition, "method": method, "status": status,
               "rule_then": {"number": numbers[0], "edition": edition,
                             "text": self.rule_text(("en", edition, numbers[0])) if edition else None},
               "current": self.current_block(first), "steps": first["steps"]}
        if len(numbers) > 1:
            out["resolved"] = [{"number": s["number"], "status": s["status"],
                                "current": (s["current"] or {}).get("number")} for s in statuses]
        if status == "never-existed":
            elsewhere = sorted({k[1] for n in numbers for k in self.model.rules
                                if k[0] == "en" and k[2] == n})
            if elsewhere:
                out["note"] = f"not in CR {edition}; a rule {numbers[0]} exists in {', '.join(elsewhere)}"
        check = self.title_check(title, numbers[0], edition) if len(numbers) == 1 else None
        if check:
            out["title_check"] = check
            if check["matches"] is False and check["titled_rules"]:
                out["status"] = "ambiguous"
                out["candidates"] = [self._candidate(numbers[0], edition, "number as written")] + [
                    self._candidate(n, edition, f"titled {title}") for n in check["titled_rules"]] + [
                    self._candidate(numbers[0], e, f"rule {numbers[0]} was titled {title} in CR {e}")
                    for e in check["same_number_titled_in"]]
        return out

    def _candidate(self, number: str, edition: str, why: str) -> dict:
        s = self.resolver.status(number, edition)
        return {"number": number, "edition": edition, "why": why, "title": self._title(edition, number),
                "status": s["status"], "current": (s["current"] or {}).get("number")}

    def _title(self, edition: str, number: str) -> str | None:
        return self.rule_text(("en", edition, number)) if self.titles.of_rule(self.model, edition, number) else None

    # ------------------------------------------------------------ one quote

    def compare_quote(self, quote: QuotedRule, edition: str | None, context: str) -> dict:
        number = quote.number
        if edition is None:
            return {"status": "no-edition"}
        if quote.lang == "en":
            official = self.rule_text(("en", edition, number))
            if official is None:
                return {"status": "no-official-text", "note": f"CR {edition} has no rule {number}"}
            return {"status": "compared", "against": {"lang": "en", "edition": edition, "number": number}} \
                | _diff(quote.text, official, words=True)
        found = self.ja_text(edition, number)
        if found:
            key, text = found
            return {"status": "compared", "against": {"lang": "ja", "edition": key[1], "number": key[2]}} \
                | _diff(quote.text, text, words=False)
        for ed, n in self.lineage(edition, number):
            found = self.ja_text(ed, n)
            if found:
                key, text = found
                # Differences may be rule changes; the quote is also read for input errors on its own.
                suspects = _reading_check(self.model, quote.text, context)
                out = {"status": "no-official-ja-text-for-edition",
                       "note": f"no official JA text of CR {edition}; compared with the JA text of rule "
                               f"{key[2]} in CR {key[1]} (the same rule through lineage), so differences "
                               f"may also be changes to the rule",
                       "against": {"lang": "ja", "edition": key[1], "number": key[2]}} \
                    | _diff(quote.text, text, words=False)
                out["suspects"] = suspects
                if suspects:
                    out["summary"] += "; suspected typos: " + "; ".join(f"{x['quoted']} → {x['likely']}" for x in suspects)
                return out
        suspects = _reading_check(self.model, quote.text, context)
        en = self.rule_text(("en", edition, number))
        out = {"status": "no-official-ja-text",
               "note": f"no JA text of rule {number} (CR {edition}) or of the same rule in any loaded JA "
                       f"edition; the quote's wording was checked against JA texts in the knowledge base "
                       f"by reading (suspected input-conversion errors), not against an official text",
               "against": {"lang": "en", "edition": edition, "number": number, "text": en} if en else None,
               "ops": [["suspect", s["quoted"], s["likely"]] for s in suspects], "suspects": suspects,
               "similarity": None, "identical": False}
        out["summary"] = ("suspected typos: " + "; ".join(f"{s['quoted']} → {s['likely']}" for s in suspects)
                          if suspects else "no official JA text to compare with; no suspect wording found")
        return out


# ---------------------------------------------------------------- JA/EN titles


class _Titles:
    def __init__(self):
        self.ja_to_en: dict[str, set[str]] = {}

    def add(self, ja: str | None, en: str | None) -> None:
        if ja and en:
            self.ja_to_en.setdefault(normalize(ja), set()).add(normalize(en))

    def english(self, title: str) -> set[str]:
        key = normalize(title)
        if not is_japanese(title):
            return {key}
        return set(self.ja_to_en.get(key, ()))

    @staticmethod
    def of_rule(model, edition: str, number: str) -> set[str]:
        """A section/chapter's title, or a short rule text that is a name (701.27 "Transform")."""
        rule = model.rules.get(("en", edition, number))
        if rule is None:
            return set()
        text = rule["text"].strip()
        if rule["kind"] in ("chapter", "section") or len(text) <= 60 and not text.endswith("."):
            return {normalize(text)}
        return set()

    def rules_titled(self, model, edition: str, wanted: set[str]) -> list[str]:
        index = _title_index(model, edition)
        return sorted({n for t in wanted for n in index.get(t, ())})


def _titles_for(model) -> _Titles:
    """JA -> EN titles: JA sections paired with the EN section of the same number and date, the
    JA CR's table of contents (its own numbering, so 732 不正な処理の扱い), glossary JA/EN pairs
    and mechanic names."""
    titles = _Titles()
    for (lang, edition, number), rule in model.rules.items():
        if lang == "ja" and rule["kind"] in ("chapter", "section"):
            en = model.rules.get(("en", edition, number))
            if en:
                titles.add(rule["text"], en["text"])
    for edition, by_number in model.ja_section_titles.items():
        for number, ja_title in by_number.items():
            en = model.rules.get(("en", edition, number))
            if en and en["kind"] == "section":
                titles.add(ja_title, en["text"])
    for (lang, _, term), entry in model.glossary.items():
        if lang == "ja":
            titles.add(term, entry.get("term_en"))
    for m in model.mechanics.values():
        for ja in [m.get("name_ja"), *m.get("aliases_ja", [])]:
            for en in [m.get("name_en"), *m.get("aliases_en", [])]:
                titles.add(ja, en)
    return titles


_TITLE_INDEX: dict[tuple[int, str], dict[str, list[str]]] = {}


def _title_index(model, edition: str) -> dict[str, list[str]]:
    key = (id(model), edition)
    if key not in _TITLE_INDEX:
        index: dict[str, list[str]] = {}
        for (lang, ed, number), rule in model.rules.items():
            if lang == "en" and ed == edition:
                for t in _Titles.of_rule(model, edition, number):
                    index.setdefault(t, []).append(number)
        _TITLE_INDEX[key] = index
    return _TITLE_INDEX[key]


# ---------------------------------------------------------------- JA reading check


_ROMAJI = dict(zip(
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげご"
    "ざじずぜぞだぢづでどばびぶべぼぱぴぷぺぽぁぃぅぇぉゃゅょゎゔ",
    "a i u e o ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ma mi mu me mo "
    "ya yu yo ra ri ru re ro wa o n ga gi gu ge go za ji zu ze zo da ji zu de do ba bi bu be bo pa pi pu pe po "
    "a i u e o ya yu yo wa vu".split()))


def romaji(kana: str) -> str:
    """Kana reading -> the keys typed for it, so 「パーマンエント」 and 「パーマネント」 type the same
    (the ン+vowel slip of a Japanese input method)."""
    out = []
    for ch in kana:
        if "\u30a1" <= ch <= "\u30f6":
            ch = chr(ord(ch) - 0x60)
        if ch == "ー":
            out.append(out[-1][-1] if out and out[-1] else "-")
        elif ch == "っ":
            out.append("q")
        elif ch in "ゃゅょ" and out and out[-1].endswith("i"):
            vowel = _ROMAJI[ch][-1]
            out[-1] = out[-1][:-1] + (vowel if out[-1] in ("shi", "chi", "ji") else "y" + vowel)
        else:
            out.append(_ROMAJI.get(ch, ch))
    return "".join(out)


@lru_cache(maxsize=1)
def _sudachi():
    from sudachipy import Dictionary, SplitMode
    d = Dictionary()
    return d, d.tokenizer(SplitMode.C)


@lru_cache(maxsize=4096)
def _readings(surface: str, reading: str) -> tuple[str, ...]:
    """The token's reading, and for a single kanji every reading the dictionary knows (an input
    method that picked the wrong kanji picked one with the same reading)."""
    found = [reading]
    if len(surface) == 1 and "\u4e00" <= surface <= "\u9fff":
        d, _ = _sudachi()
        found += [m.reading_form() for m in d.lookup(surface)]
    return tuple(dict.fromkeys(found))[:6]


def _tokens(text: str) -> list[tuple[str, tuple[str, ...]]]:
    _, tok = _sudachi()
    out = []
    for run in re.split(r"[\s。、，．,.（）()「」『』〔〕《》]+", text):
        if run:
            out.extend((m.surface(), _readings(m.surface(), m.reading_form())) for m in tok.tokenize(run))
        out.append(("", ("",)))  # a clause break: windows never cross it
    return out


def _keys(window: list[tuple[str, tuple[str, ...]]], limit: int = 16) -> set[str]:
    keys = {""}
    for _, readings in window:
        keys = {k + romaji(r) for k in keys for r in readings}
        if len(keys) > limit:
            keys = set(sorted(keys)[:limit])
    return keys


_MAX_WINDOW = 5
_REFERENCE: dict[int, dict[str, dict[str, int]]] = {}


def _reference(model, extra: str) -> dict[str, dict[str, int]]:
    """romaji key -> {surface: count} over JA texts of the KB (JA CR rules, glossary, documents)."""
    key = id(model)
    if key not in _REFERENCE:
        texts = [r["text"] for k, r in model.rules.items() if k[0] == "ja"]
        texts += [g["text"] for k, g in model.glossary.items() if k[0] == "ja"]
        # documents' own statements, not their quotes of rules (the quotes are what gets checked)
        texts += [r["text"] for r in model.rulings.values() if r["kind"] != "quoted-rule" and is_japanese(r["text"])]
        index: dict[str, dict[str, int]] = {}
        for text in texts:
            _add_windows(index, _tokens(text))
        _REFERENCE[key] = index
    index = _REFERENCE[key]
    if extra:
        index = {k: dict(v) for k, v in index.items()}
        _add_windows(index, _tokens(extra))
    return index


def _add_windows(index, toks) -> None:
    for i in range(len(toks)):
        for j in range(i + 1, min(len(toks), i + _MAX_WINDOW) + 1):
            window = toks[i:j]
            if any(s == "" for s, _ in window):
                break
            surface = "".join(s for s, _ in window)
            for k in _keys(window):
                if len(k) >= 6:
                    bucket = index.setdefault(k, {})
                    bucket[surface] = bucket.get(surface, 0) + 1


_KANJI = re.compile(r"[\u4e00-\u9fff]")
_OFFICIAL: dict[int, set[str]] = {}


def _official_words(model) -> set[str]:
    """Every token run (up to the window size) of the official JA texts: wording known good."""
    key = id(model)
    if key not in _OFFICIAL:
        words: set[str] = set()
        texts = [r["text"] for k, r in model.rules.items() if k[0] == "ja"]
        texts += [g["text"] for k, g in model.glossary.items() if k[0] == "ja"]
        for text in texts:
            toks = _tokens(text)
            for i in range(len(toks)):
                for j in range(i + 1, min(len(toks), i + _MAX_WINDOW) + 1):
                    if toks[j - 1][0] == "":
                        break
                    words.add("".join(s for s, _ in toks[i:j]))
        _OFFICIAL[key] = words
    return _OFFICIAL[key]


def _reading_check(model, text: str, context: str = "") -> list[dict]:
    """Spans of a JA quote that read like a word the KB's JA texts use but are written otherwise:
    「パー蔓延と」 reads as 「パーマネント」, 「変身下の地も」 as 「変身した後も」."""
    try:
        index = _reference(model, context)
        toks = _tokens(text)
    except ImportError:
        return []
    official = _official_words(model)
    found, taken = [], set()
    for i in range(len(toks)):
        for j in range(min(len(toks), i + _MAX_WINDOW), i, -1):
            window = toks[i:j]
            if any(s == "" for s, _ in window) or any(p in taken for p in range(i, j)):
                continue
            surface = "".join(s for s, _ in window)
            if not _KANJI.search(surface) or surface in official:
                continue
            # A window that cuts an official compound (注釈|文であると) is not a slip.
            if (i > 0 and toks[i - 1][0] and toks[i - 1][0] + toks[i][0] in official) or \
                    (j < len(toks) and toks[j][0] and toks[j - 1][0] + toks[j][0] in official):
                continue
            best, own = None, 0
            for k in _keys(window):
                bucket = index.get(k, {})
                own = max(own, bucket.get(surface, 0))
                for other, count in bucket.items():
                    if normalize(other) != normalize(surface) and is_japanese(other) and (
                            best is None or count > best[1]):
                        best = (other, count)
            if best and best[1] >= 2 * max(1, own):  # the other spelling is the usual one
                if found and found[-1]["_end"] == i:  # adjacent: one slip spread over two windows
                    prev = found.pop()
                    surface, best = prev["span"] + surface, (prev["reads_as"] + best[0], min(prev["attested"], best[1]))
                    i0 = prev["_start"]
                else:
                    i0 = i
                found.append({"span": surface, "reads_as": best[0], "attested": best[1], "_start": i0, "_end": j})
                taken.update(range(i, j))
                break
    out = []
    known = _known_tokens(model)
    for f in found:
        q, o = _strip_common(f["span"], f["reads_as"])
        if _variant_spelling(q, o):
            continue  # 月/つき, 表わさ/表さ: another way to write the same word, not a slip
        if all((tok, readings[0]) in known for tok, readings in _tokens(q) if tok):
            continue  # every word of it is ordinary JA rules wording (と区別 / 特別)
        out.append({"quoted": q, "likely": o, "span": f["span"], "reads_as": f["reads_as"],
                    "attested": f["attested"]})
    return out


def _variant_spelling(a: str, b: str) -> bool:
    """月/つき (a word in kana), 表わさ/表さ (okurigana): the same word written another way."""
    kanji_a, kanji_b = "".join(_KANJI.findall(a)), "".join(_KANJI.findall(b))
    hiragana = re.compile(r"^[\u3041-\u309f]+$")
    return not kanji_a or kanji_a == kanji_b or (not kanji_b and bool(hiragana.match(b)))


_KNOWN: dict[int, set] = {}


def _known_tokens(model) -> set[tuple[str, str]]:
    """(surface, reading) of every token of the KB's JA texts, the checked quotes excluded."""
    key = id(model)
    if key not in _KNOWN:
        texts = [r["text"] for k, r in model.rules.items() if k[0] == "ja"]
        texts += [g["text"] for k, g in model.glossary.items() if k[0] == "ja"]
        texts += [r["text"] for r in model.rulings.values() if r["kind"] != "quoted-rule" and is_japanese(r["text"])]
        _KNOWN[key] = {(s, rs[0]) for t in texts for s, rs in _tokens(t) if s}
    return _KNOWN[key]


def _strip_common(a: str, b: str) -> tuple[str, str]:
    """Drop the words both spellings share at either end: 「パー蔓延とを」/「パーマネントを」 -> 「パー蔓延と」/「パーマネント」."""
    ta = [s for s, _ in _tokens(a) if s]
    tb = [s for s, _ in _tokens(b) if s]
    while len(ta) > 1 and len(tb) > 1 and ta[0] == tb[0]:
        ta, tb = ta[1:], tb[1:]
    while len(ta) > 1 and len(tb) > 1 and ta[-1] == tb[-1]:
        ta, tb = ta[:-1], tb[:-1]
    return "".join(ta), "".join(tb)


# ---------------------------------------------------------------- entry point


def check_citations(kb, text: str, date=None, lang: str | None = None) -> dict:
    """Every citation and quoted rule in ``text``, checked against the loaded CR editions."""
    if lang not in (None, "ja", "en"):
        raise _kb_error("bad_lang", f"lang must be 'ja' or 'en', not {lang!r}")
    when = parse_date(date)
    text = text or ""
    lang = lang or ("ja" if is_japanese(text) else "en")
    checker = _Checker(kb)
    quotes = find_quotes(text)
    doc = Document(id="text", title="checked text", kind="article", lang=lang, path="", text=text, date=when)
    parsed = ParsedDocument(doc, quoted_rules=[q for q, _ in quotes])
    choice = checker.resolver.choose_edition(parsed)
    edition = choice.edition
    citations = []
    for c in find_citations(text, exclude_line_heads=True):
        citations.append(checker.entry(raw=c.raw, line=c.line, column=c.column, numbers=list(c.numbers),
                                       title=c.title, edition=edition, method=choice.method, kind="citation"))
    lines = text.splitlines()
    quote_summaries = []
    for q, column in quotes:
        line = q.locator.line_start
        entry = checker.entry(raw=q.raw_number, line=line, column=column, numbers=[q.number], title=None,
                              edition=edition, method=choice.method, kind="quote")
        context = "\n".join(lines[:line - 1] + lines[q.locator.line_end:])
        # the page may quote the rule twice (the FAQ repeats itself): a repeat is not a reference
        context = context.replace(q.text, "")
        entry["quote"] = {"text": q.text, "line": line, "lang": q.lang}
        d = entry["quote_check"] = checker.compare_quote(q, edition, context)
        # quote_diff only when there is something to show (the CLI prints it as a difference)
        entry["quote_diff"] = d if d.get("ops") else None
        citations.append(entry)
        quote_summaries.append({"number": q.number, "line": line, "column": column, "lang": q.lang,
                                "comparison": d["status"], "similarity": d.get("similarity"),
                                "summary": d.get("summary")})
    citations.sort(key=lambda c: (c["line"], c["column"]))
    counts: dict[str, int] = {}
    for c in citations:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    return {"edition": edition, "method": choice.method, "detail": choice.detail, "lang": lang,
            "date": when.isoformat() if when else None, "current_edition": checker.resolver.current,
            "counts": counts, "citations": citations, "quotes": quote_summaries}
