"""The build's cache: work that depends only on some files' bytes and on the code that does it —
parsing a CR file, matching two editions' rules — is kept on disk under the KB home and reused by
the next build. A key is the input files' sha256 plus a digest of the code's source, so a changed
parser or matcher never serves a stale result. A damaged entry is simply recomputed.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
KB_DIR = Path(__file__).resolve().parent.parent


@functools.cache
def code_digest(*packages: str) -> str:
    """sha256 of the source of the given modules/packages (paths relative to kb/)."""
    digest = hashlib.sha256()
    for name in packages:
        path = KB_DIR / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


class BuildCache:
    def __init__(self, folder: Path | None):
        self.folder = folder
        self.hits = self.misses = 0

    def get(self, kind: str, key: str, make: Callable[[], T]) -> T:
        if self.folder is None:
            return make()
        path = self.folder / kind / f"{key}.pickle"
        try:
            value = pickle.loads(path.read_bytes())  # only files this cache wrote
            self.hits += 1
            return value
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            pass
        value = make()
        self.misses += 1
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only or full disk only costs the next build its time
        return value
