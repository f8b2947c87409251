"""The state-based actions situation (CR 704): players and permanents as they are when the game
next checks; JA/EN labelled, enumerations as choices."""
from __future__ import annotations

from kb.reasoning.cards import SUPERTYPES, TYPES
from kb.reasoning.schema import array, boolean, choice, integer, obj, situation_schema, text

M = "state-based-actions"
ZONES = {"battlefield": ("戦場", "battlefield"), "graveyard": ("墓地", "graveyard"), "hand": ("手札", "hand"),
         "exile": ("追放領域", "exile"), "library": ("ライブラリー", "library"), "stack": ("スタック", "stack")}
ATTACHMENT = {"none": ("なし", "none"), "aura": ("オーラ", "Aura"), "equipment": ("装備品", "Equipment"),
              "fortification": ("城砦", "Fortification")}
ILLEGAL = {"legal": ("適正", "legal"),
           "protection": ("つけられている先がプロテクションを持つ", "the permanent it's attached to has protection from it"),
           "enchant": ("エンチャントする先として不適正（「エンチャント（〜）」に合わない）",
                       "not a legal object for its enchant ability"),
           "not-a-creature": ("装備先がクリーチャーでなくなった", "the equipped permanent is no longer a creature"),
           "self-is-creature": ("その装備品自身がクリーチャー", "the Equipment is itself a creature")}

PERMANENT = obj("パーマネント", "permanent", {
    "name": text("名前（裏向きなら空）", "name (empty if face down)", default=""),
    "controller": text("コントローラー", "controller", default="you"),
    "types": array("カード・タイプ", "card types", choice("カード・タイプ", "card type", TYPES), default=["creature"]),
    "supertypes": array("特殊タイプ", "supertypes", choice("特殊タイプ", "supertype", SUPERTYPES), default=[]),
    "power": {**integer("パワー（カウンターと他からの修整を除く）", "power (not counting counters or listed changes)",
                        minimum=None),
              "type": ["integer", "null"], "default": None},
    "toughness": {**integer("タフネス（カウンターと他からの修整を除く）", "toughness (not counting counters or listed changes)",
                            minimum=None),
                  "type": ["integer", "null"], "default": None},
    "damage": integer("負っているダメージ", "damage marked on it", default=0),
    "deathtouch_damage": boolean("前回のチェック以降に接死を持つ発生源からダメージを受けた",
                                 "dealt damage by a deathtouch source since the last check"),
    "indestructible": boolean("破壊不能", "indestructible"),
    "regeneration_shield": boolean("再生の盾がある", "has a regeneration shield"),
    "loyalty": {**integer("忠誠度（忠誠カウンターの数）", "loyalty (loyalty counters)"), "type": ["integer", "null"],
                "default": None},
    "damage_dealt_to_planeswalker": integer("プレインズウォーカーに今与えられたダメージ",
                                            "damage just dealt to it as a planeswalker", default=0),
    "plus1_counters": integer("+1/+1カウンター", "+1/+1 counters", default=0),
    "minus1_counters": integer("-1/-1カウンター", "-1/-1 counters", default=0),
    "token": boolean("トークン", "token"),
    "zone": choice("領域", "zone it is in", ZONES, default="battlefield"),
    "face_down": boolean("裏向き", "face down"),
    "persist": boolean("頑強", "persist"),
    "undying": boolean("不死", "undying"),
    "copy_of": text("コピーしているもの（あれば）", "what it is a copy of (if any)", default=""),
    "cards": integer("表しているカードの枚数（合体したパーマネントは2）", "cards representing it (2 for a melded permanent)",
                     default=1),
    "attachment": choice("つけられるもの", "attaches as", ATTACHMENT, default="none"),
    "attached_to": text("つけられている先（なければ空）", "attached to (empty: nothing)", default=""),
    "attachment_illegal": choice("つけられ方", "how it is attached", ILLEGAL, default="legal"),
    "bonuses": array("他のパーマネントの常在型能力による修整（例 オーラの+2/+1、ロードの+1/+1）",
                     "P/T changes from other permanents' static abilities (e.g. an Aura's +2/+1, a lord's +1/+1)",
                     obj("修整", "change", {
                         "source": text("発生源のパーマネント（名前）", "the permanent generating it (name)"),
                         "power": integer("パワーの修整", "power change", minimum=None, default=0),
                         "toughness": integer("タフネスの修整", "toughness change", minimum=None, default=0),
                         "until_end_of_turn": boolean("ターン終了時までの効果（呪文や能力の解決による）",
                                                      "an 'until end of turn' effect (from a spell or ability)")},
                         required=("source",)), default=[]),
})
PLAYER = obj("プレイヤー", "player", {
    "name": text("名前", "name", default="you"),
    "life": integer("ライフ", "life", default=20, minimum=None),
    "poison": integer("毒カウンター", "poison counters", default=0),
    "active": boolean("アクティブ・プレイヤー（このターンのプレイヤー）", "the active player (whose turn it is)", default=True),
    "hand": integer("手札の枚数", "cards in hand", default=0),
    "max_hand_size": integer("手札の上限", "maximum hand size", default=7),
    "drew_from_empty_library": boolean("前回のチェック以降、空のライブラリーから引こうとした",
                                       "attempted to draw from an empty library since the last check"),
})
SCHEMA = situation_schema(M, "状況起因処理", "State-based actions", {
    "permanents": array("パーマネント", "permanents", PERMANENT, default=[]),
    "players": array("プレイヤー", "players", PLAYER, default=[]),
    "step": choice("いつのチェックか", "when the game checks", {
        "now": ("次に優先権を得る前（通常）", "the next time a player would get priority"),
        "cleanup": ("クリンナップ・ステップ（ダメージが取り除かれ「ターン終了時まで」の効果が終わった後）",
                    "the cleanup step (after damage is removed and 'until end of turn' effects end)")}, default="now"),
    "stack": array("スタック上の能力（発生源が戦場を離れても）", "abilities on the stack (their source may leave)",
                   obj("能力", "ability", {
                       "ability": text("能力の文章", "the ability's text"),
                       "source": text("発生源のパーマネント（名前）", "its source permanent (name)")},
                       required=("ability", "source")), default=[]),
    "legend_keep": text("レジェンド・ルールで残すもの（名前と同じなら先に書いたもの）",
                        "legend rule: which one its controller keeps (the first listed by default)", default=""),
}, required=())
