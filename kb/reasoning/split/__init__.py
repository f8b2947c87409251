"""Question type: split cards, fuse and adventurer cards (CR 709.1-709.4, 702.102, 715)."""
from __future__ import annotations

from kb.reasoning.engine import register_mechanic
from kb.reasoning.split.logic import solve
from kb.reasoning.split.schema import M, SCHEMA

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("709.1", "702.102", "715"),
                  name_en="Split cards and adventurers", name_ja="分割カード・出来事",
                  relies_on=("202.3", "701.6", "704.5", "707.10", "117.1a", "601.2", "601.2i", "603.2", "608.2c",
                                             "120.3e", "701.8a", "702.12b", "613.4b", "613.1f", "704.5g"))
