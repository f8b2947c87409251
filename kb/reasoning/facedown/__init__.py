"""Question type: face-down spells and permanents (CR 708; morph, disguise, cloak, manifest)."""
from __future__ import annotations

from kb.reasoning.engine import Procedure, register_mechanic
from kb.reasoning.facedown.logic import solve
from kb.reasoning.facedown.schema import M, SCHEMA


def _turning(way: str):
    return lambda s: s["question"] == "turn-face-up" and (s["method"] == way or s["method"] == "own" and (
        s["via"] in {"morph": ("morph", "megamorph"), "disguise": ("disguise",), "mana-cost": ("manifest",
                                                                                              "manifest-dread")}[way]))


PROCEDURES = (
    Procedure("turn-up-morph", "変異で表向きにする手順", "Turning a face-down permanent with morph face up",
              ("702.37e", "116.2b", "702.37b", "708.11", "708.8"), _turning("morph")),
    Procedure("turn-up-disguise", "変装で表向きにする手順", "Turning a face-down permanent with disguise face up",
              ("702.168d", "116.2b", "708.8"), _turning("disguise")),
    Procedure("turn-up-manifested", "予示されたパーマネントを表向きにする手順", "Turning a manifested permanent face up",
              ("701.40b", "116.2b", "701.40g", "708.8"), _turning("mana-cost")),
    Procedure("turn-up-cloaked", "偽装されたパーマネントを表向きにする手順", "Turning a cloaked permanent face up",
              ("701.58b", "116.2b", "701.58g", "708.8"),
              lambda s: s["question"] == "turn-face-up" and s["via"] == "cloak"),
    Procedure("cast-face-down", "裏向きで唱える手順", "Casting a card face down",
              ("702.37c", "708.4", "601.2a", "601.2f", "601.2h", "601.2i"), lambda s: s["question"] == "cast-face-down"),
)

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("708", "702.37", "702.168", "701.58", "701.62"),
                  name_en="Face-down spells and permanents", name_ja="裏向きの呪文とパーマネント",
                  procedures=PROCEDURES, relies_on=("202.3", "701.6", "601.3", "704.5", "117.1c", "117.2e", "718.4", "608.2c",
                                                         "120.3e", "701.8a", "702.12b", "613.4b", "613.1f"), examples=(
                      ("予示されたセラの天使を表向きにする", "Turn a manifested Serra Angel face up",
                       {"question": "turn-face-up", "via": "manifest", "card": {
                           "name": "Serra Angel", "types": ["creature"], "mana_cost": "{3}{W}{W}", "power": 4,
                           "toughness": 4, "abilities": ["flying", "vigilance"]}}),
                      ("予示されたインスタント（稲妻）を効果で表向きにしようとする", "An effect tries to turn a manifested instant up",
                       {"question": "turn-face-up", "via": "manifest", "method": "effect",
                        "card": {"name": "Lightning Bolt", "types": ["instant"], "mana_cost": "{R}"}}),
                      ("変異で裏向きに唱える（マナ総量が偶数の呪文は唱えられない）", "Cast with morph under an even-mana-value ban",
                       {"question": "cast-face-down", "via": "morph", "prohibition": "even-mana-value", "card": {
                           "name": "Exalted Angel", "types": ["creature"], "mana_cost": "{4}{W}{W}",
                           "morph_cost": "{2}{W}{W}"}}),
                      ("稲妻に対応して変異の大天使を表向きにする", "Turn a morph Exalted Angel face up in response to Lightning Bolt",
                       {"question": "turn-face-up", "via": "morph", "incoming": "Lightning Bolt deals 3 damage to any target.",
                        "card": {"name": "Exalted Angel", "types": ["creature"], "mana_cost": "{4}{W}{W}", "power": 4,
                                 "toughness": 5, "abilities": ["flying", "lifelink"], "morph_cost": "{2}{W}{W}"}})))
