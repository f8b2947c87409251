"""The split card / fuse / adventurer situation (CR 709.1–709.4, 702.102, 715): both halves (or the
creature and its Adventure) and what is done with the card."""
from __future__ import annotations

from kb.reasoning.cards import face, requirement
from kb.reasoning.schema import array, boolean, choice, obj, situation_schema, text, when

M = "split-card"
HALF_TEXT = {"text": text("その半分のルール・テキスト（例 2点のダメージを与える）", "the half's rules text (e.g. deals 2 damage)",
                          default="")}
ZONES = {"hand": ("手札", "hand"), "library": ("ライブラリー", "library"), "graveyard": ("墓地", "graveyard"),
         "exile": ("追放領域", "exile"), "stack": ("スタック", "stack"), "battlefield": ("戦場", "battlefield")}
SCHEMA = situation_schema(M, "分割カード・融合・出来事", "Split cards, fuse and adventurers", {
    "question": choice("質問", "question", {
        "characteristics": ("特性（マナ総量を含む）", "characteristics (incl. mana value)"),
        "cast": ("唱える", "cast it"),
        "resolves": ("呪文が解決する", "the spell resolves"),
        "countered": ("呪文が打ち消される", "the spell is countered"),
        "copy": ("呪文をコピーする", "copy the spell"),
        "copy-permanent": ("（出来事を持つ）パーマネントをコピーする", "copy the permanent (an adventurer)"),
        "card-count": ("何枚のカードか", "how many cards it is"),
        "name-a-card": ("カード名を指定する", "name a card")}),
    "layout": choice("種類", "kind of card", {
        "split": ("分割カード", "split card"), "fuse": ("融合を持つ分割カード", "split card with fuse"),
        "adventure": ("出来事を持つカード（当事者カード）", "adventurer card")}, default="split"),
    "left": face("左半分（出来事なら本体のクリーチャー）", "left half (for an adventurer: the creature)", HALF_TEXT),
    "right": face("右半分（出来事なら出来事）", "right half (for an adventurer: the Adventure)", HALF_TEXT),
    "zone": choice("領域（出来事の前）", "zone it is in (before the event)", ZONES, default="hand"),
    "cast_as": choice("唱え方", "cast as", {
        "left": ("左半分", "the left half"), "right": ("右半分", "the right half"),
        "fused": ("両方（融合）", "both halves (fused)"), "creature": ("本体（出来事ではなく）", "the creature (normally)"),
        "adventure": ("出来事として", "as an Adventure")}, default="left"),
    "was_adventure": boolean("出来事として唱えられ、解決して追放されていた", "was cast as an Adventure and exiled on resolving"),
    "prohibition": choice("唱えることを禁止する効果", "an effect prohibiting casting", {
        "none": ("なし", "none"), "even-mana-value": ("マナ総量が偶数の呪文", "spells with even mana value"),
        "odd-mana-value": ("マナ総量が奇数の呪文", "spells with odd mana value"),
        "mana-value-4-or-more": ("マナ総量4以上の呪文", "spells with mana value 4 or greater")}, default="none"),
    "own_turn_main_phase": boolean("自分のメイン・フェイズでスタックが空", "your main phase with an empty stack", default=True),
    "chosen_name": text("指定する名前", "name chosen", default=""),
    "requirement": requirement(),
    "watchers": when(array("呪文を唱えたときに誘発する能力（例 あなたが青の呪文を唱えるたび）",
                           "abilities that trigger on casting (e.g. whenever you cast a blue spell)",
                           obj("能力", "ability", {"source": text("発生源（名前）", "source (name)", default=""),
                                                  "text": text("能力の文章", "the ability's text")}, required=("text",)),
                           default=[]), question=["cast"]),
    "target": when({**obj("唱える半分が対象とするクリーチャー", "the creature the half (or both halves) cast targets", {
        "name": text("名前", "name"),
        "power": {"type": ["integer", "null"], "title_ja": "パワー", "title_en": "power", "default": None},
        "toughness": {"type": ["integer", "null"], "title_ja": "タフネス", "title_en": "toughness", "default": None},
        "abilities": array("能力", "abilities", text("能力", "ability"), default=[])}), "default": {}},
        question=["cast"]),
}, required=("question", "left", "right"))
