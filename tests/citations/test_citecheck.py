"""The citation checker (kb.citations.check) on the seeds and on small made-up texts, with one KB built
from rules_src + the real CR data into a temp home (skipped when the data dir is missing)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb import config as settings
from kb.errors import KBError


@pytest.fixture(scope="session")
def kb(full_kb):
    return full_kb


def _seed(name: str) -> str:
    return (settings.rules_src_dir() / name).read_text(encoding="utf-8-sig")


def _one(report, raw_start: str) -> dict:
    found = [c for c in report["citations"] if c["raw"].startswith(raw_start)]
    assert found, [c["raw"] for c in report["citations"]]
    return found[0]


def test_blog_601_2e_is_todays_601_2f(kb):
    report = kb.check_citations(_seed("articles/cr-601-casting-blog.txt"))
    c = _one(report, "rule 601.2e")
    assert c["status"] == "renumbered"
    assert c["current"]["number"] == "601.2f"
    texts = report["texts"]  # one table of rule texts per answer, cited by key
    assert texts[c["current"]["text_en_ref"]].startswith("The player determines the total cost")
    assert texts[c["current"]["text_ja_ref"]].startswith("プレイヤーはその呪文の総コストを決定する")
    assert [(s["from"], s["to"]) for s in c["steps"] if s["from"] != s["to"]] == [("601.2e", "601.2f")]
    assert c["rule_then"]["number"] == "601.2e" and c["rule_then"]["text_ref"] == f"en/{c['edition']}/601.2e"
    assert texts[c["rule_then"]["text_ref"]] == texts[c["resolved"][0]["text_then_ref"]]


def test_blog_rule_717_is_todays_733(kb):
    report = kb.check_citations(_seed("articles/cr-601-casting-blog.txt"))
    c = _one(report, "rule 717〔不正な処理の扱い〕")
    assert c["status"] == "renumbered" and c["current"]["number"] == "733"
    assert c["title_check"]["matches"] is True
    moves = [s["to"] for s in c["steps"] if s["from"] != s["to"]]  # the steps where something changed
    assert moves[-3:] == ["731", "732", "733"] and c["steps_unchanged"] > 0
    assert all(s["from"] != s["to"] or s["text_changed"] or s["method"] != "same-number-same-text"
               for s in c["steps"])
    # exact place: line 17, column of "rule"
    line = _seed("articles/cr-601-casting-blog.txt").splitlines()[16]
    assert (c["line"], c["column"]) == (17, line.index("rule 717") + 1)


def _faq_report(kb):
    return kb.check_citations(_seed("faq/innistrad-2011-dfc-transform-faq.txt"), date="2011-09-23")


def test_faq_quotes_show_the_typos(kb):
    report = _faq_report(kb)
    assert report["edition"] == "2011-09-30"
    quotes = {c["numbers"][0]: c for c in report["citations"] if c["kind"] == "quote"}
    # No JA text of CR 2011-09-30 is loaded: each quote is compared with the JA text its rule has in
    # the JA edition (through lineage, labelled), and read on its own for input errors.
    q = quotes["701.25c"]
    assert q["quote_diff"]["status"] == "no-official-ja-text-for-edition"
    [typo] = q["quote_diff"]["suspects"]
    assert "パー蔓延と" in typo["quoted"] and "パーマネント" in typo["likely"]
    assert "パー蔓延と" in q["quote_diff"]["summary"]
    q = quotes["711.7"]
    assert [(x["quoted"], x["likely"]) for x in q["quote_diff"]["suspects"]] == [("下の地", "した後")]  # 変身下の地も
    assert q["status"] == "renumbered" and q["current"]["number"] == "712.18"
    # the other quotes of the page read normally: no suspect there
    suspected = {n for n, c in quotes.items() if c["quote_diff"] and c["quote_diff"].get("suspects")}
    assert quotes["711.1"]["quote_check"]["status"] == "no-official-ja-text-for-edition"
    assert suspected == {"701.25c", "711.7"}


def test_ja_quote_compared_with_lineage_text_is_labelled(kb):
    report = kb.check_citations(_seed("articles/cr-601-casting-blog.txt"))
    q = next(c for c in report["citations"] if c["kind"] == "quote" and c["numbers"] == ["601.2e"])
    d = q["quote_diff"]
    assert d["status"] == "no-official-ja-text-for-edition" and "lineage" in d["note"]
    assert d["against"] == {"lang": "ja", "edition": "2026-01-16", "number": "601.2f"}
    assert 0.9 < d["similarity"] < 1 and d["ops"]


def test_en_quote_word_diff(kb):
    official = kb.rule("601.2f", edition="2026-01-16")["text"]["en"]
    text = "601.2f " + official.replace("total cost", "full cost", 1) + "\n"
    report = kb.check_citations(text, date="2026-02-01")
    d = report["citations"][0]["quote_diff"]
    assert d["status"] == "compared" and ["replace", "total", "full"] in [[o, b, a] for o, a, b in d["ops"]]


def test_never_existed_and_current(kb):
    report = kb.check_citations("As rule 999.9 says, nothing.", date="2026-02-01")
    c = _one(report, "rule 999.9")
    assert c["status"] == "never-existed" and c["current"] is None
    report = kb.check_citations("変身については rule 701.27 参照。", date="2026-02-01")
    c = _one(report, "rule 701.27")
    assert c["status"] == "current" and c["current"]["number"] == "701.27"
    assert report["edition"] == "2026-01-16" and report["method"] == "document-date"


def test_en_judge_answer_2011(kb):
    text = "Q: Does my aura fall off?\nA: No. Per rule 701.25, transforming doesn't make a new object.\n"
    report = kb.check_citations(text, date="2011-10-01")
    c = _one(report, "rule 701.25")
    assert report["edition"] == "2011-09-30"
    assert c["status"] == "renumbered" and c["current"]["number"] == "701.27"
    assert (c["line"], c["column"]) == (2, text.splitlines()[1].index("rule 701.25") + 1)


def test_ja_title_version_skew_is_ambiguous(kb):
    text = "ゲームは巻き戻される(rule 731〔不正な処理の扱い〕参照)。"
    report = kb.check_citations(text, date="2026-02-01")
    c = _one(report, "rule 731〔不正な処理の扱い〕")
    assert c["status"] == "ambiguous"
    numbers = {(x["number"], x["current"]) for x in c["candidates"]}
    assert ("731", "732") in numbers and ("732", "733") in numbers
    assert (c["line"], c["column"]) == (1, text.index("rule") + 1)


def test_identical_quote_has_no_diff(kb):
    report = kb.check_citations(_seed("wiki/heya-room.rendered.txt"))
    quotes = [c for c in report["citations"] if c["kind"] == "quote"]
    assert len(quotes) == 11 and all(c["quote_check"]["identical"] and c["quote_diff"] is None for c in quotes)
    assert report["counts"] == {"current": 13}


def test_empty_text_and_bad_date(kb):
    report = kb.check_citations("")
    assert report["citations"] == [] and report["quotes"] == []
    with pytest.raises(KBError) as err:
        kb.check_citations("rule 601.2", date="23/09/2011")
    assert err.value.code == "invalid_date" and err.value.status == 400


def test_cli(kb, tmp_path, monkeypatch):
    from kb import cli
    from kb.cli import citations as command
    monkeypatch.setattr(command, "load_kb", lambda: kb)
    path = tmp_path / "answer.txt"
    path.write_text("Per rule 701.25, transform.\nAlso rule 999.9.\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli.main, ["check-citations", str(path), "--date", "2011-10-01"])
    assert result.exit_code == 0, result.output
    assert "renumbered" in result.output and "701.27" in result.output and "never-existed" in result.output
    result = runner.invoke(cli.main, ["check-citations", str(path), "--json"])
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert [c["line"] for c in report["citations"]] == [1, 2]
    bad = tmp_path / "bad.bin"
    bad.write_bytes(bytes(range(256)) * 4)
    result = runner.invoke(cli.main, ["check-citations", str(bad)])
    assert result.exit_code == 2 and "not a text file" in result.output
    odd = tmp_path / "cp1252.txt"  # a Windows-1252 text: read as written
    odd.write_bytes("Per rule 701.25 \u201ctransform\u201d.\n".encode("cp1252"))
    result = runner.invoke(cli.main, ["check-citations", str(odd), "--date", "2011-10-01", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["citations"][0]["current"]["number"] == "701.27"
