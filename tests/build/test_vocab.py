"""One vocabulary: closed namespace, and the published Turtle generated from it."""
from __future__ import annotations

import pytest
from rdflib import Graph

from kb.vocab import MTG
from kb.vocab.ttl import VOCAB_TTL, terms, vocabulary_turtle


def test_unknown_terms_fail():
    with pytest.raises(AttributeError):
        MTG.notATerm  # noqa: B018


def test_published_turtle_matches_the_module():
    published = Graph().parse(data=VOCAB_TTL.read_text(encoding="utf-8"), format="turtle")
    generated = Graph().parse(data=vocabulary_turtle(), format="turtle")
    assert published.isomorphic(generated), "run `python -m kb.vocab.ttl` to regenerate kb/vocab.ttl"


def test_every_term_is_documented():
    names = [t for t, _ in terms()]
    assert len(names) == len(set(names)) > 50
    assert all(getattr(MTG, t) for t in names)
