"""kb.parse.mtgjson on the real MTGJSON files (../shared/data/cards/) and on small hand-made
snippets of each MTGJSON shape: printings folded into Oracle cards, faces (transform, split,
adventure), meld pieces and their melded back, Japanese from foreignData, dated rulings; files
told apart by their content; what is not MTGJSON is refused.

Expected values on the real files are counted independently from the raw JSON here."""
from __future__ import annotations

import json
from collections import defaultdict

import pytest

from kb.parse import mtgjson
from kb.parse.card_data import CardDataError, parse_names_tsv
from kb.parse.records import Document
from kb.sources.cards import classify_card_data, detect
from kb.sources.files import SourceError, SourceFile
from tests.parse.samples import DELVER, FIRE_ICE, ja as _ja
from tests.shared_data import require_data


def _doc(id_: str = "cards-test", text: str = "") -> Document:
    return Document(id=id_, title=id_, kind="card-data", lang="en", path=f"{id_}.json", text=text)


def _parse(obj, fmt: str | None = None, id_: str = "cards-test"):
    fmt = fmt or detect(obj)
    cards, names = mtgjson.parse(obj, _doc(id_), fmt)
    return {c.name: c for c in cards}, names


def _real(name: str):
    path = require_data() / "cards" / name
    text = path.read_text(encoding="utf-8")
    doc = _doc(f"cards-{path.stem}", text)
    obj = mtgjson.load(text, doc)
    return obj, mtgjson.parse(obj, doc, detect(obj))


@pytest.fixture(scope="module")
def bro():
    return _real("mtgjson-set-BRO.json")


@pytest.fixture(scope="module")
def lea():
    return _real("mtgjson-set-LEA.json")


def _oracle_rulings(rows) -> dict[str, set]:
    """Independent count: distinct (date, text) per Oracle name (a meld piece is its own card)."""
    out: dict[str, set] = defaultdict(set)
    for row in rows:
        name = row.get("faceName") or row["name"] if row["layout"] == "meld" else row["name"]
        out[name].update((r["date"], r["text"]) for r in row.get("rulings", []))
    return out


# ---------------------------------------------------------------- the real files


def test_bro_set_file_is_read_as_a_set_and_folds_printings(bro):
    raw, (cards, names) = bro
    assert detect(raw) == "mtgjson-set"
    rows = raw["cards"]
    oracle_names = {r.get("faceName") or r["name"] if r["layout"] == "meld" else r["name"] for r in rows}
    assert len(rows) == 387 and len(cards) == len(oracle_names) == 280  # reprints (Urza, Prince of Kroog x2) fold
    expected = _oracle_rulings(rows)
    assert sum(len(r.get("rulings", [])) for r in rows) == 874  # the README's count, before folding
    assert {c.name: {(r.date, r.text) for r in c.rulings} for c in cards} == {n: expected[n] for n in oracle_names}
    assert all(c.source == "cards-mtgjson-set-BRO" and c.locator.startswith("/cards/") for c in cards)


def test_bro_meld_trio_urza(bro):
    _, (cards, _) = bro
    by = {c.name: c for c in cards}
    urza = by["Urza, Lord Protector"]
    assert urza.layout == "meld" and urza.locator == "/cards/225"
    assert urza.meld == {"fronts": ["Urza, Lord Protector", "The Mightstone and Weakstone"],
                         "result": "Urza, Planeswalker"}
    front, back = urza.faces
    assert (front.name, front.side, front.mana_cost, front.mana_value) == ("Urza, Lord Protector", "a", "{1}{W}{U}", 3.0)
    assert (front.name_ja, front.type_ja) == ("護国卿、ウルザ", "伝説のクリーチャー — 人間・工匠")
    assert front.text.startswith("Artifact, instant, and sorcery spells you cast cost {1} less to cast.")
    assert "「プレインズウォーカー、ウルザ」へと合体させる" in front.text_ja
    assert (back.name, back.side, back.loyalty) == ("Urza, Planeswalker", "b", "7")
    assert urza.keywords == ("Meld",) and urza.sets[0] == "BRO"
    assert (urza.rulings[0].date, urza.rulings[0].locator) == ("2022-10-14", "/cards/225/rulings/0")
    assert urza.rulings[0].text == "Urza, Lord Protector’s first ability can’t reduce the colored mana costs of spells you cast."
    stone, planeswalker = by["The Mightstone and Weakstone"], by["Urza, Planeswalker"]
    assert [f.name for f in stone.faces] == ["The Mightstone and Weakstone", "Urza, Planeswalker"]
    assert stone.meld == urza.meld == planeswalker.meld
    assert [(f.name, f.side) for f in planeswalker.faces] == [("Urza, Planeswalker", "b")]  # a card of its own
    assert planeswalker.locator == "/cards/239"


def test_bro_japanese_names_agree_with_the_derived_tsv(bro):
    _, (cards, names) = bro
    path = require_data() / "cards" / "mtgjson-set-BRO-names-en-ja.tsv"
    text = path.read_text(encoding="utf-8")
    tsv = {(n.name_en, n.name_ja) for n in parse_names_tsv(text, _doc("tsv", text))}
    ours = {(n.name_en, n.name_ja) for n in names}
    assert len(ours) == len(names) == 280 and ours <= tsv
    # Queen Kayla: one printing lacks the JA name (#379), the other fills it in
    assert tsv - ours == {("Queen Kayla bin-Kroog", None)}
    by = {c.name: c for c in cards}
    assert (by["Aeronaut Cavalry"].faces[0].name_ja, by["Aeronaut Cavalry"].faces[0].type_ja) == (
        "飛空士の騎兵部隊", "クリーチャー — 人間・兵士")
    titania = by["Titania, Voice of Gaea"]  # a meld front: its face, not "A // B", carries the JA name
    assert [(f.name, f.name_ja) for f in titania.faces] == [("Titania, Voice of Gaea", "ガイアの声、ティタニア"),
                                                           ("Titania, Gaea Incarnate", None)]
    kayla = by["Queen Kayla bin-Kroog"]
    assert kayla.faces[0].name_ja and kayla.faces[0].text_ja


def test_lea_whole_file_with_meta(lea):
    raw, (cards, names) = lea
    assert detect(raw) == "mtgjson-set" and raw["meta"]["version"].startswith("5.3.0")
    assert len(raw["data"]["cards"]) == 295
    distinct = {r["name"] for r in raw["data"]["cards"]}
    assert len(cards) == len(distinct)
    assert sum(len(c.rulings) for c in cards) == sum(len(v) for v in _oracle_rulings(raw["data"]["cards"]).values())
    assert sum(len(r.get("rulings", [])) for r in raw["data"]["cards"]) == 372
    wall = next(c for c in cards if c.name == "Animate Wall")
    assert wall.locator == "/data/cards/0" and wall.keywords == ("Enchant",) and wall.faces[0].type_line == "Enchantment — Aura"
    assert {"LEA", "LEB", "2ED"} <= set(wall.sets)
    assert all(n.name_ja is None for n in names)  # LEA's foreignData is empty


# ---------------------------------------------------------------- hand-made snippets


BONECRUSHER = [
    {"name": "Bonecrusher Giant // Stomp", "faceName": "Bonecrusher Giant", "side": "a", "layout": "adventure",
     "manaCost": "{2}{R}", "manaValue": 3, "type": "Creature — Giant", "power": "4", "toughness": "3",
     "text": "Whenever Bonecrusher Giant becomes the target of a spell, it deals 2 damage to that spell's controller."},
    {"name": "Bonecrusher Giant // Stomp", "faceName": "Stomp", "side": "b", "layout": "adventure", "manaCost": "{1}{R}",
     "manaValue": 3, "type": "Instant — Adventure", "text": "Damage can't be prevented this turn."},
]
MELD = [
    {"name": "Bruna, the Fading Light // Brisela, Voice of Nightmares", "faceName": "Bruna, the Fading Light",
     "side": "a", "layout": "meld", "manaCost": "{5}{W}{W}", "manaValue": 7, "type": "Legendary Creature — Angel Horror",
     "cardParts": ["Bruna, the Fading Light", "Gisela, the Broken Blade", "Brisela, Voice of Nightmares"],
     "foreignData": [_ja("消えゆく光、ブルーナ", "伝説のクリーチャー — 天使・ホラー")],
     "rulings": [{"date": "2016-07-13", "text": "Melding is a keyword action."}]},
    {"name": "Gisela, the Broken Blade // Brisela, Voice of Nightmares", "faceName": "Gisela, the Broken Blade",
     "side": "a", "layout": "meld", "manaCost": "{2}{W}{W}", "manaValue": 4, "type": "Legendary Creature — Angel Horror",
     "cardParts": ["Bruna, the Fading Light", "Gisela, the Broken Blade", "Brisela, Voice of Nightmares"]},
    {"name": "Brisela, Voice of Nightmares", "faceName": "Brisela, Voice of Nightmares", "side": "b", "layout": "meld",
     "manaValue": 11, "type": "Legendary Creature — Eldrazi Angel", "power": "9", "toughness": "10",
     "cardParts": ["Bruna, the Fading Light", "Gisela, the Broken Blade", "Brisela, Voice of Nightmares"],
     "foreignData": [_ja("悪夢の声、ブリセラ", "伝説のクリーチャー — エルドラージ・天使")]},
]


def _set(cards, code="EMN"):
    return {"meta": {"version": "5.2.2"}, "data": {"code": code, "name": code, "cards": cards}}


def test_a_transform_card_is_one_card_with_two_faces_and_japanese():
    by, names = _parse(_set(DELVER, "ISD"))
    delver = by["Delver of Secrets // Insectile Aberration"]
    assert delver.layout == "transform" and delver.locator == "/data/cards/0"
    assert [(f.name, f.side, f.power, f.toughness) for f in delver.faces] == [
        ("Delver of Secrets", "a", "1", "1"), ("Insectile Aberration", "b", "3", "2")]
    assert [(f.name_ja, f.type_ja, f.text_ja) for f in delver.faces] == [
        ("秘密を掘り下げる者", "クリーチャー — 人間・ウィザード", "あなたのアップキープの開始時に、"),
        ("昆虫の逸脱者", "クリーチャー — 人間・昆虫", "飛行")]
    assert delver.keywords == ("Transform", "Flying") and delver.sets == ("ISD", "A25")
    assert [(r.date, r.text, r.locator) for r in delver.rulings] == [  # once, where first read
        ("2011-09-22", "You must reveal the card.", "/data/cards/0/rulings/0")]
    assert [(n.name_en, n.name_ja) for n in names] == [("Delver of Secrets", "秘密を掘り下げる者"),
                                                       ("Insectile Aberration", "昆虫の逸脱者")]


def test_split_and_adventure_halves_with_the_japanese_half_of_a_joined_name():
    by, names = _parse(_set(FIRE_ICE + BONECRUSHER, "MH2"))
    fire_ice = by["Fire // Ice"]
    assert fire_ice.layout == "split"
    assert [(f.name, f.name_ja, f.mana_cost, f.mana_value) for f in fire_ice.faces] == [
        ("Fire", "火", "{1}{R}", 2.0), ("Ice", "氷", "{1}{U}", 2.0)]
    assert fire_ice.faces[1].text == "Tap target permanent.\nDraw a card."  # text kept as given
    assert [(r.date, r.text, r.locator) for r in fire_ice.rulings] == [
        ("2020-11-10", "Fire // Ice has a mana value of 4.", "/data/cards/1/rulings/0")]
    giant = by["Bonecrusher Giant // Stomp"]
    assert giant.layout == "adventure"
    assert [(f.name, f.type_line) for f in giant.faces] == [("Bonecrusher Giant", "Creature — Giant"),
                                                             ("Stomp", "Instant — Adventure")]
    assert ("Stomp", None) in [(n.name_en, n.name_ja) for n in names]


def test_a_meld_pair_and_its_melded_back_are_three_cards():
    by, names = _parse(_set(MELD))
    assert set(by) == {"Bruna, the Fading Light", "Gisela, the Broken Blade", "Brisela, Voice of Nightmares"}
    meld = {"fronts": ["Bruna, the Fading Light", "Gisela, the Broken Blade"], "result": "Brisela, Voice of Nightmares"}
    assert all(c.meld == meld and c.layout == "meld" for c in by.values())
    bruna = by["Bruna, the Fading Light"]
    assert [(f.name, f.side) for f in bruna.faces] == [("Bruna, the Fading Light", "a"),
                                                       ("Brisela, Voice of Nightmares", "b")]
    assert bruna.faces[1].power == "9" and bruna.faces[1].name_ja == "悪夢の声、ブリセラ"  # the back, copied in
    assert [(r.date, r.text) for r in bruna.rulings] == [("2016-07-13", "Melding is a keyword action.")]
    assert by["Gisela, the Broken Blade"].rulings == []
    assert [f.name for f in by["Brisela, Voice of Nightmares"].faces] == ["Brisela, Voice of Nightmares"]
    # each name once, the back from its own card, not from every front
    assert sorted((n.name_en, n.name_ja) for n in names) == [
        ("Brisela, Voice of Nightmares", "悪夢の声、ブリセラ"), ("Bruna, the Fading Light", "消えゆく光、ブルーナ"),
        ("Gisela, the Broken Blade", None)]


def test_atomic_cards_and_all_printings_are_read_by_their_content():
    atomic = {"meta": {"version": "5.2.2"}, "data": {
        "Delver of Secrets // Insectile Aberration": [{k: v for k, v in row.items() if k != "printings"} | {
            "printings": ["ISD"]} for row in DELVER],
        "Fire // Ice": FIRE_ICE}}
    assert detect(atomic) == "mtgjson-atomic"
    by, _ = _parse(atomic)
    assert set(by) == {"Delver of Secrets // Insectile Aberration", "Fire // Ice"}
    assert by["Fire // Ice"].locator == "/data/Fire ~1~1 Ice/0"  # a JSON pointer, "/" escaped
    allp = {"meta": {}, "data": {"ISD": {"code": "ISD", "name": "Innistrad", "cards": DELVER},
                                 "A25": {"code": "A25", "name": "Masters 25", "cards": DELVER[:1]}}}
    assert detect(allp) == "mtgjson-all"
    by, names = _parse(allp)
    delver = by["Delver of Secrets // Insectile Aberration"]
    assert delver.locator == "/data/ISD/cards/0" and len(delver.faces) == 2 and len(delver.rulings) == 1
    assert delver.sets == ("ISD", "A25")
    assert len(names) == 2


def test_a_file_that_is_not_mtgjson_is_not_card_data(tmp_path):
    for obj in ({"data": {"cards": "x"}}, {"name": "Fire"}, [1, 2], {"data": {"X": {"code": "X"}}}, {}):
        assert detect(obj) is None, obj
    (tmp_path / "notes.json").write_text(json.dumps({"title": "my notes", "cards": 3}), encoding="utf-8")
    assert classify_card_data(tmp_path / "notes.json", SourceFile, SourceError) is None
    (tmp_path / "broken.json").write_text('{"data": {"code": "X", "cards": [', encoding="utf-8")
    with pytest.raises(SourceError, match="broken.json.*invalid JSON"):
        classify_card_data(tmp_path / "broken.json", SourceFile, SourceError)
    # whatever it is called: a set file named like notes is still a set
    (tmp_path / "whatever.json").write_text(json.dumps(_set(FIRE_ICE, "X")), encoding="utf-8")
    found = classify_card_data(tmp_path / "whatever.json", SourceFile, SourceError)
    assert found.format == "mtgjson-set" and found.document.title.startswith("Card data: MTGJSON set X")
    # handed to the parser as the wrong format, it is refused with a clear error
    with pytest.raises(CardDataError, match=r"^cards-test: expected MTGJSON AtomicCards"):
        mtgjson.parse([1, 2], _doc(), "mtgjson-atomic")
    with pytest.raises(CardDataError, match=r"^cards-test: expected set 'code' to be an object"):
        mtgjson.parse(_set(FIRE_ICE, "X"), _doc(), "mtgjson-all")
