"""The copy situation (CR 707): the original (a permanent or a spell), what the copy effect does,
and what the original has that is not copiable (status, counters, Auras, other effects)."""
from __future__ import annotations

from kb.reasoning.cards import TYPES, face
from kb.reasoning.schema import array, boolean, choice, integer, obj, situation_schema, text

M = "copy"
ORIGINAL = face("コピー元", "the original", {
    "tapped": boolean("タップしている", "tapped"),
    "plus1_counters": integer("+1/+1カウンター", "+1/+1 counters", default=0),
    "attached": array("つけられているオーラ・装備品", "Auras and Equipment attached", text("名前", "name"), default=[]),
    "other_effects": array("コピー以外の効果（例 +2/+2、クリーチャーになっている）",
                           "non-copy effects on it (e.g. +2/+2, is a creature until end of turn)",
                           text("効果", "effect"), default=[]),
    "face_down": boolean("裏向き", "face down"),
    "is_copy_of": {**face("それ自身が何かのコピーなら、そのコピーされた値", "if it is itself a copy: the values it copied",
                          required=()), "default": {}},
    "copy_exceptions": array("それ自身のコピー効果の例外（コピー可能な値になる）",
                             "exceptions of its own copy effect (they are copiable values)", text("例外", "exception"),
                             default=[]),
    "double_faced": boolean("両面カード", "double-faced card"),
    "modal_dfc": boolean("モードを持つ両面カード（変身しない）", "a modal double-faced card (not transforming)"),
    "face_up": choice("表の面", "face up", {"front": ("第1面", "front"), "back": ("第2面", "back")}, default="front"),
    "front_mana_cost": {**text("第1面のマナ・コスト（第2面が表のとき）", "front face's mana cost (when the back is up)"),
                        "type": ["string", "null"], "default": None},
    "prototyped": boolean("プロトタイプで唱えられた", "was cast prototyped"),
    "room_unlocked": array("開放されているドア（部屋）", "unlocked doors (a Room)",
                           choice("ドア", "door", {"left": ("左", "left"), "right": ("右", "right")}), default=[]),
    "as_enters_choice": text("戦場に出るに際しての選択（あれば）", "its 'as this enters' choice (if any)", default=""),
    "etb_ability": boolean("戦場に出たときの能力を持つ", "has an enters-the-battlefield ability"),
    "etb_if_cast": boolean("その能力に「それを唱えていた場合」の条件がある", "that ability says 'if you cast it'"),
    "modes": array("選ばれたモード（呪文）", "modes chosen (a spell)", text("モード", "mode"), default=[]),
    "x": {**integer("Xの値（呪文）", "value of X (a spell)"), "type": ["integer", "null"], "default": None},
    "targets": array("対象（呪文）", "targets (a spell)", text("対象", "target"), default=[]),
    "kicked": boolean("キッカーした（呪文）", "kicked (a spell)"),
    "text": text("ルール・テキスト（例 {T}: {C}{C}を加える。／X点のダメージを与える）",
                 "rules text (e.g. {T}: Add {C}{C}. / deals X damage to any target)", default=""),
    "permanent_spell": boolean("パーマネント呪文", "a permanent spell"),
})
SCHEMA = situation_schema(M, "コピー", "Copies", {
    "question": choice("何をコピーするか", "what is copied", {
        "permanent": ("パーマネントをコピーする（クローンなど）", "a permanent (e.g. Clone)"),
        "token": ("コピーであるトークンを生成する", "create a token that's a copy"),
        "spell": ("呪文をコピーする", "copy a spell"),
        "cast-copy": ("コピーを唱える", "cast a copy"),
        "copy-resolves": ("呪文のコピーが解決する", "a copy of a spell resolves")}),
    "original": ORIGINAL,
    "exception": obj("コピー効果の例外", "exception of this copy effect", {
        "add_types": array("追加で得るカード・タイプ", "card types it also has", choice("タイプ", "type", TYPES), default=[]),
        "set_power": {**integer("パワーを〜にする", "power set to", minimum=None), "type": ["integer", "null"],
                      "default": None},
        "set_toughness": {**integer("タフネスを〜にする", "toughness set to", minimum=None), "type": ["integer", "null"],
                          "default": None},
        "gains": array("得る能力", "abilities it gains", text("能力", "ability"), default=[]),
        "keep_name": boolean("名前はコピーしない（元の名前のまま）", "doesn't copy the name"),
        "original_has_cda": boolean("コピー元は特性定義能力でP/Tを決める", "the original's P/T come from a characteristic-defining ability"),
    }, default={}),
    "new_targets": array("コピーの新しい対象（選べるとき）", "new targets for the copy (when allowed)",
                         text("対象", "target"), default=[]),
    "may_choose_new_targets": boolean("新しい対象を選んでよい", "may choose new targets"),
    "copier_name": text("コピーする側の名前（名前をコピーしない効果のとき）", "the copy's own name (if the name isn't copied)",
                        default=""),
    "copier_choice": text("コピー側の「戦場に出るに際して」の選択", "the copy's own 'as it enters' choice", default=""),
    "copier_controller": choice("コピーを出す（コントロールする）プレイヤー", "the player who puts the copy onto the stack or battlefield",
                                {"you": ("あなた", "you"), "opponent": ("対戦相手", "opponent")}, default="you"),
    "copier_double_faced": boolean("コピー側は両面カード", "the copy is represented by a double-faced card"),
    "copies": integer("作るコピーの数", "number of copies", default=1, minimum=1),
}, required=("question", "original"))
