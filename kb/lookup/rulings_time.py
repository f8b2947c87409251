"""Rulings over time: which rulings a later CR change superseded, and which contradict each other.

Superseded, two ways:
- by citation: a rule the ruling cites (or the rule a quote is) changed text, was renumbered with
  changed text, or was removed in an edition after the ruling's date; the edition and rule are named;
- by the reasoning engine: its ruling checks compute the ruling's situation under today's rules
  (kb.reasoning.engine.classify_rulings); a dated ruling whose claim no longer holds is superseded,
  named by the first edition after its date in which the deciding rule changed.
Contradictions: a statement that another source misstated something (誤り / 誤訳 / 訂正 /
"incorrect" …) quoting the misstatement, linked with the ruling in the corpus it contradicts.
"""
from __future__ import annotations

import re

from kb.lookup import changes
from kb.text import normalize

_CORRECTION = re.compile(r"誤り|誤訳|誤記|誤って|間違い|間違って|訂正|misstat|incorrect|erroneous|mistake", re.I)
_CLAIM = re.compile(r"「([^」]{6,200})」|“([^”]{6,200})”")
_CHANGES = ("text-changed", "renumbered", "removed")


def _grams(text: str) -> set[str]:
    t = re.sub(r"\s+", "", normalize(text))
    return {t[i:i + 2] for i in range(len(t) - 1)}


def _overlap(a: str, b: str) -> float:
    ga, gb = _grams(a), _grams(b)
    return len(ga & gb) / max(1, min(len(ga), len(gb)))


def _after(model, edition: str) -> str | None:
    eds = model.en_editions()
    return eds[eds.index(edition) + 1] if edition in eds and eds.index(edition) + 1 < len(eds) else None


def _changes_of(model, resolved: dict, since: str | None) -> list[dict]:
    """The editions in which a cited rule's lineage changed (text, number with text, removal)."""
    out = []
    if resolved.get("status") not in _CHANGES:
        return out
    last = None
    for step in resolved.get("steps", []):
        last = step
        if since and step["to_edition"] <= since:
            continue
        if step["text_changed"]:
            moved = step["from"] != step["to"]
            out.append({"edition": step["to_edition"], "rule": step["to"], "was": step["from"],
                        "was_edition": step["from_edition"],
                        "status": "renumbered-and-changed" if moved else "text-changed",
                        "detail": (f"rule {step['from']} (CR {step['from_edition']}) became {step['to']} "
                                   f"with changed text in CR {step['to_edition']}" if moved else
                                   f"rule {step['to']} changed text in CR {step['to_edition']}")})
    if resolved["status"] == "removed":
        at = last["to_edition"] if last else resolved["edition"]
        number = last["to"] if last else resolved["number"]
        gone = _after(model, at)
        if gone and (not since or gone > since):
            out.append({"edition": gone, "rule": number, "was": number, "was_edition": at, "status": "removed",
                        "detail": f"rule {number} (CR {at}) has no successor in CR {gone}"})
    return out


def _ruling_brief(r: dict) -> dict:
    return {"id": r["id"], "document": r["document"], "date": r.get("date"), "kind": r["kind"],
            "text": r["text"], "locator": r["locator"]["locator"]}


def _by_citation(model) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for r in model.statements():
        since = r.get("date")
        changes = []
        resolved = ([r["resolved"]] if r["kind"] == "quoted-rule" and r.get("resolved") else []) + \
            [res for c in r.get("citations", []) for res in c["resolved"]]
        for res in resolved:
            for ch in _changes_of(model, res, since):
                ch = ch | {"cited": res["number"], "cited_edition": res["edition"], "by": "citation"}
                if ch not in changes:
                    changes.append(ch)
        if changes:
            out[r["id"]] = _ruling_brief(r) | {"changed_by": changes}
    return out


def _changes_after(kb, number: str, since: str | None) -> list[dict]:
    """Every edition after ``since`` in which today's rule ``number`` (by lineage) was created,
    moved or changed text: which of them made a ruling wrong the engine cannot tell (it reasons
    with today's rules only), so all are named, oldest first."""
    try:
        steps = kb.history(number)
    except Exception:  # noqa: BLE001
        return []
    return [step for step in steps if (not since or step["edition"] > since)
            and step["event"] in changes.CHANGING]


def _changed_by(kb, rules: list[str], since: str | None) -> tuple[str | None, list[dict]]:
    """The rule that decides the ruling's case today (the first the engine applied) and its changes
    after ``since``: the date of the ruling or the edition it was written against, the later."""
    return (rules[0], _changes_after(kb, rules[0], since)) if rules else (None, [])


def _by_engine(kb) -> tuple[dict[str, dict], str | None]:
    try:
        from kb.reasoning.catalog import list_mechanics
        from kb.reasoning.engine import registered
        from kb.reasoning.rulings import classify_rulings
        book = kb.rulebook()
        every_rule = list(kb.model.edition_rules("en", book.edition))
        out: dict[str, dict] = {}
        for m in list_mechanics():
            result = classify_rulings(book, registered(m["key"]), every_rule)
            for d in result["superseded"]:
                rules = d.get("superseded_by") or []
                # the edition it was written against is what it describes (a 2011-09-23 FAQ of 2011-09-30)
                written = kb.model.documents.get(d.get("document") or "", {}).get("edition")
                deciding, steps = _changed_by(kb, rules, max(filter(None, (d.get("date"), written)), default=None))
                step = steps[0] if steps else None
                change = {"edition": step["edition"] if step else d["edition"],
                          "rule": step["number"] if step else deciding, "current_rule": deciding,
                          "status": "outcome-changed", "by": "reasoning", "mechanic": m["key"], "rules": rules,
                          "changes": [{"edition": x["edition"], "rule": x["number"], "event": x["event"]} for x in steps],
                          "detail": (f"the ruling says {d.get('claims')!r}; under CR {d['edition']} the "
                                     f"engine computes otherwise (rules {', '.join(rules)})"
                                     + (f"; today's {deciding} changed since: " + ", ".join(
                                         f"{x['number']} {x['event']} in CR {x['edition']}" for x in steps)
                                        if steps else ""))}
                ruling = kb.model.statement(d["id"])
                entry = out.setdefault(d["id"], (_ruling_brief(ruling) if ruling else
                                                 {"id": d["id"], "document": d["document"], "date": d["date"],
                                                  "text": d["text"], "locator": d["locator"]}) | {"changed_by": []})
                same = next((c for c in entry["changed_by"]
                             if (c["edition"], c["rule"], c["rules"]) == (change["edition"], change["rule"], rules)), None)
                if same is None:
                    change["mechanics"] = [change.pop("mechanic")]
                    entry["changed_by"].append(change)
                elif m["key"] not in same["mechanics"]:
                    same["mechanics"].append(m["key"])
        return out, None
    except Exception as exc:  # noqa: BLE001 - the citation-based part still stands
        return {}, f"{type(exc).__name__}: {exc}"


def contradictions(model) -> list[dict]:
    out = []
    rulings = list(model.rulings.values())
    for r in rulings:
        if not _CORRECTION.search(r["text"]):
            continue
        for m in _CLAIM.finditer(r["text"]):
            claim = m.group(1) or m.group(2)
            candidates = [(_overlap(claim, o["text"]) + (0.1 if o["document"] == r["document"] else 0), o)
                          for o in rulings if o["id"] != r["id"] and not _CORRECTION.search(o["text"])]
            if not candidates:
                continue
            score, best = max(candidates, key=lambda c: c[0])
            if score < 0.3:
                continue
            said = r["text"][:m.start()].rstrip("「“").strip()
            out.append({
                "a": {"claim": claim, "source": said[-60:] or r["document"], "reported_by": _ruling_brief(r),
                      "status": "misstated (corrected)"},
                "b": _ruling_brief(best),
                "why": (f"{r['id']} reports that a source stated 「{claim}」 and that this was an error "
                        f"({_CORRECTION.search(r['text']).group()}); {best['id']} states the opposite for the "
                        f"same situation"),
                "score": round(score, 2)})
    return out


def rulings_over_time(kb) -> dict:
    model = kb.model
    superseded = _by_citation(model)
    engine, error = _by_engine(kb)
    for rid, entry in engine.items():
        if rid in superseded:
            superseded[rid]["changed_by"].extend(c for c in entry["changed_by"]
                                                 if c not in superseded[rid]["changed_by"])
        else:
            superseded[rid] = entry
    items = sorted(superseded.values(), key=lambda e: (e["document"], e.get("locator", "")))
    return {"current_edition": model.current("en"), "superseded": items,
            "contradictions": contradictions(model), "engine_error": error}
