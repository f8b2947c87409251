"""What changed between editions (part of kb.lookup.KB): a rule's history as spans of identical
text joined by changes (each with its word diff), and the diff of any two loaded editions — rules
added, removed, moved (old -> new number) and text changed — with `changes(edition)` against the
previous one, what a judge reads on release day.

Texts are compared normalised (quotes, dashes, width, case, white space: kb.text.normalize), so an
encoding's curly quotes are not a change; the diffs show the original words of each side. English
is diffed by words, Japanese by characters.
"""
from __future__ import annotations

import orjson

from kb import rulenumbers
from kb.errors import InvalidParameter, MissingParameter
from kb.lookup import changes
from kb.lookup.changes import Change
from kb.memo import per_owner
from kb.text import normalize, same_text, text_diff

KINDS = tuple(k.value for k in changes.DIFF_KINDS)  # each entry's kind (?kind=, --only)
GROUPS = changes.DIFF_GROUPS  # the order entries are listed in: wording changes first


def only_references(old: str, new: str) -> bool:
    """The texts differ only in the rule numbers they cite (a renumbered cross-reference)."""
    mask = rulenumbers.LOOSE_IN_TEXT.sub
    return mask("#", normalize(old or "")) == mask("#", normalize(new or ""))


class DiffLookups:
    """Needs ``model``, ``lineage``, ``edition()``, ``rule_citation()`` and ``_derived()`` (kb.lookup.rules)."""

    # ------------------------------------------------------------ one rule through time

    def history_spans(self, number: str, edition: str | None = None) -> dict | None:
        """The rule's versions grouped into spans of the same number and text, oldest first; each
        span after the first says how it began (moved / text changed, with the word diff)."""
        number = rulenumbers.canonical(number)
        edition = self.edition(edition)
        if ("en", edition, number) not in self.model.rules:
            return None
        # the word diffs are most of a rule lookup's time: computed once per KB (kb.lookup.rules)
        return orjson.loads(self._derived(("en", edition, number))["history_spans"])

    def loaded_dates(self) -> frozenset[str]:
        """Every loaded EN edition's effective and file date (what kb.lookup.changes compares with
        the official list)."""
        return per_owner(self, "loaded-en-dates", lambda: frozenset(
            d for e in self.model.editions.values() if e["lang"] == "en" for d in (e["edition"], e.get("file_date")) if d))

    def _history_spans(self, number: str, edition: str) -> dict:
        chain = self.lineage.chain(number, edition)
        loaded = self.loaded_dates()
        spans: list[dict] = []
        for index, key in enumerate(chain):
            rule = self.model.rules[key]
            link = self.model.prev_link.get(key) if index else None
            if spans and link and link[0] == key[2] and same_text(self.model.rules[chain[index - 1]]["text"],
                                                                     rule["text"]):
                spans[-1].update(to=key[1], editions=spans[-1]["editions"] + 1)
                continue
            if index == 0:
                kind, gap = changes.begun(loaded, self.lineage.step(key[1], -1), key[1])
                change = {"kind": kind.value, "not_loaded_before": gap}
            else:
                before = self.model.rules[chain[index - 1]]
                moved, changed = link[0] != key[2], not same_text(before["text"], rule["text"])
                change = {"kind": changes.step_kind(moved, changed).value,
                          "from": link[0], "to": key[2], "method": link[1], "score": link[2],
                          "diff": text_diff(before["text"], rule["text"]) if changed else None,
                          # the change happened in one of these when official editions between are not loaded
                          "since": chain[index - 1][1],
                          "not_loaded_between": changes.not_loaded(loaded, chain[index - 1][1], key[1])}
            spans.append({"number": key[2], "from": key[1], "to": key[1], "editions": 1, "text": rule["text"],
                          "kind": rule["kind"], "change": change, "citation": self.rule_citation(key)})
        for span in spans:  # a span "same text A → B" claims only the loaded editions in it
            span["not_loaded"] = changes.not_loaded(loaded, span["from"], span["to"])
        last = chain[-1][1]
        after = self.lineage.step(last, 1)
        removed = None
        if after:
            kind, gap = changes.ended(loaded, last, after)
            removed = {"kind": kind.value, "edition": after, "last_seen": last, "not_loaded_between": gap}
        return {"number": number, "edition": edition, "spans": spans, "removed": removed,
                "not_loaded_after": [] if after else changes.not_loaded(loaded, last, None),
                "summary": _summary(spans, removed), "summary_ja": _summary(spans, removed, "ja")}

    # ------------------------------------------------------------ two editions

    def diff(self, old: str | None, new: str | None) -> dict:
        """Every rule added, removed, moved or changed from edition ``old`` to edition ``new`` (EN;
        the JA texts' character diff too when both editions have a JA translation loaded)."""
        if not old or not new:
            raise MissingParameter("two editions are needed: from (older) and to (newer)")
        old, new = self.edition(old), self.edition(new)
        if old >= new:
            raise InvalidParameter(f"from={old} must be an older edition than to={new}",
                                   suggestions=[e for e in self.lineage.editions if e > old][:3])
        return per_owner(self, ("diff", old, new), lambda: self._diff(old, new))

    def changes(self, edition: str | None = None) -> dict:
        """The diff of ``edition`` (default: the newest) against the loaded edition before it."""
        edition = self.edition(edition)
        before = self.lineage.step(edition, -1)
        if before is None:
            raise InvalidParameter(f"CR {edition} is the oldest loaded edition: nothing to compare it with",
                                   suggestions=self.lineage.editions[1:2])
        return self.diff(before, edition)

    def _diff(self, old: str, new: str) -> dict:
        rules = self.model.rules
        olds = sorted((k for k in rules if k[0] == "en" and k[1] == old), key=lambda k: rulenumbers.sort_key(k[2]))
        reached: set[str] = set()
        entries: list[dict] = []
        unchanged = 0
        for key in olds:
            target, steps = self.lineage.forward(key[2], old, new)
            if target is None:
                entries.append(self._entry("removed", key, None))
                continue
            reached.add(target)
            new_key = ("en", new, target)
            changed = not same_text(rules[key]["text"], rules[new_key]["text"])
            if target != key[2]:
                entries.append(self._entry("moved", key, new_key, changed, steps))
            elif changed:
                entries.append(self._entry("text-changed", key, new_key, True, steps))
            else:
                unchanged += 1
        for key in sorted((k for k in rules if k[0] == "en" and k[1] == new and k[2] not in reached),
                          key=lambda k: rulenumbers.sort_key(k[2])):
            entries.append(self._entry("added", None, key))
        counts = {kind: sum(e["kind"] == kind for e in entries) for kind in KINDS}
        counts["unchanged"] = unchanged
        counts["references_only"] = sum(bool(e.get("references_only")) for e in entries)
        # what a reader wants first: wording changes (whether or not the number moved), then rules added
        # and removed, then what only changed numbers (renumbered rules, cited numbers), grouped in runs
        order = {g: i for i, g in enumerate(GROUPS)}
        entries.sort(key=lambda e: order[e["group"]])
        return {"from": old, "to": new, "counts": counts, "groups": list(GROUPS), "entries": entries,
                "group_counts": {g: sum(e["group"] == g for e in entries) for g in GROUPS},
                "renumbering_runs": renumbering_runs([e for e in entries if e["group"] == Change.NUMBERS_ONLY]),
                "editions_between": [e for e in self.lineage.editions if old < e < new],
                "citations": [self._edition_citation(old), self._edition_citation(new)]}

    def _entry(self, kind: str, old_key, new_key, changed: bool = False, steps: list | None = None) -> dict:
        rules = self.model.rules
        old_rule = rules[old_key] if old_key else None
        new_rule = rules[new_key] if new_key else None
        entry = {"kind": kind, "from": old_key[2] if old_key else None, "to": new_key[2] if new_key else None,
                 "rule_kind": (new_rule or old_rule)["kind"], "text_changed": changed,
                 "old_text": old_rule["text"] if old_rule else None, "new_text": new_rule["text"] if new_rule else None,
                 "diff": text_diff(old_rule["text"], new_rule["text"]) if changed else None,
                 "references_only": changed and only_references(old_rule["text"], new_rule["text"]),
                 "group": kind,
                 "method": steps[-1]["method"] if steps else None,
                 "score": min(s["score"] for s in steps) if steps else None,
                 "citations": [self.rule_citation(k) for k in (old_key, new_key) if k]}
        if kind in (Change.MOVED, Change.TEXT_CHANGED):
            entry["group"] = Change.NUMBERS_ONLY if not changed or entry["references_only"] else Change.TEXT_CHANGED
        ja = [self.model.ja_of.get(k) for k in (old_key, new_key)]
        if all(ja) and ja[0] != ja[1]:
            ja_old, ja_new = rules[ja[0]]["text"], rules[ja[1]]["text"]
            if not same_text(ja_old, ja_new):
                entry["ja_diff"] = text_diff(ja_old, ja_new, "ja")
                entry["citations"] += [self.rule_citation(k) for k in ja]
        return entry

    def _edition_citation(self, edition: str) -> dict:
        info = self.model.editions[f"en/{edition}"]
        return {"edition": edition, "document": info["document"], "file_date": info.get("file_date"),
                "sha256": info.get("sha256")}


def _summary(spans: list[dict], removed: dict | None, lang: str = "en") -> list[str]:
    """'same text 2014-09-25 → 2017-06-05', 'moved 702.30 → 702.32 on 2017-09-29', 'first seen in the
    loaded editions: 2021-11-19; earlier official editions not loaded: 2021-09-24', … (JA or EN)."""
    out = []
    for span in spans:
        change = span["change"]
        item = {"what": change["kind"], "edition": span["from"], "gap": change.get("not_loaded_before")
                or change.get("not_loaded_between"), "since": change.get("since"),
                "from_number": change.get("from"), "to_number": change.get("to")}
        out.append(changes.sentence(item, lang))
        out.append(changes.sentence({"what": "span", "number": span["number"], "from": span["from"], "to": span["to"],
                                     "editions": span["editions"], "gap": span["not_loaded"]}, lang))
    if removed:
        out.append(changes.sentence({"what": removed["kind"], "edition": removed["edition"],
                                     "last": removed["last_seen"], "gap": removed["not_loaded_between"]}, lang))
    return out


def renumbering_runs(entries: list[dict]) -> list[dict]:
    """Entries that only changed numbers, as runs of consecutive rules shifted alike (702.145 →
    702.146, 702.145a → 702.146a, … is one run): 119 moves read as a few lines."""
    runs: list[dict] = []
    for e in sorted(entries, key=lambda e: rulenumbers.sort_key(e["from"] or e["to"])):
        shift = _shift(e["from"], e["to"])
        last = runs[-1] if runs else None
        # one run: moved alike, next in order, in one section (or whole sections moved alike: 722–732 → 723–733)
        if last and last["shift"] == shift and (last["section"] == e["from"].split(".")[0] or shift[0] != 0):
            last.update(last_from=e["from"], last_to=e["to"], count=last["count"] + 1)
            last["entries"].append(e["from"])
            continue
        runs.append({"section": e["from"].split(".")[0], "shift": shift, "first_from": e["from"], "first_to": e["to"],
                     "last_from": e["from"], "last_to": e["to"], "count": 1, "entries": [e["from"]]})
    for run in runs:
        del run["shift"]
    return runs


def _shift(old: str, new: str) -> tuple:
    """How a number moved: (section, rule, letter) differences; 601.5 → 601.6 and 601.5a → 601.6a
    moved alike (a missing letter counts as none on both sides)."""
    a, b = _parts(old), _parts(new)
    if a is None or b is None:
        return ("other", old, new)
    return tuple(y - x for x, y in zip(a, b))


def _parts(number: str) -> tuple[int, int, int] | None:
    key = rulenumbers.sort_key(number)
    if not key or not isinstance(key[0], int):
        return None
    rule = key[1] if len(key) > 1 and isinstance(key[1], int) else 0
    letter = ord(key[2][0]) - 96 if len(key) > 2 and isinstance(key[2], str) and key[2] != "~" else 0
    return key[0], rule, letter
