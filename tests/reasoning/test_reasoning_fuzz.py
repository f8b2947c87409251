"""Every situation a published schema accepts gets an answer, and every one it refuses a 400 naming
the field — never an exception (issue 39: manifest dread with no card or an empty library ended in
``internal error (KeyError)``). Situations are made from each schema of ``list_mechanics()`` (what
``kb ask --list --json`` publishes) with a fixed seed: random valid ones, every enum value of every
field, each list emptied, and mutated ones (a field missing, an extra field, a wrong-typed value).

Each answer is also checked as a user relies on it: every rule its trace names exists in the loaded
edition with the text the step shows, the logic registered for that rule is pinned to words that
rule still says, and the answer's citations name every rule of the trace.
"""
from __future__ import annotations

import pytest

from kb.errors import KBError, SituationError
from kb.reasoning.catalog import ask, list_mechanics
from kb.reasoning.engine import solve
from kb.reasoning.registry import pins_for
from kb.text import normalize
from tests.reasoning.fuzz_situations import situations
from tests.reasoning_fixtures import current_book

SEED = 39
MECHANICS = [m["key"] for m in list_mechanics()]


@pytest.fixture(scope="module")
def book():
    return current_book()


def _check_answer(book, answer: dict) -> list[str]:
    problems = []
    cited = {c.get("rule") for c in answer["citations"]}
    for step in answer["trace"]:
        rule = book.rule(step["rule"])
        if rule is None:
            problems.append(f"{step['rule']}: not in CR {book.edition}")
            continue
        if step["text_en"] != rule.text_en or step["edition"] != book.edition:
            problems.append(f"{step['rule']}: the step shows another text or edition than the loaded rule")
        text = normalize(rule.text_en)
        if not any(all(normalize(w) in text for w in p.words) for p in pins_for(step["rule"])):
            problems.append(f"{step['rule']}: no logic pinned to words this rule says")
        if step["rule"] not in cited:
            problems.append(f"{step['rule']}: applied in the trace but not cited")
        if not step["did"]:
            problems.append(f"{step['rule']}: a step that says nothing")
    return problems


@pytest.mark.parametrize("key", MECHANICS)
def test_every_situation_gets_an_answer_or_a_400_naming_the_field(book, key):
    schema = next(m["schema"] for m in list_mechanics() if m["key"] == key)
    cases = situations(schema, SEED)
    answered = refused = 0
    failures = []
    for sit in cases:
        try:
            answer = ask(book, key, sit)
        except SituationError as e:
            assert e.status == 400 and e.field, (sit, e)
            assert e.body()["error"]["field"] == e.field
            refused += 1
            continue
        except KBError as e:  # another user-facing error: a 4xx with the JSON error shape, never a 500
            assert 400 <= e.status < 500, (sit, e)
            refused += 1
            continue
        except Exception as e:  # noqa: BLE001 - the point of the test
            failures.append(f"{type(e).__name__}: {e} <- {sit}")
            continue
        answered += 1
        failures += [f"{p} <- {sit}" for p in _check_answer(book, answer)]
    assert not failures, f"{len(failures)} of {len(cases)}:\n" + "\n".join(failures[:10])
    assert answered >= 10, (answered, refused)  # the valid situations reach the engine, not only validation
    assert refused > 0  # the mutated ones reach validation


def test_manifest_dread_with_no_card_or_an_empty_library_is_answered(book):
    """The crash the issue names: no card and no library still is a manifest dread (701.62a), and its
    'whenever you manifest dread' trigger still triggers (701.62b: even if the actions were impossible)."""
    answer = ask(book, "face-down", {"question": "manifest-dread", "top_cards": [], "manifest_dread_triggers": 1})
    o = answer["outcome"]
    assert o["cards_manifested"] == 0 and o["to_graveyard"] == [] and o["dread_triggers"] == 1
    assert o["triggers_even_if_impossible"] is True
    assert [s["rule"] for s in answer["trace"]] == ["701.62a", "701.62b"]
    one = ask(book, "face-down", {"question": "manifest-dread", "top_cards": [{"name": "Shock", "types": ["instant"]}],
                                  "choose": 2})["outcome"]
    assert one["manifested"] == "Shock" and one["characteristics"]["power"] == 2 and one["to_graveyard"] == []


def test_a_question_that_needs_the_card_names_the_card_field(book):
    with pytest.raises(SituationError) as e:
        ask(book, "face-down", {"question": "turn-face-up", "via": "morph"})
    assert e.value.field == "card"
    with pytest.raises(SituationError) as e:
        ask(book, "face-down", {"question": "becomes-copy", "card": {"name": "Grizzly Bears"}})
    assert e.value.field == "copied"


def _official_situations():
    import json
    from pathlib import Path
    data = json.loads((Path(__file__).resolve().parents[2] / "bench" / "reasoning_official.json").read_text(encoding="utf-8"))
    return [(i["mechanic"], i["situation"]) for i in data["items"] if i["situation"] is not None]


@pytest.mark.parametrize("key", MECHANICS)
def test_every_step_was_written_by_logic_pinned_to_that_rules_words(book, key):
    """Each trace step records the logic that wrote it; that logic is registered for the step's rule,
    and every word it is pinned to is in that rule's text in the loaded edition — so the step's
    sentence rests on what the rule says, for fuzzed situations and the official-rulings set alike."""
    schema = next(m["schema"] for m in list_mechanics() if m["key"] == key)
    cases = [s for k, s in _official_situations() if k == key] + situations(schema, SEED, n_valid=40, n_mutated=0)
    steps = 0
    for sit in cases:
        try:
            _, _, ctx = solve(book, key, sit)
        except KBError:
            continue
        for step in ctx.trace:
            text = normalize(book.rule(step.rule).text_en)
            assert step.logic, (step.rule, step.did)
            for pin in step.logic:
                assert pin.rule == step.rule, (pin.name, step.rule)
                missing = [w for w in pin.words if normalize(w) not in text]
                assert not missing, (step.rule, pin.name, missing)
            steps += 1
    assert steps > 0
