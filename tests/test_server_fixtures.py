"""The server tests' tiny corpus: excerpts of two real EN CR editions plus the JA excerpts, with the
seed documents of rules_src, built once per test session into a temporary MTG_KB_HOME.

The excerpts keep what the CR parser requires (title, effective-date line, contents ending with
Glossary and Credits, the Glossary and Credits headings) and, of the rules, every chapter heading,
the sections the reasoning logic is pinned to (so ``ask`` runs against real text) and the 701/702
entries of the seed mechanics. Nothing here states an expected answer; the tests read the expected
text from the same excerpt files (``source_line``).
"""
from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from kb import settings

EDITIONS = ("cr-en-20260417.txt", "cr-en-20260116.txt")
JA_EXCERPTS = ("cr-ja-20260116-excerpt-a.txt", "cr-ja-20260116-excerpt-b.txt", "cr-ja-20260116-excerpt-c.txt")
FULL_SECTIONS = {"100", "107", "110", "116", "118", "202", "304", "307", "400", "502", "503", "601", "603", "608",
                 "700", "707", "708", "709", "712", "731", "733"}
PARTIAL = ("701.1", "701.27", "701.40", "702.1", "702.37", "702.145", "702.168")
GLOSSARY = {"Day and Night", "Daybound", "Nightbound", "Manifest", "Transform", "Double-Faced Card",
            "Cast", "Room", "Face-Down", "Unlock"}
HEAD = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?|\d)\.? ")
CHAPTER = re.compile(r"^\d\. \S")


def _wanted(number: str) -> bool:
    if re.fullmatch(r"\d", number):
        return True
    section = number[:3]
    if number == section:
        return section in FULL_SECTIONS or section in ("701", "702")
    if section in FULL_SECTIONS:
        return True
    return any(number == p or number.startswith(p) and not number[len(p)].isdigit() for p in PARTIAL)


def excerpt(text: str) -> str:
    """A valid CR file holding only the wanted rules (see the module doc)."""
    lines = text.lstrip("\ufeff").splitlines()
    glossary = [i for i, line in enumerate(lines) if line.strip() == "Glossary"]
    credits = [i for i, line in enumerate(lines) if line.strip() == "Credits"]
    rules_start = next(i for i in range(credits[0] + 1, len(lines)) if CHAPTER.match(lines[i]))
    out = lines[:rules_start]
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


def write_corpus(data: Path) -> Path:
    source = settings.shared_data_dir()
    if not (source / EDITIONS[0]).exists():
        pytest.skip(f"the CR texts are not in {source} (set MTG_KB_DATA)")
    data.mkdir(parents=True, exist_ok=True)
    for name in EDITIONS:
        text = (source / name).read_bytes().decode("utf-8-sig")
        (data / name).write_text(excerpt(text), encoding="utf-8")
    for name in JA_EXCERPTS:
        if (source / name).exists():
            shutil.copyfile(source / name, data / name)
    return data


@functools.cache
def tiny_kb():
    """(KB, data folder): built once per process in a temporary home, removed at exit."""
    from kb.api import KB

    root = Path(tempfile.mkdtemp(prefix="mtg-kb-server-tests-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    data = write_corpus(root / "data")
    saved = {k: os.environ.get(k) for k in ("MTG_KB_DATA", "MTG_KB_HOME")}
    os.environ["MTG_KB_DATA"], os.environ["MTG_KB_HOME"] = str(data), str(root / "home")
    try:
        kb = KB.ensure(root / "home")
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return kb, data, root / "home"


def source_line(data: Path, name: str, start: str) -> str:
    """The first line of excerpt ``name`` that starts with ``start`` (expected values come from here)."""
    for line in (data / name).read_text(encoding="utf-8").splitlines():
        if line.startswith(start):
            return line
    raise LookupError(start)


def test_excerpt_keeps_what_the_parser_needs(tmp_path):
    from kb.parsers.cr_en import parse_cr_en
    from kb.records import Document

    data = write_corpus(tmp_path)
    text = (data / EDITIONS[0]).read_text(encoding="utf-8")
    edition = parse_cr_en(text, Document(id="x", title="x", kind="cr", lang="en", path="x", text=text))
    numbers = {r.number for r in edition.rules}
    assert {"601.2c", "701.27", "701.40", "701.40a", "702.145b", "712.8e", "731.1", "7", "701"} <= numbers
    assert "702.19" not in numbers and "500" not in numbers
    assert {g.term for g in edition.glossary} & GLOSSARY
