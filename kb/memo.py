"""The one caching policy: values derived from a long-lived, read-only owner (a loaded KB, a rule
book) are memoised per owner, bounded, and dropped with the owner.

- ``per_owner(owner, key, compute)``: at most ``MAX_ENTRIES`` values per owner, least recently
  used evicted first; the owner's entries go when the owner is garbage collected (weak reference).
  Owners that can't be weakly referenced get no caching (computed every time, never leaked).
- A KB is immutable once loaded (snapshots are read-only), so no entry ever needs invalidating:
  a new snapshot is a new owner.
- ``peek(owner, key)``: the value if one is kept, else None (never computes).
- ``per_owner_copy(owner, key, compute)``: the same for a JSON-shaped value every caller may change:
  kept as its JSON bytes (orjson), each caller getting a fresh copy (parsing them back is several
  times faster than ``copy.deepcopy``); a value that would not come back equal (a tuple, a non-str
  key) is kept as is and deep-copied instead.
Thread-safe: concurrent first computations may both compute; one result wins. A value already kept
is read without the lock.
"""
from __future__ import annotations

import copy
import threading
import weakref
from collections import OrderedDict
from typing import Callable, TypeVar

T = TypeVar("T")
MAX_ENTRIES = 8192  # per owner: a rule answer's derived parts (the current edition's ~3300 prepared at load), question answers, ruling checks, per-edition indexes
_LOCK = threading.Lock()
_BY_OWNER: "weakref.WeakKeyDictionary[object, OrderedDict]" = weakref.WeakKeyDictionary()
_MISSING = object()


def _kept(owner: object, key):
    """The value kept for ``owner`` under ``key`` (marked most recent), or _MISSING, without the lock:
    each dict operation is atomic, a hit needs no other, and the hot paths ask ~20 times a search
    from up to 32 threads, which a shared lock would make take turns. Raises TypeError as ``weakref``."""
    entries = _BY_OWNER.get(owner)
    if entries is None:
        return _MISSING
    found = entries.get(key, _MISSING)
    if found is not _MISSING:
        try:
            entries.move_to_end(key)
        except KeyError:  # evicted by another thread meanwhile: the value read is still right
            pass
    return found


def per_owner(owner: object, key, compute: Callable[[], T]) -> T:
    try:
        found = _kept(owner, key)
        if found is not _MISSING:
            return found
        with _LOCK:
            entries = _BY_OWNER.get(owner)
            if entries is None:
                entries = _BY_OWNER[owner] = OrderedDict()
            found = entries.get(key, _MISSING)
            if found is not _MISSING:
                entries.move_to_end(key)
                return found
    except TypeError:  # not weakly referenceable
        return compute()
    value = compute()
    with _LOCK:
        entries[key] = value
        if len(entries) > MAX_ENTRIES:
            entries.popitem(last=False)
    return value


def peek(owner: object, key, default=None):
    """The value kept for ``owner`` under ``key``, or ``default``: never computes (a value made
    ahead of time, e.g. before serving, that callers use when present)."""
    try:
        found = _kept(owner, key)
    except TypeError:  # not weakly referenceable
        return default
    return default if found is _MISSING else found


def forget(owner: object) -> None:
    """Drop an owner's entries now (tests; an owner that changed, which KB objects never do)."""
    with _LOCK:
        _BY_OWNER.pop(owner, None)


class _Deep:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _frozen(value):
    import orjson
    try:
        data = orjson.dumps(value)
    except TypeError:
        return _Deep(value)
    return data if orjson.loads(data) == value else _Deep(value)


def per_owner_copy(owner: object, key, compute: Callable[[], T]) -> T:
    """``per_owner`` for a value the caller gets its own copy of (see the module's docstring)."""
    import orjson
    kept = per_owner(owner, key, lambda: _frozen(compute()))
    return copy.deepcopy(kept.value) if isinstance(kept, _Deep) else orjson.loads(kept)
