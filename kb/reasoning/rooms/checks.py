"""Ruling checks for "room": each statement of the 部屋 wiki page's ルーリング sections (seed
wiki-heya-room) and its quoted 709.5 rules, as a situation plus what the text says happens."""
from __future__ import annotations

from kb.reasoning.rulings import RulingCheck

ROOM = {"left": {"name": "Walk-In Closet", "mana_cost": "{2}{G}", "unlock_trigger": True},
        "right": {"name": "Forgotten Cellar", "mana_cost": "{3}{G}{G}", "unlock_trigger": True,
                  "trigger_targets": 1, "legal_targets": 1}}
NO_TARGET = ROOM | {"right": ROOM["right"] | {"legal_targets": 0}}
R = "room"


def sit(event, **kw):
    return {"room": ROOM, "event": event, **kw}


cast_left = sit("cast_resolves", cast_half="left")
from_elsewhere = sit("put_onto_battlefield")
unlock_right = sit("unlock_action", door="right", unlocked=["left"], fully_unlock_triggers=["Dazzling Theater"])
token_copy = sit("token_copy", source_unlocked=["left", "right"])
door_trigger = lambda door: lambda o: [t["times"] for t in o["triggers"] if t.get("door") == door] == [1]  # noqa: E731

CHECKS = [
    RulingCheck("「左半分が開放された/left half unlocked」状態でないなら", R, from_elsewhere,
                lambda o: o["characteristics_of"] == [], "a locked left half's name, cost and text don't exist"),
    RulingCheck("「右半分が開放された/right half unlocked」状態でないなら", R, cast_left,
                lambda o: o["characteristics_of"] == ["Walk-In Closet"],
                "a locked right half's name, cost and text don't exist"),
    RulingCheck("部屋・呪文が解決した時、その部屋が戦場に出ると同時に", R, cast_left,
                lambda o: o["unlocked"] == ["left"] and o["locked"] == ["right"],
                "the door cast is unlocked as the Room enters; the other stays locked"),
    RulingCheck("閉鎖されたドアのマナ・コスト（「開放コスト/Unlock cost」", R, unlock_right,
                lambda o: o["legal"] and o["uses_stack"] is False and "right" in o["unlocked"],
                "paying a locked door's mana cost at sorcery timing is a special action that doesn't use the stack"),
    RulingCheck("部屋がスタック以外の領域から戦場に出るなら", R, from_elsewhere,
                lambda o: o["unlocked"] == [] and o["characteristics_of"] == [],
                "a Room entering from elsewhere has both doors locked and no name or abilities"),
    RulingCheck("「あなたがこのドアを開放したとき」に誘発する能力は", R, unlock_right, door_trigger("right"),
                "an unlock ability triggers when its door is unlocked"),
    RulingCheck("そのドアが戦場で開放される。", R, unlock_right, door_trigger("right"),
                "unlocking on the battlefield triggers it"),
    RulingCheck("対応する半分を唱え、その部屋が戦場に出たときに開放される。", R, cast_left, door_trigger("left"),
                "casting that half and entering triggers it"),
    RulingCheck("パンハモニコン/Panharmonicon", R, cast_left | {"enter_trigger_doubler": "Panharmonicon"},
                door_trigger("left"), "an enter-trigger doubler doesn't add an unlock trigger"),
    RulingCheck("すでに開放されているドアを開放するという選択を行うことはできない", R,
                sit("unlock_effect", door="left", unlocked=["left", "right"]),
                lambda o: o["nothing_happens"] and o["gained"] == [],
                "an unlock effect on a fully unlocked Room does nothing"),
    RulingCheck("その誘発型能力に対して適正な対象が不十分であっても", R,
                sit("unlock_action", door="right", unlocked=["left"]) | {"room": NO_TARGET},
                lambda o: o["legal"] and [t["put_on_stack"] for t in o["triggers"] if t.get("door") == "right"] == [False],
                "the door can be unlocked without targets; its trigger isn't put on the stack"),
    RulingCheck("「あなたが部屋１つを完全に開放するたび」に誘発する能力は", R, unlock_right,
                lambda o: [t["name"] for t in o["triggers"] if t["event"] == "fully_unlock"] == ["Dazzling Theater"],
                "unlocking the second door fully unlocks the Room"),
    RulingCheck("戦場の部屋・パーマネントをコピーしたパーマネントが戦場に出る", R, token_copy,
                lambda o: o["unlocked"] == [], "a copy entering the battlefield has both doors locked"),
    RulingCheck("閉鎖された部屋の情報もコピーされており", R, token_copy,
                lambda o: o["locked"] == ["left", "right"], "the copy's locked doors exist and can be unlocked"),
    RulingCheck("日本公式サイトのメカニズム記事では", R, token_copy, lambda o: o["unlocked"] == [],
                "the JA article's 'a copy copies the unlocked halves' was wrong: a copy's doors start locked"),
    RulingCheck("709.5d A permanent with a shared type line is given", R, from_elsewhere,
                lambda o: o["unlocked"] == [], "neither half cast: neither designation"),
    RulingCheck("709.5e A player who controls a permanent that has", R,
                sit("unlock_action", door="left", timing={"main_phase": False}),
                lambda o: not o["legal"], "unlocking is only at sorcery timing"),
    RulingCheck("709.5f Some spells and abilities instruct a player to “unlock”", R,
                sit("unlock_effect", door="right", unlocked=["left"]), lambda o: o["unlocked"] == ["left", "right"],
                "an unlock effect gives a locked half its designation"),
    RulingCheck("709.5g Some spells and abilities instruct a player to “lock”", R,
                sit("lock_effect", door="left", unlocked=["left"]), lambda o: o["unlocked"] == [],
                "a lock effect removes the designation"),
    RulingCheck("709.5h Some abilities trigger when a player unlocks", R, cast_left, door_trigger("left"),
                "unlock triggers also trigger when entering unlocked"),
    RulingCheck("709.5i Some abilities trigger when a player “fully unlocks”", R, unlock_right,
                lambda o: any(t["event"] == "fully_unlock" for t in o["triggers"]), "fully unlock triggers"),
]
