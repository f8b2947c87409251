"""Question type: state-based actions (CR 704)."""
from __future__ import annotations

from kb.reasoning.engine import Procedure, register_mechanic
from kb.reasoning.sba.logic import solve
from kb.reasoning.sba.schema import M, SCHEMA

CHECK = Procedure("check", "状況起因処理のチェック", "The state-based action check",
                  ("704.3", "704.5", "704.7", "704.8"), lambda s: True)

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("704",), name_en="State-based actions",
                  name_ja="状況起因処理", procedures=(CHECK,),
                  relies_on=("707.2", "611.3b", "700.4", "111.8", "514", "702.79", "702.93", "113.7", "608.2h"), examples=(
                      ("致死ダメージを負ったクリーチャーとそのオーラ", "A creature with lethal damage and its Aura",
                       {"permanents": [{"name": "Savannah Lions", "power": 3, "toughness": 3, "damage": 3},
                                       {"name": "Holy Strength", "types": ["enchantment"], "attachment": "aura",
                                        "attached_to": "Savannah Lions"}]}),
                      ("同じ名前の伝説のパーマネントが2つ", "Two legendary permanents with the same name",
                       {"permanents": [{"name": "Urza, Lord Protector", "supertypes": ["legendary"], "power": 2,
                                        "toughness": 4},
                                       {"name": "Urza, Lord Protector", "supertypes": ["legendary"], "power": 2,
                                        "toughness": 4, "indestructible": True}]})))
