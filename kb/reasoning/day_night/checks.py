"""Ruling checks for the MTG Wiki 昼 page (restated situations and claims; see engine.RulingCheck)."""
from __future__ import annotations

from kb.reasoning.rulings import RulingCheck
from kb.reasoning.day_night.schema import M


# outcome is computed by the logic above and only compared (see engine.RulingCheck).
def _p(name, ability="none", **kw):
    return {"name": name, "ability": ability, **kw}


CHECKS = [
    RulingCheck("ゲームの開始時は昼夜どちらでもない", M, {"event": "game-start"},
                lambda o: o["designation"] == "neither", "the game starts neither day nor night"),
    RulingCheck("日暮を持つクリーチャーと夜明を持つクリーチャーが同時に戦場に出た場合は、昼となる", M,
                {"event": "permanents-enter", "entering": [_p("Werewolf A", "daybound"), _p("Werewolf B", "nightbound")]},
                lambda o: o["designation"] == "day" and o["transformed"] == ["Werewolf B"],
                "daybound and nightbound enter together: day, and the nightbound one transforms"),
    RulingCheck("夜明を持つパーマネントが先に戦場に出ることによって夜から始まる", M,
                {"event": "permanents-enter", "entering": [_p("Werewolf B", "nightbound")]},
                lambda o: o["designation"] == "night", "a nightbound permanent entering first makes it night"),
    RulingCheck("不自然な月の出/Unnatural Moonrise]]によってゲームが夜から始まる", M,
                {"event": "effect", "becomes": "night"}, lambda o: o["designation"] == "night",
                "an effect can make the game start at night"),
    RulingCheck("という[[能力]]を持つパーマネントが戦場にでることによって、ゲームの状態は昼になる", M,
                {"event": "permanents-enter", "entering": [_p("Celestus Sanctifier", becomes_day_on_entry=True)]},
                lambda o: o["designation"] == "day", "a permanent with the 'becomes day' ability makes it day"),
    RulingCheck("ゲームが昼であり、直前のターンのアクティブ・プレイヤーがそのターン中に呪文を唱えなかった場合", M,
                {"event": "untap-step", "designation": "day"}, lambda o: o["designation"] == "night",
                "day, no spells by the previous active player: night"),
    RulingCheck("ゲームが夜であり、直前のターンのアクティブ・プレイヤーがそのターン中に2つ以上の呪文を唱えた場合", M,
                {"event": "untap-step", "designation": "night", "previous_turn_spells": [{}, {}]},
                lambda o: o["designation"] == "day", "night, two spells by the previous active player: day"),
    RulingCheck("ゲームが昼と夜のどちらでもない状態に戻ることはない", M,
                {"event": "permanents-leave", "designation": "day", "battlefield": [_p("Werewolf A", "daybound")],
                 "leaving": ["Werewolf A"]},
                lambda o: o["designation"] == "day", "never back to neither"),
    RulingCheck("昼と夜の切り替わりをチェックするカードが存在しない間もゲームは昼か夜の状態となり", M,
                {"event": "untap-step", "designation": "day"}, lambda o: o["designation"] == "night",
                "the check happens every turn even with no day/night cards"),
    RulingCheck("に誘発する能力は、[[アップキープ・ステップ]]が始まる際に[[スタック]]に置かれる", M,
                {"event": "untap-step", "designation": "day", "battlefield": [_p("Firmament Sage", day_night_trigger=True)]},
                lambda o: bool(o["triggered"]) and "upkeep" in o["triggered"][0]["put_on_stack"],
                "day/night triggers from the untap step go on the stack as the upkeep begins"),
    RulingCheck("この処理はスタックを用いずに行われる", M,
                {"event": "untap-step", "designation": "day"}, lambda o: o["designation"] == "night",
                "the change doesn't use the stack"),
]
