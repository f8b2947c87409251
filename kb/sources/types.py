"""What a source is, as a reader must be told: official rules, an official ruling, the official FAQ,
wiki commentary or blog commentary — never all "裁定". One place for the types and their JA/EN labels;
the graph carries them as ``mtg:sourceType`` (kb.vocab), the API as ``source_type`` on every
document, ruling and quote, and the pages and the CLI print the label.

A manifest entry may say its type (``source_type = "blog"``); otherwise it follows from the format:
an FAQ page is the official FAQ, a wiki page or its source is wiki commentary, an article is a blog's
(an official article must say so). Rulings in card data (MTGJSON, from Gatherer) are official rulings.
"""
from __future__ import annotations

# key -> (JA label, EN label), in the order of authority a page lists them
TYPES: dict[str, tuple[str, str]] = {
    "official-rules": ("総合ルール", "official rules"),
    "official-ruling": ("公式裁定", "official ruling"),
    "official-faq": ("公式FAQ", "official FAQ"),
    "official-article": ("公式記事", "official article"),
    "card-data": ("カード・データ", "card data"),
    "wiki": ("Wiki解説", "wiki commentary"),
    "blog": ("ブログ解説", "blog commentary"),
}
BY_KIND = {"cr": "official-rules", "faq": "official-faq", "wiki-source": "wiki", "wiki-page": "wiki",
           "article": "blog", "card-data": "card-data", "card-ruling": "official-ruling"}
OFFICIAL = frozenset(k for k in TYPES if k.startswith("official-"))


def source_type(kind: str, declared: str | None = None) -> str:
    """The type of a document of format ``kind`` (a declared type wins)."""
    if declared:
        if declared not in TYPES:
            raise ValueError(f"source_type {declared!r}: expected one of {', '.join(TYPES)}")
        return declared
    return BY_KIND.get(kind, "blog")


def typed(key: str) -> dict:
    """``{"key", "label": {"ja", "en"}, "official"}``: what the API gives with a source."""
    ja, en = TYPES[key]
    return {"key": key, "label": {"ja": ja, "en": en}, "official": key in OFFICIAL}


def label(key: str | None, lang: str = "ja") -> str:
    ja, en = TYPES.get(key or "", (key or "", key or ""))
    return en if lang == "en" else ja
