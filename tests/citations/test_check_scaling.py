"""A long list of citations is checked whole and right (issue 40.1: the checker read every list
again from each of its items and compared every hit with every other - cubic; 3,000 items did not
finish). Content is asserted, never time."""
from __future__ import annotations

from kb.citations.extract import detect


def test_a_list_of_20000_citations_is_checked_and_each_is_right(full_kb):
    text = "601.2a, 701.25, " * 10_000
    report = full_kb.check_citations(text, date="2011-09-30")
    citations = report["citations"]
    assert len(citations) == 20_000 and report["counts"] == {"current": 10_000, "renumbered": 10_000}
    for i, c in enumerate(citations):
        number = ("601.2a", "701.25")[i % 2]
        assert (c["raw"], c["numbers"], c["line"], c["column"], c["edition"]) == (
            number, [number], 1, 8 * i + 1, "2011-09-30")
    # transform (701.25 in the Innistrad rules) is 701.27 today; 601.2a never moved
    assert {(c["raw"], c["status"], c["current"]["number"]) for c in citations} == {
        ("601.2a", "current", "601.2a"), ("701.25", "renumbered", "701.27")}


def test_every_form_reads_a_long_list_once_and_whole():
    known = frozenset({"601.2a", "601.2b"})
    for joined, form in (("rule 601.2a, " * 5000, "keyword"), ("・601.2a" * 5000, "entry"),
                         ("(" + "601.2a, " * 4999 + "601.2a)", "paren"), ("601.2a and 601.2b, " * 2500, "prose")):
        found = detect(joined, known=known)
        assert len(found) == 5000 and {f.form for f in found} == {form}, (joined[:20], len(found))
        assert [f.start for f in found] == sorted({f.start for f in found})  # no overlap, none twice
