"""Building snapshots: deterministic, atomic, and loud about the file and line that failed."""
from __future__ import annotations

import shutil

import pyoxigraph as ox
import pytest

from kb import snapshot
from kb.api import KB
from kb.sources import SourceError, discover
from kb import settings


def _nquads(path) -> list[str]:
    store = snapshot.open_store(path)
    return sorted(store.dump(format=ox.RdfFormat.N_QUADS).decode("utf-8").splitlines())


def test_building_twice_gives_the_same_graph(tmp_path, data_dir):
    sources = discover([data_dir / "cr-en-20260417.txt", data_dir / "cr-en-20260116.txt"], settings.rules_src_dir())
    first = snapshot.build(sources, tmp_path / "a")
    second = snapshot.build(sources, tmp_path / "b")
    assert _nquads(first) == _nquads(second)
    assert snapshot.load_model(first) == snapshot.load_model(second)


def test_graph_and_indexes_agree(full_kb):
    """The SPARQL-visible graph says what the lookup indexes say (one build writes both)."""
    rows = list(full_kb.store.query(
        'PREFIX mtg: <https://w3id.org/mtg-kb/vocab#> SELECT ?text WHERE { '
        '?r mtg:ruleNumber "601.2c" ; mtg:edition ?e ; mtg:text ?text . ?e mtg:editionKey "2026-04-17" . '
        'FILTER(lang(?text) = "en") }'))
    assert [row["text"].value for row in rows] == [full_kb.rule("601.2c")["text"]["en"]]
    rows = list(full_kb.store.query(
        'PREFIX mtg: <https://w3id.org/mtg-kb/vocab#> SELECT ?now WHERE { ?c mtg:asWritten ?raw ; '
        'mtg:currentRule ?r . ?r mtg:ruleNumber ?now . FILTER(CONTAINS(?raw, "717")) }'))
    assert {row["now"].value for row in rows} == {"733"}


def test_a_bad_file_fails_the_build_and_keeps_the_previous_snapshot(tmp_path, data_dir):
    root = tmp_path / "snapshots"
    good = snapshot.build(discover([data_dir / "cr-en-20260417.txt"], settings.rules_src_dir()), root)
    broken = tmp_path / "cr-en-20270101.txt"
    text = (data_dir / "cr-en-20260417.txt").read_text(encoding="utf-8-sig").splitlines()
    text.insert(5000, "601.2c This rule number appears twice.")
    broken.write_text("\n".join(text), encoding="utf-8")
    with pytest.raises(SourceError) as err:
        snapshot.build(discover([broken], settings.rules_src_dir()), root)
    assert str(broken) in str(err.value) and err.value.line == 5001 and "601.2c" in str(err.value)
    assert snapshot.current(root) == good
    assert not list(root.glob(".tmp-*"))
    assert KB.load(tmp_path).rule("601.2c")["edition"] == "2026-04-17"


def test_changed_user_document_is_refused(tmp_path):
    copy = tmp_path / "rules_src"
    shutil.copytree(settings.rules_src_dir(), copy)
    target = copy / "wiki" / "yoji-manifest.rendered.txt"
    target.write_text(target.read_text(encoding="utf-8").replace("予示", "予言", 1), encoding="utf-8")
    with pytest.raises(SourceError, match="sha256"):
        discover([], copy)


def test_not_utf8_is_reported_with_its_line(tmp_path):
    bad = tmp_path / "cr-en-20270101.txt"
    bad.write_bytes(b"Magic\nok line\n\xff\xfe broken\n")
    with pytest.raises(SourceError) as err:
        discover([bad], None)
    assert err.value.line == 3 and "not UTF-8" in str(err.value)


def test_unrecognised_file_is_refused(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    with pytest.raises(SourceError, match="not a recognised source"):
        discover([other], None)


def test_rule_counts_per_edition_in_the_graph(full_kb):
    counts = {e["edition"]: e["rules"] for e in full_kb.editions() if e["lang"] == "en"}
    assert counts == {"2011-09-30": 1865, "2023-11-17": 2899, "2026-01-16": 3114, "2026-04-17": 3138}
