"""The meld situation (CR 701.42, 712.4, 712.5, 712.8g, 712.21): the two cards of a pair, the
melded permanent's combined back face, and what happens to them."""
from __future__ import annotations

from kb.reasoning.cards import face
from kb.reasoning.schema import array, boolean, choice, integer, situation_schema, text

M = "meld"
ZONES = {"battlefield": ("戦場", "battlefield"), "stack": ("スタック", "stack"), "hand": ("手札", "hand"),
         "graveyard": ("墓地", "graveyard"), "exile": ("追放領域", "exile"), "library": ("ライブラリー", "library")}
CARD = face("合体カード（正面）", "meld card (front face)", {
    "melds_with": text("合体相手", "melds with", default=""),
    "melds_into": text("合体後の名前", "melds into", default=""),
    "token": boolean("トークン（カードではない）", "a token (not a card)"),
    "meld_card": boolean("合体カードである", "is a meld card", default=True),
    "plus1_counters": integer("+1/+1カウンター（合体前）", "+1/+1 counters (before melding)", default=0),
    "attached": array("つけられているオーラ・装備品（合体前）", "Auras and Equipment attached (before melding)",
                      text("名前", "name"), default=[]),
    "auras": array("そのうちオーラであるもの（名前）", "of those, the Auras (names)", text("名前", "name"), default=[]),
})
SCHEMA = situation_schema(M, "合体", "Meld", {
    "question": choice("質問", "question", {
        "characteristics": ("特性（マナ総量を含む）", "characteristics (incl. mana value)"),
        "meld": ("合体させる", "meld them"),
        "leaves": ("合体したパーマネントが戦場を離れる", "the melded permanent leaves the battlefield"),
        "flicker": ("合体したパーマネントを追放して戻す", "exile the melded permanent and return it"),
        "transform": ("変身させようとする", "an effect tries to transform it"),
        "copy": ("合体したパーマネントのコピー", "a copy of the melded permanent"),
        "turn-face-down": ("裏向きにしようとする", "an effect tries to turn it face down"),
        "name-a-card": ("カード名を指定する", "name a card"),
        "pair": ("合体の組", "which cards meld together"),
        "meld-trigger": ("合体の誘発型能力が解決する（条件を再確認）", "the meld ability resolves (condition rechecked)")}),
    "cards": array("合体カード", "the meld cards", CARD, minItems=1),
    "melded": {**face("合体後のパーマネント（結合された背面）", "the melded permanent (combined back face)", {
        "etb_ability": boolean("戦場に出たときの誘発型能力を持つ", "has an enters-the-battlefield triggered ability")},
        required=()),
               "default": {}},
    "zone": choice("合体カードのある領域", "zone the meld card(s) are in", ZONES, default="battlefield"),
    "melded_now": boolean("戦場で合体している", "melded on the battlefield now", default=True),
    "destination": choice("移動先", "where it goes", {
        "graveyard": ("墓地", "graveyard"), "hand": ("手札", "hand"), "library": ("ライブラリー", "library"),
        "exile": ("追放領域", "exile")}, default="graveyard"),
    "enters_attacking": boolean("タップ状態で攻撃している状態で戦場に出る", "enters tapped and attacking"),
    "copy_kind": choice("コピーの種類", "kind of copy", {
        "token-copy": ("コピーであるトークン", "a token copy"), "becomes-copy": ("パーマネントがコピーになる", "a permanent becomes a copy")},
        default="becomes-copy"),
    "chosen_name": text("指定する名前", "name chosen", default=""),
    "targeted_as": choice("対象にしようとする効果の条件", "what an effect targeting it asks for", {
        "none": ("なし", "none"), "transformed-permanent": ("変身したパーマネント", "a transformed permanent")},
        default="none"),
    "other": text("組み合わせを問う相手（名前）", "the card asked about as a partner (name)", default=""),
    "condition_still_true": boolean("解決時にも条件を満たしている（両方がある）", "the condition still holds as it resolves",
                                    default=True),
}, required=("question", "cards"))
