"""Edition identity, one place (kb.sources.editions): an edition is found by its effective date
and by its file date, the official list and the loaded files are one set of editions, and where
they disagree the build says so."""
from __future__ import annotations

import json

import pytest

from kb.sources import official
from kb.sources.editions import Edition, Editions, disagreements, iso_day, loaded, merge
from kb.sources.files import discover

# the shipped list once said 2017-07-07 for the edition whose file is dated so but whose header
# says it is effective 2017-07-08
LISTED = Editions([Edition("2017-06-05", "2017-06-05", sha256="a" * 64),
                   Edition("2017-07-07", "2017-07-07", url="https://media.wizards.com/x"),
                   Edition("2017-08-25", "2017-08-25")])


def test_dates_in_either_spelling():
    assert iso_day("20170707") == iso_day("2017-07-07") == iso_day("２０１７－０７－０７".replace("－", "-")) == "2017-07-07"
    for bad in ("2017-13-01", "2017-02-30", "July 7", ""):
        with pytest.raises(ValueError):
            iso_day(bad)


def test_an_edition_is_found_by_either_date_and_is_one_edition_once_loaded():
    held = loaded([("2017-06-05", "2017-06-05"), ("2017-07-08", "2017-07-07")])
    assert held.find("20170707").effective == "2017-07-08" and held.key("2017-07-08") == "2017-07-08"
    pool = merge(LISTED, held)
    assert [e.effective for e in pool] == ["2017-06-05", "2017-07-08", "2017-08-25"]
    assert pool.find("2017-07-07").url == "https://media.wizards.com/x"  # the list's facts stay
    assert pool.in_force("2017-07-07").effective == "2017-06-05"
    assert pool.in_force("2017-07-08").effective == "2017-07-08"
    assert [e and e.effective for e in pool.neighbours("2017-07-08")] == ["2017-06-05", "2017-08-25"]


def test_list_and_files_disagreeing_are_named():
    files = [("2017-07-08", "2017-07-07", None, "cr-en-20170707.txt"),   # header date differs
             ("2017-06-05", "2017-06-05", "b" * 64, "cr-en-20170605.txt"),  # bytes differ
             ("2017-08-25", "2017-08-25", "c" * 64, "cr-en-20170825.txt"),  # no hash listed: agrees
             ("2030-01-01", None, None, "cr-en-20300101.txt")]              # unlisted: `kb editions` says so
    found = disagreements(LISTED, files)
    assert [name for name, _ in found] == ["cr-en-20170707.txt", "cr-en-20170605.txt"]
    assert "effective 2017-07-08 by its header; the official list says 2017-07-07" in found[0][1]
    assert disagreements(Editions(), files) == []


def test_a_disagreement_is_a_build_warning(tmp_path, monkeypatch, data_dir):
    copy = tmp_path / "cr-en-20170707.txt"
    copy.write_bytes((data_dir / "cr-archive" / "cr-en-20170707.txt").read_bytes())
    listing = tmp_path / "list.json"
    listing.write_text(json.dumps({"source": "test", "editions": [e.to_dict() for e in LISTED]}), encoding="utf-8")
    monkeypatch.setattr(official, "load", lambda path=None: official.parse(json.loads(listing.read_text("utf-8"))))
    warnings = discover([copy], None).warnings
    assert [(w[0], w[2]) for w in warnings] == [(str(copy), "the official editions list disagrees: effective "
                                                 "2017-07-08 by its header; the official list says 2017-07-07 "
                                                 "(file date 2017-07-07)")]
    monkeypatch.undo()
    assert discover([copy], None).warnings == []  # the shipped list agrees with the file
