"""Lineage between consecutive real editions: moves across sections and levels, rewording in
place, merges, and rules that really were removed (bench/bench_lineage.py measures it all)."""
from __future__ import annotations

import functools

import pytest

from kb.build.lineage import match_editions
from kb.config import shared_data_dir
from kb.parse.cr_en import parse_cr_en
from kb.sources.files import classify


@functools.cache
def rules(file_date: str):
    path = next(p for p in shared_data_dir().rglob(f"cr-en-{file_date.replace('-', '')}.txt"))
    source = classify(path)
    return parse_cr_en(source.document.text, source.document).rules


@functools.cache
def links(old: str, new: str) -> dict:
    return {link.old: link for link in match_editions(rules(old), rules(new))}


@pytest.mark.parametrize("old, new, number, successor, method", [
    # the Tokens section of 2019-10-04: subrules of 110.5 became rules of 111, text unchanged
    ("2019-06-12", "2019-10-04", "110.5g", "111.8", "text"),
    ("2019-06-12", "2019-10-04", "110.5a", "111.2", "text"),
    # a rule became the first subrule under a new rule of the same number
    ("2025-04-04", "2025-09-19", "903.11", "903.11a", "text"),
    # Ending the Turn folded into the cleanup step rules: rule -> subrule
    ("2019-06-12", "2019-10-04", "716.2", "717.1f", "text"),
    # the 2009 restructuring: Zones 217.2 subrules became rules of section 401
    ("2008-10-01", "2009-09-04", "217.2a", "401.1", "text"),
    ("2008-10-01", "2009-09-04", "216.2", "110.5d", "text"),
    # reworded in place (London mulligan): only the number and the parent tell it is the same rule
    ("2019-06-12", "2019-10-04", "103.4c", "103.4c", "same-number-reworded"),
    # rewritten in place: similar only as a set of words (a clause replaced)
    ("2024-08-02", "2025-04-04", "510.1c", "510.1c", "same-number-reworded"),
    # split in two (Eldraine): 601.3's second sentence became 601.4, its subrules 601.3a-d stayed
    ("2019-06-12", "2019-10-04", "601.3", "601.3", "same-number-children-kept"),
    # ...but a rule whose text went into a subrule of its own number moved there (903.9 -> 903.9b)
    ("2020-06-01", "2020-09-25", "903.9", "903.9b", "text-fuzzy"),
])
def test_moves_across_sections_and_levels_and_rewording(old, new, number, successor, method):
    link = links(old, new)[number]
    assert (link.new, link.method) == (successor, method)


def test_a_duplicated_text_kept_once_links_both_old_rules():
    found = links("2017-09-25", "2018-10-05")
    assert found["810.7a"].new == found["805.10a"].new == "805.10a"
    assert found["810.7a"].method == "text-merged"


@pytest.mark.parametrize("number", ["509.2", "509.3", "509.6", "703.4k"])
def test_rules_removed_with_damage_assignment_order_stay_unlinked(number):
    assert number not in links("2024-08-02", "2025-04-04")


def test_a_rule_that_moved_to_make_room_beats_a_looser_match_at_its_old_number():
    # 2020-09-25 inserted a new 711.4b; the old 711.4b (back face up) is now 711.4c
    assert links("2020-06-01", "2020-09-25")["711.4b"].new == "711.4c"


def test_the_part_split_off_a_rule_is_new():
    found = links("2019-06-12", "2019-10-04")
    assert "601.4" not in {link.new for link in found.values()}  # the new "no longer allowed" rule
    assert found["601.3a"].new == "601.3a" and found["601.4"].new == "601.5"
