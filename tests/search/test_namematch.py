"""The name matcher behind card search (kb.search.namematch): parts of names found by scanning,
whole words before parts inside a word, the unpunctuated fallback, close spellings through the
trigram candidates, and queries that can match nothing."""
from __future__ import annotations

from kb.search.namematch import NameMatcher

NAMES = ["urza, lord protector", "coward", "red ward", "護国卿、ウルザ", "lim-dûl's vault", "翻弄する魔道士",
         "meddling mage", "warden of the wall"]


def _parts(matcher, query):
    return {matcher.names[i]: whole for i, whole in matcher.parts(query)}


def test_parts_know_whole_words_from_parts_inside_a_word():
    m = NameMatcher(NAMES)
    assert _parts(m, "ward") == {"coward": False, "red ward": True, "warden of the wall": False}
    assert _parts(m, "lord protector") == {"urza, lord protector": True}


def test_parts_scan_every_group_a_query_can_meet():
    m = NameMatcher(NAMES)
    assert _parts(m, "vault") == {"lim-dûl's vault": True}  # ASCII query, name with an accent
    assert _parts(m, "護国卿") == {"護国卿、ウルザ": True}  # JA names have no word breaks
    assert _parts(m, "dûl") == {"lim-dûl's vault": True}


def test_without_punctuation_when_nothing_holds_the_query_as_written():
    m = NameMatcher(NAMES)
    assert _parts(m, "護国卿ウルザ") == {"護国卿、ウルザ": True}
    assert _parts(m, "urza lord") == {"urza, lord protector": True}
    assert _parts(m, "urzalord") == {"urza, lord protector": True}


def test_close_spellings_in_both_languages():
    m = NameMatcher(NAMES)
    best, score = m.close("urza lord protecter", 3, 80)[0]
    assert m.names[best] == "urza, lord protector" and 90 < score < 100
    assert m.names[m.close("medling mage", 3, 80)[0][0]] == "meddling mage"
    assert m.names[m.close("翻弄する魔導士", 3, 80)[0][0]] == "翻弄する魔道士"


def test_queries_matching_nothing():
    m = NameMatcher(NAMES)
    assert m.parts("zzyzx") == [] and m.close("zzyzx quorble", 5, 80) == []
    assert m.parts("ward\nred") == []  # names are joined by newlines: a newline never spans two
    assert m.close("day night", 5, 80) == []


def test_no_names_at_all():
    m = NameMatcher([])
    assert m.parts("urza") == [] and m.close("urza", 5, 80) == [] and m.close("、", 5, 80) == []


def test_a_matcher_read_back_from_its_bytes_answers_the_same():
    for names in (NAMES, []):
        made = NameMatcher(names)
        read = NameMatcher.loads(made.dumps())
        for query in ("ward", "護国卿ウルザ", "urzalord", "dûl", "zzyzx"):
            assert read.parts(query) == made.parts(query)
        for query in ("urza lord protecter", "翻弄する魔導士", "medling mage", "day night"):
            assert read.close(query, 3, 80) == made.close(query, 3, 80)
        assert read.names == made.names and read.bare == made.bare


def test_a_snapshot_keeps_the_card_names_matcher_the_build_made(full_home):
    """`kb search` and `kb card` read the matcher the build wrote (making it is ~1 s a process): it
    holds every card name of the model, folded, with its card key."""
    from kb.lookup.kb import KB
    from kb.search import namematch

    kb = KB.load(full_home)
    path = kb.path / namematch.SNAPSHOT_FILE
    assert path.exists()
    read, keys = namematch.loads_card_names(path.read_bytes())
    made, made_keys = namematch.card_name_matcher(kb.model.card_names)
    assert keys == made_keys and read.names == made.names and len(keys) > 60000
    found = kb.find_cards("Urza Lord Protecter")
    assert found[0]["name_en"] == "Urza, Lord Protector"
    used = kb._card_names()[0]
    assert used.names == read.names and isinstance(used._grams.base, bytes)  # read from the file, not made


def _scanned(matcher, query):
    """What one scan of every name finds (the reference the trigram candidates must equal)."""
    from kb.search.namematch import bare

    found = matcher._scan(query, matcher._scans, matcher.names, words=True)
    if not found and bare(query):
        found = matcher._scan(bare(query), matcher._bare_scans, matcher.bare, words=False)
    return sorted(found.items())


def test_the_trigram_candidates_find_what_scanning_every_name_finds(full_home):
    """Parts of real card names (EN and JA, 2-14 characters, some without their spaces, some
    misspelt, some with punctuation added), and words in so many names that the scan's bound
    of MAX_PARTS occurrences per group decides what is found."""
    import random

    from kb.lookup.kb import KB
    from kb.search import namematch

    matcher = KB.load(full_home)._card_names()[0]
    rnd = random.Random(14)
    queries = ["the", "of", "ドア", "an", "e ", "、", "!!", "a!", "lord protector", "urzalord", "護国卿ウルザ"]
    for _ in range(1500):
        name = rnd.choice(matcher.names)
        size = rnd.randint(2, 14)
        at = rnd.randint(0, max(0, len(name) - size))
        part = name[at:at + size]
        queries.append(rnd.choice([part, part.replace(" ", ""), part[:size // 2] + "x" + part[size // 2:], part + ", "]))
    capped = [q for q in ("the", "of") if len(_scanned(matcher, q)) >= namematch.MAX_PARTS - 100]
    assert capped, "no query reaches the bound: the test would not see it"
    for query in queries:
        assert matcher.parts(query) == _scanned(matcher, query), query


def test_counting_the_listed_names_gives_the_candidates_a_count_of_every_name_gives():
    """``_sharing`` counts a short list of names with np.unique and a long one with np.bincount: both
    must give what the bincount over every name gives (the same names in name order, the same counts),
    so that ``close`` hands rapidfuzz the same candidates, ties at the CANDIDATES cut included."""
    import numpy as np

    from kb.search.namematch import _sharing
    rng = np.random.default_rng(7)
    for n_names, size, least in [(63_000, 25, 1), (63_000, 40, 3), (63_000, 3_000, 2), (63_000, 20_000, 4),
                                 (500, 10, 1), (500, 400, 2), (10, 0, 1)]:
        ids = rng.integers(0, n_names, size).astype(np.int32)
        counts = np.bincount(ids, minlength=n_names)
        expected = np.flatnonzero(counts >= least)
        names, shared = _sharing(ids, n_names, least)
        assert names.tolist() == expected.tolist() and shared.tolist() == counts[expected].tolist()
        assert names.dtype == expected.dtype
