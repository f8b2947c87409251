"""The situation form of the "cast" mechanic (rule 601). Labels are the JA CR's terms (唱える, 提示,
総コスト, 追加コスト, 代替コスト); the logic lives in casting.py."""
from __future__ import annotations

from kb.text import MAX_DIGITS
from kb.reasoning.schema import array, boolean, choice, integer, obj, situation_schema, text

GENERIC = r"\d{1,%d}" % MAX_DIGITS  # a generic amount is a number, never of thousands of digits (kb.text)
MANA_PATTERN = r"^(\{(?:%s|[WUBRGCX])\})*$" % GENERIC


def mana(ja: str, en: str, **kw) -> dict:
    return text(ja, en, pattern=MANA_PATTERN, **kw)


def cost_item(ja: str, en: str) -> dict:
    return obj(ja, en, {
        "name": text("名前（キッカー、フラッシュバックなど）", "name (kicker, flashback, …)"),
        "mana": mana("マナ", "mana"),
        "life": integer("支払うライフ", "life to pay"),
        "other": text("マナ以外のコスト（例：クリーチャーを1体生け贄に捧げる）",
                      "other cost (e.g. sacrifice a creature)"),
    }, required=("name",))


TYPES = {"instant": ("インスタント", "instant"), "sorcery": ("ソーサリー", "sorcery"),
         "creature": ("クリーチャー", "creature"), "artifact": ("アーティファクト", "artifact"),
         "enchantment": ("エンチャント", "enchantment"), "planeswalker": ("プレインズウォーカー", "planeswalker"),
         "battle": ("バトル", "battle"), "kindred": ("同族", "kindred")}

SPELL = obj("呪文", "spell", {
    "name": text("カード名", "card name"),
    "mana_cost": {**mana("マナ・コスト（持たないなら空欄）", "mana cost (empty if it has none)"),
                  "type": ["string", "null"]},
    "types": array("カード・タイプ", "card types", choice("カード・タイプ", "card type", TYPES), default=[]),
    "modes": integer("選ぶモードの最大数（モードを持たないなら0）", "modes to choose at most (0: not modal)",
                     default=0),
    "targets": array("「対象」の語ごとの対象の指定", "targets, one per instance of the word “target”", obj(
        "対象の指定", "target requirement", {
            "min": integer("対象の最小数", "fewest targets", default=1),
            "max": integer("対象の最大数", "most targets"),
            "legal": array("適正な対象の候補", "legal choices", text("オブジェクトかプレイヤー", "object or player"),
                           default=[]),
            "only_if": text("この対象を必要とする追加コスト・代替コスト・モード",
                            "the additional/alternative cost or mode that makes this target required"),
        }), default=[]),
    "divide": text("対象に分割する量（数かX）", "amount divided among the targets (a number or X)",
                   pattern=r"^(%s|X)$" % GENERIC),
}, required=("name", "mana_cost"))

ZONES = {"hand": ("手札", "hand"), "graveyard": ("墓地", "graveyard"), "exile": ("追放領域", "exile"),
         "library": ("ライブラリー", "library"), "command": ("統率領域", "command zone")}

CHANGE = obj("コストの増減", "cost change", {
    "source": text("発生源", "source"),
    "kind": choice("種類", "kind", {"increase": ("コスト増加", "cost increase"),
                                    "reduction": ("コスト減少", "cost reduction")}),
    "mana": mana("増減するマナ", "mana added or taken off"),
    "timing": choice("適用され始める時点", "starts to apply", {
        "before_lock": ("総コストが固定される前", "before the total cost is locked in"),
        "after_lock": ("総コストが固定された後", "after the total cost is locked in"),
        "after_cast": ("呪文が唱えられた後（対応して）", "after the spell was cast (in response)"),
    }, default="before_lock"),
}, required=("source", "kind", "mana"))

PROHIBITION = obj("唱えることの禁止", "prohibition", {
    "name": text("禁止する効果", "prohibiting effect"),
    "kind": choice("禁止される呪文", "spells prohibited", {
        "all_spells": ("すべての呪文", "all spells"),
        "card_type": ("特定のカード・タイプの呪文", "spells of given card types"),
        "even_mana_value": ("マナ総量が偶数の呪文", "spells with even mana value"),
        "odd_mana_value": ("マナ総量が奇数の呪文", "spells with odd mana value"),
    }),
    "types": array("禁止されるカード・タイプ", "prohibited card types", choice("カード・タイプ", "card type", TYPES),
                   default=[]),
    "timing": choice("禁止が始まる時点", "prohibition starts", {
        "before_casting": ("唱え始める前から", "before casting begins"),
        "during_proposal": ("提示の途中（601.2a-d）", "during the proposal (601.2a–d)"),
        "during_costs": ("コストの決定・支払いの途中", "while determining or paying costs"),
        "after_cast": ("唱えられた後", "after the spell is cast"),
    }, default="before_casting"),
}, required=("name", "kind"))

SCHEMA = situation_schema("cast", "呪文を唱える", "Casting a spell", {
    "spell": SPELL,
    "copy": choice("コピー", "copy", {
        "none": ("コピーではない", "not a copy"),
        "copied": ("効果が呪文をコピーする（唱えない）", "an effect copies the spell (not cast)"),
        "cast-copy": ("効果がコピーを唱えさせる", "an effect instructs casting a copy")}, default="none"),
    "from_zone": choice("唱える領域", "cast from", ZONES, default="hand"),
    "permission": boolean("その領域から唱えることを許可する効果がある", "an effect allows casting it from that zone"),
    "modes_chosen": array("選んだモード", "modes chosen", text("モード", "mode"), default=[]),
    "alternative_costs": array("宣言した代替コスト", "alternative costs announced",
                               cost_item("代替コスト", "alternative cost"), default=[]),
    "additional_costs": array("宣言した追加コスト", "additional costs announced",
                              cost_item("追加コスト", "additional cost"), default=[]),
    "x": {**integer("Xの値", "value of X"), "type": ["integer", "null"], "default": None},
    "targets": array("選んだ対象（「対象」の語ごと）", "targets chosen, per instance of “target”",
                     array("対象", "targets", text("対象", "target")), default=[]),
    "division": array("分割（対象ごとの量）", "division (amount per target)", integer("量", "amount"), default=[]),
    "cost_changes": array("コスト増加・コスト減少", "cost increases and reductions", CHANGE, default=[]),
    "prohibitions": array("唱えることを禁止する効果", "effects prohibiting the casting", PROHIBITION, default=[]),
    "mana_pool": mana("マナ・プールにあるマナ", "mana in the mana pool", default=""),
    "mana_sources": array("マナ源", "mana sources", obj("マナ源", "mana source", {
        "name": text("名前", "name"),
        "produces": mana("生み出すマナ", "mana it makes"),
        "mana_ability": boolean("マナ能力である", "is a mana ability", default=True),
    }, required=("name", "produces")), default=[]),
    "life_total": integer("ライフ総量", "life total", default=20, minimum=None),
    "unpayable_costs": array("支払えないマナ以外のコスト", "non-mana costs that can't be paid",
                             text("コスト", "cost"), default=[]),
    "triggers": array("誘発型能力", "triggered abilities", obj("誘発型能力", "triggered ability", {
        "name": text("名前", "name"),
        "event": choice("誘発条件", "trigger event", {
            "cast": ("呪文が唱えられたとき", "when a spell is cast"),
            "becomes_target": ("呪文の対象になったとき", "when it becomes the target of a spell")}),
        "object": text("対象になるオブジェクト", "object that becomes a target"),
    }, required=("name", "event")), default=[]),
}, required=("spell",))
