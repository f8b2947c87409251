"""Whether a ruling or quote is superseded, and which statements are a wiki page's link lists
(part of kb.lookup's ruling answers). What a reader sees of a wiki-marked-up text is made once, at
build time, by kb.wikitext (a statement's ``display``, beside its untouched ``text``).
"""
from __future__ import annotations

import re

from kb.memo import per_owner
from kb.sources.types import BY_KIND, TYPES, typed
from kb.wikitext import visible

# the old CR files' underlined words (_Magic_, _Magic: The Gathering_): italics on a page, never underscores
EMPHASIS = re.compile(r"(?<![\w/])_([A-Za-z][^_<>\n]*?[\w.!?])_(?![\w/])")


def source_of(model, row: dict) -> dict | None:
    """What a document, ruling or quote is as a source (kb.sources.types): key, JA/EN label,
    official; None for a row that says nothing of its source."""
    key = row.get("source_type")
    if isinstance(key, dict):
        return key
    if not isinstance(key, str):  # a row made before source types: its document's kind says it
        doc = model.documents.get(row.get("document") or row.get("id") or "", {})
        kind = "card-ruling" if row.get("kind") == "card-ruling" else doc.get("kind") or row.get("kind")
        key = doc.get("source_type") or BY_KIND.get(kind or "")
    return typed(key) if key else None


def by_authority(items: list[dict]) -> list[dict]:
    """Statements ordered official rulings first, then the FAQ, ... (kb.sources.types order), each
    source's own order kept."""
    order = {k: i for i, k in enumerate(TYPES)}
    return sorted(items, key=lambda r: order.get((r.get("source_type") or {}).get("key"), len(order)))


def shown(statement: dict) -> str:
    """A statement's text as a reader sees it: the build's ``display`` (kb.wikitext), or the same
    cleaner for a row made without one (a KB built in memory by an older snapshot's code)."""
    return statement.get("display") or visible(statement.get("text") or "")


# ---------------------------------------------------------------- superseded rulings and quotes

LABELS = {"outcome": ("古い裁定", "superseded ruling"), "wording": ("旧版の条文", "older wording")}


def superseded(kb, statement_id: str) -> dict | None:
    """Why a ruling or quote no longer holds today, or None: ``kind`` "outcome" (the reasoning
    engine computes another answer under today's CR) or "wording" (the quoted rule's text changed
    or it was removed); ``current_rule``: today's rule for it; ``changes``: editions that changed it."""
    return per_owner(kb, "superseded-by-id", lambda: _kept_index(kb)).get(statement_id)


# The index runs every mechanic's ruling checks and reads every edition's history (2-4 s): a pure
# function of the snapshot and of this code, so it is kept on disk beside the build's cache and a
# later `kb rule` or server start reads it instead (a snapshot is never changed once built).
KEPT_KIND = "superseded"
KEPT_CODE = ("reasoning", "lookup", "store", "sources", "text.py", "rulenumbers.py")


def _kept_index(kb) -> dict[str, dict]:
    import marshal

    from kb.build.cache import BuildCache, code_digest

    path = getattr(kb, "path", None)
    if path is None:
        return _index(kb)[0]
    cache = BuildCache(path.parent.parent / "cache")
    key = f"{path.name}.{code_digest(*KEPT_CODE)}.marshal"  # plain values: loading runs no code
    data = cache.read_bytes(KEPT_KIND, key)
    if data:
        try:
            return marshal.loads(data)
        except Exception:  # noqa: BLE001 - damaged bytes raise many kinds: recompute and replace
            pass
    index, complete = _index(kb)
    if complete:  # an engine failure is reported, never kept
        # entries of deleted snapshots go, and a damaged one of this key (write_bytes keeps what exists)
        live = {p.name for p in path.parent.iterdir()}
        cache.prune(KEPT_KIND, {k.name for k in (cache.folder / KEPT_KIND).glob("*.marshal")
                                if k.name.split(".", 1)[0] in live and k.name != key})
        try:
            cache.write_bytes(KEPT_KIND, key, marshal.dumps(index))
        except ValueError:  # a value marshal cannot write: computed again next time, never a failure
            pass
    return index


def _index(kb) -> tuple[dict[str, dict], bool]:
    """(statement id -> why it is superseded, whether the reasoning engine's part is in it)."""
    from kb.lookup.rulings_time import rulings_over_time

    current = kb.lineage.current
    out = {}
    over_time = rulings_over_time(kb)
    for entry in over_time["superseded"]:
        statement = kb.model.statement(entry["id"]) or {}
        changed = entry.get("changed_by", [])
        outcome = [c for c in changed if c.get("status") == "outcome-changed"]
        kind = "outcome" if outcome and statement.get("kind") != "quoted-rule" else "wording"
        main = (outcome or changed or [{}])[0]
        today = main.get("current_rule")
        if today is None and statement.get("kind") == "quoted-rule":
            today = (statement.get("resolved", {}).get("current") or {}).get("number")
        if today is None and main.get("rule") and main.get("edition"):
            today = kb.lineage.forward(main["rule"], main["edition"])[0]
        changes = sorted({(c["edition"], c["rule"], c["status"]) for c in changed if c.get("status") != "outcome-changed"})
        if not changes and today:  # an outcome changed: the editions whose text of today's rule changed since
            written = statement.get("edition") or kb.model.documents.get(statement.get("document", ""), {}).get("edition")
            changes = [(s["edition"], s["number"], "text-changed") for s in kb.history(today)
                       if written and s["edition"] > written and s.get("text_changed")]
        out[entry["id"]] = {"kind": kind, "label": {"ja": LABELS[kind][0], "en": LABELS[kind][1]},
                            "current_rule": today, "current_edition": current,
                            "removed": today is None,
                            "changes": [{"edition": e, "rule": r, "status": s} for e, r, s in changes],
                            "detail": "; ".join(c.get("detail", "") for c in outcome if c.get("detail")) or None}
    return out, over_time["engine_error"] is None


NAVIGATION_SECTIONS = ("参考", "関連項目", "外部リンク", "See also", "References")


def is_navigation(statement: dict) -> bool:
    """A wiki page's link list (参考: 「[[ルーリング]]」, 「[[夜]]」, search links): not a ruling."""
    section = (statement.get("locator") or statement.get("citation") or {}).get("section") or ""
    return statement.get("kind") == "note" and section.split(" > ")[0] in NAVIGATION_SECTIONS
