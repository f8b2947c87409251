"""Tokenization for search: one token stream for English and Japanese text.

- Everything is NFKC-normalised and casefolded first (full-width ``７０２．６`` is ``702.6``);
  katakana is folded to hiragana for matching (``ヨジ`` matches ``よじ``).
- Rule numbers (``702.6a``) are one token ``§702.6a``: ``702.6`` never matches ``702.60``.
- English: lowercase word tokens, stop words dropped, Snowball (Porter2) stems
  (``casting`` -> ``cast``, ``doors`` -> ``door``). EN text never goes through Sudachi.
- Japanese runs (kana/kanji): SudachiPy (core dictionary, mode A) surface forms and normalised
  forms (``唱えなかった`` -> ``唱える``), particles/auxiliaries/symbols dropped; plus character
  bigrams of the run (``g:``) and kanji unigrams (``u:``) so one- and two-character words that
  the morphological analysis splits differently or does not know (``昼``, ``夜``, ``予示``) match.

Tokens live in namespaces: word tokens have no prefix (rule numbers ``§``), bigrams ``g:``,
unigrams ``u:``, mechanics ``m:``; each namespace has its own BM25 length normalisation.
"""
from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import snowballstemmer

from kb import rulenumbers
from kb.text import normalize

RULE_TOKEN = "§"
GRAM = "g:"
UNI = "u:"
MECH = "m:"

# Kana, CJK ideographs, the iteration mark and the long-vowel mark (after NFKC).
_JA = "\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3006"
JA_RUN = re.compile(f"[{_JA}]+")
KANJI = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005]")
HAS_JA = re.compile(f"[{_JA}]")
JA_CHAR = HAS_JA
KANA_ONLY = re.compile("^[\u3041-\u309f\u30a1-\u30ff]+$")
KATAKANA_ONLY = re.compile("^[\u30a1-\u30ff]+$")
# A rule number inside text: 702.6, 702.6a (not part of a longer number such as 1702.61).
RULE_IN_TEXT = rulenumbers.IN_TEXT
EN_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_KATA_TO_HIRA = {c: c - 0x60 for c in range(0x30A1, 0x30F7)}
_PUNCT = {0x2019: "'", 0x2018: "'", 0x201C: '"', 0x201D: '"', 0x2013: "-", 0x2014: "-", 0x2212: "-"}
def fold(text: str) -> str:
    """Katakana -> hiragana (one character for one character, so offsets survive)."""
    return text.translate(_KATA_TO_HIRA)


_DROP_POS = {"助詞", "助動詞", "補助記号", "空白", "記号"}
# Light verbs and formal nouns: in nearly every Japanese rule, they only add noise to ranking.
STOP_JA = frozenset(fold(w) for w in
                    "為る する 居る いる 有る ある 成る なる 出来る できる れる られる せる こと もの ため よう "
                    "これ それ その この 場合 際 時 とき".split())

STOP_EN = frozenset("""a an and are as at be been being but by can could did do does for from had has
have how i if in into is it its it's itself me my of on or our so than that the their them then
there these they this those to was we were what when where which while who whom why will with
would you your yours about after also any each other such only own same""".split())

_stemmer = snowballstemmer.stemmer("english")
STEMMER = "snowball-english"


def norm(text: str) -> str:
    """What every token is made from: NFKC, casefold, quotes/dashes folded, spaces collapsed."""
    return normalize(text)


_stemmer_lock = threading.Lock()  # the Snowball stemmer keeps the word being stemmed in itself


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    with _stemmer_lock:
        return _stemmer.stemWord(word)


def is_rule_number(query: str) -> str | None:
    """"702.6" / "rule 702.6" / "７０２．６" / "702.6A" -> "702.6"; anything else -> None (kb.rulenumbers).

    Exact: the number returned is the number typed ("702.6" is never "702.60")."""
    return rulenumbers.as_query(normalize(query))


_dictionary = None  # the Sudachi dictionary (~140 MB), shared by every thread
_dictionary_lock = threading.Lock()
_local = threading.local()  # each thread's tokenizer: a Sudachi tokenizer cannot be used concurrently


def _sudachi():
    from sudachipy import SplitMode
    if _dictionary is None or getattr(_local, "dictionary", None) is not _dictionary:
        _local.dictionary, _local.tokenizer = _shared(), None
        _local.tokenizer = _local.dictionary.tokenizer(mode=SplitMode.A)
    return _local.tokenizer, SplitMode.A


def _shared():
    global _dictionary
    with _dictionary_lock:
        if _dictionary is None:
            from sudachipy import Dictionary
            _dictionary = Dictionary()
        return _dictionary


def release() -> None:
    """Drop the Sudachi dictionary, the JA caches and the runs analysed ahead (reloaded on the next
    JA text)."""
    release_dictionary()
    _ahead_words.clear()
    _ahead_spelling.clear()


def release_dictionary() -> None:
    """Drop the Sudachi dictionary and the JA caches, keeping the runs analysed ahead: the
    dictionary is ~170 MB resident once a build has loaded it (Dictionary() reads most of its file),
    which a build need not carry into its next steps (writing the RDF store, the search index)."""
    global _dictionary
    with _dictionary_lock:
        _dictionary = None
    _local.__dict__.clear()
    _ja_words.cache_clear()
    kanji_spelling.cache_clear()


def is_loaded() -> bool:
    return _dictionary is not None


# Runs analysed ahead (analyse_ahead): run -> its words / its kanji spelling (runs of up to 64
# characters), consulted before the dictionary. The same values the dictionary gives: only when
# the analysis is made changes.
_ahead_words: dict[str, tuple[str, ...]] = {}
_ahead_spelling: dict[str, str | None] = {}


def ja_runs(text: str) -> list[str]:
    """The Japanese runs ``tokens`` analyses in ``text``."""
    text = normalize(text)
    return JA_RUN.findall(RULE_IN_TEXT.sub(" ", text)) if HAS_JA.search(text) else []


def analyse_ahead(texts) -> None:
    """Analyse the Japanese runs of ``texts`` now (while the dictionary is loaded anyway) and keep
    them until ``release``: a later step tokenizes texts made of those runs without loading the
    dictionary again. A run not analysed ahead is still analysed when met (loading the dictionary).
    The words found are analysed too: a document may hold them as text (the JA words learnt for an
    EN rule's words, kb.search.docs)."""
    words: list[str] = []  # found by runs analysed here, to analyse in turn
    for text in texts:
        for run in ja_runs(text):
            _analyse_ahead(run, words)
    seen: set[str] = set()
    while words:
        word = words.pop()
        if word not in seen:
            seen.add(word)
            for run in ja_runs(word):
                _analyse_ahead(run, words)


def _analyse_ahead(run: str | None, words: list[str]) -> None:
    while run is not None and run not in _ahead_words:
        found = _ja_words_long(run) if len(run) > 64 else _ja_words(run)
        _ahead_words[run] = found
        words.extend(found)
        if len(run) > 64:
            break
        spelling = _ahead_spelling[run] = kanji_spelling(run)
        run = spelling  # tokens analyses the kanji spelling's words too


def _words_of(run: str, cached: bool) -> tuple[str, ...]:
    got = _ahead_words.get(run)
    if got is not None:
        return got
    return _ja_words(run) if cached else _ja_words_long(run)


_NOT_AHEAD = object()


def _spelling_of(run: str) -> str | None:
    got = _ahead_spelling.get(run, _NOT_AHEAD)  # None is a value: the run has no kanji spelling
    return kanji_spelling(run) if got is _NOT_AHEAD else got


def morphemes(run: str) -> list[tuple[int, int, str, str]]:
    """(begin, end, surface, normalized form) of the content morphemes of a Japanese run."""
    tok, mode = _sudachi()
    out = []
    for m in tok.tokenize(run, mode):
        if m.part_of_speech()[0] in _DROP_POS or fold(m.normalized_form()) in STOP_JA:
            continue
        out.append((m.begin(), m.end(), m.surface(), m.normalized_form()))
    return out


@lru_cache(maxsize=4096)
def _ja_words(run: str) -> tuple[str, ...]:
    words: list[str] = []
    for _, _, surface, lemma in morphemes(run):
        s, l = fold(surface), fold(normalize(lemma))
        words.append(s)
        if l != s:
            words.append(l)
    return tuple(words)


@lru_cache(maxsize=4096)
def kanji_spelling(run: str) -> str | None:
    """The run with its katakana-written words spelt as the dictionary's normalised form writes them in
    kanji (``オモテ向き`` -> ``表向き``), or None when it has none: the wiki writes オモテ where the CR
    writes 表, and only the kanji spelling's words and bigrams match the CR's."""
    parts, pos, changed = [], 0, False
    for begin, end, surface, lemma in _all_morphemes(run):
        parts.append(run[pos:begin])
        if KATAKANA_ONLY.match(surface) and KANJI.search(lemma) and len(lemma) <= len(surface):
            parts.append(lemma)
            changed = True
        else:
            parts.append(surface)
        pos = end
    parts.append(run[pos:])
    return "".join(parts) if changed else None


def nouns(run: str) -> list[str]:
    """The nouns of a Japanese run as written (surface forms of two characters or more)."""
    tok, mode = _sudachi()
    return [m.surface() for m in tok.tokenize(run, mode)
            if m.part_of_speech()[0] == "名詞" and len(m.surface()) >= 2]


def _all_morphemes(run: str) -> list[tuple[int, int, str, str]]:
    tok, mode = _sudachi()
    return [(m.begin(), m.end(), m.surface(), m.normalized_form()) for m in tok.tokenize(run, mode)]


def ja_grams(run: str, *, query: bool = False) -> list[str]:
    """Bigrams of a (folded) Japanese run; kanji unigrams for documents, and for a query that is one
    character long."""
    run = fold(run)
    if query:
        if len(run) == 1:
            return [UNI + run] if KANJI.match(run) else []
        return [GRAM + run[i:i + 2] for i in range(len(run) - 1)]
    grams = [GRAM + run[i:i + 2] for i in range(len(run) - 1)]
    grams.extend(UNI + c for c in run if KANJI.match(c))
    return grams


def tokens(text: str, *, query: bool = False) -> list[str]:
    """Word tokens (EN stems, JA lemmas and surfaces, §rule numbers) and JA grams of ``text``."""
    text = normalize(text)
    out: list[str] = []
    for number in RULE_IN_TEXT.findall(text):
        out.append(RULE_TOKEN + number)
    latin = RULE_IN_TEXT.sub(" ", text)
    if HAS_JA.search(latin):
        for run in JA_RUN.findall(latin):
            words = _words_of(run, len(run) <= 64 or query)
            grams = ja_grams(run, query=query)
            out.extend(words)
            out.extend(grams)
            variant = _spelling_of(run) if len(run) <= 64 or query else None
            if variant:  # only what the kanji spelling adds: shared words and grams count once
                seen = set(words) | set(grams)
                out.extend(t for t in dict.fromkeys(_words_of(variant, True) + tuple(ja_grams(variant, query=query)))
                           if t not in seen)
        latin = JA_RUN.sub(" ", latin)
    out.extend(_en_word_stems(EN_WORD.findall(latin)))
    return out


# "die" the noun (a die, the planar die, a six-sided die, a die roll) is the stem of "dice", not of
# "dies"/"dying": Snowball stems both to "die", which sent questions about a creature dying to 706
# Rolling a Die and the planar die of 901.
_DIE_NOUN_BEFORE = frozenset({"a", "the", "planar", "sided", "one", "another", "same", "your"})
_DIE_NOUN_AFTER = frozenset({"roll", "rolls", "rolled", "result", "results"})


def _en_word_stems(words: list[str]) -> list[str]:
    """The stems of a text's English words in order, stop words left out; "die" the noun as "dice"."""
    out = []
    for i, word in enumerate(words):
        if word in STOP_EN:
            continue
        if word == "die" and ((i and words[i - 1] in _DIE_NOUN_BEFORE)
                              or (i + 1 < len(words) and words[i + 1] in _DIE_NOUN_AFTER)):
            out.append("dice")
        else:
            out.append(stem(word))
    return out


def _ja_words_long(run: str) -> tuple[str, ...]:
    return _ja_words.__wrapped__(run)  # long runs are not worth caching


def en_stems(text: str) -> list[str]:
    """The English content words of ``text`` in order, stemmed (stop words, JA runs and rule
    numbers left out): for adjacency ("combat damage", "new object")."""
    text = JA_RUN.sub(" ", RULE_IN_TEXT.sub(" ", normalize(text)))
    return _en_word_stems(EN_WORD.findall(text))


def en_name_key(name: str) -> str:
    """An English name as a sequence of stems: "Rooms" and "room" are one key."""
    return " ".join(stem(w) for w in EN_WORD.findall(normalize(name)))


def norm_with_map(text: str) -> tuple[str, list[int]]:
    """normalize()+fold() character by character, with each output character's source offset.

    Used for snippets only, so highlights land on the original text. ASCII text maps 1:1."""
    if text.isascii():
        return text.lower(), list(range(len(text)))
    if not HAS_JA.search(text):
        low = text.lower().translate(_PUNCT)
        if len(low) == len(text) and low.isascii():
            return low, list(range(len(text)))
    normed = text.translate(_CHARS)  # each character as the per-character rule below maps it
    if len(normed) == len(text) and not _CHARS.dropped:  # every character gave one: offsets 1:1
        return normed, list(range(len(text)))
    where: list[int] = []
    for i, c in enumerate(text):
        where.extend([i] * len(_CHARS[ord(c)]))
    return normed, where


class _CharMap(dict):
    """Ordinal -> what norm_with_map makes of that one character (NFKC unless ASCII, casefold, kana
    folded, quotes/dashes folded), computed on first sight: the same string for every text, so a
    text is mapped by ``str.translate`` instead of a Python loop over its characters."""

    dropped = False  # a character that maps to nothing (none known): offsets then need the loop

    def __missing__(self, code: int) -> str:
        c = chr(code)
        n = c if c.isascii() else unicodedata.normalize("NFKC", c)
        n = fold(n.casefold()).translate(_PUNCT)
        if not n:
            type(self).dropped = True
        self[code] = n
        return n


_CHARS = _CharMap()


_NAMESPACES = {GRAM: "g", UNI: "u", MECH: "m"}  # each prefix two characters: one slice and one lookup


def namespace(token: str) -> str:
    return _NAMESPACES.get(token[:2], "w")
