"""The situation form of the "room" mechanic (rule 709.5). Labels use the JA terms 部屋, ドア,
開放する, 閉鎖する, 完全に開放する; the logic lives in rooms.py."""
from __future__ import annotations

from kb.reasoning.schema import array, boolean, choice, integer, obj, situation_schema, text
from kb.reasoning.casting.schema import MANA_PATTERN

DOOR_LABELS = {"left": ("左のドア（左半分）", "left door (left half)"),
               "right": ("右のドア（右半分）", "right door (right half)")}


def door(ja: str, en: str) -> dict:
    return obj(ja, en, {
        "name": text("ドアの名前", "door name"),
        "mana_cost": text("マナ・コスト（開放コスト）", "mana cost (unlock cost)", pattern=MANA_PATTERN),
        "unlock_trigger": boolean("「あなたがこのドアを開放したとき」の誘発型能力を持つ",
                                  "has a “when you unlock this door” triggered ability"),
        "trigger_targets": integer("その誘発型能力が必要とする対象の数", "targets that ability requires", default=0),
        "legal_targets": integer("その能力の適正な対象の数", "legal targets available for it", default=0),
    }, required=("name",))


SCHEMA = situation_schema("room", "部屋", "Room", {
    "room": obj("部屋", "Room", {"left": door("左のドア", "left door"), "right": door("右のドア", "right door")},
                required=("left", "right")),
    "event": choice("起こること", "what happens", {
        "cast_resolves": ("部屋・呪文が解決して戦場に出る", "a Room spell resolves and enters"),
        "put_onto_battlefield": ("唱えられずに戦場に出る（スタック以外の領域から）",
                                 "put onto the battlefield without being cast (not from the stack)"),
        "enters_as_copy": ("部屋のコピーとして戦場に出る", "a permanent enters as a copy of a Room"),
        "token_copy": ("部屋のコピーであるトークンが生成される", "a token copy of a Room is created"),
        "spell_copy_resolves": ("スタック上でコピーされた部屋・呪文が解決する", "a copy of a Room spell resolves"),
        "becomes_copy": ("戦場にあるパーマネントが部屋のコピーになる",
                         "a permanent already on the battlefield becomes a copy of a Room"),
        "unlock_action": ("開放コストを支払ってドアを開放する（特別な処理）", "pay an unlock cost (special action)"),
        "unlock_effect": ("効果によってドアを開放する", "an effect unlocks a door"),
        "lock_effect": ("効果によってドアを閉鎖する", "an effect locks a door"),
    }),
    "cast_half": choice("唱えられたドア", "half that was cast", DOOR_LABELS, default="left"),
    "door": choice("開放する・閉鎖するドア", "door to unlock or lock", DOOR_LABELS, default="left"),
    "unlocked": array("すでに開放されているドア", "doors already unlocked", choice("ドア", "door", DOOR_LABELS),
                      default=[]),
    "source_unlocked": array("コピー元で開放されているドア", "doors unlocked on the copied Room",
                             choice("ドア", "door", DOOR_LABELS), default=[]),
    "controls": boolean("その部屋をコントロールしている", "you control the Room", default=True),
    "timing": obj("時期", "timing", {
        "own_turn": boolean("自分のターン", "your turn", default=True),
        "main_phase": boolean("メイン・フェイズ", "main phase", default=True),
        "stack_empty": boolean("スタックが空", "the stack is empty", default=True),
        "has_priority": boolean("優先権を持っている", "you have priority", default=True),
    }, default={}),
    "mana_pool": {**text("支払いに使えるマナ（省略時は支払えるものとする）",
                         "mana available to pay (omitted: assume it can be paid)", pattern=MANA_PATTERN),
                  "type": ["string", "null"], "default": None},
    "enter_trigger_doubler": {**text("戦場に出ることによる誘発を追加で誘発させる効果（パンハモニコンなど）",
                                     "effect making enter triggers trigger an additional time (e.g. Panharmonicon)"),
                              "type": ["string", "null"], "default": None},
    "fully_unlock_triggers": array("「部屋を完全に開放するたび」の誘発型能力", "“whenever you fully unlock a Room” abilities",
                                   text("能力", "ability"), default=[]),
}, required=("room", "event"))
