"""The day/night situation (CR 731, 702.145): JA/EN labelled JSON schema."""
from __future__ import annotations

from kb.reasoning.schema import array, boolean, choice, integer, obj, situation_schema, text

M = "day-night"
DESIGNATIONS = {"neither": ("昼でも夜でもない", "neither"), "day": ("昼", "day"), "night": ("夜", "night")}

PERMANENT = obj("パーマネント", "permanent", {
    "name": text("名前", "name", default="permanent"),
    "ability": choice("表の面の能力", "ability of the face that is up", {
        "daybound": ("日暮（正面が表）", "daybound (front face up)"),
        "nightbound": ("夜明（背面が表）", "nightbound (back face up)"),
        "none": ("なし", "none")}, default="none"),
    "double_faced": boolean("両面カード／両面トークンで表されている", "represented by a double-faced card or token",
                            default=True),
    "becomes_day_on_entry": boolean("「戦場に出るに際し、昼でも夜でもないなら、昼になる」を持つ",
                                    "has 'as this enters, if it's neither day nor night, it becomes day'"),
    "day_night_trigger": boolean("「昼が夜になるか夜が昼になるたび」に誘発する能力を持つ",
                                 "has 'whenever day becomes night or night becomes day'"),
})
SPELL = obj("前のターンの呪文", "spell in the previous turn", {
    "by": choice("唱えた（生成した）プレイヤー", "player", {
        "active-player": ("前のターンのアクティブ・プレイヤー", "the previous turn's active player"),
        "teammate": ("アクティブ・チームの他のプレイヤー", "another player on the active team"),
        "other-player": ("他のプレイヤー", "another player")}, default="active-player"),
    "how": choice("どのように", "how", {
        "cast": ("唱えた", "cast"),
        "copied-not-cast": ("コピー（唱えていない）", "a copy that wasn't cast"),
        "cast-copy": ("コピーを唱えた", "a copy that was cast")}, default="cast"),
})
SCHEMA = situation_schema(M, "昼と夜", "Day and night", {
    "event": choice("出来事", "event", {
        "game-start": ("ゲーム開始", "the game starts"),
        "permanents-enter": ("パーマネントが戦場に出る", "permanents enter the battlefield"),
        "untap-step": ("アンタップ・ステップのチェック", "the untap step check"),
        "effect": ("効果で昼／夜になる", "an effect makes it day or night"),
        "permanents-leave": ("パーマネントが戦場を離れる", "permanents leave the battlefield"),
        "transform-effect": ("他の効果がパーマネントを変身させようとする",
                             "another spell or ability tries to transform permanents")}),
    "designation": choice("現在の昼夜", "current designation", DESIGNATIONS, default="neither"),
    "battlefield": array("戦場のパーマネント", "permanents on the battlefield", PERMANENT, default=[]),
    "entering": array("戦場に出るパーマネント", "permanents entering", PERMANENT, default=[]),
    "leaving": array("戦場を離れるパーマネント名", "names of permanents leaving", text("名前", "name"), default=[]),
    "transforming": array("変身させようとするパーマネント名", "names of permanents it tries to transform",
                          text("名前", "name"), default=[]),
    "previous_turn_spells": array("前のターンに唱えられた呪文", "spells in the previous turn", SPELL, default=[]),
    "shared_team_turns": boolean("チーム・ターン共有オプション", "shared team turns option"),
    "becomes": choice("効果による昼夜", "designation the effect gives",
                      {"day": ("昼", "day"), "night": ("夜", "night")}, default="night"),
    "turn": integer("ターン番号（参考）", "turn number (informational)", default=1),
}, required=("event",))


