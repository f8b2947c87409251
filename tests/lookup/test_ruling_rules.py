"""Rulings linked to the rules that decide their case: computed at build time by running each
ruling's own situation through the reasoning engine (kb.reasoning.engine.ruling_rules), stored in
the model, written as RDF, shown by the API and the CLI, used as a search bridge."""
from __future__ import annotations

from pathlib import Path

import json

import pytest
from click.testing import CliRunner

from kb import config as settings
from kb.build import pipeline
from kb.store import snapshot
from kb.lookup.kb import KB
from kb.cli import main
from kb.sources.files import discover
from kb.vocab import rule_iri

MTG = "PREFIX mtg: <https://w3id.org/mtg-kb/vocab#> "


def _ruling_with(kb: KB, document: str, words: str) -> str:
    found = [rid for rid, r in kb.model.rulings.items() if r["document"] == document and words in r["text"]]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("document,words,deciding", [
    # FAQ 2011: "a back-face-up double-faced permanent's converted mana cost is 0" -> 712.8e decides it
    ("faq-innistrad-dfc-2011", "背面が表になっている両面パーマネントの点数で見たマナ・コストは０", "712.8e"),
    # 部屋: paying a locked door's mana cost (unlock cost) is a special action -> 709.5e
    ("wiki-heya-room", "閉鎖されたドアのマナ・コスト", "709.5e"),
    # 部屋: the door cast is unlocked as the Room enters -> 709.5d
    ("wiki-heya-room", "部屋・呪文が解決した時", "709.5d"),
    # 予示: a face-down permanent leaving the battlefield is revealed -> 708.9
    ("wiki-yoji-manifest", "裏向きのパーマネントが戦場を離れる場合", "708.9"),
])
def test_known_rulings_are_decided_by_their_rule(full_kb, document, words, deciding):
    rid = _ruling_with(full_kb, document, words)
    linked = full_kb.model.ruling_rules[rid]
    assert linked["deciding"][0] == deciding and linked["rules"][0] == deciding
    ruling = full_kb.ruling(rid)
    first = ruling["backed_by"][0]
    today = full_kb.current_edition()
    assert first["number"] == deciding and first["deciding"] and first["edition"] == today
    assert first["citation"]["document"] == f"cr-en-{today}" and first["citation"]["line_start"] > 0


def test_links_are_what_the_engine_computes_over_the_loaded_kb(full_kb):
    from kb.reasoning.catalog import ruling_rules
    model = full_kb.model
    current = model.current("en")
    assert len(model.ruling_rules) > 50
    for linked in model.ruling_rules.values():
        assert linked["rules"][:len(linked["deciding"])] == linked["deciding"]
        assert all(("en", current, n) in model.rules for n in linked["rules"])
    assert ruling_rules(full_kb.rulebook()) == model.ruling_rules  # the loaded snapshot's KB agrees


def test_rule_lists_the_rulings_reasoning_links_to_it(full_home, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(full_home))
    result = CliRunner().invoke(main, ["rule", "712.8e", "--json"])
    assert result.exit_code == 0
    refs = json.loads(result.output)["references_in"]
    via = [r for r in refs if r.get("via") == "reasoning"]
    decided = [r for r in via if r["deciding"]]
    assert any("点数で見たマナ・コストは０" in r["text"] and r["kind"] == "ruling" for r in decided)
    assert all(r["citation"]["document"] and r["citation"]["locator"] for r in via)


def test_rdf_has_the_links(full_kb):
    rows = list(full_kb.store.query(
        MTG + "SELECT ?text WHERE { ?r mtg:decidedBy <%s> ; mtg:text ?text ; a mtg:Ruling }"
        % rule_iri("en", full_kb.current_edition(), "712.8e")))
    assert any("点数で見たマナ・コストは０" in row["text"].value for row in rows)
    rows = list(full_kb.store.query(
        MTG + "SELECT (COUNT(*) AS ?n) WHERE { ?r mtg:backedBy ?rule }"))
    assert int(rows[0]["n"].value) == sum(len(v["rules"]) for v in full_kb.model.ruling_rules.values())


def test_search_finds_a_chapter_7_rule_from_its_ruling_in_japanese(full_kb):
    hits = full_kb.search("裏向きのパーマネントが戦場を離れるときは公開する", kinds={"rule"}, limit=5)["hits"]
    assert "708.9" in [h["rule"] for h in hits]


def test_stale_rule_logic_fails_the_build_in_one_line_and_keeps_the_snapshot(tmp_path, data_dir, monkeypatch):
    from tests.shared_data import newest_en_source
    source = Path(newest_en_source().origin)  # the edition the logic is written for
    root = tmp_path / "snapshots"
    good = pipeline.build(discover([source], settings.rules_src_dir()), root)
    altered = tmp_path / "altered" / source.name
    altered.parent.mkdir()
    text = source.read_text(encoding="utf-8-sig")
    words = "its mana value is calculated using the mana cost of its front face"
    assert words in text
    altered.write_text(text.replace(words, "its mana value is 0"), encoding="utf-8")
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path))
    result = CliRunner().invoke(main, ["build", "-q", str(altered)])
    assert result.exit_code == 1
    message = result.output.strip()
    assert "\n" not in message and message.startswith("kb: build failed, previous snapshot kept:")
    assert "712.8e" in message and "mana value is calculated" in message
    assert snapshot.current(root) == good
    assert not list(root.glob(".tmp-*"))
    assert KB.load(tmp_path).ruling(
        _ruling_with(KB.load(tmp_path), "faq-innistrad-dfc-2011", "点数で見たマナ・コストは０"))["backed_by"]


def test_no_english_edition_no_links(seed_kb):
    assert seed_kb.model.ruling_rules == {}
    assert all(r["backed_by"] == [] for r in seed_kb.rulings())


def test_an_older_edition_alone_builds_without_links(tmp_path, data_dir):
    """The logic quotes the newest CR: a KB of the 2011 CR only is not stale logic, just not reasoned about."""
    root = tmp_path / "snapshots"
    pipeline.build(discover([data_dir / "cr-en-20110930.txt"], settings.rules_src_dir()), root)
    kb = KB.load(tmp_path)
    assert kb.current_edition("en") == "2011-09-30" and kb.model.ruling_rules == {}
