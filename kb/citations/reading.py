"""Reading a JA quote for input-conversion slips where no official text of its edition exists:
「パー蔓延と」 reads as 「パーマネント」, 「変身下の地も」 as 「変身した後も」. The reference is every JA
text of the KB (rules, glossary, the documents' own statements), indexed by romaji reading."""
from __future__ import annotations

import re
import threading
from functools import lru_cache

from kb.memo import per_owner
from kb.parse.common import is_japanese
from kb.text import normalize



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
def _dictionary():
    from sudachipy import Dictionary
    return Dictionary()


_local = threading.local()  # a Sudachi tokenizer cannot be used by two threads at once: one per thread


def _sudachi():
    d = _dictionary()
    if getattr(_local, "tokenizer", None) is None:
        from sudachipy import SplitMode
        _local.tokenizer = d.tokenizer(SplitMode.C)
    return d, _local.tokenizer


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


def _reference(model) -> dict[str, dict[str, int]]:
    """romaji key -> {surface: count} over JA texts of the KB (JA CR rules, glossary, documents)."""
    def build() -> dict[str, dict[str, int]]:
        index: dict[str, dict[str, int]] = {}
        for text in _ja_texts(model, statements=True):
            _add_windows(index, _tokens(text))
        return index
    return per_owner(model, "citations-reading-reference", build)


class Reference:
    """The KB's JA wording plus a checked document's own (tokenized once per document, on first use,
    not once per quote: a 1 MiB text with a hundred quotes is read once), less the quote being read:
    its own words are not evidence for themselves (a page may repeat a quote: each repeat is out)."""

    def __init__(self, model, document: str = ""):
        self.base = _reference(model)
        self._text = document
        self._document: dict[str, dict[str, int]] | None = None
        self._parent: Reference | None = None
        self.without: dict[str, dict[str, int]] = {}

    @property
    def document(self) -> dict[str, dict[str, int]]:
        if self._parent is not None:
            return self._parent.document
        if self._document is None:
            self._document = _windows(_tokens(self._text)) if self._text else {}
        return self._document

    def leaving_out(self, text: str, times: int) -> "Reference":
        """The same reference without ``times`` copies of ``text`` (a quote and its repeats)."""
        view = Reference.__new__(Reference)
        view.base, view._text, view._document, view._parent = self.base, "", None, self
        view.without = {k: {s: c * times for s, c in bucket.items()}
                        for k, bucket in _windows(_tokens(text)).items()} if times else {}
        return view

    def get(self, key: str, default=None) -> dict[str, int]:
        base, doc, out = self.base.get(key), self.document.get(key), self.without.get(key) or {}
        if not doc:
            return base or (default if default is not None else {})
        merged = dict(base or {})
        for surface, count in doc.items():
            merged[surface] = merged.get(surface, 0) + count - out.get(surface, 0)
        return {s: c for s, c in merged.items() if c > 0}


def _windows(toks) -> dict[str, dict[str, int]]:
    index: dict[str, dict[str, int]] = {}
    _add_windows(index, toks)
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


def _ja_texts(model, statements: bool) -> list[str]:
    """The KB's JA texts: CR rules and glossary, and (``statements``) the documents' own statements,
    not their quotes of rules (the quotes are what gets checked)."""
    ja = [e["edition"] for e in model.editions.values() if e["lang"] == "ja"]
    texts = [r["text"] for e in ja for r in model.rules.edition("ja", e).values()]
    texts += [g["text"] for e in ja for g in model.glossary.edition("ja", e).values()]
    if statements:
        texts += [r["text"] for r in model.rulings.values() if is_japanese(r["text"])]
    return texts


def _official_words(model) -> set[str]:
    """Every token run (up to the window size) of the official JA texts: wording known good."""
    def build() -> set[str]:
        words: set[str] = set()
        for text in _ja_texts(model, statements=False):
            toks = _tokens(text)
            for i in range(len(toks)):
                for j in range(i + 1, min(len(toks), i + _MAX_WINDOW) + 1):
                    if toks[j - 1][0] == "":
                        break
                    words.add("".join(s for s, _ in toks[i:j]))
        return words
    return per_owner(model, "citations-official-words", build)


def reading_check(model, text: str, context: str = "", reference: Reference | None = None) -> list[dict]:
    """Spans of a JA quote that read like a word the KB's JA texts use but are written otherwise:
    「パー蔓延と」 reads as 「パーマネント」, 「変身下の地も」 as 「変身した後も」. The reference is the KB's
    JA texts and ``context`` (the rest of the document), or a ``reference`` made once per document."""
    try:
        index = reference if reference is not None else Reference(model, context)
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


def _known_tokens(model) -> set[tuple[str, str]]:
    """(surface, reading) of every token of the KB's JA texts, the checked quotes excluded."""
    return per_owner(model, "citations-known-tokens", lambda: {
        (s, rs[0]) for t in _ja_texts(model, statements=True) for s, rs in _tokens(t) if s})


def _strip_common(a: str, b: str) -> tuple[str, str]:
    """Drop the words both spellings share at either end: 「パー蔓延とを」/「パーマネントを」 -> 「パー蔓延と」/「パーマネント」."""
    ta = [s for s, _ in _tokens(a) if s]
    tb = [s for s, _ in _tokens(b) if s]
    while len(ta) > 1 and len(tb) > 1 and ta[0] == tb[0]:
        ta, tb = ta[1:], tb[1:]
    while len(ta) > 1 and len(tb) > 1 and ta[-1] == tb[-1]:
        ta, tb = ta[:-1], tb[:-1]
    return "".join(ta), "".join(tb)
