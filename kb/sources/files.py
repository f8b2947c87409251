"""Finding and reading source files: the manifest of rules_src/, CR files and card data anywhere.

Reading is separate from parsing so a bad file is reported with its path before any graph work
starts, and a failed build never touches the previous snapshot.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from kb.errors import InvalidSource
from kb.sources.cards import classify_card_data
from kb.sources.cr_header import date_in_name, sniff
from kb.sources.decode import decode
from kb.sources import official
from kb.sources.document import Document
from kb.sources.editions import disagreements
from kb.sources.types import source_type

CR_EN_NAME = re.compile(r"^(?:cr-en-|MagicCompRules[ _]?)(\d{8})(?:\.\d+)?\.txt$")
CR_JA_NAME = re.compile(r"^cr-ja-(\d{8})(?:-[\w-]+)?\.txt$")
CARD_SUFFIXES = (".json", ".json.gz", ".tsv")  # card data is recognised by content (kb.sources.cards)
KINDS = ("cr", "wiki-source", "wiki-page", "faq", "article")


class SourceError(InvalidSource):
    """A source that cannot be used; names the file (and line when known)."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        where = f"{path}" + (f":{line}" if line else "")
        super().__init__(f"{where}: {message}", file=str(path), line=line)
        self.path, self.line = str(path), line


@dataclass(slots=True)
class SourceFile:
    """One file to parse: its Document (metadata + exact text) and the parser format to use."""

    document: Document
    format: str  # "cr-en" | "cr-ja" | "wiki-source" | "wiki-page" | "faq" | "article" | card formats
    edition_hint: str | None = None  # CR files: the effective date from the header (YYYY-MM-DD)
    mechanics: tuple[str, ...] = ()
    origin: str = ""  # where it was read from, for messages (Document.path is what users see)
    file_date: str | None = None  # CR files: the date in the file name, an alias of the edition
    data: object = None  # card data: the parsed JSON (read once; AllPrintings is large)


@dataclass(slots=True)
class SourceSet:
    files: list[SourceFile] = field(default_factory=list)
    warnings: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, message)

    def by_format(self, *formats: str) -> list[SourceFile]:
        return [f for f in self.files if f.format in formats]


def read_text(path: Path) -> tuple[str, str, str]:
    """(text without BOM, sha256 of the bytes, encoding)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror}") from None
    text, encoding = decode(data)
    return text, hashlib.sha256(data).hexdigest(), encoding


def load_manifest(root: Path) -> list[SourceFile]:
    manifest = root / "manifest.toml"
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SourceError(manifest, "no manifest.toml in the source folder") from None
    except tomllib.TOMLDecodeError as exc:
        raise SourceError(manifest, f"invalid TOML: {exc}") from None
    files = []
    for index, entry in enumerate(data.get("document", []), 1):
        missing = [k for k in ("id", "path", "title", "kind", "lang") if k not in entry]
        if missing:
            raise SourceError(manifest, f"document #{index} lacks {', '.join(missing)}")
        if entry["kind"] not in KINDS:
            raise SourceError(manifest, f"document {entry['id']}: kind must be one of {', '.join(KINDS)}")
        path = root / entry["path"]
        text, digest, encoding = read_text(path)
        if entry.get("sha256") and entry["sha256"] != digest:
            raise SourceError(path, "content differs from the manifest's sha256 (the user's text must stay unchanged)")
        try:
            declared = source_type(entry["kind"], entry.get("source_type"))
        except ValueError as exc:
            raise SourceError(manifest, f"document {entry['id']}: {exc}") from None
        doc_date = entry.get("date")
        if doc_date is not None and not isinstance(doc_date, date):
            raise SourceError(manifest, f"document {entry['id']}: date must be a TOML date (YYYY-MM-DD)")
        document = Document(id=entry["id"], title=entry["title"], kind=entry["kind"], lang=entry["lang"],
                            path=str(Path(root.name) / entry["path"]), text=text, sha256=digest,
                            date=doc_date, quotes_edition=entry.get("quotes_edition"), url=entry.get("url"),
                            encoding=encoding, source_type=declared)
        fmt = "cr-" + entry["lang"] if entry["kind"] == "cr" else entry["kind"]
        files.append(SourceFile(document=document, format=fmt, mechanics=tuple(entry.get("mechanics", ())),
                                origin=str(path)))
    return files


def classify(path: Path) -> SourceFile | None:
    """A CR text or card data (MTGJSON set files, AtomicCards, AllPrintings, name tables), each
    recognised by its content whatever the file's name; None for anything else. A file named like
    a CR that is not one is an error, so a truncated download is never silently skipped."""
    name = path.name
    if name.lower().endswith(CARD_SUFFIXES):
        return classify_card_data(path, SourceFile, SourceError)
    named_like_cr = bool(CR_EN_NAME.match(name) or CR_JA_NAME.match(name))
    if path.suffix.lower() not in (".txt", "") and not named_like_cr:
        return None
    text, digest, encoding = read_text(path)
    header = sniff(text.splitlines())
    file_date = date_in_name(name)
    if header is None:
        if named_like_cr:
            raise SourceError(path, "not a Comprehensive Rules text: no title and 'effective as of <date>' "
                                    "line near the top", 1)
        return None
    edition = header.effective.isoformat() if header.effective else file_date
    if edition is None:
        raise SourceError(path, "a Japanese CR text with no 「このルールは…から有効です」 line and no date in its name")
    lang = header.lang
    doc_id = f"cr-{lang}-{edition}"
    title = f"Comprehensive Rules {edition} ({'English' if lang == 'en' else '日本語'})"
    document = Document(id=doc_id, title=title, kind="cr", lang=lang, path=name, text=text,
                        sha256=digest, date=date.fromisoformat(edition), encoding=encoding)
    return SourceFile(document=document, format=f"cr-{lang}", edition_hint=edition, origin=str(path),
                      file_date=file_date)


def discover(paths: list[Path], rules_src: Path | None) -> SourceSet:
    """rules_src (with its manifest) plus every CR / card file found in ``paths`` (files or folders)."""
    files: list[SourceFile] = load_manifest(rules_src) if rules_src else []
    for path in paths:
        if not path.exists():
            raise SourceError(path, "no such file or folder")
        if path.is_dir() and (path / "manifest.toml").exists():
            files.extend(load_manifest(path))
            continue
        candidates = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        found = [f for f in map(classify, candidates) if f]
        if path.is_file() and not found:
            raise SourceError(path, "not a recognised source: expected a Comprehensive Rules text (a title "
                                    "and 'These rules are effective as of <date>' near the top) or card data", 1)
        files.extend(found)
    unique: dict[str, SourceFile] = {}
    warnings: list[tuple[str, int, str]] = []
    for f in files:  # the same file given twice is read once; a later CR copy of an edition wins
        earlier = unique.get(f.document.id)
        if earlier and earlier.document.sha256 != f.document.sha256:
            if f.document.kind != "cr":
                raise SourceError(f.origin, f"two different files claim id {f.document.id} (also {earlier.origin})")
            warnings.append((f.origin, 0, f"a second, different file for edition {f.edition_hint} "
                                          f"(also {earlier.origin}): this one is used"))
        unique[f.document.id] = f
    en = [(f.edition_hint, f.file_date, f.document.sha256, f.origin) for f in unique.values() if f.format == "cr-en"]
    warnings += [(origin, 0, f"the official editions list disagrees: {message}")
                 for origin, message in disagreements(official.load(), en)]
    return SourceSet(list(unique.values()), warnings)
