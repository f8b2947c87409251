"""How rulings read on a page or a terminal: wiki markup rendered as its visible text, and whether
a ruling or quote is superseded (part of kb.lookup's ruling answers).

The source text is never altered: ``text`` stays as written (the source view shows it); ``display``
is what a reader sees — ``[[#…|下記のチェック]]`` reads 下記のチェック, ``[[能力]]`` reads 能力,
``<ref>…</ref>`` footnotes and ``^[1]`` markers go, ``'''bold'''`` loses its quotes.
"""
from __future__ import annotations

import re

from kb.memo import per_owner

_REF = re.compile(r"<ref[^>/]*>.*?</ref>|<ref[^>]*/>", re.S)
_LINK = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
_EXTERNAL = re.compile(r"\[(?:https?:)?//?[^\s\]]+(?:\s+([^\]]*))?\]")
_NOTE_MARK = re.compile(r"\^\[\d+\]")
_QUOTES = re.compile(r"'''''|'''|''")
_TEMPLATE = re.compile(r"\{\{[^{}]*\}\}")
_TAG = re.compile(r"</?(?:br|span|small|big|b|i|u|s|sup|sub|nowiki)\b[^>]*>", re.I)
_SPACES = re.compile(r"[ \t]{2,}")
# the old CR files' underlined words (_Magic_, _Magic: The Gathering_): italics on a page, never underscores
EMPHASIS = re.compile(r"(?<![\w/])_([A-Za-z][^_<>\n]*?[\w.!?])_(?![\w/])")


def strip_markup(text: str) -> str:
    """The visible text of a wiki-marked-up line (for display only)."""
    if not text or not any(c in text for c in "[<'^{"):
        return text
    out = _REF.sub("", text)
    out = _TEMPLATE.sub("", out)
    for _ in range(3):  # [[[カード]]を] nests once; links never nest deeper in the seeds
        out, n = _LINK.subn(lambda m: m[2] if m[2] is not None else m[1].lstrip("#:"), out)
        if not n:
            break
    out = _EXTERNAL.sub(lambda m: m[1] or "", out)
    out = _NOTE_MARK.sub("", out)
    out = _QUOTES.sub("", out)
    out = _TAG.sub("", out)
    return _SPACES.sub(" ", out).strip()


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
