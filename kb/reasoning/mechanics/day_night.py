"""Day and night (CR 731) with daybound / nightbound (CR 702.145).

State: ``designation`` ("neither" | "day" | "night"), ``battlefield`` (permanents: name,
``ability`` daybound|nightbound|none for the face that is up, ``double_faced``, triggers),
``changes`` (designation changes in order) and ``triggered``.
"""
from __future__ import annotations

from kb.reasoning.engine import RulingCheck, register_mechanic
from kb.reasoning.registry import implements
from kb.reasoning.schema import array, boolean, choice, integer, obj, situation_schema, text
from kb.reasoning.mechanics.dfc import transform

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


def _with(st, ability):
    return [p for p in st["battlefield"] if p["ability"] == ability]


# ---------------------------------------------------------------- 731: the designation


@implements("731.1", "The game starts with neither designation", mechanic=M)
def game_starts_neither(st, ctx, **_):
    if st["event"] != "game-start":
        return None
    st["designation"] = "neither"
    return "the game starts with neither day nor night"


@implements("731.1", "exactly one of those designations from that point forward", mechanic=M)
def never_back_to_neither(st, ctx, **_):
    if st["designation"] == "neither":
        return None
    st["can_become_neither"] = False
    return f"it is {st['designation']}; once day or night, the game never returns to neither"


@implements("731.1", "Other effects can also make it day or night", mechanic=M)
def effect_makes_it(st, ctx, value=None, **_):
    return _become(st, ctx, value, "an effect")


def _become(st, ctx, value, why):
    before = st["designation"]
    if value is None or value == before:
        return None
    st["designation"] = value
    st["changes"].append((before, value))
    if before != "neither":
        ctx.apply("731.1a", before=before, after=value)
    ctx.apply("702.145b" if value == "night" else "702.145e", using="transform_as_it_changes", when=value)
    return f"{why} makes it {value} (was {before})"


@implements("731.1a", "day becomes night", "losing the first designation and gaining the second", mechanic=M)
def day_becomes_night(st, ctx, before=None, after=None, **_):
    if not before:
        return None
    fired = [p["name"] for p in st["battlefield"] if p["day_night_trigger"]]
    for name in fired:
        st["triggered"].append({"source": name, "event": f"{before} becomes {after}"})
    return (f"'{before} becomes {after}': the game lost {before} and gained {after}"
            + (f"; triggers: {', '.join(fired)}" if fired else ""))


@implements("731.2", "second part of the untap step", "checks the previous turn", mechanic=M)
def untap_check(st, ctx, **_):
    return "the untap step checks the previous turn for a day/night change" if st["event"] == "untap-step" else None


def _counted(st):
    """Spells the previous turn's active player (or team) cast; copies not cast don't count."""
    team = st["shared_team_turns"]
    by = {"active-player", "teammate"} if team else {"active-player"}
    return [s for s in st["previous_turn_spells"] if s["by"] in by and s["how"] != "copied-not-cast"]


@implements("731.2c", "neither day nor night, this check doesn't happen", mechanic=M)
def no_check_when_neither(st, ctx, **_):
    if st["event"] != "untap-step" or st["designation"] != "neither":
        return None
    st["check_skipped"] = True
    return "it's neither day nor night: the check doesn't happen and it remains neither"


@implements("731.2a", "previous turn's active player didn't cast any spells", "it becomes night", mechanic=M)
def day_to_night(st, ctx, **_):
    if st["event"] != "untap-step" or st["designation"] != "day":
        return None
    n = len(_counted(st))
    if n:
        return f"the previous turn's active player cast {n} spell(s): it stays day"
    return _become(st, ctx, "night", "no spell cast by the previous turn's active player")


@implements("731.2b", "two or more spells", "it becomes day", mechanic=M)
def night_to_day(st, ctx, **_):
    if st["event"] != "untap-step" or st["designation"] != "night":
        return None
    team = st["shared_team_turns"]
    counts = {}
    for s in _counted(st):
        counts[s["by"]] = counts.get(s["by"], 0) + 1
    # Team rule: any one player of the active team cast two or more (not a team total).
    n = max(counts.values(), default=0) if team else counts.get("active-player", 0)
    if n < 2:
        return f"the previous turn's active player cast {n} spell(s), fewer than two: it stays night"
    return _become(st, ctx, "day", f"{n} spells cast by the previous turn's active player")


@implements("502.4", "will be held until the next time a player would receive priority", mechanic=M)
def held_in_untap(st, ctx, **_):
    if st["event"] != "untap-step" or not st["triggered"]:
        return None
    return "no player gets priority in the untap step: the triggered abilities wait"


@implements("503.1a", "triggered during the untap step", "before the active player gets priority", mechanic=M)
def upkeep_puts_triggers(st, ctx, **_):
    if st["event"] != "untap-step" or not st["triggered"]:
        return None
    for t in st["triggered"]:
        t["put_on_stack"] = "as the upkeep step begins, before the active player gets priority"
    return "the triggers go on the stack as the upkeep begins, before the active player gets priority"


@implements("603.3", "the next time a player would receive priority", mechanic=M)
def triggers_next_priority(st, ctx, **_):
    pending = [t for t in st["triggered"] if "put_on_stack" not in t]
    for t in pending:
        t["put_on_stack"] = "the next time a player would receive priority"
    return "the triggered abilities go on the stack the next time a player would receive priority" if pending else None


# ---------------------------------------------------------------- 702.145: daybound and nightbound


@implements("702.145b", "If it is night and this permanent is represented by a double-faced card, it enters transformed",
            mechanic=M)
def enters_transformed_at_night(st, ctx, perm=None, **_):
    if perm is None or perm["ability"] != "daybound" or st["designation"] != "night" or not perm["double_faced"]:
        return None
    perm["ability"] = "nightbound"
    perm["entered_transformed"] = True
    return f"{perm['name']} enters transformed (it's night): nightbound face up"


@implements("702.145b", "As it becomes night, if this permanent is front face up, transform it", mechanic=M)
@implements("702.145e", "As it becomes day, if this permanent is back face up, transform it", mechanic=M)
def transform_as_it_changes(st, ctx, when=None, **_):
    if when is None:
        return None
    return _flip_all(st, ctx, "daybound" if when == "night" else "nightbound", when)


@implements("702.145c", "front face up with daybound and it's night", "transforms that permanent", mechanic=M)
def daybound_at_night(st, ctx, **_):
    return _flip_all(st, ctx, "daybound", "night")


@implements("702.145f", "back face up with nightbound and it's day", "transforms that permanent", mechanic=M)
def nightbound_at_day(st, ctx, **_):
    return _flip_all(st, ctx, "nightbound", "day")


def _flip_all(st, ctx, ability, when):
    if st["designation"] != when:
        return None
    done = []
    for p in _with(st, ability):
        if p.get("transform_failed"):
            continue
        other = "nightbound" if ability == "daybound" else "daybound"
        if transform(ctx, p, lambda q: q.__setitem__("ability", other)):
            st["transformed"].append(p["name"])
            done.append(p["name"])
        else:
            p["transform_failed"] = True  # nothing happens; don't retry (would loop)
            done.append(f"{p['name']} (not double-faced: nothing happens)")
    return f"it's {when}: {ability} permanents transform: {', '.join(done)}" if done else None


@implements("702.145d", "permanent with daybound, if it's neither day nor night, it becomes day", mechanic=M)
def daybound_makes_day(st, ctx, **_):
    if st["designation"] != "neither" or not _with(st, "daybound"):
        return None
    return _become(st, ctx, "day", "a daybound permanent")


@implements("702.145g", "no permanents with daybound on the battlefield, it becomes night", mechanic=M)
def nightbound_makes_night(st, ctx, **_):
    if st["designation"] != "neither" or not _with(st, "nightbound") or _with(st, "daybound"):
        return None
    return _become(st, ctx, "night", "a nightbound permanent with no daybound permanent")


@implements("702.145b", "can't transform except due to its daybound ability", mechanic=M)
@implements("702.145e", "can't transform except due to its nightbound ability", mechanic=M)
def only_by_own_ability(st, ctx, perm=None, bound=None, **_):
    if perm is None or perm["ability"] != bound:
        return None
    perm["transform_refused"] = True
    return f"{perm['name']} has {bound}: it can't transform except due to its {bound} ability; nothing happens"


def _transform_effect(st, ctx, names):
    for p in (p for p in st["battlefield"] if p["name"] in names):
        if p["ability"] in ("daybound", "nightbound"):
            rule = "702.145b" if p["ability"] == "daybound" else "702.145e"
            ctx.apply(rule, using="only_by_own_ability", perm=p, bound=p["ability"])
        elif transform(ctx, p, lambda q: None):
            st["transformed"].append(p["name"])


BOUND = ("702.145d", "702.145g", "702.145c", "702.145f")


def solve(sit: dict, ctx) -> dict:
    st = ctx.state
    st.update(event=sit["event"], designation=sit["designation"], shared_team_turns=sit["shared_team_turns"],
              battlefield=[dict(p) for p in sit["battlefield"]], previous_turn_spells=sit["previous_turn_spells"],
              changes=[], triggered=[], transformed=[])
    before = st["designation"]
    ev = sit["event"]
    if ev == "game-start":
        ctx.apply("731.1", using="game_starts_neither")
    elif ev == "permanents-enter":
        for p in sit["entering"]:
            p = dict(p)
            ctx.apply("702.145b", using="enters_transformed_at_night", perm=p)
            st["battlefield"].append(p)
        for p in sit["entering"]:
            if p["becomes_day_on_entry"] and st["designation"] == "neither":
                ctx.apply("731.1", using="effect_makes_it", value="day")
    elif ev == "untap-step":
        ctx.apply("731.2")
        # One check, decided by the designation at its start (a change must not re-trigger 731.2b).
        ctx.apply({"neither": "731.2c", "day": "731.2a", "night": "731.2b"}[st["designation"]])
    elif ev == "effect":
        ctx.apply("731.1", using="effect_makes_it", value=sit["becomes"])
    elif ev == "transform-effect":
        _transform_effect(st, ctx, set(sit["transforming"]))
    elif ev == "permanents-leave":
        st["battlefield"] = [p for p in st["battlefield"] if p["name"] not in set(sit["leaving"])]
    ctx.fixpoint(BOUND)
    if ev == "untap-step":
        ctx.apply("502.4")
        ctx.apply("503.1a")
    ctx.apply("603.3")
    ctx.apply("731.1", using="never_back_to_neither")
    return {"designation_before": before, "designation": st["designation"],
            "changes": [f"{a} -> {b}" for a, b in st["changes"]],
            "can_become_neither_again": st["designation"] == "neither",
            "spells_counted": len(_counted(st)) if ev == "untap-step" else None,
            "transformed": st["transformed"], "triggered": st["triggered"],
            "battlefield": [{"name": p["name"], "ability": p["ability"]} for p in st["battlefield"]]}


# Ruling checks for the MTG Wiki 昼 page: each restates the ruling's own situation and claim; the
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

register_mechanic(M, schema=SCHEMA, solve=solve, entry_rules=("731", "702.145"), name_en="Day and night",
                  name_ja="昼と夜", checks=CHECKS)
