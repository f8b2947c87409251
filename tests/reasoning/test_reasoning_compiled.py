"""The situation schemas compiled into plain checks (kb.reasoning.compiled) decide as jsonschema
does and fill defaults as ``schema.fill_defaults`` does, on the written questions and on many
situations made from them by a fixed-seed mutator (missing, unknown, retyped and out-of-range
fields, labels in place of enum values, nested lists); and ``validate`` gives the same situation,
or the same error, as checking with jsonschema alone."""
from __future__ import annotations

import copy
import random

import pytest

from kb.errors import SituationError
from kb.reasoning import catalog, compiled, engine
from kb.reasoning.schema import accept_labels, fill_defaults
from tests.reasoning.questions_capabilities import CAPABILITIES
from tests.reasoning.questions_heldout_fixes import FIXES, MORE
from tests.reasoning.questions_new import ALL
from tests.reasoning.questions_sba import SBA

ODD = [None, True, False, 0, -1, 2, 1.5, -0.5, float("nan"), "", "x", "instant", "{2}{W}", [], [1], {}, {"a": 1}]


def _seeds() -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {m.key: [] for m in engine.registered_all()}
    for _, key, situation, *_ in ALL + CAPABILITIES + SBA + FIXES + MORE:
        if key in out:
            out[key].append(situation)
    from bench.bench_reasoning import QUESTIONS
    for key, situation in QUESTIONS.values():
        out[key].append(situation)
    for m in engine.registered_all():
        out[m.key] += [s for _, _, s in m.examples]
        for check in m.checks:  # the rulings' own situations
            out.setdefault(check.mechanic, []).append(check.situation)
    return out


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


def _mutate(situation: dict, schema: dict, rng: random.Random) -> dict:
    out = copy.deepcopy(situation)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(out) if p]
        if not paths:
            out[rng.choice(list(schema.get("properties", {})) or ["x"])] = rng.choice(ODD)
            continue
        path = rng.choice(paths)
        parent = out
        for p in path[:-1]:
            parent = parent[p]
        last = path[-1]
        action = rng.random()
        if action < 0.45:
            parent[last] = copy.deepcopy(rng.choice(ODD))
        elif action < 0.6 and isinstance(parent, dict):
            del parent[last]
        elif action < 0.7 and isinstance(parent, dict):
            parent[rng.choice(["zz", "extra", "タイプ"])] = rng.choice(ODD)
        elif action < 0.8 and isinstance(parent, list):
            parent.append(copy.deepcopy(rng.choice(parent)) if parent else rng.choice(ODD))
        elif action < 0.9:
            sub = _schema_at(schema, path)
            if sub and "enum" in sub:
                parent[last] = rng.choice(list(sub.get("enum_labels_ja", {}).values()) + list(sub["enum"]) + ["nope"])
        else:
            sub = _schema_at(schema, path)
            if sub and sub.get("type") == "integer":
                parent[last] = rng.choice([-5, -1, 0, 3, 2.0, True])
    return out


def _schema_at(schema: dict, path) -> dict | None:
    sub = schema
    for p in path:
        sub = (sub.get("items") if isinstance(p, int) else (sub.get("properties") or {}).get(p)) or None
        if sub is None:
            return None
    return sub


def _old_validate(m, situation):
    """``validate`` as it was: jsonschema for every situation, then fill_defaults."""
    situation = accept_labels(m.schema, situation)
    errors = list(m.validator.iter_errors(situation))
    return (None, fill_defaults(m.schema, situation)) if not errors else (len(errors), None)


@pytest.mark.parametrize("key", sorted(m.key for m in engine.registered_all()))
def test_compiled_checks_decide_as_jsonschema(key):
    m = engine.registered(key)
    assert m.compiled.valid is not None  # every registered schema uses only keywords it decides
    rng = random.Random(f"compiled-{key}")
    seeds = _seeds()[key]
    assert seeds
    situations = list(seeds)
    for _ in range(600):
        situations.append(_mutate(rng.choice(seeds), m.schema, rng))
    valid = invalid = 0
    for situation in situations:
        labelled = accept_labels(m.schema, situation)
        expected = not any(True for _ in m.validator.iter_errors(labelled))
        assert m.compiled.valid(labelled) == expected, situation
        if expected:
            valid += 1
            assert m.compiled.fill(labelled) == fill_defaults(m.schema, labelled)
        else:
            invalid += 1
        try:
            got = (None, engine.validate(m, situation))
        except SituationError:
            got = None
        old = _old_validate(m, situation)
        assert (got is None) == (old[0] is not None), situation
        if got is not None:
            assert got[1] == old[1]
    assert valid >= len(seeds) // 2 and invalid > 100  # both sides were exercised


def test_filled_defaults_are_copies():
    m = engine.registered("day-night")
    first = engine.validate(m, {"event": "untap-step", "designation": "day"})
    first["previous_turn_spells"].append("changed")
    again = engine.validate(m, {"event": "untap-step", "designation": "day"})
    assert again["previous_turn_spells"] == []


def test_other_keywords_leave_the_checking_to_jsonschema():
    for schema in ({"type": "object", "properties": {"a": {"type": "string", "maxLength": 2}}},
                   {"type": "object", "patternProperties": {"^x": {}}},
                   {"type": "object", "additionalProperties": {"type": "integer"}},
                   {"enum": [1, 2]}, {"type": "array", "prefixItems": [{"type": "string"}]}):
        assert compiled.compile_schema(schema).valid is None
    check = compiled.compile_schema({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}},
                                     "required": ["n"], "additionalProperties": False}).valid
    assert check({"n": 0}) and not check({"n": True}) and not check({"n": -1}) and not check({})
    assert not check({"n": 1, "m": 2}) and not check([]) and check({"n": 10**30})


def test_answers_are_unchanged_for_the_examples(full_kb):
    """The answer to each written example through the compiled checks equals the answer through
    jsonschema and fill_defaults (the compiled checks switched off)."""
    book = full_kb.rulebook()
    for m in engine.registered_all():
        for _, _, situation in m.examples:
            fast = catalog.ask(book, m.key, situation)
            kept = m.compiled
            m.compiled = compiled.Compiled(None, lambda v, schema=m.schema: fill_defaults(schema, v))
            try:
                slow = catalog.ask(book, m.key, situation)
            finally:
                m.compiled = kept
            assert fast == slow, (m.key, situation)


@pytest.mark.parametrize("key", sorted(m.key for m in engine.registered_all()))
def test_compiled_labels_read_as_accept_labels(key):
    """The compiled label reading gives what accept_labels gives, then filled the same, on the written
    situations and the mutated ones (labels in place of enum values among them)."""
    m = engine.registered(key)
    rng = random.Random(f"labels-{key}")
    seeds = _seeds()[key]
    situations = list(seeds) + [_mutate(rng.choice(seeds), m.schema, rng) for _ in range(600)]
    changed = 0
    for situation in situations:
        before = copy.deepcopy(situation)
        got, want = m.compiled.labels(situation), accept_labels(m.schema, situation)
        assert got == want, situation
        assert situation == before  # the input is never changed
        changed += want != situation
        if m.compiled.valid(want):
            filled = m.compiled.fill(got)
            assert filled == fill_defaults(m.schema, want)
            if isinstance(situation, dict):
                assert filled is not situation
    assert changed  # labels were read somewhere


@pytest.mark.parametrize("key", sorted(m.key for m in engine.registered_all()))
def test_the_one_walk_step_is_labels_valid_and_fill_in_turn(key):
    """``Compiled.step`` (what a question's situation goes through) gives what reading the labels,
    checking and filling in turn give, with the keys in the same order, or REFUSED exactly when the
    check refuses; the input is never changed."""
    import json

    m = engine.registered(key)
    assert m.compiled.step is not None
    rng = random.Random(f"step-{key}")
    seeds = _seeds()[key]
    refused = 0
    for situation in list(seeds) + [_mutate(rng.choice(seeds), m.schema, rng) for _ in range(600)]:
        before = copy.deepcopy(situation)
        labelled = m.compiled.labels(situation)
        got = m.compiled.step(situation)
        assert situation == before
        if m.compiled.valid(labelled):
            want = m.compiled.fill(labelled)
            assert got == want and json.dumps(got) == json.dumps(want), situation
        else:
            assert got is compiled.REFUSED, situation
            refused += 1
    assert refused > 100
