"""The server tests' tiny corpus (tests/server/corpus.py) keeps what the CR parsers need."""
from __future__ import annotations

from tests.server.corpus import GLOSSARY, JA_FILE, editions, write_corpus


def test_excerpt_keeps_what_the_parser_needs(tmp_path):
    from kb.parse.cr_en import parse_cr_en
    from kb.parse.records import Document

    from kb.parse.cr_ja import parse_cr_ja
    data = write_corpus(tmp_path)
    text = (data / editions()[0]).read_text(encoding="utf-8")
    edition = parse_cr_en(text, Document(id="x", title="x", kind="cr", lang="en", path="x", text=text))
    numbers = {r.number for r in edition.rules}
    assert {"601.2c", "701.27", "701.40", "701.40a", "702.145b", "712.8e", "731.1", "7", "701"} <= numbers
    assert "702.19" not in numbers and "500" not in numbers
    assert {g.term for g in edition.glossary} & GLOSSARY
    text = (data / JA_FILE).read_text(encoding="utf-8")
    ja = parse_cr_ja(text, Document(id="y", title="y", kind="cr", lang="ja", path="y", text=text))
    assert ja.complete and ja.edition == "2026-01-16"
    assert {"601.2c", "730.1", "712.8e"} <= {r.number for r in ja.rules} and "702.19" not in {r.number for r in ja.rules}
    assert {g.term_en for g in ja.glossary} <= GLOSSARY and len(ja.glossary) >= 5
