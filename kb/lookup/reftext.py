"""The one link resolution for rule numbers inside any text (part of kb.lookup.KB): a number written
in an edition's text means that edition's rule; it is linked there, with today's number beside it
when it moved (or "removed"), and a JA translation's cross-reference whose number disagrees with
its 〔title〕 (kb.build.japanese's fixes) is flagged as stale and linked to the rule the title names.

Every page kind renders rule text through server.rendering.rule_text, which asks ``resolve`` and
``fixes``; the API's rule answers carry the same resolution as ``references`` (``references``).
"""
from __future__ import annotations

from kb import rulenumbers


class RefTextLookups:
    """Needs ``model``, ``lineage``, ``edition()``."""

    def numbering(self, edition: str | None, lang: str = "en") -> str | None:
        """The EN edition whose numbering a text of ``edition`` (EN or JA) is written in: itself when
        loaded, else None (today's numbering). A JA translation is of the EN edition of its date."""
        if not edition:
            return None
        return edition if f"en/{edition}" in self.model.editions else None

    def resolve_number(self, number: str, edition: str | None) -> dict:
        """What ``number`` written in ``edition``'s text meant: ``edition`` (the numbering, None for
        today's), ``exists`` there, ``today`` (today's number; None when removed or unknown) and
        ``status`` (kb.lookup.changes: current / renumbered / text-changed / removed / never-existed)."""
        return self._resolve(number, self.numbering(edition) or self.lineage.current)  # lineage.status keeps its answers

    def _resolve(self, number: str, edition: str | None) -> dict:
        if not edition:
            return {"number": number, "edition": None, "exists": False, "today": None, "status": "never-existed"}
        status = self.lineage.status(number, edition)
        current = status.get("current") or {}
        return {"number": number, "edition": edition, "exists": status["status"] != "never-existed",
                "today": current.get("number"), "status": status["status"]}

    def reference_fixes(self, lang: str, edition: str | None, number: str | None = None,
                        glossary_term: str | None = None) -> list[dict]:
        """The stale cross-references of a JA text (rule ``number`` or glossary entry of JA edition
        ``edition``): each {written, title, meant, meant_today, status}."""
        if lang != "ja" or not edition or not (number or glossary_term):
            return []
        where = f"rule:{number}" if number else f"glossary:{glossary_term}"
        found = self.model.ja_alignment.get(edition, {}).get("fixes", {}).get(where, [])
        out = []
        for fix in found:
            meant = fix.get("meant")
            today = self.resolve_number(meant, edition)["today"] if meant else None
            out.append(dict(fix, meant_today=today))
        return out

    def references(self, text: str | None, edition: str | None, lang: str = "en", number: str | None = None,
                   fixes: list[dict] | None = None) -> list[dict]:
        """Every rule number in ``text`` as the pages link it: {written, number, edition, today,
        status, stale (the fix, when the JA text's number disagrees with its 〔title〕)}."""
        if not text:
            return []
        if fixes is None:
            fixes = self.reference_fixes(lang, edition, number)
        stale = {f["written"]: f for f in fixes}
        out = []
        for m in rulenumbers.LINKABLE.finditer(text):
            written = next(v for v in m.groups() if v)
            fix = stale.get(written)
            if fix and not text[m.end():].lstrip().startswith(f"〔{fix['title']}"):
                fix = None
            target = fix["meant"] if fix and fix.get("meant") else written
            resolved = self.resolve_number(target, edition)
            out.append({"written": written, "at": m.start(), **resolved,
                        "stale": {k: fix.get(k) for k in ("title", "meant", "meant_today", "status")} if fix else None})
        return out
