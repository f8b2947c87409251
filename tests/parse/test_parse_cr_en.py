"""The EN CR parser against every edition in ../shared/data and cr-archive/: nothing dropped,
merged or invented, and every accident of the real files kept and reported."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kb.parse.cr_en import CRFormatError, parse_cr_en
from kb.parse.records import Document
from kb.config import shared_data_dir
from kb.sources.files import classify
from tests.parse.samples import independent_numbers

FILES = sorted([*shared_data_dir().glob("cr-en-*.txt"), *shared_data_dir().glob("cr-archive/cr-en-*.txt")])
KNOWN = {  # file -> (effective date, sections, glossary entries) from the data README's own counts
    "cr-en-20110930.txt": ("2011-09-30", 123, 460),
    "cr-en-20231117.txt": ("2023-11-17", 142, 668),
    "cr-en-20260116.txt": ("2026-01-16", 146, 725),
    "cr-en-20260417.txt": ("2026-04-17", 147, 730),
    "cr-en-20260619.txt": ("2026-06-19", None, 735),
}


def _parse(path: Path):
    source = classify(path)
    return source.document.text, parse_cr_en(source.document.text, source.document)


@pytest.fixture(scope="module")
def parsed(data_dir):
    return {path.name: _parse(path) for path in FILES}


def test_every_file_in_the_data_is_tried():
    assert len(FILES) >= 34


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_rule_numbers_equal_an_independent_count(parsed, path):
    text, edition = parsed[path.name]
    got = [r.number for r in edition.rules if r.kind in ("rule", "subrule")]
    assert len(got) == len(set(got))  # a duplicated number keeps both, the repeat as "702.30d~2"
    assert Counter(n.split("~")[0] for n in got) == independent_numbers(text)
    contents = text.splitlines()[:edition.rules[0].locator.line_start - 1]
    assert sum(r.kind == "chapter" for r in edition.rules) == sum(bool(re.match(r"^\d\. \S", l)) for l in contents)
    if path.name in KNOWN:
        effective, sections, glossary = KNOWN[path.name]
        assert edition.edition == effective and len(edition.glossary) == glossary
        assert sections is None or sum(r.kind == "section" for r in edition.rules) == sections


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_line_of_rules_and_glossary_lands_in_exactly_one_record(parsed, path):
    text, edition = parsed[path.name]
    lines = text.splitlines()
    owner: Counter = Counter()
    spans = [(r.locator.line_start, r.locator.line_end) for r in edition.rules]
    spans += [(e.locator.line_start, e.locator.line_end) for r in edition.rules for e in r.examples]
    spans += [(g.locator.line_start, g.locator.line_end) for g in edition.glossary]
    spans += [(line, line) for line, _ in edition.anomalies]
    for first, last in spans:
        owner.update(range(first, last + 1))
    first_rule = edition.rules[0].locator.line_start
    last_entry = edition.glossary[-1].locator.line_end
    heading = max(n for n in range(first_rule, edition.glossary[0].locator.line_start)
                  if lines[n - 1].strip() == "Glossary")
    body = [n for n in range(first_rule, last_entry + 1) if lines[n - 1].strip() and n != heading]
    assert [n for n in body if owner[n] != 1] == []
    assert not [n for n in owner if not lines[n - 1].strip() and n not in body]


def test_effective_date_comes_from_the_header_and_the_file_date_is_kept(parsed):
    _, edition = parsed["cr-en-20240206.txt"]
    assert edition.edition == "2024-02-02"
    assert classify(shared_data_dir() / "cr-archive" / "cr-en-20240206.txt").file_date == "2024-02-06"


@pytest.mark.parametrize("name,encoding", [("cr-en-20140926.txt", "cp1252"), ("cr-en-20130927.txt", "cp437"),
                                           ("cr-en-20160826.txt", "utf-16-le"),
                                           ("cr-en-20250919.txt", "utf-8-sig"), ("cr-en-20120601.txt", "utf-8")])
def test_encodings_are_detected_and_recorded(parsed, name, encoding):
    path = shared_data_dir() / "cr-archive" / name
    source = classify(path)
    assert source.document.encoding == encoding
    text, edition = parsed[name]
    assert "\ufffd" not in text and "\x00" not in text
    assert text.encode(encoding.replace("-sig", "")) == path.read_bytes()[len(path.read_bytes()) - len(text.encode(encoding.replace("-sig", ""))):]


def test_single_byte_files_read_as_published(parsed):
    text, _ = parsed["cr-en-20140926.txt"]  # Windows-1252: curly quotes, dashes and marks
    assert "who’ve moved" in text and "Gathering®" in text and "603.7d–f" in text and "Dandân" in text
    text, _ = parsed["cr-en-20130927.txt"]  # ASCII but for four card names written in code page 437
    assert all(name in text for name in ("Dandân", "Ghazbán Ogre", "Junún Efreet", "Ma'rûf"))


def test_a_duplicated_number_keeps_both_rules_with_a_warning(parsed):
    text, edition = parsed["cr-en-20090904.txt"]
    by = {r.number: r for r in edition.rules}
    first, second = by["702.30d"], by["702.30d~2"]
    assert first.text != second.text and second.parent == "702.30"
    assert lines_at(text, second.locator.line_start) == second.raw
    assert [w for w in edition.warnings if "702.30d" in w[1]] == [
        (second.locator.line_start, f"rule 702.30d appears twice (first at line {first.locator.line_start}): "
                                    "the repeat is kept as 702.30d~2")]


def test_a_stray_line_is_an_anomaly_with_its_line_and_a_warning(parsed):
    text, edition = parsed["cr-en-20081001.txt"]
    assert edition.anomalies == [(837, lines_at(text, 837))]
    assert lines_at(text, 837).startswith("306.b If an effect")
    assert any(line == 837 and "stray line" in message for line, message in edition.warnings)
    assert all("306.b" not in r.text for r in edition.rules)


def test_a_stray_line_between_rules_never_loses_the_edition():
    text = _fixture_cr(["702.148b Some rule text.", "f", "702.149. Next rule."])
    edition = parse_cr_en(text, Document("x", "x", "cr", "en", "x", text))
    assert [r.number for r in edition.rules if r.kind == "subrule"] == ["702.148b"]
    assert [a[1] for a in edition.anomalies] == ["f"] and edition.warnings[0][1].startswith("stray line 'f'")


def test_a_missing_closing_credits_heading_is_tolerated():
    text = _fixture_cr(["100.1. A rule."], credits=False)
    edition = parse_cr_en(text, Document("x", "x", "cr", "en", "x", text))
    assert [g.term for g in edition.glossary] == ["Term"]
    assert any("no closing 'Credits'" in m for _, m in edition.warnings)


def test_a_spaced_subrule_number_is_read_with_a_warning():
    text = _fixture_cr(["606.8. A rule.", "606. 8b A subrule written with a stray space."])
    edition = parse_cr_en(text, Document("x", "x", "cr", "en", "x", text))
    assert "606.8b" in {r.number for r in edition.rules}
    assert any("read as 606.8b" in m for _, m in edition.warnings)


def test_pre_2009_layout_rules_examples_and_glossary(parsed):
    text, edition = parsed["cr-en-20041001.txt"]
    by = {r.number: r for r in edition.rules}
    assert edition.edition == "2004-10-01"
    assert by["1"].text == "The Game" and by["100"].text == "General"
    assert by["100.1"].text.startswith("These Magic rules assume a game between two players")
    in_rules = text.splitlines()[:edition.glossary[0].locator.line_start]
    assert sum(len(r.examples) for r in edition.rules) == sum(1 for l in in_rules if l.startswith("Example"))
    assert edition.glossary[0].term == "Ability" and edition.glossary[-1].term


def test_known_typos_are_parsed_and_kept_raw(parsed):
    _, e2023 = parsed["cr-en-20231117.txt"]
    rule = next(r for r in e2023.rules if r.number == "901.4")
    assert rule.raw.startswith("901.4.All plane") and rule.text.startswith("All plane")
    _, e2026 = parsed["cr-en-20260417.txt"]
    by = {r.number: r for r in e2026.rules}
    assert by["119.1d"].raw.startswith("119.1d. ") and by["119.1d"].parent == "119.1"
    assert by["606.5"].raw.startswith("606.5 If the total cost")
    _, e2011 = parsed["cr-en-20110930.txt"]
    assert any(r.raw.startswith("121.1c. ") for r in e2011.rules)


def test_rule_text_locator_and_parents(parsed):
    text, edition = parsed["cr-en-20260417.txt"]
    by = {r.number: r for r in edition.rules}
    rule = by["601.2c"]
    assert rule.text.startswith("The player announces their choice of an appropriate object or player")
    assert rule.parent == "601.2" and by["601.2"].parent == "601" and by["601"].parent == "6"
    assert text.splitlines()[rule.locator.line_start - 1] == rule.raw
    assert rule.locator.section == ("6. Spells, Abilities, and Effects", "601. Casting Spells")
    assert [e.text[:40] for e in rule.examples] == ["Example: If a spell says “Tap two target"]
    assert by["701.27"].text == "Transform"
    assert by["701.40"].text == "Manifest"


def test_indented_continuation_lines_join_their_rule(parsed):
    _, edition = parsed["cr-en-20260417.txt"]
    rule = next(r for r in edition.rules if "Cards printed in sets prior to the Eighth Edition" in r.text)
    assert rule.locator.line_end == rule.locator.line_start + 1
    assert rule.text.count("\n") == 1 and rule.raw.split("\n")[1].startswith("     Cards printed")


def test_every_example_is_kept(parsed):
    text, edition = parsed["cr-en-20260116.txt"]
    examples = sum(1 for l in text.splitlines() if l.startswith("Example:"))
    assert sum(len(r.examples) for r in edition.rules) == examples == 276


def test_glossary_multi_sense_entries(parsed):
    _, edition = parsed["cr-en-20260417.txt"]
    ability = next(g for g in edition.glossary if g.term == "Ability")
    assert len(ability.senses) == 2 and "See rule 113" in ability.text


def test_contents_and_credits_are_not_rules(parsed):
    _, edition = parsed["cr-en-20110930.txt"]
    assert all(not r.raw.startswith("1702") for r in edition.rules)
    assert edition.glossary[-1].term == "Zone-Change Triggers"


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_ends_do_not_matter(parsed, newline):
    text, edition = parsed["cr-en-20260417.txt"]
    again = parse_cr_en(newline.join(text.splitlines()), edition.document)
    assert [(r.number, r.text) for r in again.rules] == [(r.number, r.text) for r in edition.rules]


def test_not_a_cr_file_names_the_line():
    with pytest.raises(CRFormatError, match="line 1"):
        parse_cr_en("hello\nworld\n", Document(id="x", title="x", kind="cr", lang="en", path="x", text=""))


def lines_at(text: str, line: int) -> str:
    return text.splitlines()[line - 1]


def _fixture_cr(body: list[str], credits: bool = True) -> str:
    """A minimal CR: title, date line, contents, one chapter and section, ``body``, a glossary."""
    head = ["Magic: The Gathering Comprehensive Rules", "", "These rules are effective as of May 1, 2027.", "",
            "Contents", "", "1. Game Concepts", "100. General", "Glossary", "Credits", "",
            "1. Game Concepts", "", "100. General", ""]
    tail = ["", "Glossary", "", "Term", "A definition.", ""] + (["Credits", "", "Someone"] if credits else [])
    return "\n".join(head + [x for line in body for x in (line, "")] + tail)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_real_edition_has_what_its_contents_list_names(parsed, path):
    """Missing closing headings, stray lines and pre-2009 layouts are accidents, not truncations:
    no real edition is taken for a truncated copy (the build would refuse it)."""
    assert parsed[path.name][1].incomplete is None


def _cut_before(text: str, heading: str) -> str:
    """The file cut just before the body's ``heading`` (its second occurrence: the first is in the contents)."""
    lines = text.splitlines()
    at = [i for i, line in enumerate(lines) if line.strip() == heading][1]
    return "\n".join(lines[:at])


def test_a_copy_cut_at_chapter_8_is_incomplete_with_the_line_it_ends_at(parsed):
    """The issue's case: cr-en-20260619.txt cut at "8. Multiplayer Rules" lost chapters 8-9 and the
    glossary its own contents list names."""
    text = _cut_before(parsed["cr-en-20260619.txt"][0], "8. Multiplayer Rules")
    edition = parse_cr_en(text, Document("x", "x", "cr", "en", "x", text))
    line, message = edition.incomplete
    assert line == len(text.splitlines())
    assert "chapters 8, 9" in message and "sections 800–905" in message and "the Glossary" in message
    assert "after rule 733.2" in message and "line 11" in message  # where it stops; where the contents are


def test_a_copy_cut_inside_the_last_chapter_misses_its_later_sections_and_glossary(parsed):
    text = _cut_before(parsed["cr-en-20260116.txt"][0], "903. Commander")
    message = parse_cr_en(text, Document("x", "x", "cr", "en", "x", text)).incomplete[1]
    assert "chapter" not in message and "sections 903–905 (3)" not in message
    assert "sections 903, 904, 905" in message and "the Glossary" in message


def test_a_copy_cut_after_the_rules_lacks_only_the_glossary():
    text = _fixture_cr(["100.1. A rule."]).split("\nGlossary\n\nTerm")[0]
    edition = parse_cr_en(text, Document("x", "x", "cr", "en", "x", text))
    assert [r.number for r in edition.rules if r.kind == "rule"] == ["100.1"]
    assert edition.incomplete[1].startswith("incomplete: the contents list (line 5) names the Glossary")
