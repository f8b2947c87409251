"""The face-down situation (CR 708 with morph/megamorph 702.37, disguise 702.168, cloak 701.58,
manifest 701.40 and manifest dread 701.62): JA/EN labelled, every enumeration a choice."""
from __future__ import annotations

from kb.reasoning.cards import face, mana
from kb.reasoning.schema import array, boolean, choice, integer, situation_schema, text, when

M = "face-down"
VIA = {"morph": ("変異で唱えた", "cast with morph"), "megamorph": ("大変異で唱えた", "cast with megamorph"),
       "disguise": ("変装で唱えた", "cast with disguise"), "manifest": ("予示された", "manifested"),
       "manifest-dread": ("戦慄予示された", "manifested with manifest dread"), "cloak": ("偽装された", "cloaked"),
       "effect": ("その他の効果で裏向きになった", "turned face down by another effect")}
CARD = face("裏向きのカード（表の面）", "the face-down card (its face-up side)", {
    "morph_cost": mana("変異コスト", "morph cost"),
    "megamorph_cost": mana("大変異コスト", "megamorph cost"),
    "disguise_cost": mana("変装コスト", "disguise cost"),
    "prototype_cost": mana("プロトタイプのマナ・コスト（あれば）", "prototype mana cost (if any)"),
    "double_faced": boolean("両面カード", "double-faced card"),
    "etb_ability": boolean("戦場に出たときの能力を持つ", "has an enters-the-battlefield ability"),
    "turned_face_up_ability": boolean("「表向きになったとき」の能力を持つ", "has a 'when turned face up' ability"),
})
SCHEMA = situation_schema(M, "裏向き（変異・変装・偽装・予示）", "Face-down (morph, disguise, cloak, manifest)", {
    "question": choice("質問", "question", {
        "characteristics": ("裏向きの間の特性", "its characteristics while face down"),
        "cast-face-down": ("裏向きで唱える", "cast it face down"),
        "turn-face-up": ("表向きにする", "turn it face up"),
        "turn-face-down": ("（さらに）裏向きにする", "turn it face down (again)"),
        "leaves": ("戦場（スタック）を離れる", "it leaves the battlefield (or the stack)"),
        "copy": ("裏向きのパーマネントをコピーする", "another permanent copies it"),
        "becomes-copy": ("裏向きのパーマネントが他のコピーになる", "it becomes a copy of another permanent"),
        "look": ("見ることができるか", "who may look at it"),
        "manifest-dread": ("戦慄予示する", "manifest dread")}),
    "via": choice("どのように裏向きになったか", "how it is (or will be) face down", VIA, default="morph"),
    "card": CARD,
    "method": when(choice("表向きにする方法", "how it is turned face up", {
        "own": ("その裏向きの方法どおり（変異コスト・変装コスト・マナ・コスト）", "its own way (morph/disguise/mana cost)"),
        "mana-cost": ("マナ・コストを支払う（予示・偽装）", "pay its mana cost (manifest, cloak)"),
        "morph": ("変異コストを支払う", "pay its morph cost"), "megamorph": ("大変異コストを支払う", "pay its megamorph cost"),
        "disguise": ("変装コストを支払う", "pay its disguise cost"),
        "effect": ("効果で表向きにする", "an effect turns it face up")}, default="own"), question=["turn-face-up"]),
    "has_priority": when(boolean("優先権を持っている（呪文や能力の解決中ではない）", "you have priority (nothing is resolving)",
                                 default=True), question=["turn-face-up"]),
    "mana_available": when({**mana("支払いに使えるマナ（省略時は支払えるものとする）", "mana available (omitted: enough)"),
                            "default": None}, question=["turn-face-up"]),
    "incoming": when(text("スタック上でこれを対象とする呪文・能力の文章（例 稲妻：3点のダメージを与える）",
                          "what the spell or ability on the stack targeting it does (its text, e.g. deals 3 damage)",
                          default=""), question=["turn-face-up"]),
    "plus1_counters": integer("+1/+1カウンター", "+1/+1 counters on it", default=0),
    "damage": integer("負っているダメージ", "damage marked on it", default=0),
    "effects": when(array("裏向きの間に適用された効果（例 +3/+3）", "effects applied while face down (e.g. +3/+3)",
                          text("効果", "effect"), default=[]), question=["turn-face-up"]),
    "prohibition": when(choice("唱えることを禁止する効果", "an effect prohibiting casting", {
        "none": ("なし", "none"), "even-mana-value": ("マナ総量が偶数の呪文", "spells with even mana value"),
        "odd-mana-value": ("マナ総量が奇数の呪文", "spells with odd mana value"),
        "creature-spells": ("クリーチャー呪文", "creature spells"),
        "noncreature-spells": ("クリーチャーでない呪文", "noncreature spells")}, default="none"),
        question=["cast-face-down"]),
    "from_zone": choice("どこにある裏向きのものか", "where the face-down object is", {
        "battlefield": ("戦場（パーマネント）", "battlefield (a permanent)"), "stack": ("スタック（呪文）", "stack (a spell)"),
        "exile": ("追放領域", "exile"), "library": ("ライブラリー", "library")}, default="battlefield"),
    "destination": when(choice("移動先", "where it goes", {
        "graveyard": ("墓地", "graveyard"), "hand": ("手札", "hand"), "exile": ("追放領域", "exile"),
        "library": ("ライブラリー", "library")}, default="graveyard"), question=["leaves"]),
    "face_up_now": when(boolean("今は表向き（裏向きにしようとする質問で）", "it is face up now (for 'turn it face down')"), question=["turn-face-down"]),
    "controller": when(choice("コントローラー", "controlled by", {"you": ("あなた", "you"), "opponent": ("対戦相手", "an opponent")},
                         default="you"), question=["look"]),
    "phased_out": when(boolean("フェイズ・アウトしている", "phased out"), question=["look"]),
    "copied": when({**face("コピー先のパーマネント", "the permanent it becomes a copy of", {
        "morph_cost": mana("変異コスト（あれば）", "morph cost (if any)"),
        "disguise_cost": mana("変装コスト（あれば）", "disguise cost (if any)")}, required=()), "default": {}},
                   question=["becomes-copy"]),
    "top_cards": when(array("ライブラリーの一番上の2枚（戦慄予示）", "the top two cards (manifest dread)",
                            face("カード", "card"), default=[]), question=["manifest-dread"]),
    "choose": when(integer("戦慄予示で予示するカード（1か2）", "which of them to manifest (1 or 2)", default=1),
                   question=["manifest-dread"]),
    "manifest_dread_triggers": when(integer("「あなたが戦慄予示するたび」の誘発型能力の数",
                                            "abilities that trigger 'whenever you manifest dread'", default=0),
                                    question=["manifest-dread"]),
}, required=("question",))
