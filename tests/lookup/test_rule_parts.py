"""A rule answer's parts derived once per snapshot (kb.lookup.rules ``_derived``: JA texts, what
cites it, history steps and spans with their word diffs, heading, neighbours) change no answer:
each equals a fresh computation, a caller's copy can be changed without touching the next answer,
the JSON the server writes from the pre-serialised parts is byte for byte the plain answer's, and
preparing an edition at load gives the same answers."""
from __future__ import annotations

import random

import orjson
import pytest

from kb import memo
from kb.lookup import translation


@pytest.fixture(scope="module")
def sample(full_kb):
    current = sorted(full_kb.model.edition_rules("en", full_kb.lineage.current))
    older = sorted(full_kb.model.edition_rules("en", "2011-09-30"))
    rng = random.Random(14)
    return ([(n, None, None) for n in ["601.2c", "701.27", "731.2a", "100.1"] + rng.sample(current, 60)]
            + [(n, "2011-09-30", None) for n in ["701.25"] + rng.sample(older, 20)]
            + [(n, None, "ja") for n in rng.sample(current, 10)] + [(n, None, "en") for n in rng.sample(current, 10)])


def test_derived_parts_equal_a_fresh_computation(full_kb, sample):
    memo.forget(full_kb)
    for number, edition, lang in sample:
        answer = full_kb.rule(number, edition=edition, lang=lang)
        key = ("en", answer["edition"], number)
        assert answer["history"] == full_kb._history(number, answer["edition"])
        assert answer["history_spans"] == full_kb._history_spans(number, answer["edition"])
        assert answer["references_in"] == full_kb._references_in(key)
        assert answer["heading"] == full_kb.heading(number, answer["edition"])
        near = full_kb.neighbours(number, answer["edition"])
        assert (answer["previous"], answer["next"]) == tuple(n and n["number"] for n in (near["previous"], near["next"]))
        ja = translation.ja_texts(full_kb, key)
        assert [t for t in answer["texts"] if t["lang"] == "ja"] == ([t for t in ja] if lang != "en" else [])


def test_serialised_parts_write_the_same_json(full_kb, sample):
    for number, edition, lang in sample:
        plain = full_kb.rule(number, edition=edition, lang=lang)
        fragments = full_kb.rule(number, edition=edition, lang=lang, serialised=True)
        assert isinstance(fragments["history_spans"], orjson.Fragment)
        assert orjson.dumps(fragments) == orjson.dumps(plain)


def test_each_caller_gets_its_own_copy(full_kb):
    first = full_kb.rule("601.2c")
    first["history_spans"]["spans"][0]["text"] = "changed by a caller"
    first["history"].clear()
    first["references_in"].append({"kind": "noise"})
    again = full_kb.rule("601.2c")
    assert again["history_spans"]["spans"][0]["text"] != "changed by a caller"
    assert again["history"] and {"kind": "noise"} not in again["references_in"]
    spans = full_kb.history_spans("601.2c")
    spans["spans"].clear()
    assert full_kb.history_spans("601.2c")["spans"]


def test_preparing_the_current_edition_changes_no_answer(full_kb, sample):
    memo.forget(full_kb)
    before = [orjson.dumps(full_kb.rule(*args)) for args in sample]
    memo.forget(full_kb)
    assert full_kb.prepare_rules() == len(full_kb.model.edition_rules("en", full_kb.lineage.current))
    assert [orjson.dumps(full_kb.rule(*args)) for args in sample] == before
    assert full_kb.rule("601.2c")["text"]["en"].startswith("The player announces")
