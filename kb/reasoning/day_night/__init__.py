"""Question type: day and night (CR 731) with daybound / nightbound (CR 702.145)."""
from __future__ import annotations

from kb.reasoning.day_night.checks import CHECKS
from kb.reasoning.day_night.logic import solve
from kb.reasoning.day_night.schema import M, SCHEMA
from kb.reasoning.engine import register_mechanic

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("731", "702.145"), name_en="Day and night",
                  name_ja="昼と夜", checks=CHECKS)
