"""Check every rule citation in any text (a wiki page, a blog post, a judge's answer, a rules-change
article; JA or EN; plain, Markdown, HTML or wikitext).

Markup is stripped for detection with offsets kept (kb.citations.markup); citations are found by
every form (kb.citations.extract.detect), each with how sure and why; a line that opens with a
rule number and goes on with text is a quote of that rule (kb.citations.quotes). Each citation's
edition is chosen from evidence (kb.citations.evidence), then its numbers are carried to today
by lineage and the answer is built (kb.citations.answer). The document gets a summary: counts by
status, the editions involved, and a caveat when the edition its date means is not loaded.
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date as Date

from kb.citations.answer import Answers
from kb.citations.evidence import Chooser, document_facts
from kb.citations.extract import detect
from kb.citations.markup import strip_markup
from kb.citations.named import read_named
from kb.citations.official import held, official
from kb.citations.quotes import find_quotes
from kb.citations.undated import Undated, era_notes
from kb.citations.reading import Reference
from kb.citations.wording import ja
from kb.errors import InvalidDate, InvalidLang
from kb.memo import per_owner
from kb.parse.common import is_japanese
from kb.sources.editions import iso_day

_MONTHS = {m: i for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                       "september", "october", "november", "december"), 1)}
_DATES = re.compile(r"(?P<iso>(?:19|20)\d\d)[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})(?!\d)"
                    r"|(?P<ja>(?:19|20)\d\d)年(?P<jm>\d{1,2})月(?P<jd>\d{1,2})日"
                    r"|(?P<mon>January|February|March|April|May|June|July|August|September|October|November|December"
                    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.? (?P<md>\d{1,2}), (?P<my>(?:19|20)\d\d)")
SUGGESTION = "kb fetch --history"
AFTER = 240  # characters after a citation (to the next one) that may name the rule it cites


def parse_date(value) -> Date | None:
    """None, a date, "YYYY-MM-DD" or "YYYYMMDD" (kb.sources.editions.iso_day); anything else is InvalidDate."""
    if value is None or value == "":
        return None
    try:
        return Date.fromisoformat(iso_day(value))
    except ValueError:
        raise InvalidDate("date: expected YYYY-MM-DD", value=str(value)) from None


def guess_date(plain: str) -> tuple[Date, int] | None:
    """The first date written in the text's first 60 lines (URLs are already blanked): its
    publication date in the articles and posts people paste. (date, 1-based line)."""
    head = "\n".join(plain.splitlines()[:60])
    for m in _DATES.finditer(unicodedata.normalize("NFKC", head)):
        try:
            if m["iso"]:
                found = Date(int(m["iso"]), int(m["im"]), int(m["id"]))
            elif m["ja"]:
                found = Date(int(m["ja"]), int(m["jm"]), int(m["jd"]))
            else:
                month = next(v for k, v in _MONTHS.items() if k.startswith(m["mon"].lower()[:3]))
                found = Date(int(m["my"]), month, int(m["md"]))
        except ValueError:
            continue
        return found, head.count("\n", 0, m.start()) + 1
    return None


def rule_numbers(model) -> tuple[frozenset[str], frozenset[str]]:
    """Every rule number and every section number of the loaded EN editions."""
    def build():
        known = frozenset(k[2] for k in model.rules if k[0] == "en")
        sections = frozenset(k[2] for k, r in model.rules.items() if k[0] == "en" and r["kind"] == "section")
        return known, sections
    return per_owner(model, "citations-rule-numbers", build)


_CLAUSE = re.compile(r"(?<![0-9０-９])[.!?](?=\s)|[。！？\n]|[ \u3000]{2,}")


def clause(plain: str, lo: int, start: int, end: int) -> str:
    """The words that speak of a citation (for tense): from the end of the previous citation or
    the start of its sentence, whichever is later, to a few characters after it ("X was")."""
    for m in _CLAUSE.finditer(plain, lo, start):
        lo = m.end()
    stop = _CLAUSE.search(plain, end, end + 16)
    return plain[lo:stop.start() if stop else min(len(plain), end + 16)]


class _Quote:  # what the edition chooser reads of a quote
    __slots__ = ("number", "text", "lang", "cites")

    def __init__(self, q):
        self.number, self.text, self.lang = q.number, q.text, q.lang
        self.cites = [n for c in q.citations for n in c.numbers]


def check_citations(kb, text: str, date=None, lang: str | None = None) -> dict:
    """Every citation and quoted rule in ``text``, checked against the loaded CR editions."""
    if lang not in (None, "ja", "en"):
        raise InvalidLang(f"lang={lang!r}: expected one of ja, en")
    when = parse_date(date)
    text = text or ""
    lang = lang or ("ja" if is_japanese(text) else "en")
    plain = strip_markup(text)
    date_source = "given" if when else None
    if when is None and (guessed := guess_date(plain.text)):
        when, line = guessed
        date_source = f"guessed from line {line}"
    answers = Answers(kb)
    lineage = kb.lineage
    facts_held = held(kb.model)
    facts = document_facts(plain.text, when.isoformat() if when else None, official(), lineage, facts_held)
    quotes = find_quotes(plain.text, headings=plain.headings, original=text)
    chooser = Chooser(lineage, facts, title_matches=answers.title_matches,
                      quotes=[_Quote(q) for q, _, _ in quotes]) if lineage.editions else None
    known, sections = rule_numbers(kb.model)
    found = detect(text, known=known, sections=sections, plain=plain,
                   quote_lines={q.locator.line_start for q, _, _ in quotes})
    # no date: the era is inferred from the whole text, and its citations share it (kb.citations.era)
    undated = Undated(answers, chooser, facts_held, official(), plain.text, found,
                      [(_Quote(q), q.locator.line_start, q.raw_number) for q, _, _ in quotes]) \
        if chooser and when is None else None
    citations = []
    previous_end = 0
    for i, c in enumerate(found):
        context = clause(plain.text, max(previous_end, c.start - 160), c.start, c.end)
        previous_end = c.end
        era = None
        if undated:
            verdict, era = undated.verdict(i, list(c.numbers))
        else:
            verdict = chooser.choose(list(c.numbers), title=c.title, context=context) if chooser else None
        read_as = _read_named(answers, chooser, verdict, c, context + " " + (c.title or "") + " " + plain.text[
            c.end:min(found[i + 1].start if i + 1 < len(found) else len(plain.text), c.end + AFTER)])
        entry = answers.entry(raw=c.raw, line=c.line, column=c.column, numbers=list(c.numbers), title=c.title,
                              edition=verdict.resolve_with if verdict else None,
                              method=verdict.method if verdict else "no-edition-loaded", kind="citation",
                              verdict=verdict, read_as=read_as)
        entry |= {"form": c.form, "confidence": c.confidence, "why": c.why, "why_ja": ja(c.why)}
        if era is not None:
            undated.annotate(entry, era, c.confidence)
        else:
            _ambiguity(answers, entry, verdict)
            _confidence(entry, c.confidence)
        citations.append(entry)
    lines = plain.text.splitlines()
    quote_summaries = []
    reference = None
    for k, (q, column, shown) in enumerate(quotes):
        line = q.locator.line_start
        era = None
        if undated:
            verdict, era = undated.verdict(len(found) + k, [q.number])
        else:
            verdict = chooser.choose([q.number], quote=_Quote(q), context=lines[line - 1]) if chooser else None
        edition = verdict.resolve_with if verdict else None
        entry = answers.entry(raw=q.raw_number, line=line, column=column, numbers=[q.number], title=None,
                              edition=edition, method=verdict.method if verdict else "no-edition-loaded",
                              kind="quote", verdict=verdict)
        why = "a line that opens with a rule number and goes on with text: a quote of that rule"
        entry |= {"form": "quote", "confidence": 0.9, "why": why, "why_ja": ja(why)}
        if era is not None:
            undated.annotate(entry, era, 0.9)
        else:
            _confidence(entry, 0.9)
        # the rest of the page is reference wording for the quote's reading check; the quote itself
        # is not, nor its repeats (the FAQ repeats itself): a repeat is not a reference
        if reference is None:
            reference = Reference(answers.model, plain.text)
        own = reference.leaving_out(q.text, plain.text.count(q.text) or 1)
        entry["quote"] = {"text": shown, "line": line, "lang": q.lang}
        d = entry["quote_check"] = answers.compare_quote(q, edition, own)
        # quote_diff only when there is something to show (the CLI prints it as a difference)
        entry["quote_diff"] = d if d.get("ops") else None
        citations.append(entry)
        quote_summaries.append({"number": q.number, "line": line, "column": column, "lang": q.lang,
                                "comparison": d["status"], "similarity": d.get("similarity"),
                                "summary": d.get("summary")})
    citations.sort(key=lambda c: (c["line"], c["column"]))
    report = _report(citations, quote_summaries, facts, lineage, when, date_source, lang)
    if undated:
        era = report["era"] = undated.summary()
        en, ja_line = era_notes(era)
        report["notes"][:0] = [en, *era["notes"]]
        report["notes_ja"][:0] = [ja_line, *era["notes_ja"]]
        report["method"] = "inferred-era"
    else:
        report["era"] = None
    return report | {"texts": answers.texts}


def _confidence(entry: dict, detection: float) -> None:
    """A dated answer's confidence: how sure the citation was found, lowered when the edition it
    means is a close call whose readings differ, or is not loaded (read in a neighbour)."""
    entry["detection_confidence"] = detection
    meant = entry.get("edition_meant") or {}
    factor = 0.6 if entry["status"] == "ambiguous" else 0.8 if meant and not meant.get("loaded", True) else 1.0
    entry["confidence"] = round(detection * factor, 2)


def _read_named(answers: Answers, chooser, verdict, c, words: str) -> dict[str, str] | None:
    """An edition that is not loaded: the rule the text names near the number, if a neighbouring
    loaded edition numbers it differently (kb.citations.named); the verdict is told."""
    if verdict is None or verdict.loaded or len(c.numbers) != 1:
        return None
    number = c.numbers[0]
    around = [x for x in chooser.loaded_around(verdict.edition) if x]
    reading = read_named(answers.model, answers.titles, around, number, words)
    if reading is None:
        return None
    verdict.resolve_with = reading.edition
    verdict.evidence.append(reading.why(number))
    verdict.caveat = chooser.caveat(verdict.edition, reading.edition, reading.number)
    verdict.caveat_ja = chooser.caveat(verdict.edition, reading.edition, reading.number, ja=True)
    return {number: reading.number}


def _ambiguity(answers: Answers, entry: dict, verdict) -> None:
    """Top two editions close and reading the numbers differently: say so, with both readings."""
    if verdict is None or not verdict.ambiguous or not verdict.runner_up or entry["status"] == "ambiguous":
        return
    other = verdict.runner_up["edition"]
    chooser_edition = other if verdict.runner_up["loaded"] else None
    if chooser_edition is None:
        return
    mine = [(r["status"], r["current"]) for r in entry["resolved"]]
    theirs = [(answers.status(n, other)["status"], (answers.status(n, other)["current"] or {}).get("number"))
              for n in entry["numbers"]]
    if mine != theirs:
        entry["status"] = "ambiguous"
        entry["candidates"] = [
            answers._candidate(n, e, why) for n in entry["numbers"][:1]
            for e, why in ((entry["edition"], "the edition that scored best"), (other, "the runner-up edition"))]


def _report(citations, quotes, facts, lineage, when, date_source, lang) -> dict:
    counts: dict[str, int] = {}
    editions: dict[str, dict] = {}
    for c in citations:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
        meant = c.get("edition_meant") or {}
        if meant:
            e = editions.setdefault(meant["edition"], {"edition": meant["edition"], "loaded": meant["loaded"],
                                                       "read_in": meant["resolved_with"], "citations": 0})
            e["citations"] += 1
    top = max(editions.values(), key=lambda e: e["citations"], default=None)
    notes, notes_ja, suggestions = [], [], []

    def note(en: str, ja: str, suggest: bool = False) -> None:
        notes.append(en)
        notes_ja.append(ja)
        if suggest:
            suggestions.append(SUGGESTION)
    loaded = lineage.editions
    if facts.in_force and facts.in_force.effective not in loaded:
        e = facts.in_force.effective
        before = next((x for x in reversed(loaded) if x < e), None) or "none"
        after = next((x for x in loaded if x > e), None) or "none"
        note(f"edition of {e} not loaded; nearest loaded {before} and {after}; results may be wrong",
             f"{e} 版は読み込まれていません。最も近い読み込み済みの版は {before} と {after} です。結果が誤っている"
             f"可能性があります", suggest=True)
    if facts.announced and facts.announced.effective not in loaded:
        e = facts.announced.effective
        note(f"the edition this article announces ({e}) is not loaded",
             f"この記事が告知している版（{e}）は読み込まれていません", suggest=True)
    if facts.changes and when and not facts.announced:
        note(f"a rules-change article: the edition it announces (effective within weeks of {when.isoformat()}) "
             f"is not loaded; its citations were read in the edition before",
             f"ルール変更記事です。告知している版（{when.isoformat()} から数週間以内に発効）は読み込まれていないため、"
             f"引用はその前の版で読んでいます", suggest=True)
    if when and not facts.official_list:
        note("no list of official editions is installed: editions that are not loaded may have come "
             "in between, and the checker cannot tell",
             "公式の版の一覧がインストールされていません。読み込まれていない版が間にあったかどうかは判断できません")
    if not loaded:
        note("no CR edition is loaded: citations cannot be resolved",
             "総合ルールの版が一つも読み込まれていないため、引用を解決できません")
    method = (top and next((c["method"] for c in citations if (c.get("edition_meant") or {}).get("edition")
                            == top["edition"]), None))
    return {"edition": top["read_in"] if top else (lineage.current if not citations else None),
            "edition_meant": top["edition"] if top else None, "method": method or "no-citations",
            "detail": f"{top['citations']} of {len(citations)} citations mean CR {top['edition']}" if top else "",
            "lang": lang, "date": when.isoformat() if when else None, "date_source": date_source,
            "kind": "rules-change article" if facts.changes else "text",
            "announced_edition": facts.announced.effective if facts.announced else None,
            "in_force": facts.in_force.effective if facts.in_force else None,
            "current_edition": lineage.current, "counts": counts,
            "editions": sorted(editions.values(), key=lambda e: e["edition"]),
            "notes": notes, "notes_ja": notes_ja, "suggestions": sorted(set(suggestions)),
            "citations": citations, "quotes": quotes}
