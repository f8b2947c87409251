"""Accuracy on situations made from material nobody on the team wrote: official card rulings (MTGJSON
BRO/LEA), the official 2011 Innistrad DFC FAQ and the CR's own examples (bench/reasoning_official.json).

    python bench/bench_reasoning_official.py [--quiet] [--json]

Each item goes through ``kb.reasoning.catalog.ask`` on the parsed current CR exactly as written
(the published schemas; no adapter). An item passes when every expected dotted path of the outcome
equals the value the ruling or example states; a refused situation or a missing path fails. Items
the schemas cannot express (situation null) are counted as "not expressible", superseded ones (an
old text today's CR changed) as "superseded"; neither is scored, both are listed. The split is
fixed by id: odd ids are the tuning half, even ids the reported half. The baseline in the same run
is "no outcome" (an empty answer): it passes nothing.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.errors import KBError  # noqa: E402
from kb.reasoning.catalog import ask  # noqa: E402
from tests.reasoning_fixtures import current_book  # noqa: E402

OFFICIAL = Path(__file__).resolve().parent / "reasoning_official.json"
MISSING = object()


def get(outcome, path: str):
    v = outcome
    for part in path.split("."):
        if isinstance(v, list) and part.isdigit() and int(part) < len(v):
            v = v[int(part)]
        elif isinstance(v, dict) and part in v:
            v = v[part]
        else:
            return MISSING
    return v


def half(item: dict) -> str:
    return "tuning" if int(item["id"].split("-")[1]) % 2 else "reported"


def score(book, item: dict) -> dict:
    if item.get("situation") is None:
        return {"result": "not expressible", "why": item.get("note", "")}
    if item.get("status") == "superseded":
        return {"result": "superseded", "why": item.get("note", "")}
    try:
        outcome = ask(book, item["mechanic"], item["situation"], rulings=False)["outcome"]
    except KBError as e:
        return {"result": "failed", "why": f"refused: {e}"}
    wrong = {k: get(outcome, k) for k, want in item["expected"].items() if get(outcome, k) != want}
    if wrong:
        return {"result": "failed", "why": "; ".join(f"{k}: expected {item['expected'][k]!r}, got "
                                                    f"{'no such field' if v is MISSING else repr(v)}"
                                                    for k, v in wrong.items())}
    return {"result": "passed"}


def baseline(item: dict) -> str:
    """The trivial answer: no outcome at all (every expected path is missing)."""
    if item.get("situation") is None:
        return "not expressible"
    if item.get("status") == "superseded":
        return "superseded"
    return "passed" if not item["expected"] else "failed"


def table(rows: list[tuple[dict, dict]]) -> list[str]:
    by: dict = defaultdict(lambda: defaultdict(int))
    for item, r in rows:
        for key in (item["type"], "all"):
            by[key][r["result"]] += 1
            by[key]["baseline " + baseline(item)] += 1
    out = [f"{'type':20} {'passed':>6} {'failed':>6} {'not expr.':>9} {'supers.':>7} | baseline passed"]
    for key in sorted(by, key=lambda k: (k == "all", k)):
        t = by[key]
        out.append(f"{key:20} {t['passed']:6} {t['failed']:6} {t['not expressible']:9} {t['superseded']:7} | "
                   f"{t['baseline passed']:8}")
    return out


def main() -> None:
    data = json.loads(OFFICIAL.read_text(encoding="utf-8"))
    book = current_book()
    rows = [(item, score(book, item)) for item in data["items"]]
    print(f"official-rulings set ({OFFICIAL.name}): {len(rows)} items (CR {data['edition']}); engine book: CR {book.edition}")
    for name in ("tuning", "reported"):
        part = [(i, r) for i, r in rows if half(i) == name]
        print(f"\n{name} half ({len(part)} items, {'odd' if name == 'tuning' else 'even'} ids)")
        print("\n".join(table(part)))
    print("\nall items")
    print("\n".join(table(rows)))
    if "--quiet" not in sys.argv:
        print("\nnot passed:")
        for item, r in rows:
            if r["result"] != "passed":
                print(f"  {item['id']} [{half(item)}] {item['type']:20} {r['result']}: {r['why']}")
    if "--json" in sys.argv:
        print(json.dumps([{"id": i["id"], **r} for i, r in rows], indent=1))


if __name__ == "__main__":
    main()
