"""The Japanese CR aligned with the English edition it translates, checked, and its
cross-references resolved by their 〔title〕.

A JA edition translates the EN edition of its date rule for rule (``model.ja_of``, by number).
This module checks that pairing and records what does not fit (``model.ja_alignment[edition]``):
numbers present in one language only (the translation's own: a repeated 505.4, an extra 805.10g, no
610.5), chapters and sections its contents list (もくじ) omits (721) or adds, and cross-references.

The translation writes cross-references as ``rule 704〔状況起因処理〕``; some still carry pre-2026
numbers (``rule 729〔昼と夜〕`` where 昼と夜 is 730). A reference whose number names another rule
than its title is resolved by the title when exactly one rule of that level has it (729 → 730,
status ``number-disagrees``), else left unlinked (``title-disagrees``): never linked to the wrong
rule. The rules' and glossary entries' ``refs`` are rewritten to the meant numbers, so the graph,
references and search follow what the translation meant; the fixes are kept for display.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata

from kb.build.cache import code_digest
from kb.citations.extract import find_citations
from kb.parse.cr_ja import contents, translation_version
from kb.parse.records import CREdition
from kb.store.rows import Model

_NOISE = re.compile(r"[\s\u3000「」『』〔〕]")


def align(model: Model, editions: list[CREdition], memo=None, row_keys: dict | None = None) -> None:
    """Each JA edition against the EN edition of its date: the report in ``model.ja_alignment``, and
    each JA rule's and glossary entry's ``refs`` rewritten to the numbers meant. With ``memo`` (the
    build's cache) and ``row_keys`` (kb.build.model's: a digest of what an edition's rows are made
    of), the outcome is kept across builds: it depends only on both editions' rows and this code."""
    for ja in editions:
        keys = (row_keys or {}).get(("ja", ja.edition)), (row_keys or {}).get(("en", ja.edition))
        if memo is None or keys[0] is None:
            model.ja_alignment[ja.edition] = _align(model, ja)
            continue
        key = hashlib.sha256(repr((keys, code_digest("build/japanese.py"))).encode()).hexdigest()[:32]
        report, rule_refs, glossary_refs = memo("ja-align", key, lambda: _outcome(model, ja))
        for table, refs in ((model.rules, rule_refs), (model.glossary, glossary_refs)):
            for number, row in table.edition("ja", ja.edition).items():
                row["refs"] = list(refs[number])
        model.ja_alignment[ja.edition] = report


def _outcome(model: Model, ja: CREdition) -> tuple[dict, dict[str, list[str]], dict[str, list[str]]]:
    report = _align(model, ja)
    return report, *({n: row["refs"] for n, row in table.edition("ja", ja.edition).items()}
                     for table in (model.rules, model.glossary))


def norm(title: str) -> str:
    """A title for comparison only (never shown): NFKC, no spaces (the scrape adds some), no brackets."""
    return _NOISE.sub("", unicodedata.normalize("NFKC", title or ""))


def title_of(rule: dict) -> str:
    """A JA rule's title: a heading's text, or a keyword rule's name before 「／English」."""
    text = rule["text"]
    if rule["kind"] in ("chapter", "section"):
        return text
    head = text.split("／", 1)[0]
    return head if len(head) < 40 else ""


def _fits(title: str, rule: dict) -> bool:
    wanted = norm(title)
    return bool(wanted) and (wanted == norm(title_of(rule)) or wanted in norm(rule["text"])[:80])


class _Resolver:
    def __init__(self, ja_rules: dict[str, dict]):
        self.rules = ja_rules
        self._by_level: dict[tuple[str, str | None], list[str]] = {}
        for number, rule in ja_rules.items():
            self._by_level.setdefault((rule["kind"], rule["parent"]), []).append(number)

    def fix(self, number: str, title: str | None, raw: str) -> dict | None:
        """None when the reference is fine; else what it meant (or that it cannot be told)."""
        rule = self.rules.get(number)
        if not title or (rule and _fits(title, rule)):
            return None
        level = (rule["kind"], rule["parent"]) if rule else _level_of(number)
        same = [n for n in self._by_level.get(level, []) if norm(title_of(self.rules[n])) == norm(title)]
        if len(same) == 1:
            return {"written": number, "title": title, "meant": same[0], "status": "number-disagrees", "raw": raw}
        return {"written": number, "title": title, "meant": None, "status": "title-disagrees", "raw": raw}


def _level_of(number: str) -> tuple[str, str | None]:
    if "." not in number:
        return ("section", number[0]) if len(number) == 3 else ("chapter", None)
    head, tail = number.split(".", 1)
    return ("subrule", f"{head}.{tail.rstrip('abcdefghijkmnpqrstuvwxyz')}") if tail[-1:].isalpha() else ("rule", head)


def _resolve_refs(row: dict, resolver: _Resolver, own: str | None) -> list[dict]:
    """Rewrite ``row["refs"]`` to the meant numbers; return the fixes made."""
    fixes, refs = [], []
    for c in find_citations(row["text"]):
        for number in c.numbers:
            fix = resolver.fix(number, c.title, c.raw) if len(c.numbers) == 1 else None
            if fix:
                fixes.append(fix)
            meant = fix["meant"] if fix else number
            if meant and meant != own and meant not in refs:
                refs.append(meant)
    row["refs"] = refs
    return fixes


def _align(model: Model, ja: CREdition) -> dict:
    edition = ja.edition
    ja_rules = dict(model.rules.edition("ja", edition))  # one edition's block, not a pass over every edition's
    en_rules = dict(model.rules.edition("en", edition))
    version = translation_version(ja.document.text)
    report: dict = {"edition": edition, "document": ja.document.id, "translation": version,
                    "label": f"和訳 {version}" if version else f"和訳 {edition}",
                    "en_edition": edition if en_rules else None}
    resolver = _Resolver(ja_rules)
    fixes: dict[str, list[dict]] = {}
    for number, rule in ja_rules.items():
        if found := _resolve_refs(rule, resolver, number):
            fixes[f"rule:{number}"] = found
    for term, entry in model.glossary.edition("ja", edition).items():
        if found := _resolve_refs(entry, resolver, None):
            fixes[f"glossary:{term}"] = found
    report["fixes"] = fixes
    all_fixes = [f for found in fixes.values() for f in found]
    report["references"] = {"fixed": sum(f["status"] == "number-disagrees" for f in all_fixes),
                            "unresolved": sum(f["status"] == "title-disagrees" for f in all_fixes)}
    toc = contents(ja.document.text)
    listed = {n for n, _, _ in toc}
    headings = {n for n, r in ja_rules.items() if r["kind"] in ("chapter", "section")}
    report["contents"] = {"entries": len(toc), "missing": sorted(headings - listed - {"0"}),
                          "extra": sorted(listed - headings - {"0"})}
    if not en_rules:
        report.update(aligned=0, only_ja=[], only_en=[], refs_differ=[])
        return report
    both = sorted(set(ja_rules) & set(en_rules))
    report["aligned"] = len(both)
    report["only_ja"] = [{"number": n, "line": ja_rules[n]["locator"]["line_start"], "why": _why_only_ja(n, ja_rules)}
                         for n in sorted(set(ja_rules) - set(en_rules))]
    report["only_en"] = [{"number": n, "line": en_rules[n]["locator"]["line_start"],
                          "why": "the translation has no rule of this number"}
                         for n in sorted(set(en_rules) - set(ja_rules)) if en_rules[n]["kind"] != "chapter" or n != "0"]
    report["refs_differ"] = [n for n in both if set(ja_rules[n]["refs"]) != set(en_rules[n]["refs"])]
    return report


def _why_only_ja(number: str, ja_rules: dict[str, dict]) -> str:
    if "~" in number:
        first = ja_rules.get(number.split("~")[0])
        same = first and norm(first["text"]) == norm(ja_rules[number]["text"])
        return "printed twice in the translation" + (" (the same text)" if same else " (the wording differs)")
    return "the EN edition has no rule of this number"


# ---------------------------------------------------------------- JA names of mechanics


def name_mechanics(model: Model, lexicon, lineage) -> None:
    """The JA title of each keyword rule (``702.145. 日暮・夜明／Daybound and Nightbound``) is the
    official JA name of its mechanic; each part of a joined title (日暮, 夜明) is an alias."""
    for (lang, edition, number), rule in model.rules.in_lang("ja"):
        if rule["kind"] != "rule" or rule["parent"] not in ("701", "702"):
            continue
        head, sep, english = rule["text"].partition("／")
        if not sep or len(head) > 30 or not ("en", edition, number) in model.rules:
            continue
        today = lineage.forward(number, edition)[0]
        key = lexicon.for_rule(today) if today else None
        if key is None or lexicon.by_key[key].rules[0] != today:
            continue
        name = head.replace(" ", "").strip()
        lexicon.add_ja_name(key, name, primary=True)
        if " and " in english and "・" in name:
            for part in name.split("・"):
                lexicon.add_ja_name(key, part)
