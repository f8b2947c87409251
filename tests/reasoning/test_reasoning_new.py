"""The six new question types (face-down, meld, modal DFCs, copies, split/adventure, state-based
actions) and what the issue asks of every type: rules cited for every step, JA input, procedures,
rulings checked, real cards cited."""
from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from kb.errors import SituationError
from kb.reasoning.catalog import ask, list_mechanics, procedure
from kb.reasoning.registry import all_pins
from tests.reasoning.questions_capabilities import CAPABILITIES
from tests.reasoning.questions_heldout_fixes import FIXES
from tests.reasoning.questions_new import ALL, assert_answer
from tests.reasoning_fixtures import meld_book

NEW = ("face-down", "meld", "modal-dfc", "copy", "split-card", "state-based-actions")
ROOT = Path(__file__).resolve().parents[2] / "kb" / "reasoning"


@pytest.mark.parametrize("mechanic,situation,expected,rules", [c[1:] for c in ALL], ids=[c[0] for c in ALL])
def test_question(book, mechanic, situation, expected, rules):
    assert_answer(book, mechanic, situation, expected, rules)


def test_at_least_fifteen_per_type_and_every_type_listed():
    counts = Counter(row[1] for row in ALL)
    assert set(counts) == set(NEW) and min(counts.values()) >= 15, counts
    listed = {m["key"]: m for m in list_mechanics()}
    for key in NEW:
        assert listed[key]["name_ja"] and listed[key]["schema"]["title_ja"]


def test_every_pin_of_the_new_types_is_reached_by_a_question(book):
    """Every rule the new logic is pinned to is applied by at least one question (a branch that
    names a rule is tested, not only written)."""
    applied = {(row[1], s["rule"]) for row in ALL + FIXES + CAPABILITIES
               for s in ask(book, row[1], row[2], rulings=False)["trace"]}
    pinned = {(p.mechanic, p.rule) for p in all_pins() if p.mechanic in NEW}
    assert sorted(pinned - applied) == []


def _decorated(fn: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Call) and getattr(d.func, "id", "") == "implements" for d in fn.decorator_list)


@pytest.mark.parametrize("path", sorted(p for p in ROOT.glob("*/*.py") if p.stem in ("logic", "actions", "xcost", "turn", "dread",
                                                                "copying", "rest", "exceptions", "spells")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_branch_that_says_what_happened_names_its_rule(path):
    """A function that returns a sentence of what happened (the trace's 'did') is registered for
    the rule it implements, or is a helper called only by such functions (its sentence becomes part
    of that rule's step): no outcome is explained by unpinned code."""
    fns = [f for f in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(f, ast.FunctionDef)]
    pinned = {f.name for f in fns if _decorated(f)}
    callers: dict[str, set] = {}
    for f in fns:
        for node in ast.walk(f):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                callers.setdefault(node.func.id, set()).add(f.name)
    unpinned = []
    for fn in fns:
        if fn.name in pinned or (callers.get(fn.name) and callers[fn.name] <= pinned | {fn.name}):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and (isinstance(node.value, ast.JoinedStr) or (
                    isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))) and fn.name != "_fail":
                unpinned.append(f"{fn.name} line {node.lineno}")
    assert unpinned == []


# ---------------------------------------------------------------- JA input, one reading per field


def test_japanese_type_is_read_and_the_instant_stays_face_down(book):
    card = {"name": "稲妻", "types": "インスタント", "mana_cost": "{R}"}
    out = ask(book, "manifest", {"question": "turn-face-up", "cards": [card], "method": "effect"})["outcome"]
    assert out["turned_face_up"] is False and out["revealed"] is True


def test_japanese_enum_labels_are_accepted(book):
    out = ask(book, "face-down", {"question": "表向きにする", "via": "予示された",
                                  "card": {"name": "Serra Angel", "types": ["クリーチャー"], "mana_cost": "{3}{W}{W}",
                                           "power": 4, "toughness": 4}})
    assert out["situation"]["question"] == "turn-face-up" and out["outcome"]["can_turn_face_up"] is True


def test_unknown_japanese_type_is_refused_naming_the_field(book):
    with pytest.raises(SituationError) as e:
        ask(book, "manifest", {"question": "turn-face-up", "cards": [{"name": "x", "types": "インスタソト"}]})
    assert e.value.field == "cards[0].types"
    assert "インスタソト" in e.value.body()["error"]["message_ja"]


def test_enum_error_in_japanese_names_the_field_by_its_label(book):
    with pytest.raises(SituationError) as e:
        ask(book, "state-based-actions", {"permanents": [{"name": "x", "zone": "moon"}]})
    assert e.value.field == "permanents[0].zone"
    assert e.value.body()["error"]["message_ja"].startswith("パーマネント 1 › 領域: 次のいずれか")


def test_dfc_put_onto_the_battlefield_from_the_graveyard_enters_front_up(book):
    out = ask(book, "double-faced-card", {"question": "enter-battlefield", "zone": "graveyard",
                                          "front": {"name": "Delver of Secrets", "mana_cost": "{U}"},
                                          "back": {"name": "Insectile Aberration"}})
    assert out["outcome"]["enters"] is True and out["outcome"]["face_up"] == "front"
    assert out["outcome"]["from_zone"] == "graveyard"
    assert "712.14" in [s["rule"] for s in out["trace"]]


def test_day_night_cites_why_a_copy_doesnt_count(book):
    out = ask(book, "day-night", {"event": "untap-step", "designation": "day",
                                  "previous_turn_spells": [{"how": "copied-not-cast"}]})
    assert out["outcome"]["designation"] == "night"
    step = next(s for s in out["trace"] if s["rule"] == "707.10")
    assert "a copy of a spell isn" in step["text_en"] and "not cast" in step["did"]


# ---------------------------------------------------------------- procedures


def test_casting_procedure_lists_every_step_in_order_each_cited(book):
    p = procedure(book, "cast")
    assert [s["rule"] for s in p["steps"]] == [f"601.2{c}" for c in "abcdefghi"]
    assert all(s["text_en"] and s["citation"]["locator"] for s in p["steps"])
    shock = {"spell": {"name": "Shock", "mana_cost": "{R}", "types": ["instant"], "targets": [{"legal": ["Bear"]}]},
             "targets": [["Bear"]], "mana_pool": "{R}"}
    beside = ask(book, "cast", shock)["procedure"]
    assert [s["rule"] for s in beside["steps"]] == [f"601.2{c}" for c in "abcdefghi"]
    assert all(s["in_this_case"] for s in beside["steps"])  # 601.2d too: "divides nothing"


@pytest.mark.parametrize("mechanic,situation,first", [
    ("face-down", {"question": "turn-face-up", "card": {"name": "Exalted Angel", "types": ["creature"],
                                                        "morph_cost": "{2}{W}{W}"}}, "702.37e"),
    ("meld", {"question": "meld", "cards": [{"name": "A", "melds_with": "B", "melds_into": "C"},
                                            {"name": "B", "melds_with": "A", "melds_into": "C"}]}, "701.42a"),
    ("room", {"room": {"left": {"name": "L", "mana_cost": "{1}"}, "right": {"name": "R", "mana_cost": "{2}"}},
              "event": "unlock_action"}, "709.5e"),
])
def test_procedures_beside_the_case(book, mechanic, situation, first):
    p = ask(book, mechanic, situation)["procedure"]
    assert p["steps"][0]["rule"] == first and all(s["text_en"] for s in p["steps"])


def test_unknown_procedure_is_a_clear_error(book):
    with pytest.raises(SituationError) as e:
        procedure(book, "cast", "dancing")
    assert e.value.field == "procedure"


# ---------------------------------------------------------------- rulings and cards


def test_bro_meld_rulings_agree():
    out = ask(meld_book(), "meld", {"question": "leaves", "cards": [
        {"name": "Mishra, Claimed by Gix", "mana_cost": "{2}{B}{R}", "melds_with": "Phyrexian Dragon Engine",
         "melds_into": "Mishra, Lost to Phyrexia"},
        {"name": "Phyrexian Dragon Engine", "mana_cost": "{3}", "melds_with": "Mishra, Claimed by Gix",
         "melds_into": "Mishra, Lost to Phyrexia"}]})
    agree = [r["text"] for r in out["rulings"]["agree"]]
    assert any(t.startswith("When a pair of cards are melded") for t in agree), agree
    assert out["rulings"]["disagree"] == [] and out["rulings"]["superseded"] == []


def test_every_bro_meld_ruling_check_holds():
    from kb.reasoning.rulings import _matched_rulings
    from kb.reasoning.engine import registered
    book = meld_book()
    checked = [(r, c) for r, cs in _matched_rulings(book, registered("meld")) for c in cs]
    assert len({r.id for r, _ in checked}) >= 8
    for r, c in checked:
        assert c.claims(ask(book, "meld", c.situation, rulings=False)["outcome"]), (r.text, c.says)


def test_a_real_card_is_cited_from_the_loaded_card_data(full_kb):
    out = full_kb.ask("meld", {"question": "characteristics", "zone": "graveyard", "cards": [
        {"name": "Phyrexian Dragon Engine", "mana_cost": "{3}", "types": ["artifact", "creature"]}]})
    cards = [c for c in out["citations"] if "card" in c]
    assert cards and cards[0]["name_en"] == "Phyrexian Dragon Engine" and cards[0]["documents"]
