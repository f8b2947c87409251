"""kb.memo: one value per owner and key, bounded, read without the lock by many threads at once."""
from __future__ import annotations

import threading

from kb import memo


class Owner:
    """Weakly referenceable, as a loaded KB or rule book is."""


def test_a_value_is_computed_once_and_peeked_without_computing(monkeypatch):
    owner, calls = Owner(), []
    assert memo.peek(owner, "k") is None
    assert memo.per_owner(owner, "k", lambda: calls.append(1) or "v") == "v"
    assert memo.per_owner(owner, "k", lambda: calls.append(1) or "other") == "v"
    assert memo.peek(owner, "k") == "v" and calls == [1]
    assert memo.per_owner({}, "k", lambda: "fresh") == "fresh"  # a dict can't be weakly referenced: not kept


def test_the_least_recently_used_goes_first(monkeypatch):
    monkeypatch.setattr(memo, "MAX_ENTRIES", 3)
    owner = Owner()
    for k in "abc":
        memo.per_owner(owner, k, lambda k=k: k.upper())
    assert memo.peek(owner, "a") == "A"  # a read makes "a" the most recent: "b" goes next
    memo.per_owner(owner, "d", lambda: "D")
    assert memo.peek(owner, "b") is None
    assert [memo.peek(owner, k) for k in "acd"] == ["A", "C", "D"]


def test_threads_reading_while_others_evict_always_get_the_right_value(monkeypatch):
    monkeypatch.setattr(memo, "MAX_ENTRIES", 16)
    owner, wrong, errors = Owner(), [], []

    def work(seed: int) -> None:
        try:
            for i in range(4000):
                key = (seed * 7 + i) % 40  # more keys than entries: constant eviction
                if memo.per_owner(owner, key, lambda key=key: key * 2) != key * 2:
                    wrong.append(key)
        except Exception as exc:  # noqa: BLE001 - any error in a thread is the failure
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and not wrong
