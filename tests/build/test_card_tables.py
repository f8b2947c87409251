"""The card tables of a loaded snapshot, in parts (kb.store.tables.PartedBlock): `kb rule` (after
the first, which keeps the superseded-rulings index in the home's cache) and `kb editions` decode
none of them, a card lookup decodes the parts it reads, and the preparation a server's master runs
before forking decodes them all, so its workers share one copy instead of each decoding its own."""
from __future__ import annotations

from kb.store.tables import PartedBlock


def test_card_keys_and_names_in_parts_read_as_the_dict_they_were_made_from():
    rows = {"urza-lord-protector": {"name": "Urza, Lord Protector"}, "meddling-mage": {"name": "Meddling Mage"},
            "1996-world-champion": {"name": "1996 World Champion"}, "護国卿、ウルザ": "urza-lord-protector"}
    table = PartedBlock(PartedBlock.split(rows))
    assert table.parts_read == (0, 4)
    assert table["meddling-mage"]["name"] == "Meddling Mage" and table.parts_read == (1, 4)
    assert "urza-lord-protector" in table and table.get("missing") is None and table["護国卿、ウルザ"]
    assert list(table.items()) == list(rows.items()) and len(table) == 4
    table.read_all()
    assert table.parts_read == (4, 4)


def test_rule_lookups_leave_the_card_tables_unread_and_serving_reads_them(full_home):
    from kb.lookup.kb import KB

    KB.load(full_home).rule("601.2c")  # a first `kb rule` keeps the superseded-rulings index (its checks read cards)
    kb = KB.load(full_home)
    tables = (kb.model.cards, kb.model.card_names)
    assert all(isinstance(t, PartedBlock) for t in tables)
    rule = kb.rule("601.2c")
    assert rule["text"] and len(rule["history"]) >= 30 and kb.editions()
    assert all(t.parts_read[0] == 0 for t in tables)
    found = kb.find_cards("護国卿、ウルザ")
    assert found and found[0]["name_en"] == "Urza, Lord Protector"
    read, parts = kb.model.cards.parts_read
    assert 0 < read < parts / 4  # a lookup reads the parts of the cards it shows
    kb.prepare_search()  # what server.serve.warm_up runs in the master before the workers fork
    assert all(t.parts_read[0] == t.parts_read[1] for t in tables)
