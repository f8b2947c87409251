"""Question type: modal double-faced cards beside transforming ones (CR 712)."""
from __future__ import annotations

from kb.reasoning.engine import register_mechanic
from kb.reasoning.mdfc.logic import solve
from kb.reasoning.mdfc.schema import M, SCHEMA

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("712.11b", "712.12", "712.8f"),
                  name_en="Modal double-faced cards", name_ja="モードを持つ両面カード",
                  relies_on=("202.3", "305.1", "305.2", "707.8", "701.6", "601.2", "301.5b"))
