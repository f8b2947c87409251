"""Rows keyed (lang, edition, key) — rules, their children, glossary entries, the references into
them — held one block per edition, so that a loaded snapshot keeps the current editions in memory
and reads an older edition's block from disk the first time something asks for it.

``EditionTable`` is a mapping over the flat keys (``table[("en", "2011-09-30", "701.25")]``) with
``edition(lang, edition)`` for one edition's block: lookups cost one dict access more than a plain
dict, and the cost of one more edition is a file on disk, not memory or load time.
"""
from __future__ import annotations

import marshal
import re
import threading
from collections.abc import Callable, Iterator, MutableMapping

Block = dict  # key within the edition (a rule number, a glossary term) -> row


class EditionTable(MutableMapping):
    def __init__(self, blocks: dict[tuple[str, str], Block] | None = None,
                 pending: dict[tuple[str, str], Callable[[], Block]] | None = None):
        self._blocks: dict[tuple[str, str], Block] = blocks or {}
        self._pending: dict[tuple[str, str], Callable[[], Block]] = pending or {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------ blocks

    def _block(self, lang: str, edition: str) -> Block | None:
        key = (lang, edition)
        found = self._blocks.get(key)
        if found is None and key in self._pending:
            # A block leaves _pending only once it is in _blocks, so a thread arriving while another
            # reads it from disk waits here for it instead of finding it in neither.
            with self._lock:
                found = self._blocks.get(key)
                if found is None and key in self._pending:
                    found = self._blocks[key] = self._pending[key]()
                    del self._pending[key]
        return found

    def edition(self, lang: str, edition: str) -> Block:
        """One edition's rows, keyed within the edition (read from disk on first use)."""
        return self._block(lang, edition) or {}

    def set_block(self, lang: str, edition: str, block: Block) -> None:
        """Put one edition's rows in at once (the build: an edition's rows come from its cache)."""
        self._pending.pop((lang, edition), None)
        self._blocks[(lang, edition)] = block

    def editions(self) -> list[tuple[str, str]]:
        return sorted(set(self._blocks) | set(self._pending))

    def blocks(self) -> dict[tuple[str, str], Block]:
        """Every block, all read (for writing a snapshot)."""
        for lang, edition in list(self._pending):
            self._block(lang, edition)
        return self._blocks

    # ------------------------------------------------------------ the flat mapping

    def __getitem__(self, key):
        if type(key) is tuple and len(key) == 3:  # the hot path: a loaded block (a rule page reads ~100 rows)
            found = self._blocks.get((key[0], key[1]))
            if found is not None:
                return found[key[2]]
        block = self._block(key[0], key[1]) if isinstance(key, tuple) and len(key) == 3 else None
        if block is None:
            raise KeyError(key)
        return block[key[2]]

    def __contains__(self, key) -> bool:
        block = self._block(key[0], key[1]) if isinstance(key, tuple) and len(key) == 3 else None
        return block is not None and key[2] in block

    def get(self, key, default=None):
        block = self._block(key[0], key[1]) if isinstance(key, tuple) and len(key) == 3 else None
        return default if block is None else block.get(key[2], default)

    def __setitem__(self, key, value) -> None:
        block = self._block(key[0], key[1])
        if block is None:
            block = self._blocks[(key[0], key[1])] = {}
        block[key[2]] = value

    def __delitem__(self, key) -> None:
        del self._blocks[(key[0], key[1])][key[2]]

    def __iter__(self) -> Iterator[tuple]:
        for (lang, edition), block in self.blocks().items():
            for key in block:
                yield lang, edition, key

    def __len__(self) -> int:
        return sum(len(b) for b in self.blocks().values())

    def items(self):
        return [((lang, edition, key), row) for (lang, edition), block in self.blocks().items()
                for key, row in block.items()]

    def in_lang(self, lang: str) -> Iterator[tuple[tuple, object]]:
        """``items()`` of one language's editions only, in the same order."""
        for (block_lang, edition), block in self.blocks().items():
            if block_lang == lang:
                for key, row in block.items():
                    yield (lang, edition, key), row

    def values(self):
        return [row for block in self.blocks().values() for row in block.values()]

    def setdefault(self, key, default=None):
        block = self._block(key[0], key[1])
        if block is None:
            block = self._blocks[(key[0], key[1])] = {}
        return block.setdefault(key[2], default)


_PART = re.compile(r"\d+(?:\.\d+)?")
ORDER = "\x00order"  # not a part: the keys in the order written, read only by a whole pass or an edit


def part_of(key) -> str:
    """The part a row is in: its rule's number without the subrule letter (702.19b and 702.19 are
    part 702.19, 702 is 702), or the first character of any other key."""
    text = str(key)
    found = _PART.match(text)
    return found.group(0) if found else text[:1]


class PartedBlock(MutableMapping):
    """Rows in parts (``part_of``: a rule with its subrules, 702.19; other keys by their first
    character), each part unmarshalled on first use. An older edition's rules: a rule's history
    reads a few rows of every edition, not a chapter of each (``kb rule`` reads 34 editions). The
    card tables: a card lookup reads a part, not 33k cards (`kb rule` and `kb editions` none).
    Iterates in the order the rows were written (the key order is kept beside the parts: one 2008
    rule stands out of its place); a whole pass (a diff, the build) reads every part."""

    __slots__ = ("_raw", "_parts", "_order", "_lock")

    def __init__(self, raw: dict[str, bytes]):
        self._raw = raw  # part -> marshal bytes, and ORDER -> the keys' order
        self._parts: dict[str, dict] = {}
        self._order: list | None = None  # read on first need
        self._lock = threading.Lock()

    @staticmethod
    def split(block: Block) -> dict[str, bytes]:
        """A block as the parts ``PartedBlock`` reads (the bytes of parts never read are kept as they were)."""
        if isinstance(block, PartedBlock):
            out = {p: (marshal.dumps(block._parts[p]) if p in block._parts else raw)
                   for p, raw in block._raw.items() if p != ORDER}
            kept = block._raw.get(ORDER)
            out[ORDER] = marshal.dumps(block._keys()) if block._order is not None or kept is None else kept
            return out
        parts: dict[str, dict] = {}
        for key, row in block.items():
            parts.setdefault(part_of(key), {})[key] = row
        out = {p: marshal.dumps(rows) for p, rows in parts.items()}
        out[ORDER] = marshal.dumps(list(block))
        return out

    def _part(self, name: str) -> dict:
        found = self._parts.get(name)
        if found is None:
            with self._lock:
                found = self._parts.get(name)
                if found is None:
                    raw = self._raw.get(name)
                    found = self._parts[name] = marshal.loads(raw) if raw is not None else {}
                    if raw is None:
                        self._raw[name] = marshal.dumps({})
        return found

    def read_all(self) -> None:
        """Decode every part now (a server's master, so that the workers it forks share them)."""
        for name in list(self._raw):
            if name != ORDER:
                self._part(name)
        self._keys()

    @property
    def parts_read(self) -> tuple[int, int]:
        """(parts decoded, parts in all)."""
        return len(self._parts), sum(1 for name in self._raw if name != ORDER)

    def _keys(self) -> list:
        if self._order is None:
            with self._lock:
                if self._order is None:
                    raw = self._raw.get(ORDER)
                    self._order = marshal.loads(raw) if raw is not None else []
        return self._order

    def __getitem__(self, key):
        return self._part(part_of(key))[key]

    def get(self, key, default=None):
        return self._part(part_of(key)).get(key, default)

    def __contains__(self, key) -> bool:
        return key in self._part(part_of(key))

    def __setitem__(self, key, value) -> None:
        part = self._part(part_of(key))
        if key not in part:
            self._keys().append(key)
        part[key] = value

    def __delitem__(self, key) -> None:
        del self._part(part_of(key))[key]
        self._keys().remove(key)

    def __iter__(self) -> Iterator:
        return iter(list(self._keys()))

    def __len__(self) -> int:
        return len(self._keys())

