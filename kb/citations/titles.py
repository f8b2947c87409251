"""Titles written with citations (〔不正な処理の扱い〕, “Transform”): which rules carry them, in JA and EN."""
from __future__ import annotations

from kb.memo import per_owner
from kb.parse.common import is_japanese
from kb.text import normalize


class Titles:
    def __init__(self):
        self.ja_to_en: dict[str, set[str]] = {}

    def add(self, ja: str | None, en: str | None) -> None:
        if ja and en:
            self.ja_to_en.setdefault(normalize(ja), set()).add(normalize(en))

    def japanese(self, english: str) -> set[str]:
        """The JA titles known for a normalised EN title (クリーチャー・タイプ for creature types)."""
        if not hasattr(self, "_en_to_ja"):
            self._en_to_ja: dict[str, set[str]] = {}
            for ja, ens in self.ja_to_en.items():
                for en in ens:
                    self._en_to_ja.setdefault(en, set()).add(ja)
        return self._en_to_ja.get(english, set())

    def english(self, title: str) -> set[str]:
        key = normalize(title)
        if not is_japanese(title):
            return {key}
        return set(self.ja_to_en.get(key, ()))

    @staticmethod
    def of_rule(model, edition: str, number: str) -> set[str]:
        """A section/chapter's title, or a short rule text that is a name (701.27 "Transform")."""
        rule = model.rules.get(("en", edition, number))
        if rule is None:
            return set()
        text = rule["text"].strip()
        if rule["kind"] in ("chapter", "section") or len(text) <= 60 and not text.endswith("."):
            return {normalize(text)}
        return set()

    def rules_titled(self, model, edition: str, wanted: set[str]) -> list[str]:
        index = title_index(model, edition)
        return sorted({n for t in wanted for n in index.get(t, ())})


def titles_for(model) -> Titles:
    """JA -> EN titles: JA sections paired with the EN section of the same number and date, the
    JA CR's table of contents (its own numbering, so 732 不正な処理の扱い), glossary JA/EN pairs
    and mechanic names."""
    titles = Titles()
    ja_editions = [e["edition"] for e in model.editions.values() if e["lang"] == "ja"]
    for edition in ja_editions:
        for number, rule in model.rules.edition("ja", edition).items():
            if rule["kind"] in ("chapter", "section"):
                en = model.rules.get(("en", edition, number))
                if en:
                    titles.add(rule["text"], en["text"])
    for edition, by_number in model.ja_section_titles.items():
        for number, ja_title in by_number.items():
            en = model.rules.get(("en", edition, number))
            if en and en["kind"] == "section":
                titles.add(ja_title, en["text"])
    for edition in ja_editions:
        for term, entry in model.glossary.edition("ja", edition).items():
            titles.add(term, entry.get("term_en"))
    for m in model.mechanics.values():
        for ja in [m.get("name_ja"), *m.get("aliases_ja", [])]:
            for en in [m.get("name_en"), *m.get("aliases_en", [])]:
                titles.add(ja, en)
    return titles


def title_index(model, edition: str) -> dict[str, list[str]]:
    """Normalised EN title -> the rules of ``edition`` that carry it."""
    def build() -> dict[str, list[str]]:
        index: dict[str, list[str]] = {}
        for number in model.rules.edition("en", edition):
            for t in Titles.of_rule(model, edition, number):
                index.setdefault(t, []).append(number)
        return index
    return per_owner(model, ("citations-title-index", edition), build)
