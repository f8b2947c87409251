"""How a state question's answer reads on the page: a one-line verdict first, outcome fields by
their JA/EN labels (never the raw keys), yes/no for booleans.

Presentation only: the answer itself (outcome, trace, citations) is the kb's, unchanged.
"""
from __future__ import annotations

from markupsafe import Markup, escape

# outcome key -> (JA, EN). Keys not listed read as their words ("mana_value_before" -> "mana value before").
LABELS = {
    "designation": ("昼夜", "day/night"), "designation_before": ("以前の昼夜", "before"),
    "changes": ("変化", "changes"), "transformed": ("変身したもの", "transformed"),
    "triggered": ("誘発したもの", "triggered"), "battlefield": ("戦場", "battlefield"),
    "spells_counted": ("数えた呪文", "spells counted"), "can_become_neither_again": ("どちらでもない状態に戻り得る",
                                                                                 "can become neither again"),
    "legal": ("適正か", "legal"), "cast": ("唱えられたか", "cast"), "began": ("唱え始められたか", "began"),
    "failed_step": ("失敗した手順", "failed step"), "reason": ("理由", "reason"), "rewound": ("巻き戻し", "rewound"),
    "spell_zone": ("呪文の領域", "spell's zone"), "steps_done": ("行った手順", "steps done"),
    "total_cost": ("総コスト", "total cost"), "total_life": ("支払うライフ", "life paid"), "targets": ("対象", "targets"),
    "characteristics": ("特性", "characteristics"), "name": ("名前", "name"), "names": ("名前", "names"),
    "types": ("カード・タイプ", "card types"), "subtypes": ("サブタイプ", "subtypes"), "power": ("パワー", "power"),
    "toughness": ("タフネス", "toughness"), "loyalty": ("忠誠度", "loyalty"), "colors": ("色", "colors"),
    "mana_value": ("マナ総量", "mana value"), "mana_cost": ("マナ・コスト", "mana cost"), "abilities": ("能力", "abilities"),
    "face": ("面", "face"), "face_up": ("表の面", "face up"), "face_down": ("裏向き", "face down"),
    "can_turn_face_up": ("表向きにできるか", "can be turned face up"), "turned_face_up": ("表向きになったか",
                                                                                        "turned face up"),
    "cost": ("支払うコスト", "cost to pay"), "uses_stack": ("スタックを使うか", "uses the stack"),
    "can_be_responded_to": ("対応できるか", "can be responded to"), "after": ("表向きになった後", "afterwards"),
    "plus1_counters": ("+1/+1カウンター", "+1/+1 counters"), "minus1_counters": ("-1/-1カウンター", "-1/-1 counters"),
    "effects_still_apply": ("効果は残るか", "effects still apply"), "etb_triggers": ("戦場に出たときの誘発",
                                                                                  "enters triggers"),
    "turned_face_up_triggers": ("表向きになったときの誘発", "turned-face-up triggers"), "revealed": ("公開されるか", "revealed"),
    "remains_face_down": ("裏向きのままか", "stays face down"), "zone": ("領域", "zone"), "may_look": ("見てよいか", "may look"),
    "can_cast": ("唱えられるか", "can be cast"), "can_cast_face_down": ("裏向きで唱えられるか", "can be cast face down"),
    "melded": ("合体したか", "melded"), "objects": ("オブジェクトの数", "objects"), "cards": ("カードの数", "cards"),
    "enters": ("戦場に出るか", "enters"), "transforms": ("変身するか", "transforms"), "can_play": ("プレイできるか", "can be played"),
    "copy_is_cast": ("コピーは唱えられたか", "the copy was cast"), "copy": ("コピー", "the copy"),
    "permanents": ("パーマネント", "permanents"), "players": ("プレイヤー", "players"), "loses": ("敗北するか", "loses"),
    "draw": ("引き分け", "draw"), "destroyed": ("破壊されたか", "destroyed"), "survives": ("残るか", "survives"),
    "by": ("規則", "rule"), "checks": ("各チェックの処理", "actions of each check"),
    "checks_with_actions": ("処理が行われたチェックの数", "checks with actions"), "unlocked": ("開放されたドア", "unlocked"),
    "locked": ("閉鎖されたドア", "locked"), "valid": ("指定として適正か", "valid choice"),
    "zone_after": ("その後の領域", "zone afterwards"), "on_stack": ("スタック上", "on the stack"),
    "on_battlefield": ("戦場で", "on the battlefield"), "mana_value_before": ("唱える前のマナ総量", "mana value before"),
    # what a spell on the stack does to it, timing, triggers, the legend rule (issue 13)
    "incoming": ("スタック上の呪文が解決すると", "when the spell on the stack resolves"),
    "timing": ("いつできるか", "when it can be done"), "in_response": ("対応して", "in response"),
    "during_resolution": ("呪文の解決中に", "while a spell resolves"), "damage_marked": ("負うダメージ", "damage marked"),
    "survives_face_down": ("裏向きのままなら残るか", "survives if left face down"),
    "saved": ("表向きにすることで助かるか", "saved by turning it face up"), "dies": ("死亡するか", "dies"),
    "effect_turns_it_face_up": ("効果で表向きにするよう指示されたら表向きになるか", "an effect turning it face up works"),
    "can_pay_prototype_cost": ("プロトタイプのコストを支払えるか", "may pay the prototype cost"),
    "countered": ("打ち消されるか", "countered"), "can_be_targeted": ("対象にできるか", "can be targeted"),
    "name_after": ("その後の名前", "name afterwards"), "damage_per_target": ("対象1つあたりのダメージ", "damage to each target"),
    "mana_abilities": ("マナ能力", "mana abilities"), "cast_triggers": ("唱えたときの誘発", "cast triggers"),
    "source": ("発生源", "source"), "text": ("文章", "text"), "triggers": ("誘発するか", "triggers"), "why": ("理由", "why"),
    "target_after": ("対象のクリーチャー（解決後）", "the targeted creature afterwards"), "damage": ("ダメージ", "damage"),
    "legend_rule": ("レジェンド・ルール（コントローラーごと）", "legend rule (per controller)"),
    "keep": ("残す数", "kept"), "put_into_graveyard": ("墓地に置かれる数", "put into the graveyard"),
    "chooses": ("どれを残すか選ぶか", "chooses which"), "affected": ("影響を受けるか", "affected"),
    "zone_before_check": ("チェック前の領域", "zone before the check"), "can_be_cast": ("唱えられるか", "can be cast"),
    "attachments_after": ("つけられていたもの（その後）", "what was attached (afterwards)"),
    "attached": ("つけられているか", "attached"), "legal_target": ("適正な対象か", "legal target"),
    "must_choose_one_of": ("このうち1つを選ぶ", "must choose one of"), "has_chosen_name": ("指定された名前を持つか",
                                                                                       "has the chosen name"),
    "follows": ("従う指示", "follows the instructions of"), "allowed_costs": ("支払えるコスト", "costs allowed"),
    "resolution_order": ("解決の順番", "resolution order"),
    "by_mana_cost": ("マナ・コストで表向きにできるか", "by paying its mana cost"),
}
_YES = {"ja": ("はい", "いいえ"), "en": ("yes", "no")}

# (outcome key, JA if true, JA if false, EN if true, EN if false): the first present decides the verdict.
VERDICTS = [
    ("designation", "{}", None, "it is {}", None),
    ("legal", "この呪文は適正に唱えられます", "この呪文は唱えられません（{reason}）", "the spell is cast", "it can't be cast ({reason})"),
    ("can_cast_face_down", "裏向きで唱えられます（{{3}}）", "裏向きでは唱えられません", "it can be cast face down for {{3}}",
     "it can't be cast face down"),
    ("can_turn_face_up", "表向きにできます（コスト {cost}、スタックを使いません）", "表向きにはできません",
     "it can be turned face up (cost {cost}, no stack)", "it can't be turned face up"),
    ("turned_face_up", "表向きになります", "表向きにはなりません", "it turns face up", "it doesn't turn face up"),
    ("can_cast", "唱えられます", "唱えられません", "it can be cast", "it can't be cast"),
    ("can_play", "土地としてプレイできます（特別な処理）", "土地としてはプレイできません", "it can be played as a land",
     "it can't be played as a land"),
    ("melded", "合体します", "合体しません", "they meld", "they don't meld"),
    ("enters", "戦場に出ます", "戦場に出ません（元の領域に残ります）", "it enters the battlefield", "it stays where it is"),
    ("transforms", "変身します", "変身しません（何も起こりません）", "it transforms", "nothing happens"),
    ("transformed", "変身します", "変身しません", "it transforms", "it doesn't transform"),
    ("copy_is_cast", "コピーは唱えられたことになります", "コピーは唱えられていません（誘発しません）", "the copy is cast",
     "the copy isn't cast"),
    ("turned_face_down", "裏向きになります", "何も起こりません", "it turns face down", "nothing happens"),
    ("may_look", "見ることができます", "見ることはできません", "you may look at it", "you can't look at it"),
]


def label(key: str, lang: str) -> str:
    if key in LABELS:
        return LABELS[key][0 if lang == "ja" else 1]
    return key.replace("_", " ")


def value_view(value, lang: str) -> Markup:
    from server.rendering import linkify
    if isinstance(value, dict):
        items = "".join(f"<dt>{escape(label(k, lang))}</dt><dd>{value_view(v, lang)}</dd>" for k, v in value.items())
        return Markup(f"<dl>{items}</dl>")
    if isinstance(value, list):
        if not value:
            return Markup("—")
        return Markup("<ul>" + "".join(f"<li>{value_view(v, lang)}</li>" for v in value) + "</ul>")
    if value is None:
        return Markup("—")
    if isinstance(value, bool):
        return Markup(_YES[lang][0 if value else 1])
    return linkify(str(value))


def verdict(answer: dict, lang: str) -> str:
    """One line saying what happens, from the computed outcome (and its deciding rule); then what
    the spell on the stack does to the creature, when the question says."""
    out = answer.get("outcome") or {}
    hit = out.get("incoming") or out.get("target_after")
    if not isinstance(hit, dict):
        return _verdict(answer, out, lang)
    alive = hit.get("survives", not hit.get("dies"))
    if lang == "ja":
        return _verdict(answer, out, lang) + "。呪文の解決後: " + ("生き残ります" if alive else "戦場を離れます（死亡）")
    return _verdict(answer, out, lang) + "; after the spell resolves: " + ("it survives" if alive else "it dies")


def _verdict(answer: dict, out: dict, lang: str) -> str:
    for key, ja_yes, ja_no, en_yes, en_no in VERDICTS:
        if key not in out:
            continue
        v = out[key]
        fields = {k: ("—" if x is None else x) for k, x in out.items() if not isinstance(x, (dict, list))}
        if key == "designation":
            text = (ja_yes if lang == "ja" else en_yes).format(
                {"day": "昼", "night": "夜", "neither": "昼でも夜でもない"}.get(v, v) if lang == "ja" else v)
        else:
            text = (ja_yes if v else ja_no) if lang == "ja" else (en_yes if v else en_no)
            text = text.format(**fields) if text else ""
        return text
    if "permanents" in out or "players" in out:  # state-based actions
        gone = [p["name"] or ("裏向き" if lang == "ja" else "face-down") for p in out.get("permanents", [])
                if not p["survives"]]
        lost = [p["name"] for p in out.get("players", []) if p["loses"]]
        if lang == "ja":
            return ("、".join(gone) + " は戦場を離れます" if gone else "パーマネントはすべて残ります") + \
                ("。敗北: " + "、".join(lost) if lost else "") + ("（引き分け）" if out.get("draw") else "")
        return (", ".join(gone) + " leave the battlefield" if gone else "every permanent stays") + \
            ("; loses: " + ", ".join(lost) if lost else "") + (" (a draw)" if out.get("draw") else "")
    chars = out.get("characteristics") or out.get("copy")
    if isinstance(chars, dict):
        name = chars.get("name") or "、".join(chars.get("names") or []) or ("名前なし" if lang == "ja" else "no name")
        mv = chars.get("mana_value")
        return f"{name}（マナ総量 {mv}）" if lang == "ja" else f"{name} (mana value {mv})"
    return answer["trace"][0]["did"] if answer.get("trace") else ""

