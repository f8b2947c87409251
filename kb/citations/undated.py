"""A text with no date: its era inferred from all its evidence (kb.citations.era), each citation's
verdict read in it, and what the answer says about it (the era, why, the readings of a citation
whose meaning differs between the candidate editions, official editions that are not loaded)."""
from __future__ import annotations

from kb.citations.era import EraInference
from kb.citations.evidence import Verdict

WINDOW = 200  # characters each side of a citation whose words may say what it is about


class Undated:
    def __init__(self, answers, chooser, held, official, text: str, found, quotes):
        lineage = answers.lineage
        self.editions = list(lineage.editions)
        self.held, self.official = held, official
        self.era = EraInference(answers, self.editions, text, quote_fit=chooser._quote_in)
        self.era.use_names(answers.titles)
        self.era.add_vocabulary(answers.titles)
        for i, c in enumerate(found):  # the words between it and its neighbours speak of it
            quote = chooser.quotes.get(c.numbers[0]) if len(c.numbers) == 1 else None
            lo = max(found[i - 1].end if i else 0, c.start - WINDOW)
            hi = min(found[i + 1].start if i + 1 < len(found) else len(text), c.end + WINDOW)
            words = (c.title or "") + " " + text[lo:hi]
            self.era.add_citation(list(c.numbers), c.title, words, c.confidence, c.raw, quote=quote)
        lines = text.splitlines()
        for quote, line, raw in quotes:  # (the chooser's reading of a quote, its line, the number as written)
            self.era.add_citation([quote.number], None, lines[line - 1] if line <= len(lines) else "", 0.9,
                                  raw, quote=quote)
        self.weights, self.first, self.last, self.why, self.why_ja = self.era.era()
        self.count = 0

    def verdict(self, k: int, numbers: list[str]) -> tuple[Verdict, object]:
        """The k-th citation's verdict (citations first, then quotes, in the order they were added)."""
        ce = self.era.citation(k, numbers)
        e = ce.edition
        found = self.held.find(e)
        method = "own-evidence" if ce.own else "inferred-era"
        evidence = ([f"no date: the era of the text was inferred, CR {self.first} to {self.last}"]
                    + (["its own evidence contradicts the text's era: read by its own"] if ce.own else [])
                    + [f"reading shared by {len(r.editions)} loaded editions, {r.editions[0]} to "
                       f"{r.editions[-1]}: weight {r.weight:.2f}" for r in ce.readings[:3]])
        runner = ce.readings[1] if len(ce.readings) > 1 else None
        verdict = Verdict(e, found.file_date if found else e, True, e, method, ce.weight, evidence,
                          {"edition": runner.editions[-1], "score": round(runner.weight, 2), "loaded": True}
                          if runner else None, ce.ambiguous)
        return verdict, ce

    def annotate(self, entry: dict, ce, detection: float) -> None:
        """Readings, the ambiguous status and the answer's confidence (detection x the weight of its reading)."""
        numbers = entry["numbers"]
        best = ce.readings[0]
        entry["edition_meant"]["span"] = [best.editions[0], best.editions[-1]]  # the editions of its reading
        entry["detection_confidence"] = detection
        entry["confidence"] = round(detection * ce.weight, 2)
        if len(ce.readings) > 1:
            entry["readings"] = [r.as_json(numbers) for r in ce.readings[:4]]
        if ce.ambiguous and entry["status"] != "ambiguous":
            entry["status"] = "ambiguous"

    def summary(self) -> dict:
        newer = [e.effective for e in self.official if e.effective > self.editions[-1]] if self.official else []
        notes, notes_ja = [], []
        if newer and self.last == self.editions[-1]:
            notes.append(f"the text may also be of official editions that are not loaded ({', '.join(newer)}): "
                         f"read in CR {self.editions[-1]}, the newest loaded")
            notes_ja.append(f"読み込まれていない公式の版（{', '.join(newer)}）の文章である可能性もあります。"
                            f"読み込み済みの最新版 CR {self.editions[-1]} で読みました")
        return {"from": self.first, "to": self.last, "method": "inferred",
                "editions": sum(1 for w in self.weights if w >= max(self.weights) * 0.135),
                "why": self.why, "why_ja": self.why_ja, "not_loaded_newer": newer,
                "notes": notes, "notes_ja": notes_ja}


def era_notes(era: dict) -> tuple[str, str]:
    """One line saying which era was inferred and why (EN, JA)."""
    span = f"CR {era['from']}" + (f" to {era['to']}" if era["to"] != era["from"] else "")
    span_ja = f"CR {era['from']}" + (f"〜{era['to']}" if era["to"] != era["from"] else "")
    return (f"undated: the era was inferred from the text: {span} ({'; '.join(era['why'])})",
            f"日付なし：文章から時期を推定しました：{span_ja}（{'；'.join(era['why_ja'])}）")

