"""Finding cards in the full KB (kb.lookup.cards): by EN or JA name, by part of a name, by a
misspelt name; a name-table-only card is found but says it has no Oracle data; bad queries are
clear errors."""
from __future__ import annotations

import pytest

from kb.errors import InvalidParameter, MissingParameter


def _first(full_kb, query):
    hits = full_kb.find_cards(query, limit=5)
    assert hits, query
    return hits[0]


@pytest.mark.parametrize("query, how", [("Urza, Lord Protector", "name"), ("護国卿、ウルザ", "name"),
                                        ("Lord Protector", "part of the name"), ("護国卿", "part of the name"),
                                        ("護国卿ウルザ", "part of the name"), ("urza lord", "part of the name"),
                                        ("Urza Lord Protecter", "spelling")])
def test_find_cards_by_en_ja_part_and_misspelling(full_kb, query, how):
    hit = _first(full_kb, query)
    assert (hit["name_en"], hit["name_ja"], hit["match"], hit["has_oracle"]) == (
        "Urza, Lord Protector", "護国卿、ウルザ", how, True)


def test_a_whole_word_ranks_above_a_part_inside_a_word_and_each_card_is_cited(full_kb):
    hits = full_kb.find_cards("ward", limit=20)
    names = [h["name_en"] for h in hits]
    assert "Red Ward" in names and "Coward" not in names[:names.index("Red Ward") + 1]
    urza = full_kb.find_cards("護国卿", limit=1)[0]
    assert urza["citation"]["locator"] == "mtgjson-set-BRO.json /cards/225"
    mage = full_kb.find_cards("翻弄する魔道士", limit=1)[0]  # known only from the JA/EN name table
    assert mage["citation"]["document"] == "cards-ja-card-names-mtgwiki-20250922"


def test_a_name_table_entry_is_cited_where_a_user_can_find_it(full_kb):
    """The JSON pointer of the wiki table's record, the line of the TSV: each holds the card's names."""
    import json

    from tests.shared_data import require_data

    shared_data = require_data()

    mage = full_kb.find_cards("翻弄する魔道士", limit=1)[0]["citation"]
    path, pointer = mage["locator"].split(" ")
    records = json.loads((shared_data / "cards" / path).read_text(encoding="utf-8"))
    assert records[int(pointer.lstrip("/"))] == {"name": "Meddling Mage", "jpname": "翻弄する魔道士"}
    assert mage in full_kb.card("Meddling Mage")["citations"]
    tsv = next(loc for loc in full_kb.model.cards["urza-lord-protector"]["named_in"] if loc["line_start"])
    line = (shared_data / "cards" / tsv["locator"].split(" ")[0]).read_text(encoding="utf-8").splitlines()[
        tsv["line_start"] - 1]
    assert "\tUrza, Lord Protector // Urza, Planeswalker\t護国卿、ウルザ\t" in line


def test_a_face_name_finds_its_card_and_the_meld_back_is_its_own_card(full_kb):
    assert full_kb.card("プレインズウォーカー、ウルザ")["name_en"] == "Urza, Planeswalker"
    assert full_kb.card("ガイアの声、ティタニア")["oracle_name"] == "Titania, Voice of Gaea"
    urzas = [h["name_en"] for h in full_kb.find_cards("urza lord", limit=5)]
    assert urzas[0] == "Urza, Lord Protector"
    assert full_kb.find_cards("Urza", limit=1)[0]["name_en"] == "Urza"  # the exact name first (a name-table card)


def test_a_card_known_only_from_the_name_table(full_kb):
    mage = full_kb.card("翻弄する魔道士")
    assert (mage["name_en"], mage["has_oracle"]) == ("Meddling Mage", False)
    assert mage["faces"] == [] and mage["rulings"] == []


def test_an_lea_card_has_its_dated_rulings(full_kb):
    wall = full_kb.card("Animate Wall")
    assert wall["faces"][0]["text"].startswith("Enchant Wall")
    assert wall["rulings"][0]["date"] == "2007-09-16"
    assert wall["rulings"][0]["citation"]["locator"] == "mtgjson-set-LEA.json /data/cards/0/rulings/0"


def test_unknown_and_bad_card_queries(full_kb):
    assert full_kb.card("Zzyzx Quorble") is None
    assert full_kb.find_cards("Zzyzx Quorble") == []
    with pytest.raises(MissingParameter):
        full_kb.card("  ")
    with pytest.raises(MissingParameter):
        full_kb.find_cards("")
    with pytest.raises(InvalidParameter, match="at most 200"):
        full_kb.find_cards("x" * 201)
    with pytest.raises(InvalidParameter, match="limit=0"):
        full_kb.find_cards("Urza", limit=0)
