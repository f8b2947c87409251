"""`kb fetch`: find the current CR text link on the official rules page, download it, keep it.

The rules page links the plain-text CR as ".../MagicCompRules YYYYMMDD.txt". The file is checked
(it must parse as a CR) before it replaces anything in the fetch folder.
"""
from __future__ import annotations

import hashlib
import os
import re
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

from kb.parse.cr_en import CRFormatError, parse_cr_en
from kb.parse.records import Document
from kb.sources.files import decode

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
    into.mkdir(parents=True, exist_ok=True)
    target = into / f"MagicCompRules {edition.effective.strftime('%Y%m%d')}.txt"
    tmp = into / f".{target.name}.{os.getpid()}.part"
    tmp.write_bytes(data)  # the bytes as published, line ends and BOM included
    os.replace(tmp, target)
    (into / f"{target.name}.source").write_text(f"{link}\nsha256 {hashlib.sha256(data).hexdigest()}\n",
                                                encoding="utf-8")
    return target
