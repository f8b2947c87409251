"""Question type: double-faced cards and transform (CR 712, 701.27)."""
from __future__ import annotations

from kb.reasoning.dfc.actions import solve
from kb.reasoning.dfc.checks import CHECKS
from kb.reasoning.dfc.schema import M, SCHEMA
from kb.reasoning.engine import register_mechanic

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("712", "701.27"),
                  name_en="Double-faced cards and transform", name_ja="両面カード・変身", checks=CHECKS,
                  relies_on=("707.10g",))
