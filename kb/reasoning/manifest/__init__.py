"""Question type: manifest and face-down permanents (CR 701.40, 708)."""
from __future__ import annotations

from kb.reasoning.engine import register_mechanic
from kb.reasoning.manifest.checks import CHECKS
from kb.reasoning.manifest.logic import solve
from kb.reasoning.manifest.schema import M, SCHEMA

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("701.40", "708"), name_en="Manifest",
                  name_ja="予示", checks=CHECKS)
