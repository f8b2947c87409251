"""Card-name data (../shared/data/cards/): the TSV derived from MTGJSON BRO, the MTG Wiki table
(the MTGJSON files themselves: tests/parse/test_mtgjson.py).

Expected counts come from the data README and from independent counts over the raw files.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kb.parse.card_data import face_pair, parse_names_tsv, parse_wiki_name_table
from kb.parse.records import Document
from kb.config import shared_data_dir

WIKI = "ja-card-names-mtgwiki-20250922.json"
TSV = "mtgjson-set-BRO-names-en-ja.tsv"


def _load(name: str) -> tuple[str, Document]:
    path: Path = shared_data_dir() / "cards" / name
    if not path.exists():
        pytest.skip(f"shared data file {path} absent (set MTG_KB_DATA to the data directory)")
    text = path.read_text(encoding="utf-8")
    return text, Document(id=f"cards-{path.stem}", title=name, kind="card-data", lang="ja",
                          path=f"cards/{name}", text=text)


@pytest.fixture(scope="module")
def wiki():
    text, doc = _load(WIKI)
    return json.loads(text), parse_wiki_name_table(text, doc)


@pytest.fixture(scope="module")
def tsv():
    text, doc = _load(TSV)
    return parse_names_tsv(text, doc)


# ---------------------------------------------------------------- MTG Wiki table


def test_wiki_raw_counts_match_readme(wiki):
    raw, _ = wiki
    assert len(raw) == 33029
    assert sum(1 for r in raw if r["jpname"] != "undefined") == 30608
    # The README's "59 EN names duplicated" counts surplus records: 23 names repeat, 59 extra rows.
    per_name = Counter(r["name"] for r in raw)
    assert sum(n - 1 for n in per_name.values()) == 59
    assert sum(1 for n in per_name.values() if n > 1) == 23


def test_wiki_one_record_per_distinct_pair(wiki):
    raw, names = wiki
    distinct_en = {r["name"] for r in raw}
    assert len(names) == len(distinct_en) == 32970  # no EN name has two different real JA names
    with_ja = {r["name"] for r in raw if r["jpname"] != "undefined"}
    assert sum(1 for c in names if c.name_ja) == len(with_ja) == 30558
    assert all(c.name_ja != "undefined" for c in names)
    assert all(c.source == "cards-ja-card-names-mtgwiki-20250922" for c in names[:10])


def test_wiki_specific_pairs(wiki):
    _, names = wiki
    by = {c.name_en: c.name_ja for c in names}
    assert by["Delver of Secrets"] == "秘密を掘り下げる者"
    assert by["Insectile Aberration"] == "昆虫の逸脱者"  # per-face names kept
    assert by["Meddling Mage"] == "翻弄する魔道士"
    assert (by["Fire"], by["Ice"]) == ("火", "氷")  # "undefined" loses to a real name
    assert by["Start"] == "徹頭"
    assert by["Monster"] is None  # only "undefined" records
    assert by["SP//dr, Piloted by Peni"] == "ペニーが操縦するSP//dr"  # "//" without spaces is one name
    assert not any(" // " in c.name_en for c in names)


def test_tsv_counts_and_pairs(tsv):
    assert len(tsv) == 387
    assert sum(1 for c in tsv if c.name_ja) == sum(1 for c in tsv if c.type_ja) == 380
    assert {c.number for c in tsv if c.name_ja is None} == {"163a", "163b", "238a", "238b", "256a", "256b", "379"}
    by = {c.number: c for c in tsv}
    assert (by["1"].name_en, by["1"].name_ja) == ("Aeronaut Cavalry", "飛空士の騎兵部隊")
    assert (by["1"].type_en, by["1"].type_ja) == ("Creature — Human Soldier", "クリーチャー — 人間・兵士")
    # "Titania, Voice of Gaea // Titania, Gaea Incarnate": the JA name is the front face only.
    assert (by["193"].name_en, by["193"].name_ja) == ("Titania, Voice of Gaea", "ガイアの声、ティタニア")


def test_tsv_small_input():
    text = ("set\tnumber\tuuid\tname_en\tname_ja\ttype_en\ttype_ja\tmultiverse_id_ja\n"
            "X\t1\tu\tA // B\t\tLand\t\t\n"
            "X\t2\tu\tFire // Ice\t火 // 氷\tInstant\tインスタント\t1\n")
    doc = Document(id="t", title="t", kind="card-data", lang="ja", path="t.tsv", text=text)
    a, b = parse_names_tsv(text, doc)
    assert (a.name_en, a.name_ja, a.type_ja) == ("A", None, None)
    assert (b.name_en, b.name_ja) == ("Fire // Ice", "火 // 氷")  # both sides list both halves


def test_face_pair():
    assert face_pair("A // B", "あ", "A") == "A"
    assert face_pair("A // B", None) == "A"
    assert face_pair("A", "あ") == "A"
