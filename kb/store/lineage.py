"""The one lineage object: the same rule across the loaded editions, built once per loaded model.

Lineage links join consecutive EN editions (kb.build.lineage matches them by text); a JA edition
translates the EN edition of its date, rule for rule (``ja_of``). Everything that walks editions —
lookups, history, citations, search, rulings over time — asks this object.
"""
from __future__ import annotations

from kb.store.rows import Model, RuleKey

STATUSES = ("current", "renumbered", "text-changed", "removed", "never-existed", "ambiguous")


class Lineage:
    def __init__(self, model: Model):
        self.rules = model.rules
        self.next_link = model.next_link
        self.prev_link = model.prev_link
        self.ja_of = model.ja_of
        self.editions: list[str] = model.en_editions()  # EN, oldest first
        self._position = {e: i for i, e in enumerate(self.editions)}
        self.ja_editions = sorted(e["edition"] for e in model.editions.values() if e["lang"] == "ja")
        self._status: dict[tuple[str, str], dict] = {}

    @property
    def current(self) -> str | None:
        return self.editions[-1] if self.editions else None

    def step(self, edition: str, by: int) -> str | None:
        """The loaded EN edition ``by`` positions after (negative: before) ``edition``."""
        at = self._position.get(edition)
        if at is None or not 0 <= at + by < len(self.editions):
            return None
        return self.editions[at + by]

    # ------------------------------------------------------------ walking

    def forward(self, number: str, edition: str, until: str | None = None) -> tuple[str | None, list[dict]]:
        """Follow the rule to ``until`` (default: the current edition): (its number there or None
        if it was removed on the way, the steps taken)."""
        until = until or self.current
        steps, key = [], ("en", edition, number)
        while key[1] < until:
            link = self.next_link.get(key)
            if link is None:
                return None, steps
            new_number, method, score, changed = link
            nxt = self.step(key[1], 1)
            steps.append({"from": key[2], "from_edition": key[1], "to": new_number, "to_edition": nxt,
                          "method": method, "score": score, "text_changed": changed})
            key = ("en", nxt, new_number)
        return key[2], steps

    def backward(self, number: str, edition: str, until: str) -> str | None:
        key = ("en", edition, number)
        while key[1] > until:
            link = self.prev_link.get(key)
            if link is None:
                return None
            key = ("en", self.step(key[1], -1), link[0])
        return key[2]

    def carry(self, number: str, edition: str, to: str) -> str | None:
        """The rule's number in edition ``to`` (either direction), or None if it has none there."""
        if to == edition:
            return number if ("en", edition, number) in self.rules else None
        if to > edition:
            return self.forward(number, edition, to)[0]
        return self.backward(number, edition, to)

    def chain(self, number: str, edition: str) -> list[RuleKey]:
        """Every version of the rule, oldest first, through (``edition``, ``number``)."""
        key = ("en", edition, number)
        back = []
        walk = key
        while walk in self.prev_link:
            walk = ("en", self.step(walk[1], -1), self.prev_link[walk][0])
            back.append(walk)
        chain = list(reversed(back)) + [key]
        walk = key
        while walk in self.next_link:
            walk = ("en", self.step(walk[1], 1), self.next_link[walk][0])
            chain.append(walk)
        return chain

    # ------------------------------------------------------------ status of a cited number

    def status(self, number: str, edition: str | None) -> dict:
        """What a number of ``edition`` is today: current / renumbered / text-changed / removed /
        never-existed, with today's number and every lineage step."""
        cache_key = (number, edition or "")
        found = self._status.get(cache_key)
        if found is not None:
            return found
        if edition is None or ("en", edition, number) not in self.rules:
            found = {"number": number, "edition": edition, "status": "never-existed", "current": None, "steps": []}
        else:
            today, steps = self.forward(number, edition)
            if today is None:
                status = "removed"
            elif today != number:
                status = "renumbered"
            elif any(s["text_changed"] for s in steps):
                status = "text-changed"
            else:
                status = "current"
            found = {"number": number, "edition": edition, "status": status,
                     "current": {"number": today, "edition": self.current} if today else None, "steps": steps}
        self._status[cache_key] = found
        return found

    def formerly(self, number: str) -> list[dict]:
        """Older editions in which ``number`` meant a rule that today has another number (or none)."""
        out = []
        for edition in self.editions[:-1]:
            status = self.status(number, edition)
            if status["status"] in ("renumbered", "removed"):
                out.append({"edition": edition, "number": number, "status": status["status"],
                            "current": status["current"]})
        return out

    # ------------------------------------------------------------ Japanese

    def ja_for(self, key: RuleKey) -> RuleKey | None:
        """The JA rule translating an EN rule: the same edition's, else the rule carried by lineage
        to a JA edition's date (the newest JA edition first)."""
        if key in self.ja_of:
            return self.ja_of[key]
        for ja_edition in reversed(self.ja_editions):
            if ja_edition not in self._position:
                continue
            number = self.carry(key[2], key[1], ja_edition)
            if number is not None and ("en", ja_edition, number) in self.ja_of:
                return self.ja_of[("en", ja_edition, number)]
        return None
