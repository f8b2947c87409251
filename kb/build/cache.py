"""The build's cache: work that depends only on some files' bytes and on the code that does it —
parsing a CR file, matching two editions' rules — is kept on disk under the KB home and reused by
the next build. A key is the input files' sha256 plus a digest of the code's source, so a changed
parser or matcher never serves a stale result. A damaged entry is simply recomputed.

Parsed records are kept as pickles, and unpickling runs code, so every pickle is signed: an
HMAC-SHA256 under a secret key of this user (``key_file``: outside MTG_KB_HOME, created 0600 on
first use) is written before it and checked before it is unpickled. An entry from anywhere else (a
home folder copied from someone, a file dropped into the cache) does not verify and is recomputed,
never loaded. Without a usable key the cache is not read at all.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import marshal
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


def key_file() -> Path:
    """This user's signing key for cached pickles: $MTG_KB_CACHE_KEY, else under XDG_CONFIG_HOME."""
    if os.environ.get("MTG_KB_CACHE_KEY"):
        return Path(os.environ["MTG_KB_CACHE_KEY"])
    config = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(config) / "mtg-kb" / "cache-key"


def signing_key() -> bytes | None:
    """The key (32 random bytes made once, readable only by this user), or None if it cannot be had."""
    path = key_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as out:
                out.write(os.urandom(32))
        key = path.read_bytes()
    except OSError:
        return None
    return key if len(key) == 32 else None


MAC = 32  # bytes of HMAC-SHA256 before each pickle


class BuildCache:
    def __init__(self, folder: Path | None):
        self.folder = folder
        self.hits = self.misses = 0
        self.key = signing_key() if folder is not None else None

    def _load(self, path: Path):
        """The pickle at ``path`` if this user's key signed it; otherwise a ValueError (recomputed)."""
        data = path.read_bytes()
        if self.key is None or not hmac.compare_digest(data[:MAC], hmac.digest(self.key, data[MAC:], "sha256")):
            raise ValueError("not signed by this user's key")
        return pickle.loads(data[MAC:])

    def get(self, kind: str, key: str, make: Callable[[], T]) -> T:
        if self.folder is None:
            return make()
        path = self.folder / kind / f"{key}.pickle"
        try:
            value = self._load(path)  # only entries signed with this user's key
            self.hits += 1
            return value
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            pass
        value = make()
        self.misses += 1
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            if self.key is not None:
                data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
                tmp.write_bytes(hmac.digest(self.key, data, "sha256") + data)
                os.replace(tmp, path)
        except OSError:
            pass  # a read-only or full disk only costs the next build its time
        return value

    def read_bytes(self, kind: str, key: str) -> bytes | None:
        """What ``write_bytes`` kept under ``kind``/``key``, or None."""
        if self.folder is None:
            return None
        try:
            return (self.folder / kind / key).read_bytes()
        except OSError:
            return None

    def write_bytes(self, kind: str, key: str, data: bytes) -> None:
        if self.folder is None:
            return
        path = self.folder / kind / key
        if path.exists():
            return  # keyed by content: already there
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError:
            pass

    def prune(self, kind: str, keep: set[str]) -> None:
        """Remove ``kind``'s entries but ``keep`` (entries only the last builds need)."""
        if self.folder is None or not (self.folder / kind).is_dir():
            return
        for path in (self.folder / kind).iterdir():
            if path.name not in keep:
                path.unlink(missing_ok=True)


    def keep_only(self, kind: str, keys: set[str]) -> None:
        """Remove ``kind``'s ``get`` entries but those of ``keys``."""
        self.prune(kind, {f"{key}.pickle" for key in keys})


class KeptMemo:
    """A pure function of a marshal-able key (a search document's fields -> its term frequencies),
    kept across builds as TextMemo keeps its texts: ``memo(key, make)`` is ``make(key)``, computed
    only for keys no earlier build saved under ``kind``/``key`` (the key names the code it depends on)."""

    def __init__(self, cache: BuildCache, kind: str, key: str):
        self.cache, self.kind, self.key = cache, kind, key
        data = cache.read_bytes(kind, key)
        try:
            self.known: dict = marshal.loads(data) if data else {}
        except (EOFError, ValueError, TypeError):
            self.known = {}
        self.used: dict = {}
        self.computed = 0

    def __call__(self, key, make: Callable):
        got = self.used.get(key)
        if got is None:
            got = self.known.get(key)
            if got is None:
                got = make(key)
                self.computed += 1
            self.used[key] = got
        return got

    def save(self) -> None:
        """Keep what this build used (keys no longer used are dropped), if anything was new."""
        if self.computed or len(self.used) != len(self.known):
            self.cache.prune(self.kind, set())
            self.cache.write_bytes(self.kind, self.key, marshal.dumps(self.used))


class TextMemo(KeptMemo):
    """A pure function of one text that returns a sequence of strings (search tokens), kept across
    builds: the values of the texts a build asked for are saved under ``kind``/``key`` (the key
    names the code and data it depends on), so the next build computes only texts it has not seen
    (a new edition's changed rules). A value is held as one string joined by SEP (one object, not
    one per token: ~100 MB less at the build's peak), or as a tuple if a string holds SEP."""

    SEP = "\x1f"

    def __init__(self, cache: BuildCache, kind: str, key: str, fn: Callable[[str], object]):
        super().__init__(cache, kind, key)
        self.fn = fn

    def __call__(self, text: str):
        got = self.used.get(text)
        if got is None:
            got = self.known.get(text)
            if got is None:
                values = tuple(self.fn(text))
                self.computed += 1
                got = values if any(self.SEP in v for v in values) else self.SEP.join(values)
            self.used[text] = got
        if type(got) is str:
            return got.split(self.SEP) if got else []
        return got
