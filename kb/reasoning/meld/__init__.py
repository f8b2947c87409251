"""Question type: meld (CR 701.42, 712)."""
from __future__ import annotations

from kb.reasoning.engine import Procedure, register_mechanic
from kb.reasoning.meld.checks import CHECKS
from kb.reasoning.meld.logic import solve
from kb.reasoning.meld.schema import M, SCHEMA

MELDING = Procedure("melding", "合体の手順", "Melding a pair", ("701.42a", "701.42b", "701.42c", "712.4a", "712.14c",
                                                             "712.8g"), lambda s: s["question"] == "meld")

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("701.42", "712.4"), name_en="Meld", name_ja="合体",
                  checks=CHECKS, procedures=(MELDING,), relies_on=("202.3", "400.7", "508.3", "603.4", "603.6"))
