"""Question type: casting a spell (CR 601.2a-i, costs 118, rewinding 733)."""
from __future__ import annotations

from kb.reasoning.casting.checks import CHECKS
from kb.reasoning.casting.logic import KEY, STEPS, solve
from kb.reasoning.casting.schema import SCHEMA
from kb.reasoning.engine import Procedure, register_mechanic

CASTING = Procedure("casting", "呪文を唱える手順（601.2a～i）", "Casting a spell (601.2a–i)", STEPS, lambda s: True)

register_mechanic(KEY, schema=SCHEMA, solve=solve, entry_rules=("601",), name_en="Cast", name_ja="唱える",
                  checks=CHECKS, procedures=(CASTING,))
