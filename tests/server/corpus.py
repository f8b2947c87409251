"""The server tests' tiny corpus: excerpts of the three newest real EN CR editions and of the JA CR,
with the seed documents of rules_src, built once per test session into a temporary MTG_KB_HOME.

The excerpts keep what the CR parsers require (title, effective-date line, contents ending with
Glossary and Credits and naming only the sections kept, the Glossary and Credits headings; the JA header, もくじ, title line and closing
date line) and, of the rules, every chapter heading, the sections the reasoning logic is pinned to
(so ``ask`` runs against real text) and the 701/702 entries of the seed mechanics. Nothing here
states an expected answer; the tests read the expected text from the same excerpt files
(``source_line``). The three EN editions are the newest in the data, found by content: the JA CR
translates the oldest of them, so its text reaches the current rules by lineage.
"""
from __future__ import annotations

import atexit
import functools
import re
import shutil
import tempfile
from pathlib import Path

JA_FILE = "cr-ja-20260116.txt"
FULL_SECTIONS = {"100", "104", "107", "110", "111", "116", "117", "118", "120", "202", "301", "304", "305", "307", "400",
                 "502", "503", "508", "514", "601", "603", "608", "611", "700", "704", "707", "708", "709", "712", "715", "718", "730",
                 "731", "732", "733"}
PARTIAL = ("113.7", "605.1", "614.1", "613.1", "613.4", "701.1", "701.6", "701.8", "701.19", "701.27", "701.40", "701.42", "701.58", "701.62", "702.1", "702.12", "702.16",
           "702.33", "702.37", "702.79", "702.93", "702.102", "702.145", "702.168")
GLOSSARY = {"Day and Night", "Daybound", "Nightbound", "Manifest", "Transform", "Double-Faced Card",
            "Cast", "Room", "Face-Down", "Unlock"}
HEAD = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?|\d)\.? ")
CHAPTER = re.compile(r"^\d\. \S")


def _wanted(number: str) -> bool:
    if re.fullmatch(r"\d", number):
        return True
    section = number[:3]
    if number == section:
        return section in FULL_SECTIONS or section in ("701", "702") or any(p.startswith(section + ".") for p in PARTIAL)
    if section in FULL_SECTIONS:
        return True
    return any(number == p or number.startswith(p) and not number[len(p)].isdigit() for p in PARTIAL)


def excerpt(text: str) -> str:
    """A valid CR file holding only the wanted rules (see the module doc)."""
    lines = text.lstrip("\ufeff").splitlines()
    glossary = [i for i, line in enumerate(lines) if line.strip() == "Glossary"]
    credits = [i for i, line in enumerate(lines) if line.strip() == "Credits"]
    rules_start = next(i for i in range(credits[0] + 1, len(lines)) if CHAPTER.match(lines[i]))
    # the contents list names only what the excerpt keeps: a CR missing what its contents name is
    # refused as a truncated copy (kb.parse.cr_en)
    out = [line for line in lines[:rules_start] if not ((found := HEAD.match(line)) and not _wanted(found[1]))]
    keep = False
    for line in lines[rules_start:glossary[1]]:
        found = HEAD.match(line)
        if found:
            keep = _wanted(found[1])
        if keep:
            out.append(line)
    out.append(lines[glossary[1]])
    block: list[str] = []
    for line in lines[glossary[1] + 1:credits[1]] + [""]:
        if line.strip():
            block.append(line)
            continue
        if block and block[0].strip() in GLOSSARY:
            out.extend(block + [""])
        block = []
    out.extend(lines[credits[1]:])
    return "\n".join(out) + "\n"


JA_TERM = re.compile(r"^\S.*（[^）]+）／(?P<en>.+)$")


def excerpt_ja(text: str) -> str:
    """The JA CR holding only the wanted rules and the wanted glossary entries (by English term)."""
    lines = text.splitlines()
    title = lines.index("マジック：ザ・ギャザリング　総合ルール")
    glossary, credits = lines.index("用語集"), lines.index("クレジット")
    out = lines[:title + 1]
    keep = True  # the intro (0. はじめに) is kept
    for line in lines[title + 1:glossary]:
        found = HEAD.match(line)
        if found:
            keep = _wanted(found[1])
        if keep:
            out.append(line)
    out.append(lines[glossary])
    keep = False
    for line in lines[glossary + 1:credits]:
        found = JA_TERM.match(line)
        if found:
            keep = found["en"].strip() in GLOSSARY
        if keep:
            out.append(line)
    return "\n".join(out + lines[credits:]) + "\n"


def editions() -> tuple[str, ...]:
    """File names of the three newest EN editions in the shared data, newest first."""
    from tests.shared_data import newest_en_sources
    return tuple(Path(s.origin).name for s in newest_en_sources(3))


def write_corpus(data: Path) -> Path:
    from tests.shared_data import require_data
    source = require_data()
    data.mkdir(parents=True, exist_ok=True)
    for name in editions():
        text = (source / name).read_bytes().decode("utf-8-sig")
        (data / name).write_text(excerpt(text), encoding="utf-8")
    (data / JA_FILE).write_text(excerpt_ja((source / JA_FILE).read_text(encoding="utf-8")), encoding="utf-8")
    return data


@functools.cache
def tiny_kb():
    """(KB, data folder): built once per process in a temporary home, removed at exit."""
    from kb import config
    from kb.lookup.kb import KB

    root = Path(tempfile.mkdtemp(prefix="mtg-kb-server-tests-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    data = write_corpus(root / "data")
    settings = config.Settings(data_dir=data, rules_src=config.current().rules_src, home=root / "home")
    return KB.ensure(settings), data, root / "home"


def source_line(data: Path, name: str, start: str) -> str:
    """The first line of excerpt ``name`` that starts with ``start`` (expected values come from here)."""
    for line in (data / name).read_text(encoding="utf-8").splitlines():
        if line.startswith(start):
            return line
    raise LookupError(start)
