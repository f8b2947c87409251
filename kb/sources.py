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

from .records import Document

CR_EN_NAME = re.compile(r"^(?:cr-en-|MagicCompRules[ _]?)(\d{8})(?:\.\d+)?\.txt$")
CR_JA_NAME = re.compile(r"^cr-ja-(\d{8})(?:-[\w-]+)?\.txt$")
CARD_FILES = {
    "mtgjson-set": re.compile(r"^mtgjson-set-[A-Z0-9]+\.json$"),
    "names-tsv": re.compile(r"^mtgjson-set-[A-Z0-9]+-names-en-ja\.tsv$"),
    "wiki-names": re.compile(r"^ja-card-names-mtgwiki-\d{8}\.json$"),
}
KINDS = ("cr", "wiki-source", "wiki-page", "faq", "article")


class SourceError(ValueError):
    """A source that cannot be used; names the file (and line when known)."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        where = f"{path}" + (f":{line}" if line else "")
        super().__init__(f"{where}: {message}")
        self.path, self.line = str(path), line


@dataclass(slots=True)
class SourceFile:
    """One file to parse: its Document (metadata + exact text) and the parser format to use."""

    document: Document
    format: str  # "cr-en" | "cr-ja" | "wiki-source" | "wiki-page" | "faq" | "article" | card formats
    edition_hint: str | None = None  # CR files: the date in the file name (YYYY-MM-DD)
    mechanics: tuple[str, ...] = ()
    origin: str = ""  # where it was read from, for messages (Document.path is what users see)


@dataclass(slots=True)
class SourceSet:
    files: list[SourceFile] = field(default_factory=list)

    def by_format(self, *formats: str) -> list[SourceFile]:
        return [f for f in self.files if f.format in formats]


def read_text(path: Path) -> tuple[str, str]:
    """(text without BOM, sha256 of the bytes). Undecodable bytes are an error, never replaced."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SourceError(path, f"not UTF-8 text (byte {exc.start})", line) from None
    return text, hashlib.sha256(data).hexdigest()


def _iso(yyyymmdd: str) -> str:
    return f"{yyyymmdd[:4]}-{yyyymmdd[4:6]}-{yyyymmdd[6:]}"


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
        text, digest = read_text(path)
        if entry.get("sha256") and entry["sha256"] != digest:
            raise SourceError(path, "content differs from the manifest's sha256 (the user's text must stay unchanged)")
        doc_date = entry.get("date")
        if doc_date is not None and not isinstance(doc_date, date):
            raise SourceError(manifest, f"document {entry['id']}: date must be a TOML date (YYYY-MM-DD)")
        document = Document(id=entry["id"], title=entry["title"], kind=entry["kind"], lang=entry["lang"],
                            path=str(Path(root.name) / entry["path"]), text=text, sha256=digest,
                            date=doc_date, quotes_edition=entry.get("quotes_edition"), url=entry.get("url"))
        fmt = "cr-" + entry["lang"] if entry["kind"] == "cr" else entry["kind"]
        files.append(SourceFile(document=document, format=fmt, mechanics=tuple(entry.get("mechanics", ())),
                                origin=str(path)))
    return files


def classify(path: Path) -> SourceFile | None:
    """A CR text or card-data file recognised by its name; None for anything else."""
    name = path.name
    for fmt, pattern in (("cr-en", CR_EN_NAME), ("cr-ja", CR_JA_NAME)):
        found = pattern.match(name)
        if found:
            text, digest = read_text(path)
            edition = _iso(found[1])
            lang = fmt[-2:]
            doc_id = f"cr-{lang}-{edition}" + (f"-{path.stem.rsplit('-', 1)[-1]}" if "excerpt" in name else "")
            title = f"Comprehensive Rules {edition} ({'English' if lang == 'en' else '日本語'})"
            if "excerpt" in name:
                title += f", excerpt {path.stem.rsplit('-', 1)[-1]}"
            document = Document(id=doc_id, title=title, kind="cr", lang=lang, path=path.name, text=text,
                                sha256=digest, date=date.fromisoformat(edition))
            return SourceFile(document=document, format=fmt, edition_hint=edition, origin=str(path))
    for fmt, pattern in CARD_FILES.items():
        if pattern.match(name):
            text, digest = read_text(path)
            document = Document(id=f"cards-{path.stem}", title=f"Card names: {name}", kind="card-data",
                                lang="ja", path=path.name, text=text, sha256=digest)
            return SourceFile(document=document, format=fmt, origin=str(path))
    return None


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
            raise SourceError(path, "not a recognised source: expected a CR text named like "
                                    "'MagicCompRules 20260417.txt' or 'cr-en-20260417.txt', or card data")
        files.extend(found)
    unique: dict[str, SourceFile] = {}
    for f in files:  # the same file given twice is read once; a later CR copy of an edition wins
        earlier = unique.get(f.document.id)
        if earlier and earlier.document.sha256 != f.document.sha256 and f.document.kind != "cr":
            raise SourceError(f.origin, f"two different files claim id {f.document.id} (also {earlier.origin})")
        unique[f.document.id] = f
    return SourceSet(list(unique.values()))
