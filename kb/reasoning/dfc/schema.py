"""The double-faced card situation (CR 712, 701.27): JA/EN labelled JSON schema."""
from __future__ import annotations

from kb.reasoning.schema import array, boolean, choice, integer, obj, situation_schema, text

M = "double-faced-card"

FACE = obj("面", "face", {
    "name": text("名前", "name"),
    "mana_cost": text("マナ・コスト（例 {1}{W}、なければ空）", "mana cost (e.g. {1}{W}; empty for none)", default=""),
    "types": text("タイプ行", "type line", default="Creature"),
    "power": integer("パワー", "power", minimum=None),
    "toughness": integer("タフネス", "toughness", minimum=None),
}, required=("name",))
ZONES = {z: (ja, z) for z, ja in (("hand", "手札"), ("library", "ライブラリー"), ("graveyard", "墓地"),
                                    ("exile", "追放"), ("stack", "スタック"), ("battlefield", "戦場"),
                                    ("command", "統率"), ("outside", "ゲーム外"))}
SCHEMA = situation_schema(M, "両面カード・変身", "Double-faced cards and transform", {
    "question": choice("質問", "question", {
        "characteristics": ("特性（マナ総量を含む）", "characteristics (incl. mana value)"),
        "transform": ("変身させる", "transform it"),
        "copy": ("コピー", "a copy of it"),
        "enter-battlefield": ("戦場に出る", "it enters the battlefield"),
        "cast": ("唱える", "cast it"),
        "turn-face-down": ("裏向きにする", "turn it face down"),
        "name-a-card": ("カード名を指定する", "name a card")}),
    "layout": choice("種類", "kind of double-faced card", {
        "nonmodal": ("変身する両面カード", "nonmodal (transforming)"),
        "modal": ("モードを持つ両面カード", "modal"), "meld": ("合体カード", "meld card")}, default="nonmodal"),
    "front": FACE, "back": FACE,
    "represented_by": choice("何で表されているか", "what represents the object", {
        "double-faced-card": ("両面カード", "a double-faced card"),
        "double-faced-token": ("両面トークン", "a double-faced token"),
        "other": ("両面でないカード／トークン", "a card or token that isn't double-faced")},
        default="double-faced-card"),
    "zone": choice("領域（出来事の前にカードがある領域）", "zone the card is in (before the event)", ZONES,
                   default="battlefield"),
    "face_up": choice("表になっている面", "face that is up",
                      {"front": ("正面", "front"), "back": ("背面", "back")}, default="front"),
    "face_down": boolean("裏向き", "face down"),
    "copy_of_back_face": boolean("背面をコピーしている", "is a copy of a back face"),
    "copy_kind": choice("コピーの種類", "kind of copy", {
        "token-copy": ("コピーであるトークンを生成", "a token created as a copy"),
        "clone": ("両面でないパーマネントがコピーになる（クローン）", "a non-double-faced permanent copies it (Clone)"),
        "becomes-copy": ("この両面パーマネントが他のコピーになる", "this double-faced permanent becomes a copy of another")},
        default="token-copy"),
    "instruction": choice("指示", "instruction", {
        "normal": ("通常", "normally"), "transformed": ("変身した状態で", "transformed"),
        "face-down": ("裏向きで", "face down"), "back-face": ("背面を選んで", "choosing the back face")},
        default="normal"),
    "from_zone": choice("どこから戦場に出るか（出る前の領域）", "the zone it enters the battlefield from", {
        "stack": ("スタック（呪文の解決）", "the stack (a resolving spell)"),
        **{z: v for z, v in ZONES.items() if z not in ("stack", "battlefield", "outside")},
        "other": ("スタック以外（「領域」のとおり）", "another zone (as 'zone' says)")}, default="other"),
    "effect_allows_face_down": boolean("裏向きで唱えることを許す効果がある", "an effect allows casting it face down"),
    "transform_by": choice("変身させようとするもの", "what tries to transform it", {
        "other": ("呪文・他のオブジェクトの能力", "a spell or another object's ability"),
        "own-ability": ("そのパーマネント自身の起動型・誘発型能力", "its own activated or triggered ability"),
        "own-delayed-trigger": ("そのパーマネント自身の遅延誘発型能力", "its own delayed triggered ability")},
        default="other"),
    "transformed_since": boolean("その能力がスタックに置かれて（遅延誘発型能力が作られて）から変身した",
                                 "it transformed since that ability was put onto the stack (or was created)"),
    "counters": integer("カウンターの数", "counters on it", default=0),
    "damage": integer("負っているダメージ", "damage marked on it", default=0),
    "attached": array("つけられているオーラ・装備品", "Auras and Equipment attached", text("名前", "name"),
                      default=[]),
    "effects": array("適用されている効果", "effects applying to it", text("効果", "effect"), default=[]),
    "chosen_names": array("指定するカード名", "names chosen", text("名前", "name"), default=[]),
}, required=("question", "front"))
