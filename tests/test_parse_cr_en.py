"""The EN CR parser against every edition in ../shared/data: nothing dropped, merged or invented."""
from __future__ import annotations

import re

import pytest

from kb.parsers.cr_en import CRFormatError, parse_cr_en
from kb.records import Document

EDITIONS = {  # file -> (edition, sections, glossary entries) from the data README's own counts
    "cr-en-20110930.txt": ("2011-09-30", 123, 460),
    "cr-en-20231117.txt": ("2023-11-17", 142, 668),
    "cr-en-20260116.txt": ("2026-01-16", 146, 725),
    "cr-en-20260417.txt": ("2026-04-17", 147, 730),
}


def _parse(path):
    text = path.read_bytes().decode("utf-8-sig")
    return text, parse_cr_en(text, Document(id=path.stem, title=path.name, kind="cr", lang="en",
                                            path=str(path), text=text))


@pytest.fixture(scope="module")
def parsed(data_dir):
    return {name: _parse(data_dir / name) for name in EDITIONS}


@pytest.mark.parametrize("name", sorted(EDITIONS))
def test_rule_numbers_equal_an_independent_count(parsed, name):
    text, edition = parsed[name]
    lines = text.splitlines()
    # Independent count: the data README's regex, plus the one rule it misses ("901.4.All").
    expected = {re.match(r"^(\d{3}\.\d+[a-z]?)", l)[1] for l in lines
                if re.match(r"^\d{3}\.\d+[a-z]?\.? ", l) or re.match(r"^\d{3}\.\d+\.[A-Z]", l)}
    got = [r.number for r in edition.rules if r.kind in ("rule", "subrule")]
    assert len(got) == len(set(got))
    assert set(got) == expected
    assert edition.edition == EDITIONS[name][0]
    assert sum(r.kind == "section" for r in edition.rules) == EDITIONS[name][1]
    assert sum(r.kind == "chapter" for r in edition.rules) == 9
    assert len(edition.glossary) == EDITIONS[name][2]


def test_counts_of_the_current_edition(parsed):
    _, edition = parsed["cr-en-20260417.txt"]
    assert sum(r.kind in ("rule", "subrule") for r in edition.rules) == 3138


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
