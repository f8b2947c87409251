"""The card tables of a loaded snapshot (kb.store.tables.LazyDict): `kb rule` (after the first,
which keeps the superseded-rulings index in the home's cache) and `kb editions` never decode them,
a card lookup does, and the preparation a server's master runs before forking decodes them, so its
workers share one copy instead of each decoding its own."""
from __future__ import annotations

import pytest

from kb.store.tables import LazyDict


def test_a_lazy_table_reads_as_the_dict_it_was_made_from():
    import marshal

    rows = {"urza-lord-protector": {"name": "Urza, Lord Protector"}, "meddling-mage": {"name": "Meddling Mage"}}
    table = LazyDict(marshal.dumps(rows))
    assert not table.decoded
    assert table["meddling-mage"]["name"] == "Meddling Mage" and table.decoded
    assert dict(table) == rows and list(table.items()) == list(rows.items()) and len(table) == 2
    assert "urza-lord-protector" in table and table.get("missing") is None
    with pytest.raises(KeyError):
        table["missing"]


def test_rule_lookups_leave_the_card_tables_encoded_and_serving_decodes_them(full_home):
    from kb.lookup.kb import KB

    KB.load(full_home).rule("601.2c")  # a first `kb rule` keeps the superseded-rulings index (its checks read cards)
    kb = KB.load(full_home)
    tables = (kb.model.cards, kb.model.card_names)
    assert all(isinstance(t, LazyDict) for t in tables)
    rule = kb.rule("601.2c")
    assert rule["text"] and len(rule["history"]) >= 30 and kb.editions()
    assert not any(t.decoded for t in tables)
    kb.prepare_search()  # what server.serve.warm_up runs in the master before the workers fork
    assert all(t.decoded for t in tables)
    found = kb.find_cards("護国卿、ウルザ")
    assert found and found[0]["name_en"] == "Urza, Lord Protector"
