"""Casting (CR 601) questions, written from the current CR's text and the casting blog's claims.

Each row: a situation, what the rule text says the outcome is, and rules that must be in the trace.
"""
from __future__ import annotations

import pytest

from kb.reasoning.catalog import ask
from kb.reasoning.engine import SituationError
from kb.reasoning.rulebook import ParsedRuleBook
from kb.reasoning.registry import PinError, check_pins
from tests.reasoning_fixtures import altered_book

SHOCK = {"name": "Shock", "mana_cost": "{R}", "types": ["instant"], "targets": [{"legal": ["Bear", "opponent"]}]}
REAP = {"name": "Altar's Reap", "mana_cost": "{1}{B}", "types": ["instant"]}
FURY = {"name": "Aurelia's Fury", "mana_cost": "{X}{R}{W}", "types": ["instant"], "divide": "X",
        "targets": [{"min": 1, "max": 3, "legal": ["Bear", "Elf", "opponent"]}]}
THUNDER = {"name": "Rolling Thunder", "mana_cost": "{X}{R}{R}", "types": ["sorcery"]}
TWO_TARGETS = {"name": "Destroy target artifact and target land", "mana_cost": "{2}{R}", "types": ["sorcery"],
               "targets": [{"legal": ["Artifact Land"]}, {"legal": ["Artifact Land", "Forest"]}]}
KICKED = {"name": "Kicker spell", "mana_cost": "{R}", "types": ["instant"],
          "targets": [{"legal": ["Bear"]}, {"legal": ["opponent"], "only_if": "kicker"}]}
VISION = {"name": "Ancestral Vision", "mana_cost": None, "types": ["sorcery"]}
shock = {"spell": SHOCK, "targets": [["Bear"]], "mana_pool": "{R}"}
# Every step of 601.2 is in the trace, in order, even one with nothing to do (601.2d: nothing divided).
ALL = ["601.2a", "601.2b", "601.2c", "601.2d", "601.2e", "601.2f", "601.2g", "601.2h", "601.2i"]

CASES = [
    # id, situation, outcome subset, rules in trace
    ("plain cast, steps in order", shock,
     {"legal": True, "spell_zone": "stack", "total_cost": "{R}", "steps_done": ALL}, ["601.3", "601.2"] + ALL),
    ("601.2h example: Altar's Reap with Thunderscape Familiar sacrificed", {
        "spell": REAP, "mana_pool": "{B}", "additional_costs": [{"name": "Altar's Reap", "other": "sacrifice a creature"}],
        "cost_changes": [{"source": "Thunderscape Familiar", "kind": "reduction", "mana": "{1}"}]},
     {"legal": True, "total_cost": "{B}"}, ["118.8a", "118.7a", "601.2f", "601.2h"]),
    ("can't pay: rewound to the hand", shock | {"mana_pool": ""},
     {"legal": False, "failed_step": "601.2h", "rewound": True, "spell_zone": "hand"}, ["601.2h", "733.1", "733.2"]),
    ("no mana cost is unpayable", {"spell": VISION},
     {"legal": False, "failed_step": "601.2h", "total_cost": "unpayable"}, ["601.2f", "601.2h", "733.1"]),
    ("no mana cost, cast without paying its mana cost", {"spell": VISION, "alternative_costs": [
        {"name": "without paying its mana cost", "mana": ""}]}, {"legal": True, "total_cost": "{0}"}, ["601.2h"]),
    ("two alternative costs", {"spell": REAP, "alternative_costs": [{"name": "a", "mana": ""}, {"name": "b", "mana": ""}]},
     {"legal": False, "failed_step": "601.2b", "spell_zone": "hand"}, ["601.2b", "118.9a", "733.1"]),
    ("X not announced", {"spell": THUNDER, "mana_pool": "{R}{R}"}, {"legal": False, "failed_step": "601.2b"}, ["601.2b"]),
    ("X announced is part of the cost", {"spell": THUNDER, "x": 3, "mana_pool": "{3}{R}{R}"},
     {"legal": True, "total_cost": "{3}{R}{R}"}, ["601.2b", "601.2f"]),
    ("modal spell with no mode", {"spell": SHOCK | {"modes": 1}, "targets": [["Bear"]], "mana_pool": "{R}"},
     {"failed_step": "601.2b"}, ["601.2b"]),
    ("same target twice for one 'target'", {"spell": FURY, "x": 2, "targets": [["Bear", "Bear"]], "division": [1, 1],
                                            "mana_pool": "{2}{R}{W}"}, {"failed_step": "601.2c"}, ["601.2c"]),
    ("same object once per 'target' word", {"spell": TWO_TARGETS, "targets": [["Artifact Land"], ["Artifact Land"]],
                                            "mana_pool": "{2}{R}"}, {"legal": True}, ["601.2c"]),
    ("illegal target", shock | {"targets": [["Hexproof Troll"]]}, {"failed_step": "601.2c"}, ["601.2c", "733.1"]),
    ("kicker target not required unless kicked", {"spell": KICKED, "targets": [["Bear"], []], "mana_pool": "{R}"},
     {"legal": True, "targets": ["Bear"]}, ["601.2c"]),
    ("kicker target required when kicked", {"spell": KICKED, "targets": [["Bear"], []], "mana_pool": "{2}{R}",
                                            "additional_costs": [{"name": "kicker", "mana": "{2}"}]},
     {"failed_step": "601.2c"}, ["601.2c"]),
    ("division 2 and 0", {"spell": FURY, "x": 2, "targets": [["Bear", "Elf"]], "division": [2, 0],
                          "mana_pool": "{2}{R}{W}"}, {"failed_step": "601.2d"}, ["601.2d"]),
    ("division 1 and 1", {"spell": FURY, "x": 2, "targets": [["Bear", "Elf"]], "division": [1, 1],
                          "mana_pool": "{2}{R}{W}"}, {"legal": True, "total_cost": "{2}{W}{R}"}, ["601.2d"]),
    ("601.3a Void Winnower: X may make the mana value odd", {"spell": THUNDER, "x": 1, "mana_pool": "{1}{R}{R}",
                                                              "prohibitions": [{"name": "Void Winnower", "kind": "even_mana_value"}]},
     {"legal": True}, ["601.3a", "601.3", "601.2e"]),
    ("601.3a Void Winnower: X=2 makes it even, illegal at 601.2e", {
        "spell": THUNDER, "x": 2, "mana_pool": "{2}{R}{R}",
        "prohibitions": [{"name": "Void Winnower", "kind": "even_mana_value"}]},
     {"legal": False, "failed_step": "601.2e", "rewound": True}, ["601.3a", "601.2e", "733.1"]),
    ("prohibited: can't begin", shock | {"prohibitions": [{"name": "no instants", "kind": "card_type",
                                                            "types": ["instant"]}]},
     {"legal": False, "began": False, "failed_step": "601.3", "rewound": False, "spell_zone": "hand"}, ["601.3"]),
    ("prohibition arising during the proposal", shock | {"prohibitions": [
        {"name": "no spells", "kind": "all_spells", "timing": "during_proposal"}]}, {"failed_step": "601.2e"}, ["601.2e"]),
    ("prohibition arising while paying doesn't matter", shock | {"prohibitions": [
        {"name": "no spells", "kind": "all_spells", "timing": "during_costs"}]}, {"legal": True}, ["601.6"]),
    ("from graveyard without permission", shock | {"from_zone": "graveyard"}, {"failed_step": "601.3"}, ["601.3"]),
    ("flashback from graveyard", shock | {"from_zone": "graveyard", "permission": True, "mana_pool": "{1}{R}",
                                         "alternative_costs": [{"name": "flashback", "mana": "{1}{R}"}]},
     {"legal": True, "total_cost": "{1}{R}", "spell_zone": "stack"}, ["601.2b", "601.2f"]),
    ("alternative cost plus additional cost and increase (118.9d)", shock | {
        "alternative_costs": [{"name": "flashback", "mana": "{R}"}], "additional_costs": [{"name": "kicker", "mana": "{1}"}],
        "cost_changes": [{"source": "Thalia", "kind": "increase", "mana": "{1}"}], "mana_pool": "{2}{R}"},
     {"legal": True, "total_cost": "{2}{R}"}, ["118.9d", "601.2f"]),
    ("coloured reduction exceeding the colour (118.7c)", {"spell": {"name": "Fire", "mana_cost": "{1}{R}"},
                                                         "cost_changes": [{"source": "x", "kind": "reduction", "mana": "{R}{R}"}]},
     {"legal": True, "total_cost": "{0}"}, ["118.7c"]),
    ("coloured reduction the cost doesn't need (118.7b)", {"spell": {"name": "Opt", "mana_cost": "{2}{U}"},
                                                           "cost_changes": [{"source": "x", "kind": "reduction", "mana": "{G}"}],
                                                           "mana_pool": "{1}{U}"}, {"total_cost": "{1}{U}"}, ["118.7b"]),
    ("colourless reduction exceeding {C} (118.7d)", {"spell": {"name": "Eldrazi", "mana_cost": "{2}{C}"},
                                                    "cost_changes": [{"source": "x", "kind": "reduction", "mana": "{C}{C}"}],
                                                    "mana_pool": "{1}"}, {"total_cost": "{1}"}, ["118.7d"]),
    ("change after lock-in has no effect", shock | {"cost_changes": [
        {"source": "late Thalia", "kind": "increase", "mana": "{1}", "timing": "after_lock"}]},
     {"legal": True, "total_cost": "{R}"}, ["601.2f"]),
    ("cost changer cast in response (601.8)", shock | {"cost_changes": [
        {"source": "Thalia", "kind": "increase", "mana": "{1}", "timing": "after_cast"}]},
     {"legal": True, "total_cost": "{R}"}, ["601.8"]),
    ("life payment beyond the life total", shock | {"life_total": 1, "additional_costs": [{"name": "x", "life": 2}]},
     {"failed_step": "601.2h"}, ["601.2h"]),
    ("non-mana cost that can't be paid", {"spell": REAP, "mana_pool": "{1}{B}", "unpayable_costs": ["sacrifice a creature"],
                                          "additional_costs": [{"name": "Altar's Reap", "other": "sacrifice a creature"}]},
     {"failed_step": "601.2h", "spell_zone": "hand"}, ["601.2h", "733.1"]),
    ("mana abilities during casting pay the cost", shock | {"mana_pool": "", "mana_sources": [
        {"name": "Mountain", "produces": "{R}"}]}, {"legal": True}, ["601.2g"]),
    ("a non-mana ability can't be activated in 601.2g", shock | {"mana_pool": "", "mana_sources": [
        {"name": "Arbor Elf", "produces": "{R}", "mana_ability": False}]}, {"failed_step": "601.2h"}, ["601.2g", "601.2h"]),
    ("cast and becomes-target triggers after the spell is cast", shock | {"triggers": [
        {"name": "Prowess", "event": "cast"}, {"name": "Heroic", "event": "becomes_target", "object": "Bear"}]},
     {"legal": True, "triggered": ["Heroic", "Prowess"]}, ["601.2c", "601.2i"]),
    ("no triggers from an undone casting (733.1)", shock | {"mana_pool": "", "triggers": [
        {"name": "Prowess", "event": "cast"}, {"name": "Heroic", "event": "becomes_target", "object": "Bear"}]},
     {"legal": False, "triggered": []}, ["733.1"]),
]


@pytest.mark.parametrize("situation,expected,rules", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_casting(book, situation, expected, rules):
    result = ask(book, "cast", situation)
    out = result["outcome"]
    assert {k: out[k] for k in expected} == expected
    traced = [s["rule"] for s in result["trace"]]
    assert [r for r in rules if r not in traced] == []
    assert all(s["edition"] == book.edition and s["text_en"] for s in result["trace"])


def test_failed_step_is_last_step_before_rewind(book):
    out = ask(book, "cast", shock | {"mana_pool": ""})
    traced = [s["rule"] for s in out["trace"]]
    assert traced[-3:] == ["601.2h", "733.1", "733.2"]
    assert "601.2i" not in traced


@pytest.mark.parametrize("situation,field", [
    ({}, "spell"),
    ({"spell": SHOCK | {"mana_cost": "{R}{Q}"}}, "spell.mana_cost"),
    ({"spell": SHOCK, "from_zone": "sideboard"}, "from_zone"),
    ({"spell": SHOCK, "targets": []}, "targets"),
    ({"spell": SHOCK, "colour": "red"}, "colour"),
    ({"spell": SHOCK, "cost_changes": [{"source": "x", "kind": "discount", "mana": "{1}"}]}, "cost_changes[0].kind"),
])
def test_bad_situation_names_field(book, situation, field):
    with pytest.raises(SituationError) as e:
        ask(book, "cast", situation)
    assert e.value.field == field


def test_blog_claims_are_classified_by_computing_them(book):
    from kb.reasoning.casting.checks import CHECKS
    seen = set()
    for check in CHECKS:
        res = ask(book, "cast", check.situation)
        agree = {r["id"] for r in res["rulings"]["agree"]}
        disagree = {r["id"] for r in res["rulings"]["disagree"] + res["rulings"]["superseded"]}
        ids = {r.id for r in book.rulings("cast") if check.fingerprint in r.text}
        assert len(ids) == 1, check.fingerprint  # each claim is found once in the seed
        assert ids <= agree and not ids & disagree, check.fingerprint
        seen |= ids
    if isinstance(book, ParsedRuleBook):  # one seed line per claim; the KB keeps a paragraph as one ruling
        assert len(seen) == len(CHECKS)


def test_japanese_labels_use_cr_terms():
    from kb.reasoning.casting.schema import SCHEMA
    labels = repr(SCHEMA)
    for term in ("唱える", "追加コスト", "代替コスト", "コスト増加", "コスト減少", "対象", "マナ・コスト"):
        assert term in labels


def test_pins_fail_loudly_when_a_rule_changes():
    with pytest.raises(PinError, match="601.2d"):
        check_pins(altered_book("601.2d", "The player announces something else."))


def test_kb_answer_by_japanese_name_has_japanese_rule_texts(full_kb):
    """On the real KB, 唱える finds the cast mechanic and the trace carries the JA CR's 601 texts
    (the JA edition is older; each rule is carried to it through lineage)."""
    out = full_kb.ask("唱える", shock)
    steps = [s for s in out["trace"] if s["rule"].startswith("601.")]
    assert steps and all(s["text_ja"] and s["text_en"] for s in steps)
    assert "呪文を唱える" in next(s["text_ja"] for s in steps if s["rule"] == "601.2")
