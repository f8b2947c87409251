"""Samples the parser tests share with other tests (not tests themselves): the seed documents of
rules_src as parsed input, an independent count of a CR file's rule numbers, hand-made MTGJSON rows."""
from __future__ import annotations

import re
import tomllib
from collections import Counter

from kb import config as settings
from kb.parse.records import Document


def _documents() -> dict[str, Document]:
    root = settings.rules_src_dir()
    manifest = tomllib.loads((root / "manifest.toml").read_text(encoding="utf-8"))
    docs = {}
    for d in manifest["document"]:
        text = (root / d["path"]).read_text(encoding="utf-8-sig")
        docs[d["id"]] = Document(d["id"], d["title"], d["kind"], d["lang"], d["path"], text,
                                 quotes_edition=d.get("quotes_edition"))
    return docs


DOCS = _documents()


def independent_numbers(text: str) -> Counter:
    """Rule numbers by a regex over the raw lines (the data README's, plus "901.4.All" with no space
    and the archive's numbers split after the dot, "606. 8b")."""
    found = (re.match(r"^ {0,3}(\d{3}\.) ?(\d+[a-z]?)", line) for line in text.splitlines()
             if re.match(r"^ {0,3}\d{3}\. ?\d+[a-z]?\.? ", line) or re.match(r"^\d{3}\.\d+\.[A-Z]", line))
    return Counter(m[1] + m[2] for m in found)


def ja(name, type_=None, text=None, face=None):
    return {"language": "Japanese", "name": name, "faceName": face, "type": type_, "text": text}


DELVER = [
    {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Delver of Secrets", "side": "a",
     "layout": "transform", "manaCost": "{U}", "manaValue": 1, "type": "Creature — Human Wizard",
     "text": "At the beginning of your upkeep, look at the top card of your library.", "power": "1", "toughness": "1",
     "keywords": ["Transform"], "printings": ["ISD", "A25"],
     "foreignData": [ja("秘密を掘り下げる者", "クリーチャー — 人間・ウィザード", "あなたのアップキープの開始時に、", "秘密を掘り下げる者")],
     "rulings": [{"date": "2011-09-22", "text": "You must reveal the card."}]},
    {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Insectile Aberration", "side": "b",
     "layout": "transform", "manaValue": 1, "type": "Creature — Human Insect", "text": "Flying", "power": "3",
     "toughness": "2", "keywords": ["Flying", "Transform"],
     "foreignData": [ja("昆虫の逸脱者", "クリーチャー — 人間・昆虫", "飛行", "昆虫の逸脱者")],
     "rulings": [{"date": "2011-09-22", "text": "You must reveal the card."}]},
]
FIRE_ICE = [
    {"name": "Fire // Ice", "faceName": "Fire", "side": "a", "layout": "split", "manaCost": "{1}{R}", "manaValue": 4,
     "faceManaValue": 2, "type": "Instant", "text": "Fire deals 2 damage divided as you choose.",
     "foreignData": [ja("火 // 氷", "インスタント", "火は2点のダメージを割り振って与える。")]},
    {"name": "Fire // Ice", "faceName": "Ice", "side": "b", "layout": "split", "manaCost": "{1}{U}", "manaValue": 4,
     "faceManaValue": 2, "type": "Instant", "text": "Tap target permanent.\nDraw a card.",
     "foreignData": [ja("火 // 氷", "インスタント", "パーマネント1つを対象とする。")],
     "rulings": [{"date": "2020-11-10", "text": "Fire // Ice has a mana value of 4."}]},
]
