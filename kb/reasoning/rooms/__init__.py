"""Question type: Rooms (CR 709.5), their doors and unlocked designations."""
from __future__ import annotations

from kb.reasoning.engine import register_mechanic
from kb.reasoning.rooms.checks import CHECKS
from kb.reasoning.rooms.logic import KEY, solve
from kb.reasoning.rooms.schema import SCHEMA

register_mechanic(KEY, schema=SCHEMA, solve=solve, entry_rules=("709.5", "603.2"), name_en="Room", name_ja="部屋",
                  checks=CHECKS)
