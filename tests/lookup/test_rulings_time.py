"""Rulings over time (kb.lookup.rulings_time) on the seeds: superseded rulings name the CR change,
and the 部屋 page's correction of the JA official article is a contradiction."""
from __future__ import annotations

import pytest

from kb.lookup.rulings_time import contradictions


@pytest.fixture(scope="session")
def report(full_kb):
    return full_kb, full_kb.rulings_over_time()


def test_engine_ran(report):
    _, r = report
    assert r["engine_error"] is None


def test_faq_back_face_mana_value_superseded(report):
    kb, r = report
    entry = next(e for e in r["superseded"] if "点数で見たマナ・コストは０" in e["text"])
    assert entry["document"] == "faq-innistrad-dfc-2011" and entry["date"] == "2011-09-23"
    change = next(c for c in entry["changed_by"] if c["by"] == "reasoning")
    assert change["edition"] in kb.model.en_editions() and change["edition"] > entry["date"]
    assert change["current_rule"] == "712.8e"  # today's rule on a back face's mana value
    # every change of its lineage since the ruling is named, the move to 712.8e among them
    assert change["changes"][0]["edition"] == change["edition"]
    assert any(c["rule"] == "712.8e" and c["event"].startswith("moved") for c in change["changes"])


def test_faq_quote_superseded_by_citation(report):
    _, r = report
    entry = next(e for e in r["superseded"] if e["id"].startswith("faq-innistrad-dfc-2011#q")
                 and "背面にはマナ・コストが無い" in e["text"])
    by_cite = [c for c in entry["changed_by"] if c["by"] == "citation"]
    # 2011's 711.2b (back face up: back face's characteristics, no mana cost) is today's 712.8e.
    assert by_cite and all(c["cited"] == "711.2b" and c["cited_edition"] == "2011-09-30" for c in by_cite)
    assert [c["edition"] for c in by_cite] == sorted(c["edition"] for c in by_cite)
    became = next(c for c in by_cite if c["rule"] == "712.8e")
    assert became["status"] == "renumbered-and-changed" and became["edition"] > "2011-09-30"


def test_current_rulings_not_superseded(report):
    _, r = report
    assert not [e for e in r["superseded"] if e["document"] == "wiki-heya-room"]


def test_room_copy_contradiction(report):
    _, r = report
    found = [c for c in r["contradictions"] if c["b"]["document"] == "wiki-heya-room"]
    assert len(found) == 1
    c = found[0]
    assert "コピー元の部屋の開放されている特性をコピーする" in c["a"]["claim"]
    assert c["a"]["reported_by"]["document"] == "wiki-heya-room"
    assert "両方のドアが閉鎖された状態" in c["b"]["text"]
    assert "誤り" in c["why"]


def test_contradiction_needs_correction_words(report):
    kb, _ = report
    model = kb.model
    rid = next(i for i, x in model.rulings.items() if "誤りであった" in x["text"])
    saved = model.rulings[rid]["text"]
    try:
        model.rulings[rid]["text"] = saved.replace("誤りであった", "正しい")
        assert not [c for c in contradictions(model) if c["a"]["reported_by"]["id"] == rid]
    finally:
        model.rulings[rid]["text"] = saved


def _fail(*_args, **_kwargs):
    raise AssertionError("the superseded index was recomputed instead of read from the KB home's cache")


def test_superseded_index_is_kept_for_the_next_process(full_home, monkeypatch):
    """The index costs seconds (every mechanic's ruling checks, every edition's history): a second
    load of the same snapshot (the next `kb rule`, a server restart) reads it from the home's cache."""
    from kb.lookup import display, rulings_time
    from kb.lookup.kb import KB

    first = KB.load(full_home)
    faq = next(e["id"] for e in first.rulings_over_time()["superseded"] if "点数で見たマナ・コストは０" in e["text"])
    expected = display.superseded(first, faq)
    assert expected["kind"] == "outcome" and expected["current_rule"] == "712.8e"
    kept = list((full_home / "cache" / display.KEPT_KIND).glob(f"{first.path.name}.*.marshal"))
    assert len(kept) == 1
    monkeypatch.setattr(rulings_time, "rulings_over_time", _fail)
    again = KB.load(full_home)
    assert display.superseded(again, faq) == expected


def test_superseded_index_without_the_engine_is_not_kept(tmp_path, monkeypatch):
    """A failed engine run is reported (engine_error) and its partial index never outlives the process."""
    from kb.lookup import display, rulings_time
    from tests.shared_data import build_kb

    kb = build_kb(tmp_path, [])
    folder = tmp_path / "cache" / display.KEPT_KIND
    monkeypatch.setattr(rulings_time, "_by_engine", lambda _kb: ({}, "RuntimeError: the engine failed"))
    display.superseded(kb, "no-such-statement")
    assert not list(folder.glob("*.marshal"))
    monkeypatch.undo()
    from kb.lookup.kb import KB
    display.superseded(KB.load(tmp_path), "no-such-statement")
    [entry] = folder.glob("*.marshal")
    assert entry.name.split(".", 1)[0] == kb.path.name
    good = entry.read_bytes()
    entry.write_bytes(b"damaged")  # a damaged entry is recomputed and replaced
    display.superseded(KB.load(tmp_path), "no-such-statement")
    assert entry.read_bytes() == good
