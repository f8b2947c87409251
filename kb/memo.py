"""The one caching policy: values derived from a long-lived, read-only owner (a loaded KB, a rule
book) are memoised per owner, bounded, and dropped with the owner.

- ``per_owner(owner, key, compute)``: at most ``MAX_ENTRIES`` values per owner, least recently
  used evicted first; the owner's entries go when the owner is garbage collected (weak reference).
  Owners that can't be weakly referenced get no caching (computed every time, never leaked).
- A KB is immutable once loaded (snapshots are read-only), so no entry ever needs invalidating:
  a new snapshot is a new owner.
Thread-safe: concurrent first computations may both compute; one result wins.
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Callable, TypeVar

T = TypeVar("T")
MAX_ENTRIES = 4096  # per owner: question answers, ruling checks, per-edition indexes
_LOCK = threading.Lock()
_BY_OWNER: "weakref.WeakKeyDictionary[object, OrderedDict]" = weakref.WeakKeyDictionary()
_MISSING = object()


def per_owner(owner: object, key, compute: Callable[[], T]) -> T:
    try:
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


def forget(owner: object) -> None:
    """Drop an owner's entries now (tests; an owner that changed, which KB objects never do)."""
    with _LOCK:
        _BY_OWNER.pop(owner, None)
