"""Card data recognised by its content: MTGJSON set files, ``AtomicCards.json``,
``AllPrintings.json`` (plain or ``.json.gz``, as MTGJSON publishes them), the MTG Wiki card-name
table and the derived EN/JA name TSV, whatever the files are called.

The JSON is parsed once here and kept on the SourceFile (AllPrintings is large); a file with a
card-data suffix that is none of these is not a source (None), unless it is broken JSON: that is
an error naming the file, so a truncated download is never silently skipped.
"""
from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

from kb.sources.decode import decode
from kb.sources.document import Document

FORMATS = ("mtgjson-set", "mtgjson-atomic", "mtgjson-all")
TSV_HEADER = ("name_en", "name_ja")


def _is_set(obj) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("cards"), list) and "code" in obj


def detect(obj) -> str | None:
    """Which card data ``obj`` (parsed JSON) is: an MTGJSON format, "wiki-names", or None."""
    if isinstance(obj, list):
        if obj and all(isinstance(r, dict) and "name" in r and "jpname" in r for r in obj[:50]):
            return "wiki-names"
        return None
    if not isinstance(obj, dict):
        return None
    data = obj.get("data", obj)
    if _is_set(data):
        return "mtgjson-set"
    if isinstance(data, dict) and data:
        first = next(iter(data.values()))
        if isinstance(first, list) and first and isinstance(first[0], dict) and "layout" in first[0]:
            return "mtgjson-atomic"
        if _is_set(first):
            return "mtgjson-all"
    return None


def describe(obj, fmt: str, name: str) -> str:
    """A title for the document: what the file holds and, when it says, which MTGJSON release."""
    meta = obj.get("meta") if isinstance(obj, dict) else None
    release = f", MTGJSON {meta.get('version') or meta.get('date')}" if isinstance(meta, dict) else ""
    if fmt == "mtgjson-set":
        data = obj.get("data", obj)
        return f"Card data: MTGJSON set {data.get('code')} ({data.get('name')}){release}"
    if fmt == "mtgjson-atomic":
        return f"Card data: MTGJSON AtomicCards ({len(obj.get('data', {}))} cards){release}"
    if fmt == "mtgjson-all":
        return f"Card data: MTGJSON AllPrintings ({len(obj.get('data', {}))} sets){release}"
    return f"Card names: {name}"


def _stem(name: str) -> str:
    for suffix in (".json.gz", ".json", ".tsv"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def classify_card_data(path: Path, source_file, source_error):
    """A SourceFile (``source_file`` class) for card data at ``path``, or None if it is not card data."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise source_error(path, f"cannot read: {exc.strerror}") from None
    digest = hashlib.sha256(raw).hexdigest()
    if path.name.lower().endswith(".gz"):
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise source_error(path, f"not a readable gzip file: {exc}") from None
    text, encoding = decode(raw)
    name = path.name
    doc_id = f"cards-{_stem(name)}"
    if name.lower().endswith(".tsv"):
        header = text.split("\n", 1)[0].split("\t")
        if not all(h.strip() in header for h in TSV_HEADER):
            return None
        document = Document(id=doc_id, title=f"Card names: {name}", kind="card-data", lang="ja", path=name,
                            text=text, sha256=digest, encoding=encoding)
        return source_file(document=document, format="names-tsv", origin=str(path))
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped.startswith(("{", "[")):
        return None
    try:
        obj = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise source_error(path, f"invalid JSON: {exc.msg}", exc.lineno) from None
    fmt = detect(obj)
    if fmt is None:
        return None
    document = Document(id=doc_id, title=describe(obj, fmt, name), kind="card-data",
                        lang="ja" if fmt == "wiki-names" else "en", path=name, text=text, sha256=digest,
                        encoding=encoding)
    return source_file(document=document, format=fmt, origin=str(path), data=obj)
