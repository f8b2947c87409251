"""`kb card` on the full KB built from the real data: a card by its EN or JA name, a misspelt or
partial name, with Oracle text in both languages, its faces and meld partners, dated official
rulings and where they were read (file + JSON pointer); an unknown card is a clear error."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.cli import main

URZA_EN = "Artifact, instant, and sorcery spells you cast cost {1} less to cast."
URZA_JA = "あなたがアーティファクトやインスタントやソーサリーである呪文を唱えるためのコストは{1}少なくなる。"
FIRST_RULING = "Urza, Lord Protector’s first ability can’t reduce the colored mana costs of spells you cast."


@pytest.fixture
def run(full_home, monkeypatch):
    monkeypatch.setenv("MTG_KB_HOME", str(full_home))
    runner = CliRunner()
    return lambda *args: runner.invoke(main, list(args))


@pytest.mark.parametrize("name", ["Urza, Lord Protector", "護国卿、ウルザ"])
def test_kb_card_shows_oracle_text_faces_meld_and_dated_rulings(run, name):
    result = run("card", name)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("護国卿、ウルザ / Urza, Lord Protector   (meld, sets BRO")
    assert f"[en] {URZA_EN}" in out and f"[ja] {URZA_JA}" in out
    assert "face a:" in out and "face b:" in out and "Urza, Planeswalker" in out and "loyalty 7" in out
    assert ("meld: 護国卿、ウルザ/Urza, Lord Protector + マイトストーンとウィークストーン/The Mightstone and Weakstone"
            " -> プレインズウォーカー、ウルザ/Urza, Planeswalker") in out
    assert "official rulings (13):" in out and f"2022-10-14  {FIRST_RULING}" in out
    assert "[Card data: MTGJSON set BRO (The Brothers' War) · mtgjson-set-BRO.json /cards/225/rulings/0]" in out


def test_kb_card_json_cites_each_ruling_by_file_and_json_pointer(run):
    result = run("card", "護国卿、ウルザ", "--json")
    assert result.exit_code == 0
    card = json.loads(result.output)
    assert (card["name_en"], card["name_ja"], card["layout"]) == ("Urza, Lord Protector", "護国卿、ウルザ", "meld")
    assert [f["name"] for f in card["faces"]] == ["Urza, Lord Protector", "Urza, Planeswalker"]
    assert card["faces"][0]["text"].startswith(URZA_EN) and card["faces"][0]["text_ja"].startswith(URZA_JA)
    assert [f["name_en"] for f in card["meld"]["fronts"]] == ["Urza, Lord Protector", "The Mightstone and Weakstone"]
    assert card["meld"]["result"]["name_en"] == "Urza, Planeswalker"
    assert len(card["rulings"]) == 13 and all(r["date"] == "2022-10-14" for r in card["rulings"])
    first = card["rulings"][0]
    assert first["text"] == FIRST_RULING
    assert first["citation"]["locator"] == "mtgjson-set-BRO.json /cards/225/rulings/0"
    assert first["citation"]["document"] == "cards-mtgjson-set-BRO" and first["citation"]["date"] == "2022-10-14"
    assert card["rulings"][12]["citation"]["locator"] == "mtgjson-set-BRO.json /cards/225/rulings/12"
    assert card["citations"][0]["locator"] == "mtgjson-set-BRO.json /cards/225"


def test_the_melded_back_and_the_other_front_are_cards_of_their_own(run):
    back = json.loads(run("card", "Urza, Planeswalker", "--json").output)
    assert back["name_ja"] == "プレインズウォーカー、ウルザ"  # from the name table: the card data has none
    assert [f["name"] for f in back["faces"]] == ["Urza, Planeswalker"] and back["faces"][0]["loyalty"] == "7"
    stone = json.loads(run("card", "The Mightstone and Weakstone", "--json").output)
    assert stone["meld"]["result"]["name_en"] == "Urza, Planeswalker"
    assert len(stone["rulings"]) == 11


@pytest.mark.parametrize("name", ["Urza Lord Protecter", "urza, lord protector", "護国卿"])
def test_a_misspelt_or_partial_name_finds_the_card(run, name):
    result = run("card", name, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["name_en"] == "Urza, Lord Protector"


def test_an_unknown_card_exits_non_zero_with_a_clear_message(run):
    result = run("card", "Zzyzx Quorble")
    assert result.exit_code == 3
    assert "no card named 'Zzyzx Quorble'" in result.output and "Traceback" not in result.output
    empty = run("card", " ")
    assert empty.exit_code != 0 and "card name is required" in empty.output
