"""`kb fetch --cards`: download MTGJSON's card files from their official URLs, verify, keep the bytes.

MTGJSON publishes every file at https://mtgjson.com/api/v5/<Name>.json, compressed beside it
(<Name>.json.gz, …), each with a checksum file <file>.sha256 holding its SHA-256. A file is
downloaded to a staging folder (streamed, never whole in memory), its SHA-256 compared with the
published one, and read as card data exactly as a build would read it (kb.sources.cards: it must
be MTGJSON AtomicCards or AllPrintings, by content). Only then does it replace the copy in the
fetch folder, byte for byte as published, with a ``.source`` note (URL, sha256, MTGJSON release).
Anything wrong — HTTP error, no or malformed checksum, a mismatch, bytes that are not MTGJSON —
is a FetchError naming the URL, and the previous copy (hence the previous snapshot) stays.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from kb.build.fetch import TIMEOUT, FetchError
from kb.sources.files import SourceError, SourceFile
from kb.sources.cards import classify_card_data

MTGJSON_BASE = "https://mtgjson.com/api/v5/"
FILES = {"AtomicCards": "mtgjson-atomic", "AllPrintings": "mtgjson-all"}  # name -> the format it must be
SUFFIXES = (".json.gz", ".json")  # what the card reader reads (kb.sources.cards)
MAX_BYTES = 4 * 1024 ** 3  # AllPrintings.json is ~0.5 GB; far more is not it
CHUNK = 1 << 20
SHA256 = re.compile(r"\b[0-9a-fA-F]{64}\b")


@dataclass(slots=True)
class FetchedCards:
    name: str
    path: Path
    url: str
    sha256: str
    size: int
    title: str  # what the reader says the file is ("MTGJSON AtomicCards (33000 cards), MTGJSON 5.2.2")


def _open(url: str):
    request = urllib.request.Request(url, headers={"User-Agent": "mtg-kb (kb fetch --cards)"})
    try:
        return urllib.request.urlopen(request, timeout=TIMEOUT)
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"{url}: cannot connect ({getattr(exc, 'reason', exc)})") from None


def published_sha256(url: str) -> str:
    """The digest in MTGJSON's ``<file>.sha256`` beside ``url``."""
    with _open(url + ".sha256") as response:
        text = response.read(4096).decode("ascii", errors="replace")
    found = SHA256.search(text)
    if not found:
        raise FetchError(f"{url}.sha256: no SHA-256 digest in the checksum file")
    return found.group(0).lower()


def _download(url: str, target: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    with _open(url) as response, target.open("wb") as out:
        while chunk := response.read(CHUNK):
            size += len(chunk)
            if size > MAX_BYTES:
                raise FetchError(f"{url}: larger than {MAX_BYTES} bytes; not an MTGJSON file")
            digest.update(chunk)
            out.write(chunk)
    return digest.hexdigest(), size


def fetch_cards(into: Path, names: tuple[str, ...] = ("AtomicCards",), base: str = MTGJSON_BASE,
                suffix: str = ".json.gz") -> list[FetchedCards]:
    """Download, verify and keep each of ``names`` (MTGJSON file names) from ``base``."""
    if suffix not in SUFFIXES:
        raise FetchError(f"{suffix}: MTGJSON files are read as {' or '.join(SUFFIXES)}")
    unknown = [n for n in names if n not in FILES]
    if unknown:
        raise FetchError(f"{', '.join(unknown)}: not an MTGJSON card file (expected {', '.join(FILES)})")
    into.mkdir(parents=True, exist_ok=True)
    staging = into.parent / f".cards-staging-{os.getpid()}"  # beside, not inside: builds read ``into``
    staging.mkdir(exist_ok=True)
    done = []
    try:
        for name in names:
            url = base.rstrip("/") + "/" + name + suffix
            expected = published_sha256(url)
            staged = staging / (name + suffix)
            digest, size = _download(url, staged)
            if digest != expected:
                raise FetchError(f"{url}: sha256 {digest} is not the published {expected}; not kept")
            try:
                source = classify_card_data(staged, SourceFile, SourceError)
            except SourceError as exc:
                raise FetchError(f"{url}: not MTGJSON card data ({exc}); not kept") from None
            if source is None or source.format != FILES[name]:
                found = source.format if source else "no card data"
                raise FetchError(f"{url}: not MTGJSON {name} (read as {found}); not kept")
            done.append((name, url, digest, size, source.document.title, staged))
        kept = []
        for name, url, digest, size, title, staged in done:  # every file verified: now replace
            target = into / staged.name
            os.replace(staged, target)
            for other in SUFFIXES:  # one copy per file: AtomicCards.json and .json.gz are the same document
                if other != suffix:
                    for stale in (into / (name + other), into / f"{name}{other}.source"):
                        stale.unlink(missing_ok=True)
            (into / f"{target.name}.source").write_text(f"{url}\nsha256 {digest}\n{title}\n", encoding="utf-8")
            kept.append(FetchedCards(name, target, url, digest, size, title))
        return kept
    finally:
        shutil.rmtree(staging, ignore_errors=True)
