"""Building snapshots: deterministic, atomic, and loud about the file and line that failed."""
from __future__ import annotations

import json
import shutil

import pyoxigraph as ox
import pytest

from kb.build import pipeline
from kb.store import snapshot
from kb.lookup.kb import KB
from kb.sources.files import SourceError, discover
from kb import config as settings


def _nquads(path) -> list[str]:
    store = snapshot.open_store(path)
    return sorted(store.dump(format=ox.RdfFormat.N_QUADS).decode("utf-8").splitlines())


def test_building_twice_gives_the_same_graph(tmp_path, data_dir):
    sources = discover([data_dir / "cr-en-20260417.txt", data_dir / "cr-en-20260116.txt"], settings.rules_src_dir())
    first = pipeline.build(sources, tmp_path / "a")
    second = pipeline.build(sources, tmp_path / "b")
    assert _nquads(first) == _nquads(second)
    assert vars(snapshot.load_model(first)) == vars(snapshot.load_model(second))


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


def test_a_file_that_is_not_a_cr_fails_the_build_and_keeps_the_previous_snapshot(tmp_path, data_dir):
    root = tmp_path / "snapshots"
    good = pipeline.build(discover([data_dir / "cr-en-20260417.txt"], settings.rules_src_dir()), root)
    truncated = tmp_path / "MagicCompRules 20270101.txt"  # a download cut off inside the contents list
    truncated.write_text("\n".join((data_dir / "cr-en-20260417.txt").read_text(encoding="utf-8-sig")
                                   .splitlines()[:40]), encoding="utf-8")
    with pytest.raises(SourceError) as err:
        pipeline.build(discover([truncated], settings.rules_src_dir()), root)
    assert str(truncated) in str(err.value) and err.value.line and "contents" in str(err.value)
    assert snapshot.current(root) == good
    assert not list(root.glob(".tmp-*"))
    assert KB.load(tmp_path).rule("601.2c")["edition"] == "2026-04-17"


def test_a_duplicated_number_in_a_file_under_any_name_is_a_warning_not_a_failure(tmp_path, data_dir):
    copy = tmp_path / "rules download.txt"  # recognised by its content, not its name
    text = (data_dir / "cr-en-20260417.txt").read_text(encoding="utf-8-sig").splitlines()
    at = next(i for i, line in enumerate(text) if line.startswith("601.2d ")) + 1
    text.insert(at, "601.2c This rule number appears twice.")
    copy.write_text("\n".join(text), encoding="utf-8")
    path = pipeline.build(discover([copy], settings.rules_src_dir()), tmp_path / "snapshots")
    warnings = json.loads((path / "meta.json").read_text(encoding="utf-8"))["warnings"]
    assert {"file": str(copy), "line": at + 1, "message": "rule 601.2c appears twice (first at line "
            f"{next(i for i, l in enumerate(text, 1) if l.startswith('601.2c '))}): the repeat is kept as 601.2c~2"} in warnings
    kb = KB.load(tmp_path)
    assert kb.rule("601.2c~2")["text"]["en"] == "This rule number appears twice."
    assert kb.rule("601.2c")["text"]["en"].startswith("The player announces")
    edition = next(e for e in kb.editions() if e["edition"] == "2026-04-17")
    assert edition["warnings"] == [{"line": at + 1, "message": warnings[0]["message"]}]


def test_changed_user_document_is_refused(tmp_path):
    copy = tmp_path / "rules_src"
    shutil.copytree(settings.rules_src_dir(), copy)
    target = copy / "wiki" / "yoji-manifest.rendered.txt"
    target.write_text(target.read_text(encoding="utf-8").replace("予示", "予言", 1), encoding="utf-8")
    with pytest.raises(SourceError, match="sha256"):
        discover([], copy)


def test_a_windows_1252_file_named_by_its_date_is_read_and_its_encoding_recorded(tmp_path, data_dir):
    original = (data_dir / "cr-en-20260417.txt").read_text(encoding="utf-8-sig")
    copy = tmp_path / "2026-04-17.txt"
    copy.write_bytes(original.encode("cp1252", errors="replace"))
    source = discover([copy], None).files[0]
    assert (source.document.encoding, source.edition_hint, source.file_date) == ("cp1252", "2026-04-17", "2026-04-17")
    assert "“Tap two target" in source.document.text


@pytest.mark.parametrize("content", [b"", b"Magic\nok line\n\xff\xfe broken\n", "総合ルール".encode()])
def test_a_file_named_like_a_cr_that_is_not_one_is_refused_with_its_name(tmp_path, content):
    bad = tmp_path / "cr-en-20270101.txt"
    bad.write_bytes(content)
    with pytest.raises(SourceError) as err:
        discover([bad], None)
    assert str(bad) in str(err.value) and err.value.line == 1 and "not a Comprehensive Rules text" in str(err.value)


def test_unrecognised_file_is_refused(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    with pytest.raises(SourceError, match="not a recognised source"):
        discover([other], None)


def test_every_edition_in_the_data_is_in_the_graph_with_its_independent_count(full_kb, data_dir):
    from tests.parse.samples import independent_numbers
    expected = {}
    for path in sorted([*data_dir.glob("cr-en-*.txt"), *data_dir.glob("cr-archive/cr-en-*.txt")]):
        source = discover([path], None).files[0]
        expected[source.edition_hint] = sum(independent_numbers(source.document.text).values())
    counts = {e["edition"]: e["rules"] for e in full_kb.editions() if e["lang"] == "en"}
    assert counts == expected and len(counts) >= 34
    assert {"2011-09-30": 1865, "2023-11-17": 2899, "2026-01-16": 3114, "2026-04-17": 3138}.items() <= counts.items()
    ja = next(e for e in full_kb.editions() if e["lang"] == "ja")
    assert ja["edition"] == "2026-01-16" and ja["rules"] >= 3000 and ja["complete"]


def test_older_editions_are_read_from_disk_on_first_use(full_home):
    from kb.store.snapshot import EDITIONS_DIR
    path = snapshot.current(full_home / "snapshots")
    stored = {p.stem for p in (path / EDITIONS_DIR).glob("*.marshal")}
    kb = KB.load(full_home)
    current = {f"en_{kb.current_edition('en')}", f"ja_{kb.current_edition('ja')}"}
    assert len(stored) >= 33 and not stored & current  # the current editions live in model.marshal
    assert kb.rule("701.25", edition="2011-09-30")["text"]["en"] == "Transform"
    assert ("en", "2011-09-30", "701.25") in kb.model.rules and len(kb.model.edition_rules("en", "2011-09-30")) > 1800


def test_a_rebuild_reuses_parses_and_lineage_of_unchanged_files(tmp_path, data_dir):
    from kb.build.cache import BuildCache
    files = [data_dir / "cr-en-20260417.txt", data_dir / "cr-en-20260619.txt"]
    first = pipeline.build(discover(files, settings.rules_src_dir()), tmp_path / "snapshots")
    cache = BuildCache(tmp_path / "cache")
    assert len(list((tmp_path / "cache" / "parse").glob("*.pickle"))) == 2
    assert len(list((tmp_path / "cache" / "parse-head").glob("*.pickle"))) == 2  # without the records
    assert len(list((tmp_path / "cache" / "lineage").glob("*.pickle"))) == 1
    assert len(list((tmp_path / "cache" / "rows").glob("*.pickle"))) == 2  # each edition's rows
    second = pipeline.build(discover(files, settings.rules_src_dir()), tmp_path / "snapshots")
    assert vars(snapshot.load_model(first)) == vars(snapshot.load_model(second))
    meta = [json.loads((p / "meta.json").read_text(encoding="utf-8"))["cache"] for p in (first, second)]
    # parses and their heads, rows, the lineage pair, the learnt word pairs: all made once, then
    # read back (the older edition's records not even that: nothing asks for them)
    assert meta[0]["reused"] == 0 and meta[0]["computed"] >= 7
    assert meta[1]["computed"] == 0 and 6 <= meta[1]["reused"] < meta[0]["computed"]
    assert cache.folder.is_dir()
