"""In-process latency of ``ask`` per question type: p50 / p99 in ms (no asserts; target p99 < 5 ms).

    python bench/bench_reasoning.py [N] [--no-freeze] [--kb]

Without --kb the book is tests.reasoning_fixtures.current_book() (the parsed current CR). With
--kb it is the real KB (the snapshot in MTG_KB_HOME, built first if there is none) and each
question goes through ``KB.ask`` by the mechanic's Japanese name, as the CLI and server do.
The first ask per book pays for pin checks, link collection and ruling checks (cached per book);
that warm-up is reported separately.
"""
from __future__ import annotations

import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.reasoning.catalog import ask, list_mechanics  # noqa: E402
from tests.reasoning_fixtures import current_book  # noqa: E402

FRONT = {"name": "Thraben Sentry", "mana_cost": "{3}{W}"}
BACK = {"name": "Thraben Militia"}
QUESTIONS = {
    "day-night/untap-step": ("day-night", {"event": "untap-step", "designation": "day", "battlefield": [
        {"name": "W", "ability": "daybound", "day_night_trigger": True}]}),
    "day-night/enter-both": ("day-night", {"event": "permanents-enter", "entering": [
        {"name": "A", "ability": "daybound"}, {"name": "B", "ability": "nightbound"}]}),
    "dfc/mana-value": ("double-faced-card", {"question": "characteristics", "face_up": "back",
                                             "front": FRONT, "back": BACK}),
    "dfc/transform": ("double-faced-card", {"question": "transform", "counters": 1, "front": FRONT, "back": BACK}),
    "dfc/token-copy": ("double-faced-card", {"question": "copy", "face_up": "back", "front": FRONT, "back": BACK}),
    "manifest/manifest-3": ("manifest", {"question": "manifest", "cards": [{"name": "a"}, {"name": "b"},
                                                                           {"name": "c", "types": "Instant"}]}),
    "manifest/turn-up-dfc": ("manifest", {"question": "turn-face-up", "cards": [{"name": "d", "double_faced": True}]}),
    "cast/total-cost": ("cast", {"spell": {"name": "Aurelia's Fury", "mana_cost": "{X}{R}{W}", "types": ["instant"],
                                           "divide": "X", "targets": [{"min": 1, "max": 3, "legal": ["Bear", "Elf"]}]},
                                 "x": 2, "targets": [["Bear", "Elf"]], "division": [1, 1], "mana_pool": "{2}{R}{W}",
                                 "cost_changes": [{"source": "Thalia", "kind": "increase", "mana": "{1}"}]}),
    "cast/rewind": ("cast", {"spell": {"name": "Shock", "mana_cost": "{R}", "types": ["instant"],
                                       "targets": [{"legal": ["Bear"]}]}, "targets": [["Bear"]], "mana_pool": ""}),
    "room/copy": ("room", {"room": {"left": {"name": "Walk-In Closet", "mana_cost": "{2}{G}"},
                                    "right": {"name": "Forgotten Cellar", "mana_cost": "{3}{G}{G}",
                                              "unlock_trigger": True}},
                           "event": "spell_copy_resolves", "cast_half": "right"}),
    "room/unlock": ("room", {"room": {"left": {"name": "Walk-In Closet", "mana_cost": "{2}{G}", "unlock_trigger": True},
                                      "right": {"name": "Forgotten Cellar", "mana_cost": "{3}{G}{G}"}},
                             "event": "unlock_action", "door": "left", "unlocked": ["right"],
                             "fully_unlock_triggers": ["Dazzling Theater"]}),
    "face-down/turn-up": ("face-down", {"question": "turn-face-up", "via": "megamorph", "effects": ["+3/+3"], "card": {
        "name": "Den Protector", "types": ["creature"], "mana_cost": "{1}{G}", "power": 2, "toughness": 1,
        "megamorph_cost": "{1}{G}"}}),
    "meld/characteristics": ("meld", {"question": "characteristics", "cards": [
        {"name": "Urza, Lord Protector", "mana_cost": "{1}{W}{U}", "melds_with": "The Mightstone and Weakstone",
         "melds_into": "Urza, Planeswalker"},
        {"name": "The Mightstone and Weakstone", "mana_cost": "{5}", "melds_with": "Urza, Lord Protector",
         "melds_into": "Urza, Planeswalker"}], "melded": {"name": "Urza, Planeswalker", "types": ["planeswalker"]}}),
    "modal-dfc/cast-back": ("modal-dfc", {"question": "cast", "choose": "back", "prohibition": "even-mana-value",
                                          "front": {"name": "Valki", "types": ["creature"], "mana_cost": "{1}{B}"},
                                          "back": {"name": "Tibalt", "types": ["planeswalker"], "mana_cost": "{5}{B}{R}"}}),
    "copy/copy-of-copy": ("copy", {"question": "permanent", "original": {
        "name": "Clone", "types": ["creature"], "is_copy_of": {"name": "Serra Angel", "mana_cost": "{3}{W}{W}",
                                                               "types": ["creature"], "power": 4, "toughness": 4}},
        "exception": {"add_types": ["artifact"]}}),
    "split-card/fused": ("split-card", {"question": "resolves", "layout": "fuse", "cast_as": "fused",
                                        "left": {"name": "Turn", "types": ["instant"], "mana_cost": "{2}{U}"},
                                        "right": {"name": "Burn", "types": ["instant"], "mana_cost": "{1}{R}"}}),
    "face-down/in-response": ("face-down", {"question": "turn-face-up", "via": "morph",
                                            "incoming": "Chandra's Outrage deals 4 damage to target creature.", "card": {
                                                "name": "Exalted Angel", "types": ["creature"], "mana_cost": "{4}{W}{W}",
                                                "power": 4, "toughness": 5, "morph_cost": "{2}{W}{W}"}}),
    "split-card/fused-on-target": ("split-card", {
        "question": "cast", "layout": "fuse", "cast_as": "fused",
        "left": {"name": "Turn", "types": ["instant"], "mana_cost": "{2}{U}", "text": "Target creature loses all "
                 "abilities and becomes a red Weird with base power and toughness 0/1."},
        "right": {"name": "Burn", "types": ["instant"], "mana_cost": "{1}{R}", "text": "Burn deals 2 damage to any target."},
        "target": {"name": "Serra Angel", "power": 4, "toughness": 4},
        "watchers": [{"text": "Whenever you cast a blue spell, draw a card."}]}),
    "sba/aura-after-death": ("state-based-actions", {"permanents": [
        {"name": "Lions", "power": 3, "toughness": 3, "damage": 3},
        {"name": "Holy Strength", "types": ["enchantment"], "attachment": "aura", "attached_to": "Lions"},
        {"name": "Urza", "supertypes": ["legendary"], "power": 2, "toughness": 4},
        {"name": "Urza", "supertypes": ["legendary"], "power": 2, "toughness": 4}]}),
}


def accuracy(run) -> None:
    """Outcome right and every must-cite rule in the trace, per question type, on the questions
    written from the CR for the new types (tests/reasoning/questions_new.py)."""
    from tests.reasoning.questions_new import ALL, get
    right, total = {}, {}
    for _, key, situation, expected, rules in ALL:
        total[key] = total.get(key, 0) + 1
        try:
            out = run(key, situation)
            ok = all(get(out["outcome"], k) == v for k, v in expected.items()) and \
                set(rules) <= {s["rule"] for s in out["trace"]}
        except (KeyError, IndexError, TypeError, ValueError):
            ok = False
        right[key] = right.get(key, 0) + ok
    print(f"{'question type':22} {'right':>6} {'of':>4} {'accuracy':>9}")
    for key in sorted(total):
        print(f"{key:22} {right[key]:6} {total[key]:4} {right[key] / total[key]:9.3f}")
    print(f"{'all':22} {sum(right.values()):6} {sum(total.values()):4} {sum(right.values()) / sum(total.values()):9.3f}")


def _asker():
    """(name of the book, ask(key, situation)) for the parsed book or, with --kb, the real KB."""
    if "--kb" not in sys.argv:
        book = current_book()
        return "parsed current CR (tests.reasoning_fixtures)", lambda key, situation: ask(book, key, situation)
    from kb.lookup.kb import KB
    t = time.perf_counter()
    kb = KB.ensure()
    names = {m["key"]: m["name_ja"] for m in list_mechanics()}
    print(f"KB snapshot {kb.path.name} loaded in {(time.perf_counter() - t) * 1000:.0f} ms")
    return f"real KB, CR {kb.current_edition()}", lambda key, situation: kb.ask(names[key], situation)


def main(n: int = 300) -> None:
    label, run = _asker()
    print(f"book: {label}")
    accuracy(run)
    t = time.perf_counter()
    run("day-night", {"event": "game-start"})
    print(f"warm-up (pins, links, ruling checks): {(time.perf_counter() - t) * 1000:.1f} ms")
    # The loaded CR and caches are long-lived: without freezing them, full GC passes scan them and
    # put ~4 ms spikes at p99. A server should do the same after loading the KB.
    known = {m["key"] for m in list_mechanics()}
    for key, situation in QUESTIONS.values():
        if key in known and situation:
            run(key, situation)  # every mechanic's links and ruling checks cached before timing
    if "--no-freeze" not in sys.argv:
        gc.collect()
        gc.freeze()
    # Baseline in the same run: a JSON round trip of each situation (no reasoning), to show how much
    # of p99 is this machine's scheduling noise rather than the engine.
    import json
    base = []
    for _ in range(n):
        for _, situation in QUESTIONS.values():
            t = time.perf_counter()
            json.loads(json.dumps(situation))
            base.append((time.perf_counter() - t) * 1000)
    base.sort()
    print(f"{'baseline (JSON round trip)':28} {statistics.median(base):8.3f} {base[int(len(base) * 0.99) - 1]:8.3f}")
    print(f"{'question':28} {'p50 ms':>8} {'p99 ms':>8}")
    for name, (key, situation) in QUESTIONS.items():
        if key not in known or not situation:
            continue  # other engineers' mechanics: their own situations, not guessed here
        run(key, situation)
        times = []
        for _ in range(n):
            t = time.perf_counter()
            run(key, situation)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        print(f"{name:28} {statistics.median(times):8.3f} {times[int(len(times) * 0.99) - 1]:8.3f}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(int(args[0]) if args else 300)
