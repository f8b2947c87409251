"""Question type: Rooms (CR 709.5), their doors and unlocked designations."""
from __future__ import annotations

from kb.reasoning.engine import Procedure, register_mechanic
from kb.reasoning.rooms.checks import CHECKS
from kb.reasoning.rooms.logic import KEY, solve
from kb.reasoning.rooms.schema import SCHEMA

UNLOCK = Procedure("unlock", "ドアを開放する手順（開放コスト）", "Unlocking a door (paying an unlock cost)",
                   ("709.5e", "116.2m", "116.1", "116.3", "709.5h", "709.5i"), lambda s: s["event"] == "unlock_action")

register_mechanic(KEY, schema=SCHEMA, solve=solve, entry_rules=("709.5", "603.2"), name_en="Room", name_ja="部屋",
                  checks=CHECKS, procedures=(UNLOCK,))
