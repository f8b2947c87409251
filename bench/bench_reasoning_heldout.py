"""Accuracy on held-out questions the engine was not shaped after (bench/reasoning_heldout_new.json).

    python bench/bench_reasoning_heldout.py [--extra | --file PATH] [--quiet] [--json]

``--extra`` scores bench/reasoning_heldout_extra.json instead (the questions written for the
capabilities added for issue 13), reported on its own, per type, the same way.

Each question's neutral facts go through the one adapter of its type (bench/heldout_adapters.py)
to engine situations; ``kb.reasoning.catalog.ask`` answers them on the parsed current CR
(tests.reasoning_fixtures.current_book()). Each expected outcome key is read from the engine's
outcome through the declared key mapping below (KEYMAP); a key with no mapping, or whose mapped
path the engine's outcome does not have, is "not answered" (never right). Per type it prints:
questions whose every key was answered and right; questions with a wrong key; questions with a key
not answered; every must_cite rule in the trace; and both (outcome right and rules cited). The
baseline in the same run is the trivial answer: no outcome at all, citing the mechanic's own
section(s) (its entry rules), so the ratio is visible.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from heldout_adapters import ADAPTERS  # noqa: E402
from kb.errors import SituationError  # noqa: E402
from kb.reasoning.catalog import ask, registered  # noqa: E402
from kb.reasoning.engine import entry_rules  # noqa: E402
from tests.reasoning_fixtures import current_book  # noqa: E402

HELDOUT = Path(__file__).resolve().parent / "reasoning_heldout_new.json"
EXTRA = Path(__file__).resolve().parent / "reasoning_heldout_extra.json"
# expected key -> candidate paths (first that exists answers). Transforms after "::" (bool, len, has:X,
# notempty, slug:X). Templates {left}/{right} are the halves' names as slugs (can_cast_{left}).
FD_CHARS = ("characteristics|characteristics.{f}", "cast-face-down|characteristics.{f}",
            "becomes-copy|characteristics.{f}", "copy|copy.{f}", "manifest-dread|characteristics.{f}",
            "turn-face-up|characteristics.{f}", "turn-face-up|after.{f}")
KEYMAP: dict[str, dict[str, list[str]]] = {
    "face-down": {
        **{f: [p.format(f=f) for p in FD_CHARS] for f in ("power", "toughness", "types", "name", "mana_value",
                                                           "colors", "subtypes", "abilities")},
        **{f"face_down_{f}": [p.format(f=f) for p in FD_CHARS[:2]] for f in ("power", "toughness", "name")},
        "face_down_ward": [p.format(f="abilities") + "::ward" for p in FD_CHARS[:2]],
        "can_turn_face_up": ["turn-face-up|can_turn_face_up", "copy|copy_can_turn_face_up"],
        "can_turn_face_up_by_special_action": ["turn-face-up|can_turn_face_up"],
        "can_still_turn_face_up": ["turn-face-up|can_turn_face_up"], "allowed_costs": ["turn-face-up|allowed_costs"],
        "can_turn_face_up_for_mana_cost": ["turn-face-up|by_mana_cost"],
        "can_transform_while_face_down": ["turn-face-up|can_transform_while_face_down"],
        "face_up_after": ["turn-face-up|face_up_after"], "can_cast_face_up": ["cast-face-down|can_cast_face_up"],
        "*_still_applies": ["turn-face-up|effects_still_apply"],  # "<an effect's name>_still_applies"
        "uses_stack": ["turn-face-up|uses_stack"], "uses_stack_for_turning": ["turn-face-up|uses_stack"],
        "cost": ["turn-face-up|cost"], "turn_face_up_cost": ["turn-face-up|cost"],
        "cast_cost": ["cast-face-down|cost"], "cost_paid": ["cast-face-down|cost"],
        **{f"{f}_after": [f"turn-face-up|after.{f}"] for f in ("power", "toughness")},
        "name_after": ["turn-face-up|after.name", "turn-face-down|name_after"],
        "revealed": ["turn-face-up|revealed"], "remains_face_down": ["turn-face-up|remains_face_down"],
        "turned_face_up_triggers": ["turn-face-up|turned_face_up_triggers"],
        "turned_face_up_trigger": ["turn-face-up|turned_face_up_triggers"],
        "etb_trigger": ["turn-face-up|etb_triggers"], "ward_after_face_up": ["turn-face-up|ward_after"],
        "can_be_responded_to": ["turn-face-up|can_be_responded_to"],
        "survives": ["turn-face-up|incoming.survives", "turn-face-up|survives_damage"],
        "damage_marked": ["turn-face-up|incoming.damage_marked"], "saved": ["turn-face-up|incoming.saved"],
        "can_turn_face_up_in_response": ["turn-face-up|timing.in_response"],
        "can_turn_face_up_during_resolution": ["turn-face-up|timing.during_resolution"],
        "turned_face_up_by_effect": ["turn-face-up|effect_turns_it_face_up"],
        "can_pay_prototype_cost": ["turn-face-up|can_pay_prototype_cost"],
        "can_be_targeted": ["leaves|can_be_targeted"], "countered": ["leaves|countered"],
        "plus1_counters": ["turn-face-up|plus1_counters"],
        "zone_after": ["leaves|zone"], "must_reveal": ["leaves|revealed"], "revealed_to": ["leaves|revealed_to"],
        "destroyed": ["leaves|destroyed"],
        "you_can_look_at_opponents": ["look|opponent|may_look"],
        "opponent_can_look_at_own": ["look|opponent|controller_may_look"],
        "you_can_look_at_own_phased_out": ["look|you|phased-out|may_look"],
        "clone_face_up": ["copy|copy_face_up"], "cards_manifested": ["manifest-dread|cards_manifested"],
        "may_choose_noncreature": ["manifest-dread|may_choose_any"],
        "manifested_power": ["manifest-dread|characteristics.power"],
        "manifested_toughness": ["manifest-dread|characteristics.toughness"],
        "other_card_zone": ["manifest-dread|to_graveyard::graveyard-if-any"],
        "anything_changes": ["turn-face-down|anything_changes"], "characteristics_change": ["turn-face-down|anything_changes"],
        "turned_face_down": ["turn-face-down|turned_face_down"],
        "name_if_turned_face_up": ["becomes-copy|name_if_turned_face_up"],
        "can_turn_face_up_with_morph_cost": ["becomes-copy|can_turn_face_up_with_morph_cost"],
        "can_cast_face_down": ["cast-face-down|can_cast_face_down"],
        "face_up_mana_value": ["cast-face-down|face_up_mana_value"],
        "face_down_spell_mana_value": ["cast-face-down|characteristics.mana_value"],
    },
    "meld": {
        **{f: [f"characteristics|characteristics.{f}", f"meld|characteristics.{f}", f"copy|copy.{f}"]
           for f in ("mana_value", "colors", "loyalty", "objects", "cards", "name", "power", "toughness", "types")},
        "trigger_count": ["meld|enter_triggers"], "enter_trigger": ["meld|enter_triggers::bool"],
        "attack_trigger": ["meld|attack_triggers::bool"], "is_attacking": ["meld|attacking"],
        "original_mana_value": ["copy|original_mana_value"], "objects_left_battlefield": ["leaves|objects_left"],
        "cards_to_graveyard": ["leaves|cards_moved"], "cards_to_library": ["leaves|cards_moved"],
        "cards_to_hand": ["leaves|cards"], "card_count": ["leaves|cards_moved"],
        "owner_orders_cards": ["leaves|owner_orders"], "order_chosen_by": ["leaves|owner_orders::owner-if-true"],
        "returned": ["flicker|returned"], "melded_after_return": ["flicker|melded_after_return"],
        "face_up": ["flicker|face_up"], "permanents_after": ["flicker|permanents_after"],
        "is_planeswalker_card": ["characteristics|characteristics.types::has:planeswalker"],
        "melded": ["meld|melded", "meld-trigger|melded"], "uses_back_face": ["characteristics|uses_back_face"], "counterpart": ["pair|counterpart"],
        "melds_into": ["pair|melds_into"], "can_meld_with_*": ["pair|can_meld"],
        "transforms": ["transform|transforms"], "is_transformed_permanent": ["transform|is_transformed_permanent"],
        "may_name_combined_back_face": ["name-a-card|may_name_combined_back_face"],
        "turned_face_down": ["turn-face-down|turned_face_down"], "plus1_counters_on_melded": ["meld|plus1_counters"],
        "ability_does_anything": ["meld-trigger|does_anything"], "etb_trigger": ["copy|etb_triggers"],
        "creature_dies_triggers": ["leaves|dies_count"], "card_to_graveyard_triggers": ["leaves|cards_moved"],
        "order_revealed": ["leaves|order_revealed"], "changes": ["transform|anything_changes"],
        "characteristics_change": ["turn-face-down|anything_changes"], "token_exists": ["meld|tokens_exist"],
        "{card}_zone": ["meld|zone", "meld-trigger|zone"], "legal_target": ["transform|legal_target"],
        "{attachment}_zone": ["meld|attachments_after::zone-of:{attachment}"],
    },
    "modal-dfc": {
        **{f: [f"characteristics|characteristics.{f}", f"cast|back|on_battlefield.{f}", f"put-onto-battlefield|characteristics.{f}",
               f"transform|characteristics.{f}", f"token-copy|characteristics.{f}", f"countered|characteristics.{f}"]
           for f in ("mana_value", "types", "colors", "name", "power", "toughness")},
        "can_play_as_land": ["play-land|can_play"], "can_play_back_face": ["play-land|can_play"],
        "uses_stack": ["play-land|uses_stack"], "counts_as_land_play": ["play-land|counts_as_land_play"],
        "face_up_on_battlefield": ["play-land|face_up", "cast|back|on_battlefield.face", "put-onto-battlefield|face_up"],
        "can_cast_front_face": ["cast|can_cast", "cast|front|can_cast"], "can_cast_front": ["cast|front|can_cast"],
        "can_cast_back": ["cast|back|can_cast"],
        "front_face_mana_value": ["cast|mana_value_before", "cast|front|mana_value_before"],
        "front_mana_value": ["cast|front|mana_value_before"], "back_mana_value": ["cast|back|on_stack.mana_value"],
        **{f"{f}_in_{z}": [f"characteristics@{z}|characteristics.{f}"] for f in ("mana_value", "types")
           for z in ("hand", "graveyard", "exile")},
        "is_land_card": ["characteristics|characteristics.types::has:land"],
        "is_planeswalker_card": ["characteristics|characteristics.types::has:planeswalker"],
        "is_creature": ["characteristics|characteristics.types::has:creature"],
        "is_permanent_card": ["characteristics|characteristics.types::permanent"],
        **{k: ["characteristics|meets_requirement"] for k in ("legal_target", "satisfies_requirement")},
        "enters_battlefield": ["put-onto-battlefield|enters"], "attached_on_entry": ["cast|back|on_battlefield.attached"], "zone_after_counter": ["countered|zone_after"],
        "can_choose_back_face": ["put-onto-battlefield|may_choose_face"], "play_face_choices": ["play-land|face_choices"], "zone_after": ["put-onto-battlefield|zone"],
        "name_on_battlefield": ["put-onto-battlefield|characteristics.name"],
        "put_onto_battlefield_face": ["put-onto-battlefield|characteristics.name"],
        "mana_value_on_battlefield": ["cast|back|on_battlefield.mana_value"],
        "loyalty_on_entering": ["cast|back|on_battlefield.loyalty"],
        "transforms": ["transform|transforms"], "face_up_after": ["transform|face_up"],
        **{f"{f}_after": [f"transform|characteristics.{f}"] for f in ("name", "types", "mana_value")},
        "is_creature_after": ["transform|characteristics.types::has:creature"], "same_object": ["transform|same_object"],
        "token_is_double_faced": ["token-copy|token_is_double_faced"], "face_up": ["token-copy|face_up"],
        "may_name_back_face": ["name-a-card|may_name_either"], "may_name_both": ["name-a-card|may_name_both"],
        "card_in_hand_has_chosen_name": ["name-a-card|has_chosen_name"],
    },
    "copies": {
        **{f: [f"permanent|{f}", f"token|{f}"] for f in ("name", "power", "toughness", "colors", "mana_value",
                                                          "abilities", "types", "subtypes", "tapped")},
        "counters": ["permanent|plus1_counters::counters", "token|plus1_counters::counters"],
        "is_enchantment": ["permanent|types::has:enchantment"], "is_creature": ["permanent|types::has:creature"],
        "token_face_up": ["token|face_up"], "can_turn_face_up": ["token|can_turn_face_up"],
        "token_double_faced": ["token|double_faced"], "face_up": ["token|face"],
        "can_transform": ["token|can_transform", "permanent|can_transform"],
        "tokens_trigger": ["token|etb_triggers"], "copy_controller": ["spell|controller"],
        "may_change_target": ["spell|may_change_targets"],
        # "new_choice_by": the engine answers the player ("you"), the set a role ("Clone's controller"): not mapped
        "token_has_both_halves": ["token|has_both_halves"],
        "token_name": ["copy-resolves|token_name"], "create_token_trigger": ["copy-resolves|counts_as_created"],
        "{copier}_{field}": ["permanent|{field}", "token|{field}"],
        **{f"token_{f}": [f"token|{f}"] for f in ("power", "toughness", "mana_value", "colors")},
        "tokens": ["token|tokens"],
        "copy_is_cast": ["spell|copy_is_cast"], "cast_trigger": ["spell|cast_triggers"], "copy_colors": ["spell|colors"],
        "copy_x": ["spell|x"], "copy_targets": ["spell|targets::len"], "copy_modes": ["spell|modes"],
        "can_choose_new_modes": ["spell|may_change_modes"], "copy_kicked": ["spell|kicked"],
        "copy_in_graveyard_after_sba": ["copy-resolves|in_graveyard_after"],
        "ceases_to_exist": ["copy-resolves|ceases_to_exist"], "becomes": ["copy-resolves|becomes"],
        "counts_as_created": ["copy-resolves|counts_as_created"],
        "copies_choice": ["permanent|copies_choice"], "etb_trigger": ["permanent|etb_triggers"],
        "original_power": ["permanent|original_after.power"], "original_toughness": ["permanent|original_after.toughness"],
        "copy_damage": ["spell|damage_per_target"], "damage_per_target": ["spell|damage_per_target"],
        "has_mana_ability": ["permanent|mana_abilities::bool", "token|mana_abilities::bool"],
        "has_{words}_ability": ["permanent|abilities::words:{words}", "token|abilities::words:{words}"],
        "token_left_unlocked": ["token|unlocked::has:left"], "token_right_unlocked": ["token|unlocked::has:right"],
    },
    "split-adventure": {
        **{f: [f"characteristics|characteristics.{f}", f"cast|on_stack.{f}", f"cast|fused|on_stack.{f}",
               f"copy-permanent|characteristics.{f}"]
           for f in ("mana_value", "colors", "types", "names", "power", "toughness")},
        "name": ["copy-permanent|characteristics.names::first"],
        "can_cast_{left}": ["cast|left|can_cast"], "can_cast_{right}": ["cast|right|can_cast"],
        **{f"{f}_in_{z}": [f"characteristics@{z}|characteristics.{f}"] for f in ("mana_value", "types")
           for z in ("hand", "graveyard", "exile")},
        "mana_value_of_cast_half": ["cast|left|on_stack.mana_value"], "cards_counted": ["card-count|cards"],
        "may_name_both": ["name-a-card|may_name_both"], "card_has_chosen_name": ["name-a-card|has_chosen_name"],
        "mana_value_on_stack": ["cast|fused|on_stack.mana_value", "cast|on_stack.mana_value", "resolves|on_stack.mana_value"],
        "can_fuse": ["cast|fused|can_cast"], "can_cast_fused": ["cast|fused|can_cast"],
        "can_cast_one_half": ["cast|left|can_cast"],
        "fused_mana_value": ["cast|fused|on_stack.mana_value", "cast|fused|mana_value_evaluated"],
        "total_cost": ["cast|fused|total_cost"], "resolution_order": ["cast|fused|resolution_order"],
        "may_name_adventure": ["name-a-card|may_name_adventure"],
        **{k: ["characteristics|meets_requirement"] for k in ("legal_target", "satisfies_requirement")},
        "can_cast_creature_from_copy": ["copy|may_cast_creature_later"],
        "copy_is_fused": ["copy|copy_is_fused"], "copy_is_cast": ["copy|copy_is_cast"],
        "copy_is_adventure": ["copy|copy_is_adventure"], "copy_mana_value": ["copy|copy.mana_value"],
        "copy_remains_after_resolution": ["copy|copy_remains"], "types_on_stack": ["resolves|on_stack.types"],
        "zone_after_resolution": ["resolves|zone_after"], "zone_after": ["countered|zone_after", "resolves|zone_after"],
        "may_cast_creature_from_exile": ["resolves|may_cast_creature_later"],
        "may_cast_adventure_from_exile": ["resolves|may_cast_adventure_later"],
        "may_cast_creature_later": ["countered|may_cast_creature_later", "resolves|may_cast_creature_later"],
        "may_cast_on_opponents_turn": ["cast|can_cast"], "may_cast_during_own_main_phase": ["cast@own-main|can_cast"], "is_instant_card": ["characteristics|characteristics.types::has:instant"],
        "clone_has_adventure": ["copy-permanent|copy_has_adventure"],
        "must_choose_one_of": ["name-a-card|must_choose_one_of"], "copy_follows": ["copy|follows"],
        "{target}_dies": ["cast|fused|target_after.dies", "cast|target_after.dies", "cast|left|target_after.dies"],
        "{watcher}_triggers": ["cast|cast_triggers::trig:{watcher}", "cast|left|cast_triggers::trig:{watcher}"],
        "unlocked_on_entry": ["room-enters|unlocked"], "mana_value_on_battlefield_left_only": ["room-enters|mana_value"],
        "unlock_uses_stack": ["room-unlock|uses_stack"], "unlock_cost": ["room-unlock|unlock_cost"],
        "mana_value_after_full_unlock": ["room-unlock|mana_value"],
    },
    "state-based-actions": {
        **{f: ["check|permanents.0." + f] for f in ("destroyed", "zone", "toughness", "power", "survives",
                                                    "plus1_counters", "minus1_counters")},
        "was_destroyed": ["check|permanents.0.destroyed"], "dies": ["check|permanents.0.zone::graveyard?"],
        "loyalty_after_damage": ["check|permanents.0.loyalty"], "cards_to_graveyard": ["check|permanents.0.cards"],
        "token_exists_after_sba": ["check|permanents.0.zone::exists"], "checks_needed": ["check|checks_with_actions"],
        "legend_rule_applies": ["check|permanents::by:704.5j"],
        "you_keep": ["check|legend_rule.you.keep"], "you_choose_which": ["check|legend_rule.you.chooses"],
        "opponent_affected": ["check|legend_rule.opponent.affected"],
        "zone_after_move": ["check|permanents.0.zone_before_check"], "can_be_cast": ["check|permanents.0.can_be_cast"], "both_stay": ["check|permanents::all-survive"],
        "put_into_graveyard": ["check|permanents::count-by:704.5j"], "you_put_into_graveyard": ["check|permanents::count-by:704.5j"],
        "dies_trigger": ["check|permanents.0.dies"], "ceases_to_exist": ["check|permanents.0.ceased_to_exist"],
        "can_be_returned": ["check|permanents.0.zone::exists"], "objects_leaving": ["check|permanents.0.objects_left"],
        **{k: ["check|all_in_one_check"] for k in ("simultaneous", "same_event", "aura_goes_in_same_check")},
        **{k: ["check|indestructible_helps"] for k in ("indestructible_helps", "indestructible_prevents")},
        "regeneration_helps": ["check|regeneration_helps"],
        "you_lose": ["check|players::loses:you"], "opponent_loses": ["check|players::loses:opponent"],
        "loses": ["check|players.0.loses"], "life_matters": ["check|players.0.life_matters"], "result": ["check|draw::draw-if-true"],
        "{permanent}": ["check|permanents.{i}"], "{permanent}_{field}": ["check|permanents.{i}.{field}"],
        "case_{case}_survives": ["case_{case}|permanents.0.survives"], "case_{case}_tapped": ["case_{case}|permanents.0.tapped"],
        "case_{case}_damage_after": ["case_{case}|permanents.0.damage"],
    },
}
FIELDS = {"destroyed", "zone", "power", "toughness", "survives", "tapped", "damage"}
PERMANENT_TYPES = {"artifact", "battle", "creature", "enchantment", "land", "planeswalker"}


def slug(s) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(s or "").lower()).strip("_")


def _transform(v, how: str, outcome_root):
    name, _, arg = how.partition(":")
    if name == "bool":
        return bool(v)
    if name == "len":
        return len(v)
    if name == "has":
        return arg in (v or [])
    if name == "permanent":
        return bool(set(v or []) & PERMANENT_TYPES)
    if name == "counters":
        return {} if not v else {"+1/+1": v}
    if name == "ward":
        m = next((re.search(r"ward (\{.*\})", a) for a in v or [] if a.startswith("ward")), None)
        return m.group(1) if m else None
    if name == "graveyard-if-any":
        return "graveyard" if v else None
    if name == "owner-if-true":
        return "owner" if v else None
    if name == "draw-if-true":
        return "draw" if v else None
    if name == "words":  # some ability's text has every word of the key ("has_upkeep_copy_ability")
        return any(all(w in str(a).lower() for w in arg.split("_")) for a in v or [])
    if name == "trig":  # the cast trigger whose source or text has that word
        hit = [r for r in v or [] if arg in slug(r["source"]).split("_") or arg in slug(r["text"]).split("_")]
        return hit[0]["triggers"] if len(hit) == 1 else MISSING
    if name == "zone-of":  # the zone of the object of that (slug) name in a list of {name, zone}
        hit = [o["zone"] for o in v or [] if slug(o["name"]) == arg]
        return hit[0] if hit else MISSING
    if name == "first":
        return v[0] if v else None
    if name == "graveyard?":
        return v == "graveyard"
    if name == "exists":
        return v not in (None, "ceased to exist")
    if name == "notempty":
        return bool(v)
    if name == "by":
        return any(p.get("by") == arg for p in v)
    if name == "count-by":
        return sum(p.get("by") == arg for p in v)
    if name == "all-survive":
        return all(p.get("survives") for p in v)
    if name == "loses":
        return next((p["loses"] for p in v if p.get("name") == arg), None)
    raise ValueError(f"unknown transform {how}")


MISSING = object()


def _get(outcomes: dict, path: str):
    """``label|dotted.path::transform`` in the labelled outcomes, or MISSING."""
    path, _, how = path.partition("::")
    label, _, dotted = path.rpartition("|")
    cands = list(outcomes.values()) if label == "*" else [outcomes[label]] if label in outcomes else []
    for v in cands:
        for part in dotted.split("."):
            if isinstance(v, list) and part.isdigit() and int(part) < len(v):
                v = v[int(part)]
            elif isinstance(v, dict) and part in v:
                v = v[part]
            else:
                v = MISSING
                break
        if v is not MISSING:
            return _transform(v, how, outcomes) if how else v
    return MISSING


def _templates(kind: str, key: str, sits: dict) -> list[str]:
    """Candidate paths for ``key``: its declared mapping, a wildcard, or a template naming a half,
    a permanent (by a word of its name or its attachment kind) or a case of the situation."""
    km = KEYMAP[kind]
    if key in km:
        return km[key]
    for k, ps in km.items():
        if (k.endswith("*") and key.startswith(k[:-1])) or (k.startswith("*") and key.endswith(k[1:])):
            return ps
    first = next(iter(sits.values()), {})
    halves = {"left": slug(first.get("left", {}).get("name")), "right": slug(first.get("right", {}).get("name"))}
    for side, s in halves.items():
        if s and f"can_cast_{{{side}}}" in km and key == f"can_cast_{s}":
            return km[f"can_cast_{{{side}}}"]
    t = first.get("target") or {}
    if "{target}_dies" in km and t.get("name") and key == slug(t["name"]) + "_dies":
        return km["{target}_dies"]
    m = re.fullmatch(r"([a-z0-9]+)_(?:cast_trigger|triggers)", key)
    if m and "{watcher}_triggers" in km:
        return [p.replace("{watcher}", m.group(1)) for p in km["{watcher}_triggers"]]
    m = re.fullmatch(r"has_([a-z0-9_]+)_ability", key)
    if m and "has_{words}_ability" in km:
        return [p.replace("{words}", m.group(1)) for p in km["has_{words}_ability"]]
    copier = slug(first.get("copier_name")).split("_")  # a key naming the copy by a word of its card's name
    head, _, field = key.partition("_")
    if "{copier}_{field}" in km and head and head in copier and field:
        return [p.replace("{field}", field) for p in km["{copier}_{field}"]]
    attached = {slug(a) for c in first.get("cards", []) if isinstance(c, dict) for a in c.get("attached", [])}
    if "{attachment}_zone" in km and key.endswith("_zone") and key[:-5] in attached:
        return [p.replace("{attachment}", key[:-5]) for p in km["{attachment}_zone"]]
    cards = {w for c in first.get("cards", []) if isinstance(c, dict) for w in slug(c.get("name")).split("_")}
    if "{card}_zone" in km and key.endswith("_zone") and key[:-5] in cards:  # "<a word of a meld card>_zone"
        return km["{card}_zone"]
    m = re.fullmatch(r"case_([a-z0-9]+)_(.+)", key)
    if m and f"case_{{case}}_{m.group(2)}" in km and f"case_{m.group(1)}" in sits:
        return [p.replace("{case}", m.group(1)) for p in km[f"case_{{case}}_{m.group(2)}"]]
    perms = first.get("permanents")
    if perms is not None and "{permanent}" in km:
        def index(word: str) -> int | None:
            hits = [i for i, p in enumerate(perms) if word == slug(p["name"]) or word in slug(p["name"]).split("_")
                    or word == p.get("attachment")]
            return hits[0] if len(hits) == 1 else None
        if index(key) is not None and slug(perms[index(key)]["name"]) == key:
            return [p.replace("{i}", str(index(key))) for p in km["{permanent}"]]
        head, _, field = key.rpartition("_")
        aliases = {"attached": "attached_to::notempty"}
        if head and (field in FIELDS or field in aliases) and index(head) is not None:
            f = aliases.get(field, field)
            return [p.replace("{i}", str(index(head))).replace("{field}", f) for p in km["{permanent}_{field}"]]
    return []


def _same(expected, got) -> bool:
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    if isinstance(expected, list) and isinstance(got, list):
        norm = lambda xs: sorted(str(x).lower() for x in xs)  # noqa: E731  (sets of names, types, colours)
        return norm(expected) == norm(got)
    if isinstance(expected, dict) and isinstance(got, dict):
        return all(k in got and _same(v, got[k]) for k, v in expected.items())
    return expected == got


ZONE_QUESTIONS = {"modal-dfc", "split-adventure"}  # characteristics asked in each zone too (…_in_hand keys)


def situations(book, q: dict) -> tuple[str, dict]:
    mech, adapter = ADAPTERS[q["type"]]
    sits = {label.replace(":", "|"): s for label, s in adapter(q["facts"])}
    if q["type"] in ZONE_QUESTIONS and sits:
        base = next(iter(sits.values()))  # the adapter's first situation is always one of this type's mechanic
        for z in ("hand", "graveyard", "exile"):
            sits[f"characteristics@{z}"] = {**base, "question": "characteristics", "zone": z}
        for label, s in list(sits.items()):  # a cast outside the main phase: the same cast in it, for comparison
            if s.get("question") == "cast" and s.get("own_turn_main_phase") is False:
                sits[f"{label}@own-main"] = {**s, "own_turn_main_phase": True}
    return mech, sits


def score(book, q: dict) -> dict:
    mech, sits = situations(book, q)
    outcomes, cited, errors = {}, set(), []
    for label, s in sits.items():
        m = s.get("_mechanic", mech)  # an adapter may ask another mechanic (a Room: the room mechanic)
        s = {k: v for k, v in s.items() if k != "_mechanic"}
        try:
            ans = ask(book, m, s, rulings=False)
        except SituationError as e:
            errors.append(f"{label}: engine refused the situation ({e})")
            continue
        outcomes[label] = ans["outcome"]
        if "@" not in label:  # the extra per-zone questions don't count towards citations
            cited |= {st["rule"] for st in ans["trace"]}
    keys = {"right": [], "wrong": [], "not_answered": []}
    for k, want in q["expected"]["outcome"].items():
        got = MISSING
        for p in _templates(q["type"], k, sits):
            got = _get(outcomes, p)
            if got is not MISSING:
                break
        if got is MISSING:
            keys["not_answered"].append(k)
        elif _same(want, got):
            keys["right"].append(k)
        else:
            keys["wrong"].append((k, want, got))
    missing = [r for r in q["must_cite"] if r not in cited]
    return {"id": q["id"], "type": q["type"], "keys": keys, "missing_cites": missing, "errors": errors,
            "outcome_right": not keys["wrong"] and not keys["not_answered"], "cited": not missing,
            "no_situation": not sits}


def baseline(book, q: dict) -> dict:
    """The trivial answer: no outcome; cites the mechanic's own section(s) (its entry rules)."""
    mech, _ = ADAPTERS[q["type"]]
    sections = entry_rules(book, registered(mech))
    return {"cited": all(r in sections for r in q["must_cite"]),
            "cited_whole_section": all(any(r == s or r.startswith(s + ".") or r.startswith(s) and not r[len(s)].isdigit()
                                           for s in sections) for r in q["must_cite"])}


def main() -> None:
    book = current_book()
    path = Path(sys.argv[sys.argv.index("--file") + 1]) if "--file" in sys.argv else EXTRA if "--extra" in sys.argv \
        else HELDOUT
    data = json.loads(path.read_text())
    print(f"held-out questions ({path.name}): {len(data['questions'])} (CR {data['edition']}); engine book: CR {book.edition}")
    rows, results = {}, []
    for q in data["questions"]:
        r, b = score(book, q), baseline(book, q)
        results.append(r)
        t = rows.setdefault(q["type"], dict.fromkeys(
            ("n", "right", "wrong", "na", "cited", "both", "k_right", "k_wrong", "k_na", "b_cited", "b_whole"), 0))
        t["n"] += 1
        t["right"] += r["outcome_right"]
        t["wrong"] += bool(r["keys"]["wrong"])
        t["na"] += bool(r["keys"]["not_answered"]) and not r["keys"]["wrong"]
        t["cited"] += r["cited"]
        t["both"] += r["outcome_right"] and r["cited"]
        for k, col in (("right", "k_right"), ("wrong", "k_wrong"), ("not_answered", "k_na")):
            t[col] += len(r["keys"][k])
        t["b_cited"] += b["cited"]
        t["b_whole"] += b["cited_whole_section"]
    head = (f"{'type':22} {'n':>3} {'right':>5} {'wrong':>5} {'n/a':>4} {'cited':>5} {'both':>5} | "
            f"{'keys ok':>7} {'wrong':>5} {'n/a':>4} | {'baseline: right':>15} {'cited':>5} {'cited*':>6} {'both':>4}")
    print(head)
    print("-" * len(head))
    total = dict.fromkeys(next(iter(rows.values())), 0)
    for kind, t in list(rows.items()) + [("all", None)]:
        t = t or total
        if kind != "all":
            for k in total:
                total[k] += t[k]
        print(f"{kind:22} {t['n']:3} {t['right']:5} {t['wrong']:5} {t['na']:4} {t['cited']:5} {t['both']:5} | "
              f"{t['k_right']:7} {t['k_wrong']:5} {t['k_na']:4} | {0:15} {t['b_cited']:5} {t['b_whole']:6} {0:4}")
    print("right: every expected key answered and equal; wrong: some key answered differently; n/a: no key wrong "
          "but some key the engine has no notion of (never counted right); cited: every must_cite rule in the "
          "trace; baseline cited: the mechanic's section numbers alone, cited*: any rule inside those sections.")
    if "--quiet" not in sys.argv:
        print("\nfailures:")
        for r in results:
            if r["outcome_right"] and r["cited"]:
                continue
            why = []
            if r["no_situation"]:
                why.append("the adapter has no engine question for this event/layout")
            why += r["errors"]
            why += [f"{k}: expected {json.dumps(w)} got {json.dumps(g)}" for k, w, g in r["keys"]["wrong"]]
            if r["keys"]["not_answered"]:
                why.append("not answered: " + ", ".join(r["keys"]["not_answered"]))
            if r["missing_cites"]:
                why.append("not cited: " + ", ".join(r["missing_cites"]))
            print(f"  {r['id']:8} " + "; ".join(why))
    if "--json" in sys.argv:
        print(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
