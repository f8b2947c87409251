"""The manifest situation (CR 701.40, 708): JA/EN labelled JSON schema."""
from __future__ import annotations

from kb.reasoning.schema import array, boolean, choice, obj, situation_schema, text

M = "manifest"
FACE_DOWN = {"name": None, "text": None, "subtypes": [], "mana_cost": None, "types": "Creature",
             "power": 2, "toughness": 2, "colors": []}

CARD = obj("カード", "card", {
    "name": text("名前", "name", default="card"),
    "types": text("カード・タイプ（正面）", "card types (front face)", default="Creature"),
    "mana_cost": text("マナ・コスト（なければ空）", "mana cost (empty for none)", default="{2}"),
    "double_faced": boolean("両面カード", "double-faced card"),
    "morph_cost": text("変異コスト（なければ空）", "morph cost (empty for none)", default=""),
    "disguise_cost": text("変装コスト（なければ空）", "disguise cost (empty for none)", default=""),
    "etb_ability": boolean("戦場に出たときの能力を持つ", "has an enters-the-battlefield ability"),
    "dies_ability": boolean("死亡したときの能力を持つ", "has a 'when this dies' ability"),
    "turned_face_up_ability": boolean("「表向きになったとき」の能力を持つ", "has a 'when turned face up' ability"),
})
SCHEMA = situation_schema(M, "予示", "Manifest", {
    "question": choice("質問", "question", {
        "manifest": ("カードを予示する", "manifest card(s)"),
        "turn-face-up": ("表向きにする", "turn it face up"),
        "leave-battlefield": ("戦場を離れる", "it leaves the battlefield")}),
    "cards": array("カード（予示する順）", "cards (in the order manifested)", CARD, minItems=1),
    "how_face_down": choice("裏向きになった方法", "how it became face down", {
        "manifested": ("予示された", "manifested"),
        "cast-with-morph": ("変異で唱えられた", "cast using morph")}, default="manifested"),
    "method": choice("表向きにする方法", "how to turn it face up", {
        "mana-cost": ("マナ・コストを支払う（予示）", "pay its mana cost (manifest)"),
        "morph": ("変異コストを支払う", "pay its morph cost"),
        "disguise": ("変装コストを支払う", "pay its disguise cost"),
        "effect": ("効果で表向きにする", "an effect turns it face up")}, default="mana-cost"),
    "continuous_effects": array("適用されている継続的効果", "continuous effects applying",
                                text("効果", "effect"), default=[]),
    "prohibited": boolean("裏向きのオブジェクトが戦場に出るのを禁止する効果がある",
                          "a rule or effect stops face-down objects entering"),
    "face_up_in_previous_zone": boolean("元の領域で表向き", "face up in its previous zone"),
    "destination": choice("移動先", "where it goes", {
        "graveyard": ("墓地", "graveyard"), "exile": ("追放", "exile"), "hand": ("手札", "hand"),
        "flicker": ("追放して戦場に戻す（明滅）", "exile and return (flicker)")}, default="graveyard"),
    "creature_enters_triggers": boolean("「クリーチャーが戦場に出るたび」を持つパーマネントがある",
                                        "another permanent has 'whenever a creature enters'"),
    "counters": boolean("カウンター・オーラ・効果を受けている", "has counters, Auras or effects on it"),
}, required=("question", "cards"))
