"""Cards in situations: a card face's fields (JA/EN labelled), card types read in English or
Japanese, mana value and colour from a mana cost, and real cards named by a situation.

Plain helpers with no game rule of their own: the rules that use them (202.3, 105.2, 205.2a …) are
registered by the question types. A type line typed as text (「伝説のクリーチャー — 人間」,
"Instant") is read word by word; a word that is not a card type or supertype is refused naming the
field, never guessed (a misread type once made an instant turn face up).
"""
from __future__ import annotations

import re

from kb.errors import SituationError
from kb.reasoning.schema import array, boolean, choice, field, integer, obj, text
from kb.text import MAX_DIGITS, normalize

TYPES = {"artifact": ("アーティファクト", "artifact"), "battle": ("バトル", "battle"),
         "creature": ("クリーチャー", "creature"), "enchantment": ("エンチャント", "enchantment"),
         "instant": ("インスタント", "instant"), "kindred": ("同族", "kindred"), "land": ("土地", "land"),
         "planeswalker": ("プレインズウォーカー", "planeswalker"), "sorcery": ("ソーサリー", "sorcery")}
PERMANENT_TYPES = {"artifact", "battle", "creature", "enchantment", "land", "planeswalker"}
SUPERTYPES = {"legendary": ("伝説の", "legendary"), "basic": ("基本", "basic"), "snow": ("氷雪", "snow"),
              "world": ("ワールド", "world")}
COLOURS = {"W": ("白", "white"), "U": ("青", "blue"), "B": ("黒", "black"), "R": ("赤", "red"), "G": ("緑", "green")}
MANA_SYMBOLS = r"^(\{(?:\d{1,%d}|[WUBRGCXS]|[WUBRGC2]/[WUBRGP]|[WUBRG]/[WUBRG]/P)\})*$" % MAX_DIGITS
_ALIASES = {"tribal": "kindred", "部族": "kindred", "伝説": "legendary", "legend": "legendary"}
_WORDS = {normalize(w): k for table in (TYPES, SUPERTYPES) for k, labels in table.items()
          for w in (k, *labels)} | {normalize(k): v for k, v in _ALIASES.items()}
_DASH = re.compile(r"\s+[—–\-－ー]\s+|\s*[—–－]\s*")
_SYMBOL = re.compile(r"\{([^}]*)\}")


def mana(ja: str, en: str, **kw) -> dict:
    """A mana cost; null (or omitted) for an object with no mana cost (a land, a back face)."""
    return {**text(ja, en, pattern=MANA_SYMBOLS, **kw), "type": ["string", "null"]}


def face(ja: str = "カード", en: str = "card", extra: dict | None = None, required=("name",)) -> dict:
    """One card face as a person describes it; ``extra`` adds a question type's own fields."""
    return obj(ja, en, {
        "name": text("カード名（日本語でも英語でも）", "card name (Japanese or English)"),
        "mana_cost": mana("マナ・コスト（例 {1}{G}。なければ空）", "mana cost (e.g. {1}{G}; empty for none)"),
        "types": array("カード・タイプ", "card types", choice("カード・タイプ", "card type", TYPES), default=[]),
        "supertypes": array("特殊タイプ", "supertypes", choice("特殊タイプ", "supertype", SUPERTYPES), default=[]),
        "subtypes": array("サブタイプ", "subtypes", text("サブタイプ", "subtype"), default=[]),
        "power": {**integer("パワー", "power", minimum=None), "type": ["integer", "null"]},
        "toughness": {**integer("タフネス", "toughness", minimum=None), "type": ["integer", "null"]},
        "loyalty": {**integer("忠誠度", "loyalty"), "type": ["integer", "null"]},
        "abilities": array("能力（キーワードや文章）", "abilities (keywords or text)", text("能力", "ability"), default=[]),
        "color_indicator": array("色指標", "color indicator", choice("色", "color", COLOURS), default=[]),
        **(extra or {}),
    }, required=required)


def requirement() -> dict:
    """What an effect looks for in a card ("target instant card with mana value 2 or less", "a land card")."""
    return {**obj("効果が探すカードの条件（例 マナ総量2以下のインスタント・カード）",
                  "what an effect looks for (e.g. an instant card with mana value 2 or less)", {
                      "types_any": array("カード・タイプ（いずれか）", "card types (any of)",
                                         choice("カード・タイプ", "card type", TYPES), default=[]),
                      "permanent_card": boolean("パーマネント・カード", "a permanent card"),
                      "mana_value_max": {**integer("マナ総量の上限", "mana value at most"), "type": ["integer", "null"],
                                         "default": None},
                      "mana_value_min": {**integer("マナ総量の下限", "mana value at least"), "type": ["integer", "null"],
                                         "default": None},
                      "targeted": boolean("対象として選ぶ", "chosen as a target")}), "default": {}}


def meets(chars: dict, req: dict) -> bool | None:
    """Whether characteristics meet a requirement; None when there is no requirement."""
    if not req or not (req.get("types_any") or req.get("permanent_card") or req.get("mana_value_max") is not None
                       or req.get("mana_value_min") is not None):
        return None
    types, mv = set(chars.get("types") or []), chars.get("mana_value") or 0
    return ((not req["types_any"] or bool(types & set(req["types_any"])))
            and (not req["permanent_card"] or is_permanent_card(types))
            and (req["mana_value_max"] is None or mv <= req["mana_value_max"])
            and (req["mana_value_min"] is None or mv >= req["mana_value_min"]))


def type_words(value, where: str) -> set[str]:
    """The card types and supertypes of a type line written in English or Japanese, or of a list."""
    if isinstance(value, (list, tuple)):
        return {str(v) for v in value}
    line = _DASH.split(value or "", maxsplit=1)[0]
    found: set[str] = set()
    for word in re.split(r"[\s・･/]+", line.strip()):
        if not word:
            continue
        key = _WORDS.get(normalize(word)) or _prefixed(word)
        if key is None:
            raise SituationError(where, f"{word!r} is not a card type or supertype; card types: " + ", ".join(TYPES),
                                 message_ja=f"「{word}」はカード・タイプでも特殊タイプでもありません（例: クリーチャー、"
                                            "インスタント、伝説のクリーチャー）")
        found |= key if isinstance(key, set) else {key}
    return found


def _prefixed(word: str):
    """「伝説のクリーチャー」「基本土地」: a JA supertype written onto the type without a separator."""
    for sup, (ja, _) in SUPERTYPES.items():
        stem = ja.removesuffix("の")
        for prefix in (ja, stem):
            if word.startswith(prefix) and len(word) > len(prefix):
                rest = _WORDS.get(normalize(word[len(prefix):]))
                if isinstance(rest, str):
                    return {sup, rest}
    return None


def is_permanent_card(types) -> bool:
    return bool(set(types) & PERMANENT_TYPES)


def mana_value(cost: str | None, x: int = 0) -> int:
    """Total mana in a cost: generic by number, X as ``x``, hybrid by its largest part, Phyrexian 1."""
    total = 0
    for sym in _SYMBOL.findall(cost or ""):
        parts = sym.upper().split("/")
        if sym.upper() == "X":
            total += x
        elif "P" in parts:
            total += 1
        else:
            total += max((int(p) if p.isdigit() else 1) for p in parts)
    return total


def colours(cost: str | None, indicator=()) -> list[str]:
    """Colours from a mana cost's coloured symbols and a colour indicator, in WUBRG order."""
    found = {c for sym in _SYMBOL.findall(cost or "") for c in sym.upper().split("/") if c in COLOURS}
    found |= set(indicator or ())
    return [c for c in COLOURS if c in found]


def combine_costs(*costs: str | None) -> str | None:
    """Two mana costs as one (a split card's halves, a melded permanent's fronts): {1}{R} + {1}{U}."""
    symbols = [s for c in costs for s in _SYMBOL.findall(c or "")]
    if all(c is None for c in costs):
        return None
    generic = sum(int(s) for s in symbols if s.isdigit())
    return (f"{{{generic}}}" if generic else "") + "".join(f"{{{s}}}" for s in symbols if not s.isdigit())


def real_card(ctx, name: str | None, where: str) -> dict | None:
    """The loaded card data's record of a card the situation names (JA or EN name), remembered on
    the context so the answer cites it; None when the KB has no such card (the situation's own
    characteristics are then all there is, and the answer says so by not citing a card)."""
    lookup = getattr(ctx.book, "card", None)
    if not name or lookup is None:
        return None
    found = lookup(name)
    if found and not any(c["key"] == found["key"] for c in ctx.cards):
        ctx.cards.append({**found, "field": where})
    return found


def shown_name(ctx, name: str | None) -> str | None:
    """A card's name as the answer shows it: 「日本語名」/English when the card data knows both."""
    for c in ctx.cards:
        if name and name in (c.get("name_en"), c.get("name_ja")) and c.get("name_ja") and c.get("name_en"):
            return f"{c['name_ja']}/{c['name_en']}"
    return name


__all__ = ["TYPES", "SUPERTYPES", "COLOURS", "face", "mana", "field", "type_words", "is_permanent_card",
           "mana_value", "colours", "combine_costs", "real_card", "shown_name"]
