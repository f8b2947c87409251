"""The model's shape: every node of the graph as plain dicts (built by kb.model, stored by kb.snapshot).

Kept apart from the builder so that loading a snapshot imports no parser, rdflib or build code.
"""
from __future__ import annotations

from dataclasses import dataclass, field

RuleKey = tuple[str, str, str]  # (lang, edition, number)


@dataclass
class Model:
    editions: dict[str, dict] = field(default_factory=dict)  # "en/2026-04-17" -> info
    rules: dict[RuleKey, dict] = field(default_factory=dict)
    children: dict[RuleKey, list[str]] = field(default_factory=dict)
    next_link: dict[RuleKey, tuple] = field(default_factory=dict)  # -> (number, method, score, changed)
    prev_link: dict[RuleKey, tuple] = field(default_factory=dict)
    ja_of: dict[RuleKey, RuleKey] = field(default_factory=dict)  # EN key -> JA key (same edition)
    glossary: dict[tuple[str, str, str], dict] = field(default_factory=dict)  # (lang, edition, term)
    mechanics: dict[str, dict] = field(default_factory=dict)
    mechanic_names: dict[str, list[str]] = field(default_factory=dict)  # normalised name -> keys
    documents: dict[str, dict] = field(default_factory=dict)
    rulings: dict[str, dict] = field(default_factory=dict)  # rulings and quoted rules
    citations: list[dict] = field(default_factory=list)
    cards: dict[str, dict] = field(default_factory=dict)
    card_names: dict[str, str] = field(default_factory=dict)  # normalised JA/EN name -> key
    refs_in: dict[RuleKey, list[dict]] = field(default_factory=dict)
    # JA section titles by edition and number, from the JA file's contents list (もくじ) and headings.
    # Kept apart from rules: the JA contents follow its own numbering (732 不正な処理の扱い).
    ja_section_titles: dict[str, dict[str, str]] = field(default_factory=dict)
    # Ruling id -> {"deciding": [...], "rules": [...]}: the current EN rules that decide the case it
    # describes (each check's first trace rule) and every rule its checks' traces applied, deciding
    # first. Computed at build time by running the ruling's own situations through the reasoning
    # engine (kb.snapshot.link_rulings -> kb.reasoning.engine.ruling_rules); empty with no EN edition.
    ruling_rules: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def en_editions(self) -> list[str]:
        return sorted(e["edition"] for e in self.editions.values() if e["lang"] == "en")

    def current(self, lang: str = "en") -> str | None:
        eds = sorted(e["edition"] for e in self.editions.values() if e["lang"] == lang)
        return eds[-1] if eds else None
