"""The change vocabulary: what can happen to a rule between editions, in one enum with its
Japanese and English labels (one table), used by `kb history` / `kb diff`, the API and the pages.

Claims follow the loaded editions: a rule is ``created`` only when the official edition just before
the first loaded edition holding it is loaded and lacks it; otherwise it is ``first-seen`` (with
the official editions not loaded before it). Likewise ``removed`` against ``absent`` (removed in
some official edition that is not loaded), and a change "on" an edition against one "between" two
loaded editions with official ones not loaded between them (``gap``).
"""
from __future__ import annotations

from enum import StrEnum

import kb.sources.official as official


class Change(StrEnum):
    """One value per kind of change (a rule's history step, a diff entry, a citation's status)."""
    CREATED = "created"                       # the official edition before is loaded and lacks it
    FIRST_SEEN = "first-seen"                 # first in the loaded editions; earlier official ones not loaded
    MOVED = "moved"                           # another number, same text
    TEXT_CHANGED = "text-changed"             # same number, other text
    MOVED_TEXT_CHANGED = "moved-text-changed"  # another number and other text
    UNCHANGED = "unchanged"                   # same number and text as in the loaded edition before
    REMOVED = "removed"                       # gone, and the official edition before is loaded and has it
    ABSENT = "absent"                         # gone; removed in an official edition that is not loaded
    ADDED = "added"                           # a diff: in the newer edition only (no lineage back)
    RENUMBERED = "renumbered"                 # a citation's rule has another number today
    RENUMBERED_AND_CHANGED = "renumbered-and-changed"
    CURRENT = "current"                       # a citation's rule is today's, same number
    NEVER_EXISTED = "never-existed"
    AMBIGUOUS = "ambiguous"
    NUMBERS_ONLY = "numbers-only"             # a diff: only numbers changed (renumbered, or cited numbers)


LABELS: dict[Change, tuple[str, str]] = {
    Change.CREATED: ("新設", "created"),
    Change.FIRST_SEEN: ("読み込まれた版での初出", "first seen in the loaded editions"),
    Change.MOVED: ("番号変更", "moved"),
    Change.TEXT_CHANGED: ("本文変更", "text changed"),
    Change.MOVED_TEXT_CHANGED: ("番号・本文変更", "moved, text changed"),
    Change.UNCHANGED: ("変更なし", "unchanged"),
    Change.REMOVED: ("削除", "removed"),
    Change.ABSENT: ("この版にはない（削除は読み込まれていない版）", "absent (removed in an edition not loaded)"),
    Change.ADDED: ("追加", "added"),
    Change.RENUMBERED: ("番号変更", "renumbered"),
    Change.RENUMBERED_AND_CHANGED: ("番号・本文変更", "renumbered, text changed"),
    Change.CURRENT: ("現行", "current"),
    Change.NEVER_EXISTED: ("該当なし", "never existed"),
    Change.AMBIGUOUS: ("不明確", "ambiguous"),
    Change.NUMBERS_ONLY: ("番号だけの変更（番号の移動・参照先の番号）", "numbers only (renumbered, or cited numbers)"),
}

# the kinds of a diff's entries, and the groups a diff is read in: wording changes first (moved or
# not), then rules added and removed, then what changed only numbers (folded)
DIFF_KINDS = (Change.TEXT_CHANGED, Change.ADDED, Change.REMOVED, Change.MOVED)
DIFF_GROUPS = (Change.TEXT_CHANGED, Change.ADDED, Change.REMOVED, Change.NUMBERS_ONLY)
# the history steps that change what a rule says or where it is (a ruling written before may be stale)
CHANGING = (Change.CREATED, Change.FIRST_SEEN, Change.MOVED, Change.MOVED_TEXT_CHANGED, Change.TEXT_CHANGED)

# how lineage matched a rule to the one before it (kb.build.lineage), in the same two languages
METHODS = {
    "same-number-same-text": ("同じ番号・同じ本文", "same number, same text"),
    "text": ("同じ本文で照合", "same text"),
    "same-number-similar-text": ("同じ番号・似た本文", "same number, similar text"),
    "text-fuzzy": ("似た本文で照合", "similar text"),
}


def label(value: str | None, lang: str = "en") -> str:
    """The label of a change (or a lineage method) in ``lang``; an unknown value as it is."""
    if not value:
        return ""
    try:
        pair = LABELS[Change(value)]
    except ValueError:
        pair = METHODS.get(value, (value, value))
    return pair[1] if lang == "en" else pair[0]


def step_kind(moved: bool, changed: bool) -> Change:
    if moved:
        return Change.MOVED_TEXT_CHANGED if changed else Change.MOVED
    return Change.TEXT_CHANGED if changed else Change.UNCHANGED


# ---------------------------------------------------------------- what the loaded editions can show

def not_loaded(loaded, after: str | None, before: str | None) -> list[str]:
    """Official EN editions effective strictly between ``after`` and ``before`` (either end open
    when None) that no loaded edition is (by effective or file date): what the loaded editions
    cannot show. ``loaded``: the loaded EN editions' dates (effective and file dates)."""
    have = set(loaded)
    return [e.effective for e in official.load().editions
            if (after is None or e.effective > after) and (before is None or e.effective < before)
            and not have & set(e.dates())]


def begun(loaded, previous: str | None, first: str) -> tuple[Change, list[str]]:
    """How a rule first seen in ``first`` began: created there when the loaded edition before it
    (``previous``) is the official edition just before; else first seen, with the gap."""
    gap = not_loaded(loaded, previous, first)
    return (Change.CREATED if previous and not gap else Change.FIRST_SEEN), gap


def ended(loaded, last: str, following: str) -> tuple[Change, list[str]]:
    """How a rule last seen in ``last`` and absent from the next loaded edition ``following`` ended."""
    gap = not_loaded(loaded, last, following)
    return (Change.ABSENT if gap else Change.REMOVED), gap


def sentence(item: dict, lang: str = "en") -> str:
    """One line of a history summary (kb.lookup.diffs) in ``lang``: item is {"what", ...}."""
    ja = lang == "ja"
    what = item["what"]
    gap = item.get("gap") or []
    gap_text = ", ".join(gap[:4]) + (f" … (+{len(gap) - 4})" if len(gap) > 4 else "")
    if what == "span":
        when = item["from"] if item["from"] == item["to"] else f"{item['from']} → {item['to']}"
        if item["editions"] > 1:
            text = (f"{item['number']}: 読み込まれた版 {when} で同じ本文" if ja
                    else f"{item['number']}: same text {when}")
        else:
            text = f"{item['number']}: {when}" if ja else f"{item['number']} in {when}"
        if gap:
            text += (f"（この間の未読み込みの公式版: {gap_text}）" if ja
                     else f" (official editions between not loaded: {gap_text})")
        return text
    kind = Change(what)
    name = label(kind, lang)
    if kind in (Change.CREATED, Change.REMOVED):
        return f"{item['edition']} に{name}" if ja else f"{name} on {item['edition']}"
    if kind == Change.FIRST_SEEN:
        earlier = ((f"; それより前の未読み込みの公式版: {gap_text}" if ja else f"; earlier official editions not loaded: {gap_text}")
                   if gap else "")
        return (f"読み込まれた版での初出: {item['edition']}{earlier}" if ja
                else f"first seen in the loaded editions: {item['edition']}{earlier}")
    if kind == Change.ABSENT:
        return (f"読み込まれた版での最後: {item['last']}; {item['edition']} にはない（間の未読み込みの公式版: {gap_text}）" if ja
                else f"last seen in the loaded editions: {item['last']}; absent from {item['edition']} "
                     f"(official editions between not loaded: {gap_text})")
    moved = f" {item['from_number']} → {item['to_number']}" if kind in (Change.MOVED, Change.MOVED_TEXT_CHANGED) else ""
    if gap:
        return (f"{name}{moved}: {item['since']} と {item['edition']} の間（未読み込みの公式版: {gap_text}）" if ja
                else f"{name}{moved} between {item['since']} and {item['edition']} (official editions not loaded: {gap_text})")
    return f"{item['edition']} に{name}{moved}" if ja else f"{name}{moved} on {item['edition']}"
