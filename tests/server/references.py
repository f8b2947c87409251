"""Reference versions the server tests compare today's code with (not tests themselves): the
computations as they were before a speed-up (snippet spans and windows, an answer's citations), and a
fixed sample of the bench's queries to compare them on."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

from kb.search import snippet as sn
from kb.search import tokenize as tk
from kb.search.snippet import Marker, _merge

BENCH = Path(__file__).resolve().parents[2] / "bench"


def sample_queries(seed: int, keywords: int, judges: int) -> list[str]:
    """A fixed sample of the bench's keyword queries (EN and JA) and judge questions."""
    rng = random.Random(seed)
    keyword = []
    for name in ("search_queries.json", "search_queries_ja.json"):
        keyword += [q["q"] for q in json.loads((BENCH / name).read_text(encoding="utf-8"))["queries"]]
    judge = [q["q"] for q in json.loads((BENCH / "judge_questions.json").read_text(encoding="utf-8"))["questions"]]
    return rng.sample(keyword, keywords) + rng.sample(judge, judges)


def old_spans(marker: Marker, normed: str) -> list:
    """The snippet spans as computed before the per-text memo: every word, run and morpheme anew."""
    out = []
    for m in tk.EN_WORD.finditer(normed):
        word = m.group()
        if word not in tk.STOP_EN and tk.stem(word) in marker.stems:
            out.append((m.start(), m.end(), tk.stem(word)))
    for number in marker.rules:
        for m in re.finditer(rf"(?<![\d.]){re.escape(number)}(?![\d])", normed):
            out.append((m.start(), m.end(), number))
    if marker.has_ja and tk.HAS_JA.search(normed):
        for sub in marker.subs:
            start = normed.find(sub)
            while start >= 0:
                out.append((start, start + len(sub), sub))
                start = normed.find(sub, start + len(sub))
        for run in tk.JA_RUN.finditer(normed):
            for b, e, surface, lemma in tk.morphemes(run.group()):
                s, l = tk.fold(surface), tk.fold(tk.norm(lemma))
                if s in marker.stems or l in marker.stems:
                    out.append((run.start() + b, run.start() + e, l))
    return _merge(out)


def old_with_citations(answer: dict) -> dict:
    if isinstance(answer, dict) and "citations" in answer:
        return answer
    found, seen = [], set()

    def walk(value):
        if isinstance(value, dict):
            for key, sub in value.items():
                if key == "citation" and isinstance(sub, dict):
                    marker = repr(sorted(sub.items()))
                    if marker not in seen:
                        seen.add(marker)
                        found.append(sub)
                else:
                    walk(sub)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    walk(answer)
    return {**answer, "citations": found}


def old_window(spans, normed, where, length):
    best, best_start = -1, 0
    for s, _, _ in spans:
        start = max(0, where[s] - 40)
        terms = {t for s2, e2, t in spans if where[s2] >= start and where[e2 - 1] < start + sn.SNIPPET}
        if len(terms) > best:
            best, best_start = len(terms), start
    start = best_start
    end = min(length, start + sn.SNIPPET)
    if end == length:
        start = max(0, end - sn.SNIPPET)
    return start, end
