"""History as spans and the diff of two editions, on every real edition (kb.lookup.diffs)."""
from __future__ import annotations

import pytest

from kb.errors import EditionNotFound, InvalidParameter, MissingParameter
from kb.text import render, text_diff
from kb.text import normalize


def _side(ops: list[dict], keep: str) -> str:
    return "".join(o["text"] for o in ops if o["op"] in ("equal", keep))


def test_word_diff_keeps_each_sides_words_and_ignores_quote_style():
    old = "A player can't cast it unless it's their turn."
    new = "A player can’t cast it unless it’s their main phase."
    ops = text_diff(old, new)
    assert [o["op"] for o in ops] == ["equal", "delete", "insert"]
    assert ops[1]["text"] == "turn." and ops[2]["text"] == "main phase."
    assert _side(ops, "insert") == new and normalize(_side(ops, "delete")) == normalize(old)
    assert render(ops) == "A player can’t cast it unless it’s their [-turn.-]{+main phase.+}"


def test_a_space_only_one_side_has_is_part_of_the_diff():
    # 2004-10-01 -> 2008-10-01, rule 211.1: the sentence after "legal text." was dropped
    old, new = "immediately following the legal text. These numbers have no effect on game play.", \
        "immediately following the legal text."
    ops = text_diff(old, new)
    assert _side(ops, "insert") == new and _side(ops, "delete") == old
    assert render(ops) == "immediately following the legal text.[- These numbers have no effect on game play.-]"
    assert render(text_diff("as a spell.", "as a spell. It can't.")) == "as a spell.{+ It can't.+}"


def test_japanese_is_diffed_by_characters():
    ops = text_diff("昼になる。", "夜になる。", "ja")
    assert render(text_diff("a b c d e f", "a x c y e f")) == "a [-b c d-]{+x c y+} e f"  # one change, not three
    assert ops == [{"op": "delete", "text": "昼"}, {"op": "insert", "text": "夜"}, {"op": "equal", "text": "になる。"}]


def test_day_and_night_moved_730_to_731(full_kb):
    d = full_kb.diff("2026-01-16", "2026-04-17")
    moved = {(e["from"], e["to"]) for e in d["entries"] if e["kind"] == "moved"}
    assert ("730", "731") in moved and ("730.1", "731.1") in moved
    entry = next(e for e in d["entries"] if e["from"] == "730")
    assert entry["new_text"] == full_kb.rule("731", edition="2026-04-17")["text"]["en"]
    assert [c["edition"] for c in entry["citations"]] == ["2026-01-16", "2026-04-17"]
    assert {c["edition"] for c in d["citations"]} == {"2026-01-16", "2026-04-17"}


def test_counts_add_up_and_every_text_change_has_its_diff(full_kb):
    d = full_kb.changes("2026-01-16")  # against the loaded edition just before (prev_link is that step)
    c = d["counts"]
    old_rules = sum(1 for k in full_kb.model.rules if k[:2] == ("en", d["from"]))
    new_rules = sum(1 for k in full_kb.model.rules if k[:2] == ("en", "2026-01-16"))
    assert c["unchanged"] + c["text-changed"] + c["moved"] + c["removed"] == old_rules
    assert c["unchanged"] + c["text-changed"] + c["moved"] + c["added"] <= new_rules + c["moved"]
    assert c["added"] > 0 and c["text-changed"] > 0
    for e in d["entries"]:
        if e["text_changed"]:
            assert _side(e["diff"], "insert") == e["new_text"]
            assert normalize(_side(e["diff"], "delete")) == normalize(e["old_text"])
        if e["kind"] == "added":
            assert e["from"] is None and full_kb.lineage.prev_link.get(("en", "2026-01-16", e["to"])) is None


def test_a_diff_over_many_editions_follows_lineage(full_kb):
    d = full_kb.diff("2011-09-30", "2026-06-19")
    moved = {e["from"]: e["to"] for e in d["entries"] if e["kind"] == "moved"}
    assert moved["701.25"] == "701.27"  # transform, through 701.26, 701.28 and back
    assert len(d["editions_between"]) == len([e for e in full_kb.lineage.editions if "2011-09-30" < e < "2026-06-19"])


def test_changes_is_the_diff_against_the_previous_edition(full_kb):
    current = full_kb.current_edition()
    previous = full_kb.lineage.step(current, -1)
    assert full_kb.changes() == full_kb.diff(previous, current)
    assert full_kb.changes("2024-02-06")["from"] == full_kb.lineage.step("2024-02-02", -1)  # file date alias


def test_bad_pairs_of_editions_are_clear_errors(full_kb):
    with pytest.raises(InvalidParameter):
        full_kb.diff("2026-04-17", "2026-01-16")
    with pytest.raises(InvalidParameter):
        full_kb.changes(full_kb.lineage.editions[0])
    with pytest.raises(EditionNotFound):
        full_kb.diff("2026-01-16", "2031-01-01")
    with pytest.raises(MissingParameter):
        full_kb.diff("", "2026-01-16")


def test_history_as_spans_with_word_diffs(full_kb):
    h = full_kb.history_spans("701.25", "2011-09-30")
    assert h["spans"][0]["change"]["kind"] == "created" and h["spans"][0]["from"] == "2011-09-30"
    moves = [(s["change"]["from"], s["change"]["to"], s["from"]) for s in h["spans"] if "moved" in s["change"]["kind"]]
    assert moves[0] == ("701.25", "701.26", "2016-09-30")
    assert [m[1] for m in moves][-1] == "701.27" and h["spans"][-1]["to"] == full_kb.current_edition()
    assert "moved 701.25 → 701.26 on 2016-09-30" in h["summary"]  # 2016-08-26, the edition before, is loaded
    # spans cover the chain without gaps: each begins at the edition after the previous one ends
    for before, after in zip(h["spans"], h["spans"][1:]):
        assert full_kb.lineage.step(before["to"], 1) == after["from"]
    changed = [s for s in h["spans"] if s["change"].get("diff")]
    for s in changed:
        assert _side(s["change"]["diff"], "insert") == s["text"]
    assert full_kb.rule("701.25", edition="2011-09-30")["history_spans"] == h


def test_a_removed_rule_ends_with_its_removal(full_kb):
    h = full_kb.history_spans("509.2", "2024-07-30")
    assert h["removed"] == {"kind": "removed", "edition": "2024-11-08", "last_seen": "2024-07-30", "not_loaded_between": []}
    assert h["summary"][-1] == "removed on 2024-11-08" and h["summary_ja"][-1] == "2024-11-08 に削除"
