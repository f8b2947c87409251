"""Question type: meld (CR 701.42, 712)."""
from __future__ import annotations

from kb.reasoning.engine import Procedure, register_mechanic
from kb.reasoning.meld.checks import CHECKS
from kb.reasoning.meld.logic import solve
from kb.reasoning.meld.schema import M, SCHEMA

MELDING = Procedure("melding", "合体の手順", "Melding a pair", ("701.42a", "701.42b", "701.42c", "712.4a", "712.14c",
                                                             "712.8g"), lambda s: s["question"] == "meld")

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("701.42", "712.4"), name_en="Meld", name_ja="合体",
                  checks=CHECKS, procedures=(MELDING,), relies_on=("202.3", "400.7", "508.3", "603.4", "603.6", "700.4", "704.5", "707.5", "301.5c"),
                  examples=(("合体したウルザ（プレインズウォーカー）のマナ総量", "Mana value of Urza, Planeswalker",
                             {"question": "characteristics", "cards": [
                                 {"name": "Urza, Lord Protector", "mana_cost": "{1}{W}{U}", "types": ["creature"],
                                  "melds_with": "The Mightstone and Weakstone", "melds_into": "Urza, Planeswalker"},
                                 {"name": "The Mightstone and Weakstone", "mana_cost": "{5}", "types": ["artifact"],
                                  "melds_with": "Urza, Lord Protector", "melds_into": "Urza, Planeswalker"}],
                              "melded": {"name": "Urza, Planeswalker", "types": ["planeswalker"], "loyalty": 7,
                                         "color_indicator": ["W", "U"]}}),
                            ("合体したパーマネントが死亡する", "The melded permanent dies",
                             {"question": "leaves", "cards": [
                                 {"name": "Mishra, Claimed by Gix", "mana_cost": "{2}{B}{R}",
                                  "melds_with": "Phyrexian Dragon Engine", "melds_into": "Mishra, Lost to Phyrexia"},
                                 {"name": "Phyrexian Dragon Engine", "mana_cost": "{3}",
                                  "melds_with": "Mishra, Claimed by Gix", "melds_into": "Mishra, Lost to Phyrexia"}]})))
