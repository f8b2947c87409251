"""The modal double-faced card situation (CR 712.8, 712.11–712.14, 305, 707.8a): both faces and
what a player does with the card; a transforming card may be asked beside it (``layout``)."""
from __future__ import annotations

from kb.reasoning.cards import face, requirement
from kb.reasoning.schema import boolean, choice, integer, situation_schema, text

M = "modal-dfc"
ZONES = {"hand": ("手札", "hand"), "library": ("ライブラリー", "library"), "graveyard": ("墓地", "graveyard"),
         "exile": ("追放領域", "exile"), "stack": ("スタック", "stack"), "battlefield": ("戦場", "battlefield"),
         "command": ("統率領域", "command zone")}
SCHEMA = situation_schema(M, "モードを持つ両面カード", "Modal double-faced cards", {
    "question": choice("質問", "question", {
        "characteristics": ("特性（マナ総量を含む）", "characteristics (incl. mana value)"),
        "cast": ("面を選んで唱える", "cast it (choosing a face)"),
        "play-land": ("土地としてプレイする", "play it as a land"),
        "put-onto-battlefield": ("戦場に出す（唱えずに）", "put it onto the battlefield (not cast)"),
        "countered": ("唱えられた後に打ち消される", "it is cast, then countered"),
        "transform": ("変身させようとする", "an effect tries to transform it"),
        "token-copy": ("コピーであるトークンを生成する", "create a token copy of it"),
        "name-a-card": ("カード名を指定する", "name a card")}),
    "layout": choice("種類", "kind of double-faced card", {
        "modal": ("モードを持つ両面カード", "modal double-faced card"),
        "transforming": ("変身する両面カード", "transforming double-faced card")}, default="modal"),
    "front": face("第1面（表）", "front face"),
    "back": face("第2面（裏）", "back face"),
    "zone": choice("領域（出来事の前）", "zone it is in (before the event)", ZONES, default="hand"),
    "face_up": choice("表になっている面（スタック・戦場で）", "face up (on the stack or battlefield)",
                      {"front": ("第1面", "front"), "back": ("第2面", "back")}, default="front"),
    "choose": choice("選ぶ面", "face chosen", {"front": ("第1面", "front"), "back": ("第2面", "back")},
                     default="front"),
    "lands_played": integer("このターンにプレイした土地の数", "lands played this turn", default=0),
    "land_plays": integer("このターンにプレイできる土地の数", "lands you may play this turn", default=1),
    "main_phase_empty_stack": boolean("自分のメイン・フェイズでスタックが空", "your main phase, empty stack", default=True),
    "prohibition": choice("唱えることを禁止する効果", "an effect prohibiting casting", {
        "none": ("なし", "none"), "even-mana-value": ("マナ総量が偶数の呪文", "spells with even mana value"),
        "odd-mana-value": ("マナ総量が奇数の呪文", "spells with odd mana value"),
        "creature-spells": ("クリーチャー呪文", "creature spells"),
        "noncreature-spells": ("クリーチャーでない呪文", "noncreature spells")}, default="none"),
    "chosen_name": text("指定する名前", "name chosen", default=""),
    "requirement": requirement(),
}, required=("question", "front", "back"))
