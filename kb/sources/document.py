"""A source document as read: metadata and the exact text (the records parsers make point into it)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(slots=True)
class Document:
    """A source document: a CR file, a wiki page, an FAQ, an article."""

    id: str  # stable slug, e.g. "cr-en-2026-04-17", "wiki-hiru-source"
    title: str
    kind: str  # "cr" | "wiki-source" | "wiki-page" | "faq" | "article"
    lang: str  # "ja" | "en"
    path: str  # path as given (relative to its source root when known)
    text: str  # the exact original text (BOM removed, line ends kept as published)
    sha256: str = ""
    date: date | None = None  # publication / effective date
    quotes_edition: str | None = None  # the CR edition its quotes come from, if known ("2023-11-17")
    url: str | None = None
    encoding: str = "utf-8"
    source_type: str | None = None  # kb.sources.types: "official-faq", "wiki", "blog", ... (None: from kind)  # how the bytes were decoded: utf-8, utf-8-sig, utf-16-le/be, cp1252
