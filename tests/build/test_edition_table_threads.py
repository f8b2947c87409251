"""An older edition's rows are read from disk on first use: threads asking for them at that moment
(gthread workers answer on many threads) all wait for the one read and find every row."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from kb.store.tables import EditionTable

ROWS = {f"{n}.1": {"text": f"rule {n}"} for n in range(100, 200)}


def test_threads_reading_a_block_while_it_loads_all_find_it():
    reads = []
    started = threading.Event()

    def load():
        reads.append(1)
        started.set()
        time.sleep(0.2)  # a slow disk: the other threads arrive while it is read
        return dict(ROWS)

    table = EditionTable({("en", "2026-06-19"): {}}, {("en", "2011-09-30"): load})

    def ask(number):
        return table[("en", "2011-09-30", number)]["text"]

    with ThreadPoolExecutor(16) as pool:
        first = pool.submit(ask, "150.1")
        started.wait(5)
        answers = list(pool.map(ask, [f"{n}.1" for n in range(100, 200)]))
    assert first.result() == "rule 150" and answers == [f"rule {n}" for n in range(100, 200)]
    assert reads == [1]  # read once
    assert ("en", "2011-09-30", "999.1") not in table and table.get(("en", "2011-09-30", "999.1")) is None
