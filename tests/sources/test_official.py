"""The shipped list of official CR editions: its stable format, the identities of the files we
hold, and the date lookups a citation checker and `kb fetch --history` rely on."""
from __future__ import annotations

import hashlib
import json

import pytest

from kb.config import shared_data_dir
from kb.sources import official
from kb.sources.files import classify


def test_format_is_exactly_the_documented_one():
    document = json.loads(official.LIST_PATH.read_text(encoding="utf-8"))
    assert set(document) == {"source", "editions"} and "rulesraker" in document["source"]
    rows = document["editions"]
    assert all(set(row) == {"effective", "file_date", "url", "sha256", "notes"} for row in rows)
    assert [r["effective"] for r in rows] == sorted(r["effective"] for r in rows)
    assert len({r["effective"] for r in rows}) == len(rows)
    years = {r["effective"][:4] for r in rows}
    assert {str(y) for y in range(2003, 2027)} <= years  # every year 2003-2026 has editions
    for row in rows:
        assert row["url"] is None or row["url"].startswith(("https://media.wizards.com/", "http://www.wizards.com/",
                                                            "http://wizards.com/"))
        assert row["notes"], row


def test_every_held_file_is_listed_with_its_header_date_and_no_other_sha256(data_dir):
    """The list and the files agree: each held file's header date is the list's effective date
    (found by either date), and its sha256 is the list's or the list does not know one."""
    listed = official.load()
    paths = sorted([*shared_data_dir().glob("cr-en-*.txt"), *shared_data_dir().glob("cr-archive/cr-en-*.txt")])
    assert len(paths) >= 34
    for path in paths:
        source = classify(path)
        edition = listed.find(source.edition_hint)
        assert edition is not None, path.name
        assert edition.effective == source.edition_hint  # the header's date is the key
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if "LF-normalised" in edition.notes:  # 2026-04-17: the copy we hold is not the official bytes
            assert edition.sha256 is None and digest in edition.notes
        else:
            assert edition.sha256 in (None, digest), path.name
    assert sum(official.load().find(classify(p).edition_hint).sha256 is not None for p in paths) >= 33


def test_identities_of_editions_not_held():
    listed = official.load()
    assert listed.find("2026-08-19").effective == "2026-08-07"
    assert listed.find("2026-08-07").sha256 == "4381ad1b39ab2c05f7d03633a20f711ed37277074d3266dcba5f38cbb527423f"
    assert listed.find("20260925").sha256 == "8d860e451f20f38865b725b42d82feb714c725373dd8f3b32b8652b3eeb070ca"
    assert listed.find("2021-11-15").effective == "2021-11-19"
    assert listed.find("2024-02-06").effective == "2024-02-02"  # file date is an alias


def test_in_force_and_around():
    listed = official.load()
    assert listed.in_force("2024-02-05").effective == "2024-02-02"
    assert listed.in_force("2024-02-02").effective == "2024-02-02"
    assert listed.in_force("2024-02-01").effective == "2023-11-17"
    assert listed.in_force("2002-01-01") is None
    before, after = listed.around("2022-01-01")
    assert (before.effective, after.effective) == ("2021-11-19", "2022-02-18")
    assert listed.around("2030-01-01")[1] is None
    with pytest.raises(ValueError):
        listed.in_force("not a date")


def test_old_editions_name_their_archived_copy():
    edition = official.load().find("2004-10-01")
    assert edition.url == "http://www.wizards.com/magic/comprules/MagicCompRules041001.txt"
    assert edition.archived_url == ("https://web.archive.org/web/20041029080915id_/"
                                    "http://www.wizards.com/magic/comprules/MagicCompRules041001.txt")
    assert official.load().find("2025-09-19").archived_url is None
