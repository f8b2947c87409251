"""The engine mistakes the held-out questions showed, fixed: each asserts the outcome and the rules
the answer cites (tests/reasoning/questions_heldout_fixes.py)."""
from __future__ import annotations

import pytest

from kb.reasoning.catalog import ask
from tests.reasoning.questions_heldout_fixes import FIXES
from tests.reasoning.questions_new import get


@pytest.mark.parametrize("mechanic,situation,expected,rules", [c[1:] for c in FIXES], ids=[c[0] for c in FIXES])
def test_fixed(book, mechanic, situation, expected, rules):
    result = ask(book, mechanic, situation)
    assert {k: get(result["outcome"], k) for k in expected} == expected, result["outcome"]
    traced = [s["rule"] for s in result["trace"]]
    assert [r for r in rules if r not in traced] == [], traced
    cited = {c.get("rule") for c in result["citations"]}
    assert set(rules) <= cited


def test_timing_is_not_checked_again_for_a_spell_already_on_the_stack(book):
    """117.1a is about casting: a copy of a spell on the stack (not cast, 707.10) doesn't cite it."""
    out = ask(book, "split-card", {"question": "copy", "layout": "adventure", "zone": "stack", "cast_as": "adventure",
                                   "own_turn_main_phase": False, "left": {"name": "Bonecrusher Giant",
                                   "types": ["creature"], "mana_cost": "{2}{R}"},
                                   "right": {"name": "Stomp", "types": ["instant"], "mana_cost": "{1}{R}"}})
    assert out["outcome"]["copy_is_adventure"] is True
    assert "117.1a" not in {s["rule"] for s in out["trace"]}
