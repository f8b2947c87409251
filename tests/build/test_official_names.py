"""Official names only (issue 37.8): a glossary term's Japanese headword is the official JA CR
glossary's, or there is none — never the title of a section it cites (「マナ Color」「原則 Deck」
「能力 Activated Ability」「タイプ行 Card Type」 on /mechanics)."""
from __future__ import annotations

import re

import pytest


def _ja_glossary(full_kb) -> dict[str, str]:
    """The JA glossary of the loaded translation: English term -> official JA headword."""
    edition = full_kb.model.current("ja")
    return {e["term_en"]: term for (lang, ed, term), e in full_kb.model.glossary.items()
            if lang == "ja" and ed == edition and e.get("term_en")}


@pytest.mark.parametrize("english", ["Color", "Deck", "Activated Ability", "Card Type"])
def test_the_reported_terms_take_the_glossary_headword(full_kb, english):
    official = _ja_glossary(full_kb)[english]  # 色, デッキ, 起動型能力, カード・タイプ
    mechanic = full_kb.mechanic(english)
    assert mechanic["name"] == {"en": english, "ja": official}


def test_every_term_is_named_by_the_ja_glossary_or_not_at_all(full_kb):
    headwords = set(_ja_glossary(full_kb).values())
    terms = [m for m in full_kb.model.mechanics.values() if m["kind"] == "term"]
    assert len(terms) > 300
    edition = full_kb.model.current("ja")
    guessed = []
    for m in terms:
        if not m["name_ja"] or m["name_ja"] in headwords:
            continue
        # else the JA CR writes the pair itself (its glossary line 「（へや）／Room」 lost the headword;
        # 205.3h has 「部屋／Room」): the rule it names must hold 「JA／EN」 exactly
        source = m.get("ja_source") or {}
        rule = full_kb.model.rules.get(("ja", source.get("edition") or edition, source.get("rule") or ""))
        if not (source.get("how") == "rule-text" and rule and f"「{m['name_ja']}／{m['name_en']}」" in rule["text"]):
            guessed.append((m["name_en"], m["name_ja"], source))
    assert guessed == []
    named = [m for m in terms if m["name_ja"]]
    assert len(named) > 200  # the glossary still names most of them


def test_mechanics_page_shows_official_names(full_kb):
    from server import create_app
    html = create_app({"KB": full_kb, "TESTING": True}).test_client().get(
        "/mechanics", headers={"Accept": "text/html"}).get_data(as_text=True)
    for ja, en in (("マナ", "Color"), ("原則", "Deck"), ("能力", "Activated Ability"), ("タイプ行", "Card Type")):
        assert not re.search(rf">{ja}</a>\s*<span class=\"alt\"[^>]*>{en}<", html)
    for ja, en in (("色", "Color"), ("デッキ", "Deck"), ("起動型能力", "Activated Ability"), ("カード・タイプ", "Card Type")):
        assert re.search(rf">{ja}</a>\s*<span class=\"alt\"[^>]*>{en}<", html), en
