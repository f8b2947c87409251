"""Question type: state-based actions (CR 704)."""
from __future__ import annotations

from kb.reasoning.engine import Procedure, register_mechanic
from kb.reasoning.sba.logic import solve
from kb.reasoning.sba.schema import M, SCHEMA

CHECK = Procedure("check", "状況起因処理のチェック", "The state-based action check",
                  ("704.3", "704.5", "704.7", "704.8"), lambda s: True)

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("704",), name_en="State-based actions",
                  name_ja="状況起因処理", procedures=(CHECK,),
                  relies_on=("707.2",))
