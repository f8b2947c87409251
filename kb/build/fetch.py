"""`kb fetch`: find the current CR text link on the official rules page, download it, keep it;
`kb fetch --history`: download every official edition of the shipped list (kb.sources.official).

The rules page links the plain-text CR as ".../MagicCompRules YYYYMMDD.txt". A file is checked
(its sha256 when the list knows it; it must parse as a CR) before it replaces anything in the
fetch folder, and kept byte for byte.
"""
from __future__ import annotations

import hashlib
import os
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

from kb.parse.cr_en import CRFormatError, parse_cr_en
from kb.parse.records import Document
from kb.sources.files import SourceError, classify, decode
from kb.sources.official import OfficialEdition, OfficialList

TXT_LINK = re.compile(r"MagicCompRules[^/]*\.txt$", re.I)
TIMEOUT = 30
MAX_BYTES = 20 * 1024 * 1024  # the CR is ~1 MB; anything far larger is not it


class FetchError(RuntimeError):
    pass


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)


def _get(url: str) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "mtg-kb (kb fetch)"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            data = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"{url}: cannot connect ({getattr(exc, 'reason', exc)})") from None
    if len(data) > MAX_BYTES:
        raise FetchError(f"{url}: larger than {MAX_BYTES} bytes; not a CR text")
    return data


def find_cr_link(page_url: str, html: str) -> str:
    parser = _Links()
    parser.feed(html)
    candidates = [urljoin(page_url, href) for href in parser.links
                  if TXT_LINK.search(urllib.parse.unquote(href.split("?")[0]))]
    if not candidates:
        raise FetchError(f"{page_url}: no link to a 'MagicCompRules ….txt' file on the page")
    return candidates[0]


def fetch_current(rules_page: str, into: Path) -> Path:
    page = _get(rules_page).decode("utf-8", errors="replace")
    link = find_cr_link(rules_page, page)
    data = _get(link)
    try:
        text, encoding = decode(data)
        edition = parse_cr_en(text, Document(id="fetched", title=link, kind="cr", lang="en", path=link, text=text,
                                             encoding=encoding))
    except CRFormatError as exc:
        raise FetchError(f"{link}: not a Comprehensive Rules text ({exc})") from None
    if edition.incomplete:  # a download cut short: never kept in place of a whole edition
        raise FetchError(f"{link}: line {edition.incomplete[0]}: {edition.incomplete[1]}; not kept")
    into.mkdir(parents=True, exist_ok=True)
    target = into / f"MagicCompRules {edition.effective.strftime('%Y%m%d')}.txt"
    tmp = into / f".{target.name}.{os.getpid()}.part"
    tmp.write_bytes(data)  # the bytes as published, line ends and BOM included
    os.replace(tmp, target)
    (into / f"{target.name}.source").write_text(f"{link}\nsha256 {hashlib.sha256(data).hexdigest()}\n",
                                                encoding="utf-8")
    return target


# ---------------------------------------------------------------- every official edition


@dataclass(slots=True)
class Fetched:
    effective: str
    file_date: str
    status: str  # "fetched" | "held" (already in the sources) | "failed" | "no-url"
    message: str = ""
    path: Path | None = None
    url: str | None = None
    sha256: str | None = None


def _check(data: bytes, url: str, expected: str | None) -> tuple[str, str]:
    """(sha256, effective date) of a downloaded official file, or FetchError."""
    digest = hashlib.sha256(data).hexdigest()
    if expected and digest != expected:
        raise FetchError(f"{url}: sha256 {digest} is not the official {expected}; not kept")
    try:
        text, encoding = decode(data)
        edition = parse_cr_en(text, Document(id="fetched", title=url, kind="cr", lang="en", path=url, text=text,
                                             encoding=encoding))
    except (CRFormatError, ValueError) as exc:
        raise FetchError(f"{url}: not a Comprehensive Rules text ({exc})") from None
    if edition.incomplete and not expected:  # an official sha256 vouches for the bytes as published
        raise FetchError(f"{url}: line {edition.incomplete[0]}: {edition.incomplete[1]}; not kept")
    return digest, edition.effective.isoformat()


def held_editions(paths: list[Path]) -> tuple[set[str], set[str]]:
    """(sha256 of every CR text under ``paths``, their effective and file dates)."""
    digests, dates = set(), set()
    for root in paths:
        for path in sorted(root.rglob("*")) if root.is_dir() else [root]:
            if not path.is_file() or path.name.startswith("."):
                continue
            try:
                source = classify(path)
            except SourceError:
                continue
            if source is not None and source.format == "cr-en":
                digests.add(source.document.sha256)
                dates.update(d for d in (source.edition_hint, source.file_date) if d)
    return digests, dates


def fetch_history(into: Path, listing: OfficialList, held: list[Path] = (),
                  progress: Callable[[Fetched], None] = lambda _: None) -> list[Fetched]:
    """Download every edition of ``listing`` not already held (in ``held`` or ``into``): from its
    official URL, else its archived copy; verified against its sha256 when the list knows it and
    checked to be a CR; kept byte for byte as "MagicCompRules YYYYMMDD.txt" (the file date)."""
    digests, dates = held_editions([*held, into] if into.is_dir() else list(held))
    report = []
    for edition in listing.editions:
        entry = Fetched(edition.effective, edition.file_date, "held", sha256=edition.sha256)
        if (edition.sha256 and edition.sha256 in digests) or set(edition.dates()) & dates:
            entry.message = "already in the sources"
        elif not (edition.url or edition.archived_url):
            entry.status, entry.message = "no-url", "no known URL"
        else:
            entry = _fetch_one(edition, into, entry)
        report.append(entry)
        progress(entry)
    return report


def _fetch_one(edition: OfficialEdition, into: Path, entry: Fetched) -> Fetched:
    errors = []
    for url in [u for u in (edition.url, edition.archived_url) if u]:
        try:
            data = _get(url)
            digest, effective = _check(data, url, edition.sha256)
        except FetchError as exc:
            errors.append(str(exc))
            continue
        into.mkdir(parents=True, exist_ok=True)
        target = into / f"MagicCompRules {edition.file_date.replace('-', '')}.txt"
        tmp = into / f".{target.name}.{os.getpid()}.part"
        tmp.write_bytes(data)  # the bytes as published
        os.replace(tmp, target)
        (into / f"{target.name}.source").write_text(f"{url}\nsha256 {digest}\n", encoding="utf-8")
        entry.status, entry.path, entry.url, entry.sha256 = "fetched", target, url, digest
        entry.message = "" if effective == edition.effective else \
            f"header says effective {effective}, the list says {edition.effective}"
        return entry
    entry.status, entry.message = "failed", "; ".join(errors)
    return entry
