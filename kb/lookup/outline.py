"""The rules as a book: table of contents, previous/next rule, a rule's titled heading and its
place in its section (part of kb.lookup.KB)."""
from __future__ import annotations

from kb.errors import RuleNotFound
from kb.lookup import translation
from kb.memo import per_owner
from kb.text import is_title


def _title_only(rule: dict) -> bool:
    """702.145 "Daybound and Nightbound" is a title; 702.145a is a rule that says something."""
    return rule["kind"] in ("chapter", "section") or is_title(rule["text"])


class OutlineLookups:
    """Needs ``model``, ``edition()`` and ``ja_key()``."""

    def _order(self, edition: str) -> list[str]:
        """The edition's numbers in document order (chapters, sections, rules, subrules)."""
        def make() -> list[str]:
            # One edition's block only: walking every key would read all ~35 editions from disk.
            block = self.model.rules.edition("en", edition) or self.model.rules.edition("ja", edition)
            return sorted(block, key=lambda number: block[number]["locator"]["line_start"])
        return per_owner(self, ("rule-order", edition), make)

    def _lang_key(self, edition: str, number: str):
        return ("en", edition, number) if ("en", edition, number) in self.model.rules else ("ja", edition, number)

    def titles(self, key) -> dict:
        """A rule's EN and JA text when it is a title (a heading, or 702.145 Daybound and Nightbound)."""
        rule = self.model.rules.get(key)
        if not rule or not _title_only(rule):
            return {"en": None, "ja": None}
        ja_key = self.ja_key(key) if key[0] == "en" else key
        ja = self.model.rules.get(ja_key) if ja_key else None
        return {"en": rule["text"] if key[0] == "en" else None, "ja": ja["text"] if ja else None}

    def brief_titled(self, edition: str, number: str) -> dict:
        key = self._lang_key(edition, number)
        rule = self.model.rules[key]
        ja_key = self.ja_key(key) if key[0] == "en" else key
        ja = self.model.rules.get(ja_key) if ja_key else None
        fixes = self.reference_fixes("ja", ja_key[1], ja_key[2]) if ja else []
        # a translation of another edition is said to be one (「現行 701.27a の和訳（2026-01-16）」), and
        # whether this edition's EN wording differs from the translated one's
        other = translation.other_edition(self, key, ja_key) if ja and key[0] == "en" else None
        return {"number": number, "kind": rule["kind"], "edition": edition, "title": self.titles(key),
                "text": {"en": rule["text"] if key[0] == "en" else None, "ja": ja["text"] if ja else None},
                # the JA text's numbers are the translated edition's; a stale one is resolved by its 〔title〕
                "ja": {"edition": ja_key[1], "number": ja_key[2], "reference_fixes": fixes,
                       "other_edition": other} if ja else None}

    def heading(self, number: str, edition: str) -> list[dict]:
        """The titled ancestors of a rule, outermost first (7 その他のルール > 731 昼と夜), and the rule
        itself when it is a title."""
        out, walk = [], number
        while walk:
            key = self._lang_key(edition, walk)
            rule = self.model.rules.get(key)
            if not rule:
                break
            if _title_only(rule):
                out.append({"number": walk, "kind": rule["kind"], "title": self.titles(key)})
            walk = rule["parent"]
        return list(reversed(out))

    def neighbours(self, number: str, edition: str) -> dict:
        order = self._order(edition)
        at = per_owner(self, ("rule-order-index", edition), lambda: {n: i for i, n in enumerate(order)}).get(number)
        if at is None:
            return {"previous": None, "next": None}
        return {"previous": self.brief_titled(edition, order[at - 1]) if at > 0 else None,
                "next": self.brief_titled(edition, order[at + 1]) if at + 1 < len(order) else None}

    def context(self, number: str, edition: str) -> dict:
        """The rule in its section: the section's rules (numbers and titles/first words), and the
        whole top-level rule the number belongs to with every subrule, in document order."""
        key = self._lang_key(edition, number)
        rule = self.model.rules.get(key)
        if rule is None:
            return {"section": None, "outline": [], "rule": None, "family": []}
        section = number.split(".")[0] if rule["kind"] in ("rule", "subrule") else number
        top = ".".join(number.split(".")[:2]).rstrip("abcdefghijkmnpqrstuvwxyz") if "." in number else None
        order = self._order(edition)
        outline = [self.brief_titled(edition, n) for n in order
                   if n.split(".")[0] == section and n.count(".") == 1 and not n[-1].isalpha()]
        family = [self.brief_titled(edition, n) for n in order if top and (n == top or n.startswith(top) and
                                                                           n[len(top):].isalpha())]
        return {"section": self.brief_titled(edition, section) if self._lang_key(edition, section) in self.model.rules
                else None, "outline": outline, "rule": top, "family": family}

    def contents(self, edition: str | None = None) -> dict:
        """The table of contents: every chapter with its sections, EN and JA titles, and the glossary."""
        edition = self.edition(edition)
        chapters: list[dict] = []
        for number in self._order(edition):
            key = self._lang_key(edition, number)
            kind = self.model.rules[key]["kind"]
            if kind == "chapter":
                chapters.append(self.brief_titled(edition, number) | {"sections": []})
            elif kind == "section" and chapters:
                entry = self.brief_titled(edition, number)
                entry["rules"] = sum(1 for k in self.model.children.get(key, ()))
                chapters[-1]["sections"].append(entry)
        if not chapters:
            raise RuleNotFound(f"no rules loaded for edition {edition}")
        ja = {k[1] for k in self.model.rules if k[0] == "ja"}
        return {"edition": edition, "chapters": chapters, "ja_editions": sorted(ja),
                "editions": self.model.en_editions()}
