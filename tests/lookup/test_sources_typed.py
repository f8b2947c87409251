"""Sources typed honestly (issue 37.7): official rulings, the official FAQ, wiki commentary and a
personal blog are labelled as what they are in the graph, the API and the CLI; a statement is on a
mechanic's page because it is about that mechanic, not because it shares a word with its names;
bare headings are not rulings; wiki markup is cleaned once at build time and the source text kept."""
from __future__ import annotations

import tomllib

from kb.config import rules_src_dir
from kb.sources.types import TYPES
from kb.wikitext import leftover, visible

PREFIXES = "PREFIX mtg: <https://w3id.org/mtg-kb/vocab#>\n"


def _manifest() -> dict[str, dict]:
    data = tomllib.loads((rules_src_dir() / "manifest.toml").read_text(encoding="utf-8"))
    return {d["id"]: d for d in data["document"]}


def test_each_document_and_statement_carries_its_declared_source_type(full_kb):
    declared = {doc_id: d["source_type"] for doc_id, d in _manifest().items()}
    assert set(declared.values()) >= {"official-faq", "wiki", "blog"}
    for doc_id, kind in declared.items():
        doc = full_kb.document(doc_id)
        assert doc["source_type"]["key"] == kind
        assert doc["source_type"]["label"] == {"ja": TYPES[kind][0], "en": TYPES[kind][1]}
        for r in doc["rulings"]:  # every ruling and quote of it says what it is, never just 裁定
            assert r["source_type"]["key"] == kind, r["id"]
    assert full_kb.document("blog-cr-601-casting")["source_type"]["label"] == {"ja": "ブログ解説", "en": "blog commentary"}
    assert full_kb.document("faq-innistrad-dfc-2011")["source_type"]["official"] is True
    assert full_kb.document("wiki-hiru-day")["source_type"]["official"] is False
    urza = full_kb.card("Urza, Lord Protector")
    assert urza["rulings"] and {r["source_type"]["key"] for r in urza["rulings"]} == {"official-ruling"}


def test_the_graph_types_each_source(full_kb):
    rows = full_kb.store.query(PREFIXES + """
        SELECT ?kind (COUNT(?n) AS ?count) WHERE { ?n mtg:sourceType ?kind } GROUP BY ?kind""")
    counts = {row["kind"].value: int(row["count"].value) for row in rows}
    assert counts.get("blog", 0) > 0 and counts.get("wiki", 0) > 0 and counts.get("official-faq", 0) > 0
    assert counts.get("official-ruling", 0) > 0
    typed = full_kb.store.query(PREFIXES + """
        ASK { ?faq a mtg:Document, mtg:OfficialFAQ . ?blog a mtg:Document, mtg:BlogCommentary . }""")
    assert bool(typed.askAnswer if hasattr(typed, "askAnswer") else typed)


def test_a_statement_is_attached_by_what_it_is_about_not_by_shared_words(full_kb):
    day_night = full_kb.mechanic("昼と夜")
    documents = {r["document"] for r in day_night["rulings"]}
    # the casting blog's 「…によるコスト増加」 holds よる (a reading of 夜): not a day/night ruling
    assert "blog-cr-601-casting" not in documents and documents == {"wiki-hiru-day"}
    names = {c["name_ja"] for c in day_night["cards"]}
    assert not names & {"終末", "全知", "スレイベンの守護者、サリア"}
    # a note's trivia (「…それらはゲームの昼夜と無関係に働く」) does not make its cards examples
    assert not names & {"日中の光", "夜の戦慄"}
    cast = full_kb.mechanic("唱える")
    assert "blog-cr-601-casting" in {r["document"] for r in cast["rulings"]}
    # the FAQ names its mechanics with the manifest's key: double-faced-card is Double-Faced Cards
    dfc = full_kb.mechanic("両面カード")
    assert "faq-innistrad-dfc-2011" in {r["document"] for r in dfc["rulings"]}


def test_a_bare_heading_is_not_a_ruling(full_kb):
    faq = full_kb.document("faq-innistrad-dfc-2011")
    assert not [r for r in faq["rulings"] if r["text"].strip() in ("両面カード", "変身")]
    assert not [r for r in full_kb.mechanic("両面カード")["rulings"] if r["text"].strip() == "両面カード"]
    assert {(h["number"], h["text"]) for h in faq["headings"]} >= {("711", "両面カード")}
    heading = next(h for h in faq["headings"] if h["number"] == "711")
    assert heading["locator"]["line_start"] == 19  # still cited where it stands


def test_wiki_markup_is_cleaned_once_at_build_and_the_source_text_kept(full_kb):
    model = full_kb.model
    marked = [r for r in model.statements() if leftover(r["text"])]
    assert len(marked) >= 10  # the wiki source and rendered pages carry [[…]], {{…}}, <ref>, ^[1][3][4]
    for r in model.statements():
        assert "display" in r and not leftover(r["display"]), (r["id"], r["display"])
        assert r["display"] == visible(r["text"])
    room = next(r for r in model.statements() if "^[2][3][4]" in r["text"])
    assert room["text"].endswith("^[2][3][4]。") and room["display"].endswith("削除されている。")
    section_link = next(r for r in model.statements() if "分割カード#ルーリング" in r["text"])
    assert "分割カード（ルーリング）を参照" in section_link["display"]
    for doc_id in _manifest():  # the API answers the cleaned text and keeps the original
        for r in full_kb.document(doc_id)["rulings"]:
            assert not leftover(r["display"]) and r["text"] == model.statement(r["id"])["text"]
