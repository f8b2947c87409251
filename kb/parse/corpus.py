"""Parse every source into records: the first half of a build (no rdflib here either).

A parse failure is raised as SourceError naming the file and line, before any output is written.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

from kb.parse import article, faq, wiki_page, wiki_source
from kb.parse import mtgjson
from kb.parse.card_data import CardDataError, parse_names_tsv, parse_wiki_name_table
from kb.parse.cr_en import CRFormatError, parse_cr_en
from kb.parse.cr_ja import parse_cr_ja
from kb.parse.records import CardName, CREdition, EditionCounts, OracleCard, ParsedDocument
from kb.sources.files import SourceError, SourceFile, SourceSet

DOCUMENT_PARSERS = {
    "wiki-source": wiki_source.parse,
    "wiki-page": wiki_page.parse,
    "faq": faq.parse,
    "article": article.parse,
}
CARD_PARSERS = {
    "names-tsv": parse_names_tsv,
    "wiki-names": parse_wiki_name_table,
}


@dataclass(slots=True)
class Corpus:
    editions: dict[tuple[str, str], CREdition] = field(default_factory=dict)  # (lang, edition) ->
    documents: list[ParsedDocument] = field(default_factory=list)
    cards: list[CardName] = field(default_factory=list)
    oracle_cards: list[OracleCard] = field(default_factory=list)  # from MTGJSON data, in file order
    sources: list[SourceFile] = field(default_factory=list)
    warnings: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, message)

    def en_editions(self) -> list[CREdition]:
        return sorted((e for (lang, _), e in self.editions.items() if lang == "en"), key=lambda e: e.effective)

    def ja_editions(self) -> list[CREdition]:
        return sorted((e for (lang, _), e in self.editions.items() if lang == "ja"), key=lambda e: e.effective)


def _guard(source: SourceFile, parse: Callable[[], object]):
    """Run a parser; turn any failure into a SourceError that names the file (and line)."""
    try:
        return parse()
    except CRFormatError as exc:
        raise SourceError(source.origin, str(exc).split(": ", 1)[-1], exc.line) from None
    except CardDataError as exc:  # "record 17: no 'name' field" / "line 3: not JSON: ..."
        raise SourceError(source.origin, str(exc).split(": ", 1)[-1]) from None
    except SourceError:
        raise
    except Exception as exc:  # a parser bug or an unexpected format: still name the file
        raise SourceError(source.origin, f"cannot parse as {source.format}: {exc}") from exc


def _merge_excerpt(into: CREdition, more: CREdition) -> None:
    """JA excerpts of one edition come as several files: one edition, rules in file order."""
    known = {r.number for r in into.rules}
    into.rules.extend(r for r in more.rules if r.number not in known)
    into.glossary.extend(more.glossary)


def _keep(corpus: Corpus, source: SourceFile, edition: CREdition, allow_incomplete: bool = False) -> None:
    """One edition per language and effective date; its file's accidents become build warnings. A
    file lacking what its own contents list promises (kb.parse.cr_en: a truncated copy) is refused
    unless ``allow_incomplete``: it would replace a whole edition by a part of it."""
    if edition.incomplete:
        line, message = edition.incomplete
        if not allow_incomplete:
            raise SourceError(source.origin, message + "; pass --allow-incomplete to build it anyway", line)
        corpus.warnings.append((source.origin, line, message + ": built anyway (--allow-incomplete)"))
    edition.file_date = source.file_date
    key = (edition.lang, edition.edition)
    earlier = corpus.editions.get(key)
    if earlier is not None:
        corpus.warnings.append((source.origin, 0, f"edition {edition.edition} ({edition.lang}) is also in "
                                                  f"{earlier.document.path}: this file is used"))
    corpus.editions[key] = edition
    corpus.warnings.extend((source.origin, line, message) for line, message in edition.warnings)


Memo = Callable[[str, str, Callable], object]  # (kind, key, make) -> value: the build's cache


def _no_memo(kind: str, key: str, make: Callable):
    return make()


_RULES, _GLOSSARY = CREdition.rules, CREdition.glossary  # the slots' own descriptors


class LazyEdition(CREdition):
    """A cached parse whose records (rules, glossary) are read from the cache on first use: a
    build that adds one edition needs the records of the new and current editions only (every
    other edition's rows and lineage pairs are cached too), and reading 35 editions' records
    was most of its parse phase. Everything else (dates, title, warnings, counts) is at hand."""

    __slots__ = ("_load", "_counts", "_loaded")

    @classmethod
    def of(cls, head: CREdition, counts: EditionCounts, load: Callable[[], CREdition]) -> "LazyEdition":
        self = cls.__new__(cls)
        for f in fields(CREdition):
            if f.name not in ("rules", "glossary"):
                setattr(self, f.name, getattr(head, f.name))
        self._load, self._counts, self._loaded = load, counts, False
        return self

    def _records(self) -> None:
        if not self._loaded:
            full = self._load()
            _RULES.__set__(self, full.rules)
            _GLOSSARY.__set__(self, full.glossary)
            self._loaded = True
            self._load = None

    @property
    def rules(self) -> list:
        self._records()
        return _RULES.__get__(self)

    @rules.setter
    def rules(self, value: list) -> None:
        self._records()
        _RULES.__set__(self, value)

    @property
    def glossary(self) -> list:
        self._records()
        return _GLOSSARY.__get__(self)

    @glossary.setter
    def glossary(self, value: list) -> None:
        self._records()
        _GLOSSARY.__set__(self, value)

    def counts(self) -> EditionCounts:
        return self._counts if not self._loaded else CREdition.counts(self)


def _cached_edition(memo: Memo, source: SourceFile, parse: Callable[[], CREdition], code: str) -> CREdition:
    """A CR file's parse, reused while its bytes and the parser's code are the same. The cache
    keeps the edition without its records (``parse-head``: small) beside the whole parse; when
    the head is cached, the records are read only if something asks for them (LazyEdition)."""
    key = f"{source.document.sha256}-{source.format}-{source.edition_hint}-{code}"
    whole: list[CREdition] = []

    def full() -> CREdition:
        return memo("parse", key, lambda: _guard(source, parse))

    def head() -> tuple[CREdition, EditionCounts]:
        whole.append(full())
        return replace(whole[0], rules=[], glossary=[]), whole[0].counts()

    first, counts = memo("parse-head", key, head)
    edition = whole[0] if whole else LazyEdition.of(first, counts, full)
    edition.document = source.document  # the same bytes; the path it was read from may differ
    return edition


def parse_all(sources: SourceSet, progress: Callable[[str], None] = lambda _: None, memo: Memo = _no_memo,
              code: str = "", allow_incomplete: bool = False) -> Corpus:
    """Every source parsed; CR files through ``memo`` (keyed by their sha256 and ``code``, a digest
    of the parsers' source). A CR file missing parts its contents list names is refused (SourceError)
    unless ``allow_incomplete``."""
    corpus = Corpus(sources=sources.files, warnings=list(sources.warnings))
    card_names: set[str] = set()
    for source in sources.files:
        doc = source.document
        if source.format == "cr-en":
            progress(f"parse {source.origin}")
            edition = _cached_edition(memo, source, lambda doc=doc: parse_cr_en(doc.text, doc), code)  # may run later
            _keep(corpus, source, edition, allow_incomplete)
        elif source.format == "cr-ja":
            progress(f"parse {source.origin}")
            edition = _cached_edition(
                memo, source, lambda doc=doc, hint=source.edition_hint: parse_cr_ja(doc.text, doc, edition=hint), code)
            key = ("ja", edition.edition)
            if key in corpus.editions and not corpus.editions[key].complete and not edition.complete:
                _merge_excerpt(corpus.editions[key], edition)
            else:
                _keep(corpus, source, edition)
        elif source.format in CARD_PARSERS:
            progress(f"parse {source.origin}")
            names = _guard(source, lambda: CARD_PARSERS[source.format](doc.text, doc))
            corpus.cards.extend(names)
        elif source.format in mtgjson.FORMATS:
            progress(f"parse {source.origin}")
            oracle, names = _guard(source, lambda: mtgjson.parse(
                source.data if source.data is not None else mtgjson.load(doc.text, doc), doc, source.format))
            corpus.oracle_cards.extend(oracle)
            corpus.cards.extend(names)
    for name in corpus.cards:
        card_names.update(n for n in (name.name_en, name.name_ja) if n)
    is_card = (lambda name: name in card_names) if card_names else None
    for source in sources.files:
        if source.format in DOCUMENT_PARSERS:
            progress(f"parse {source.origin}")
            parser = DOCUMENT_PARSERS[source.format]
            corpus.documents.append(_guard(source, lambda: parser(source.document.text, source.document,
                                                                  is_card=is_card)))
    return corpus
