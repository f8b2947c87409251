"""The Japanese texts of an EN rule (part of kb.lookup.KB's rule answers).

Two kinds, always labelled and cited:

- the official translation (``official``): the JA edition's rule aligned with the EN rule of its
  date and carried by lineage to the edition asked for, labelled with the translation's version
  (「和訳 20260116.0」); when the EN text changed between the translated edition and the one asked
  for, ``en_changed`` lists each change with its before/after text and a word diff
  (``numbers_only``: only cross-referenced rule numbers changed);
- older wording quoted by documents (``quoted``): the 2011 FAQ's 711.x, the 予示 page's 20231117
  701.34, … attached to the EN rule of the edition they quote, "as quoted in <document>". Where no
  official JA text of that edition exists, the quote is the page's JA text and the later official
  translation follows it.
"""
from __future__ import annotations

from kb.lookup import cite
from kb.memo import per_owner
from kb.lookup.diffs import only_references
from kb.text import text_diff


def alignment(model, ja_edition: str) -> dict:
    return model.ja_alignment.get(ja_edition, {})


def label(model, ja_edition: str) -> str:
    return alignment(model, ja_edition).get("label") or f"和訳 {ja_edition}"


def official(kb, key) -> dict | None:
    """The official JA text for EN rule ``key`` (or None), with its label, reference fixes and the
    EN changes since the translated edition (when ``key``'s edition is newer) or up to it (older:
    ``en_changed_before``, the changes that made this edition's text the translated one)."""
    ja_key = kb.ja_key(key)
    if not ja_key or ja_key == key or ja_key not in kb.model.rules:
        return None
    ja = kb.model.rules[ja_key]
    info = alignment(kb.model, ja_key[1])
    fixes = kb.reference_fixes("ja", ja_key[1], ja_key[2])
    entry = {"lang": "ja", "edition": ja_key[1], "text": ja["text"], "citation": kb.rule_citation(ja_key),
             "kind": "official", "label": label(kb.model, ja_key[1]), "translation": info.get("translation"),
             "translation_of": {"number": ja_key[2], "edition": ja_key[1]}, "reference_fixes": fixes,
             "references": kb.references(ja["text"], ja_key[1], "ja", ja_key[2], fixes),
             "examples": [{"text": e["text"], "lang": "ja", "citation": cite.locator(e["locator"], rule=ja_key[2],
                                                                                   edition=ja_key[1])}
                          for e in ja["examples"]],
             "note": None if ja_key[1] == key[1] else f"JA text is the {ja_key[1]} translation of rule {ja_key[2]}"}
    changes = en_changes(kb, key, ja_key) if ja_key[1] != key[1] else []
    newer = key[1] > ja_key[1]
    # "changed since the translation": only what changed after the translated edition
    entry["en_changed"] = changes if newer else []
    entry["en_changed_before"] = [] if newer else changes
    # did the EN wording change between the translated edition and this one (numbers aside)?
    entry["en_text_changed"] = any(not c["numbers_only"] for c in changes)
    entry["other_edition"] = other_edition(kb, key, ja_key, entry["en_text_changed"])
    return entry


def other_edition(kb, key, ja_key, text_changed: bool | None = None) -> dict | None:
    """How a translation of another edition is labelled under ``key`` (None: it is this edition's):
    「現行 701.27a の和訳（2026-01-16）」 / "translation of today's 701.27a (CR 2026-01-16)", and
    whether the EN wording differs between the two editions (numbers aside)."""
    if ja_key[1] == key[1]:
        return None
    if text_changed is None:
        _, steps = (kb.lineage.forward(ja_key[2], ja_key[1], key[1]) if key[1] > ja_key[1]
                    else kb.lineage.forward(key[2], key[1], ja_key[1]))
        text_changed = any(s["text_changed"] and not only_references(
            kb.model.rules[("en", s["from_edition"], s["from"])]["text"], kb.model.rules[("en", s["to_edition"], s["to"])]["text"])
            for s in steps)
    today = kb.resolve_number(ja_key[2], ja_key[1])["today"] if ("en", ja_key[1], ja_key[2]) in kb.model.rules else None
    now = today == ja_key[2]  # the translated rule still has its number today
    number = ja_key[2]
    return {"number": number, "edition": ja_key[1], "text_changed": text_changed,
            "same_number": number == key[2],
            "label": {"ja": f"{'現行 ' if now else ''}{number} の和訳（{ja_key[1]}）",
                      "en": f"translation of {'today’s ' if now else ''}{number} (CR {ja_key[1]})"}}


def _today(kb, number: str | None, edition: str) -> str | None:
    return kb.lineage.forward(number, edition)[0] if number and ("en", edition, number) in kb.model.rules else None


def en_changes(kb, key, ja_key) -> list[dict]:
    """Each EN text change between the translated edition and ``key``'s edition (either direction)."""
    if key[1] > ja_key[1]:
        _, steps = kb.lineage.forward(ja_key[2], ja_key[1], key[1])
    else:
        _, steps = kb.lineage.forward(key[2], key[1], ja_key[1])
    out = []
    for s in steps:
        if not s["text_changed"]:
            continue
        before = kb.model.rules[("en", s["from_edition"], s["from"])]["text"]
        after = kb.model.rules[("en", s["to_edition"], s["to"])]["text"]
        out.append({"numbers_only": only_references(before, after), "from_edition": s["from_edition"], "from": s["from"], "edition": s["to_edition"],
                    "number": s["to"], "before": before, "after": after, "diff": text_diff(before, after),
                    "citation": kb.rule_citation(("en", s["to_edition"], s["to"]))})
    return out


def quoted(kb, key) -> list[dict]:
    """JA wording of EN rule ``key`` as documents quote it (their edition is ``key``'s)."""
    def index() -> dict:
        by_rule: dict[tuple, list[str]] = {}
        for q in kb.model.quotes.values():
            if q["lang"] == "ja" and q["edition"]:
                by_rule.setdefault(("en", q["edition"], q["number"]), []).append(q["id"])
        return by_rule
    out = []
    for qid in per_owner(kb, "ja-quotes-by-rule", index).get(tuple(key), []):
        q = kb.model.quotes[qid]
        out.append({"lang": "ja", "edition": q["edition"], "text": q["text"], "kind": "quoted",
                    "references": kb.references(q["text"], q["edition"]),
                    "label": f"as quoted in {q['document_title']}", "quoted_in": q["document"], "quote": qid,
                    "document_title": q["document_title"], "edition_method": q["edition_method"],
                    "citation": cite.locator(q["locator"], rule=q["number"], edition=q["edition"], date=q["date"])})
    return out


def ja_texts(kb, key) -> list[dict]:
    """Every JA text of EN rule ``key``, the one to show first first: the official translation when
    it is of this edition or the EN wording has not changed between the two; else the documents'
    quotes of this edition, then the official translation carried by lineage."""
    found = official(kb, key)
    quotes = quoted(kb, key)
    if found and (found["edition"] == key[1] or not found["en_text_changed"]):
        return [found, *quotes]
    return [*quotes, *([found] if found else [])]
