"""The `kb` command as a user runs it: readable output, --json, clear errors and exit codes."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.cli import main


@pytest.fixture
def run(full_home, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(full_home))
    runner = CliRunner()
    return lambda *args: runner.invoke(main, list(args))


def test_rule_json_has_both_languages_and_citations(run):
    result = run("rule", "601.2c", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["edition"] == "2026-06-19" and data["text"]["ja"].startswith("プレイヤーは")
    assert all({"document", "locator", "edition"} <= set(c) for c in data["citations"])


def test_old_rule_leads_to_today(run):
    result = run("rule", "701.25", "--edition", "2011-09-30", "--json")
    data = json.loads(result.output)
    assert data["current"]["number"] == "701.27"
    assert "today: 701.27" in run("rule", "701.25", "--edition", "2011-09-30").output


def test_rule_lang_filter(run):
    data = json.loads(run("rule", "601.2c", "--lang", "ja", "--json").output)
    assert [t["lang"] for t in data["texts"]] == ["ja"]


def test_unknown_rule_suggests_and_exits_3(run):
    result = run("rule", "701.99")
    assert result.exit_code == 3 and "close:" in result.output and "Traceback" not in result.output


def test_former_number_is_explained(run):
    # 603.2i exists in 2023-11-17 but not today: the rule moved to 603.2h.
    result = run("rule", "603.2i")
    assert result.exit_code == 3
    assert "in CR 2023-11-17 603.2i is today's 603.2h" in result.output


@pytest.mark.parametrize("args, message, code", [
    (("rule", "abc"), "not a rule number", 2),
    (("rule", "601.2c", "--edition", "1999-01-01"), "is loaded", 3),  # well-formed, not there: not found
    (("mechanic", " "), "mechanic name is required", 2),
])
def test_bad_input_exits_2_and_not_found_3_with_a_message(run, args, message, code):
    result = run(*args)
    assert result.exit_code == code and message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("args, status, code", [
    (("rule", "abc", "--json"), 400, "invalid_rule_number"),
    (("rule", "601.2c", "--edition", "1999-01-01", "--json"), 404, "edition_not_found"),
    (("rule", "999.9", "--json"), 404, "rule_not_found"),
    (("mechanic", "nothing-like-this", "--json"), 404, "mechanic_not_found"),
])
def test_json_errors_use_the_api_codes(run, args, status, code):
    result = run(*args)
    body = json.loads(result.stdout)
    assert (body["error"]["status"], body["error"]["code"]) == (status, code) and body["error"]["message"]


def test_mechanic_and_card(run):
    data = json.loads(run("mechanic", "予示", "--json").output)
    assert data["rules"][0]["number"] == "701.40"
    assert any(c["name_en"] == "Meddling Mage" for c in data["cards"])
    text = run("card", "翻弄する魔道士").output
    assert "Meddling Mage" in text and "wiki-yoji-manifest line 41" in text
    assert run("card", "No Such Card").exit_code == 3


def ja_cr_text(number: str) -> str:
    from tests.shared_data import require_data
    lines = (require_data() / "cr-ja-20260116.txt").read_text(encoding="utf-8").splitlines()
    return next(x for x in lines if x.startswith(number + " ")).split(" ", 1)[1].strip()


def test_rule_json_carries_the_official_translation_and_whether_the_english_changed(run):
    data = json.loads(run("rule", "731.2a", "--json").output)
    ja = data["ja_source"]
    assert data["text"]["ja"] == ja_cr_text("730.2a")  # the translated edition numbered it 730.2a
    assert (ja["label"], ja["edition"], ja["en_text_changed"]) == ("和訳 20260116.0", "2026-01-16", False)
    assert "EN wording unchanged since CR 2026-01-16" in run("rule", "731.2a").output
    changed = json.loads(run("rule", "107.3e", "--json").output)["ja_source"]
    assert changed["en_text_changed"] and changed["en_changed"][0]["edition"] > "2026-01-16"
    assert "EN text changed in CR 2026-04-17" in run("rule", "107.3e").output


def test_editions_show_the_japanese_translation_checked_against_english(run):
    [ja] = [e for e in json.loads(run("editions", "--json").output) if e["lang"] == "ja"]
    assert ja["edition"] == "2026-01-16" and ja["rules"] >= 3000
    a = ja["alignment"]
    assert a["label"] == "和訳 20260116.0" and a["contents"]["missing"] == ["721"]
    assert any(f["where"] == "rule:702.145b" and f["meant"] == "730" for f in a["reference_fixes"])
    assert "contents list omits: 721" in run("editions").output


def test_mechanic_by_its_japanese_name(run):
    result = run("mechanic", "日暮")
    assert result.exit_code == 0 and result.output.startswith("日暮・夜明 / Daybound and Nightbound")
    assert "[[" not in result.output  # rulings are shown without wiki markup
    data = json.loads(run("mechanic", "夜明", "--json").output)
    assert data["key"] == "daybound-and-nightbound" and data["rules"][0]["number"] == "702.145"
    assert "古い裁定 — 現行 712.8e" in run("mechanic", "変身").output


def test_a_mechanic_without_a_japanese_name_says_why(run):
    data = json.loads(run("mechanic", "heal", "--json").output)
    first = data["ja_missing"]["added_in"]
    assert run("mechanic", "heal").output.startswith(f"和訳なし（20260116.0 より後の追加: CR {first}） / Heal")
    saddled = run("mechanic", "saddled").output
    assert saddled.startswith("騎乗された状態 / Saddled") and "rule 702.171b" in saddled.splitlines()[1]


def test_export_formats(run, tmp_path):
    out = tmp_path / "g.nt"
    assert run("export", "--format", "nt", "-o", str(out)).exit_code == 0
    assert '"Transform"@en' in out.read_text(encoding="utf-8")
    vocab = run("export", "--vocab").output
    assert "mtg:resolvedTo" in vocab


def test_build_failure_keeps_previous_snapshot(tmp_path, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path))
    runner = CliRunner()
    assert runner.invoke(main, ["build", "--only-rules-src", "-q"]).exit_code == 0
    bad = tmp_path / "cr-en-20270101.txt"
    bad.write_text("not a comprehensive rules file\n", encoding="utf-8")
    result = runner.invoke(main, ["build", str(bad), "-q"])
    assert result.exit_code == 2  # a source that is not a CR is bad input
    assert "previous snapshot kept" in result.output and str(bad) in result.output
    assert runner.invoke(main, ["rule", "709.5"]).exit_code == 0  # still answering from the old snapshot


def test_no_snapshot_is_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path))
    result = CliRunner().invoke(main, ["rule", "601.2c"])
    assert result.exit_code == 1 and "kb build" in result.output


def test_history_of_a_rule(run):
    data = json.loads(run("history", "701.25", "--edition", "2011-09-30", "--json").output)["steps"]
    steps = {h["edition"]: (h["number"], h["event"]) for h in data}
    assert (data[0]["edition"], data[0]["event"]) == ("2011-09-30", "created")  # Innistrad introduced it
    assert [steps[e] for e in ("2016-09-30", "2018-08-10", "2020-07-03", "2023-11-17", "2025-07-25")] == [
        ("701.26", "moved"), ("701.27", "moved"), ("701.28", "moved"), ("701.28", "unchanged"), ("701.27", "moved")]
    # 2018-08-10's move happened in it or in one of the official editions before it that are not loaded
    assert next(h for h in data if h["edition"] == "2018-08-10")["not_loaded"][-1] == "2018-07-13"
    assert next(h for h in data if h["edition"] == "2023-11-17")["citation"]["document"] == "cr-en-2023-11-17"
    created = json.loads(run("history", "603.2i", "--edition", "2023-11-17", "--json").output)["steps"]
    assert created[0]["event"] == "created" and created[-1]["number"] == "603.2h"
    assert run("history", "999.9").exit_code == 3


def test_history_as_spans_with_word_diffs(run):
    result = run("history", "701.25", "--edition", "2011-09-30")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "moved 701.25 → 701.26 on 2016-09-30" in lines[0]
    # 2017-09-29 → 2018-08-10: four official editions between are not loaded; the move is not dated
    assert "moved 701.26 → 701.27 between 2017-09-29 and 2018-08-10" in lines[0]
    assert any(line.startswith("2016-09-30 → ") and "moved (701.25 → 701.26)" in line for line in lines)
    data = json.loads(run("history", "509.2", "--edition", "2024-07-30", "--json").output)
    assert data["removed"]["edition"] == "2024-11-08" and data["spans"][-1]["number"] == "509.2"


def test_diff_shows_moves_and_word_diffs(run):
    result = run("diff", "2026-01-16", "2026-04-17", "--only", "moved")
    assert result.exit_code == 0
    # renumbering-only moves are folded into runs: sections 722–732 (day and night's 730 among them) moved alike
    assert any(line.split()[:3] == ["722–732.2", "→", "723–733.2"] for line in result.output.splitlines())
    assert result.output.index("text changed (") < result.output.index("numbers only (")
    data = json.loads(run("diff", "2026-01-16", "2026-04-17", "--json").output)
    changed = next(e for e in data["entries"] if e["kind"] == "text-changed")
    assert "".join(o["text"] for o in changed["diff"] if o["op"] != "delete") == changed["new_text"]
    assert "[-" in run("diff", "2026-01-16", "2026-04-17", "--only", "text-changed").output


def test_changes_of_an_edition_and_bad_pairs(run):
    data = json.loads(run("changes", "2026-04-17", "--json").output)
    assert (data["from"], data["to"]) == ("2026-01-16", "2026-04-17")
    assert run("diff", "2026-04-17", "2026-01-16").exit_code == 2
    assert run("diff", "2026-01-16", "2031-01-01").exit_code == 3
    assert run("changes", "2003-03-15").exit_code == 2  # the oldest loaded edition


def test_lookup_commands_do_not_import_the_build_pipeline():
    """`kb rule`, `kb search`, `kb editions` … start without the build's imports (~0.7 s)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "import sys, kb.cli; print('kb.build.pipeline' in sys.modules)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_a_rule_lookup_imports_neither_rdflib_nor_numpy(full_home):
    """`kb rule` reads no graph and matches no card name: rdflib and numpy (~0.25 s of imports) stay
    out, and the rule still comes with its history (run twice: the first keeps the superseded-rulings
    index, whose checks do read cards, in the home's cache)."""
    import json
    import os
    import subprocess
    import sys

    code = ("import sys; from kb.cli import run; sys.argv = ['kb', 'rule', '601.2c', '--json']\n"
            "try:\n    run()\nexcept SystemExit:\n    pass\n"
            "print(json.dumps(sorted(m for m in ('rdflib', 'numpy') if m in sys.modules)), file=sys.stderr)")
    env = {**os.environ, "MTG_KB_HOME": str(full_home)}
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", "import json\n" + code], capture_output=True, text=True,
                              env=env, check=True)
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
    rule = json.loads(done.stdout)
    assert rule["number"] == "601.2c" and len(rule["history"]) >= 30


def test_a_truncated_copy_never_replaces_its_edition(tmp_path, monkeypatch, data_dir):
    """Issue 40.3: cr-en-20260619.txt cut at "8. Multiplayer Rules" is refused (exit 2, file and
    line) and the complete edition keeps answering for 903.4; --allow-incomplete takes it anyway."""
    monkeypatch.setenv("MTG_KB_HOME", str(tmp_path / "home"))
    runner = CliRunner()
    whole = data_dir / "cr-en-20260619.txt"
    assert runner.invoke(main, ["build", "--only-rules-src", str(whole), "-q"]).exit_code == 0
    lines = whole.read_bytes().decode("utf-8-sig").splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.strip() == "8. Multiplayer Rules"][1]
    cut = tmp_path / "cut" / "cr-en-20260619.txt"
    cut.parent.mkdir()
    cut.write_text("".join(lines[:at]), encoding="utf-8")
    result = runner.invoke(main, ["build", "--only-rules-src", str(cut), "-q"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{cut}:{at}: incomplete: the contents list (line 11) names chapters 8, 9" in result.output
    assert "--allow-incomplete" in result.output and "previous snapshot kept" in result.output
    kept = runner.invoke(main, ["rule", "903.4", "--json"])
    assert kept.exit_code == 0 and json.loads(kept.stdout)["edition"] == "2026-06-19"
    forced = runner.invoke(main, ["build", "--only-rules-src", str(cut), "-q", "--allow-incomplete"])
    assert forced.exit_code == 0 and "built anyway (--allow-incomplete)" in forced.output
    assert runner.invoke(main, ["rule", "903.4"]).exit_code == 3  # what the user asked for
