"""Question type: manifest and face-down permanents (CR 701.40, 708)."""
from __future__ import annotations

from kb.reasoning.engine import Procedure, register_mechanic
from kb.reasoning.manifest.checks import CHECKS
from kb.reasoning.manifest.logic import solve
from kb.reasoning.manifest.schema import M, SCHEMA

TURN_UP = Procedure("turn-face-up", "予示されたパーマネントを表向きにする手順", "Turning a manifested permanent face up",
                    ("701.40b", "116.2b", "708.8"), lambda s: s["question"] == "turn-face-up")

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("701.40", "708"), name_en="Manifest",
                  name_ja="予示", checks=CHECKS, procedures=(TURN_UP,))
