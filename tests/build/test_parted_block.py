"""An older edition's rules in parts by rule (kb.store.tables.PartedBlock): a lookup decodes only
its rule's part (702.19 with its subrules), a whole pass gives every row in the order written (a
row out of its place too), edits and re-splitting keep every row, and a snapshot's history of one
rule reads one small part of each older edition and none of its other tables."""
from __future__ import annotations

from kb.store.tables import PartedBlock

ROWS = {"1": "Game Concepts", "100": "General", "100.1": "a", "6": "Spells", "601.2c": "targets", "601.2": "casting",
        "702.19b": "trample", "100.1a": "out of its place", "505.4~2": "a repeated number"}


def test_a_lookup_decodes_only_its_rule_and_a_pass_keeps_the_written_order():
    block = PartedBlock(PartedBlock.split(ROWS))
    assert block["601.2c"] == "targets" and block["601.2"] == "casting" and "601.2z" not in block
    assert set(block._parts) == {"601.2"}
    assert block.get("699.9") is None and block["505.4~2"] == "a repeated number"
    assert list(block.items()) == list(ROWS.items()) and len(block) == len(ROWS)


def test_edits_and_a_second_split_keep_every_row():
    block = PartedBlock(PartedBlock.split(ROWS))
    block["601.2d"] = "costs"
    block["903.1"] = "commander"  # a part no row had before
    del block["100.1"]
    again = PartedBlock(PartedBlock.split(block))
    assert list(again.items()) == [*((k, v) for k, v in ROWS.items() if k != "100.1"),
                                   ("601.2d", "costs"), ("903.1", "commander")]
    untouched = PartedBlock(PartedBlock.split(ROWS))
    assert untouched["6"] == "Spells"  # read, not edited: the parts and order are written back as they were
    assert PartedBlock.split(untouched) == PartedBlock.split(ROWS)


def test_a_rule_history_reads_one_part_of_each_older_edition(full_home):
    from kb.lookup.kb import KB

    kb = KB.load(full_home)
    history = kb.history("601.2c")
    assert len({h["edition"] for h in history}) >= 30
    assert history[0]["text"] and history[0]["citation"]["locator"].startswith("cr-en-")
    older = [block for block in kb.model.rules._blocks.values() if isinstance(block, PartedBlock)]
    assert len(older) >= 30 and all(set(block._parts) == {"601.2"} for block in older)
    assert all(not block._raw or block._order is None for block in older)  # no pass over any of them
    assert not any(key in kb.model.glossary._blocks for key in kb.model.rules._blocks
                   if isinstance(kb.model.rules._blocks[key], PartedBlock))  # nor their glossary
