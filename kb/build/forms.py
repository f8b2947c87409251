"""The text forms the CR itself defines, found in the cards' Oracle text.

Some rules say what a kind of card text means by quoting its form: 603.4 "A triggered ability may
read “When/Whenever/At [trigger event], if [condition], [effect].”", 614.1c "Effects that read
“[This permanent] enters with . . . ,” ... are replacement effects". A card whose text takes such a
form is governed by that rule though neither the card nor a question about it says so (a trigger's
intervening "if" checked again on resolution). The forms are read from today's rules, not listed
here: a rule that introduces a quote by "reads", "written" or "worded", the quote holding a
bracketed slot. Each becomes a pattern: its words literal, a bracket a few words (one word after
"this" for "[this permanent]"), ". . ." the rest of the line, "When/Whenever/At" alternatives,
anchored at the start of a sentence or line of the card's text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.store.rows import Model
from kb.text import without_reminder_text

INTRODUCED = re.compile(r"\b(?:reads?|written|worded)\b[^“”]{0,25}“")
QUOTE = re.compile(r"“([^”]*)”")
QUOTES_AFTER = 400  # characters after the verb that may hold its quotes ("... or “...”")
MAX_QUOTES = 4
CHOICE = re.compile(r"[a-z]+(?:/[a-z]+)+")
# between the quotes of one list ("“…,” “…,” or “…”"); any other words end the list: 118.12a's
# “[Do something] unless …” is followed by "This means the same thing as “…”", not another form
LIST_GAP = re.compile(r"[\s,;]*(?:(?:or|and)\s*)?", re.I)
PART = re.compile(r"\[[^\]]*\]|\.\.\.|[A-Za-z’'\-/]+|[^\sA-Za-z]")
SLOT = r"[^\s.:;]+(?:[ ,]+[^\s.:;]+){0,5}?"  # a bracket: one to six words inside one sentence
GAP = r"[\s,.;:—-]*"  # the quote's punctuation is not required of the card
START = r"(?:^|[.:—]\s*)"  # a form begins a line or a sentence of the card's text
# Oracle text of cards printed before 2024 says "enters the battlefield" where today's CR says "enters"
OLD_ENTERS = re.compile(r"\benter(s?) the battlefield\b")


@dataclass(frozen=True, slots=True)
class TextForm:
    rule: str
    quote: str
    pattern: re.Pattern
    words: tuple[str, ...]  # its literal words: a line without them all cannot match (a cheap filter)


def _pattern(quote: str) -> tuple[re.Pattern, tuple[str, ...]] | None:
    parts = PART.findall(quote.strip().rstrip(",.; ").replace(". . .", " ... "))
    out, words = [], []
    for part in parts:
        inside = part[1:-1].lower()
        if part.startswith("[") and CHOICE.fullmatch(inside):  # [cast/play]: one of these words
            out.append(r"\b(?:%s)\b" % "|".join(map(re.escape, inside.split("/"))))
        elif part.startswith("["):
            out.append(r"this [a-z]+" if inside.startswith("this ") else SLOT)
        elif part == ".":  # a sentence ends here in the quote: "[Do something]. If …" is two sentences
            out.append(r"\.")
        elif part == "...":
            out.append(r"[^\n]*?")
        elif part[0].isalpha():
            alternatives = [a.lower().replace("’", "'") for a in part.split("/") if a]
            out.append(r"\b(?:%s)\b" % "|".join(map(re.escape, alternatives)))
            if len(alternatives) == 1:
                words.append(alternatives[0])
    if not any(p[0].isalpha() for p in parts):
        return None
    return re.compile(START + GAP.join(out), re.I), tuple(words)


def text_forms(model: Model) -> list[TextForm]:
    """The forms today's EN rules quote (empty without a CR)."""
    current = model.current("en")
    forms: list[TextForm] = []
    for number, rule in (model.rules.edition("en", current) if current else {}).items():
        if rule["kind"] not in ("rule", "subrule"):
            continue
        text = rule["text"]
        for verb in INTRODUCED.finditer(text):
            after = text[verb.end() - 1: verb.end() - 1 + QUOTES_AFTER]
            end = 0
            for index, found in enumerate(QUOTE.finditer(after)):
                if index >= MAX_QUOTES or (index and not LIST_GAP.fullmatch(after[end:found.start()])):
                    break  # the quotes the verb introduces are over
                end = found.end()
                quote = found.group(1)
                made = _pattern(quote) if "[" in quote else None
                if made:
                    forms.append(TextForm(number, quote, *made))
    return forms


def matching_text(text: str, own_names: list[str]) -> str:
    """A card's text as the forms are matched: its own names as "this object" (a form's
    "[this permanent]"), reminder text out (it restates a rule), today's "enters"."""
    for name in sorted(filter(None, own_names), key=len, reverse=True):
        text = text.replace(name, "this object")
    text = without_reminder_text(text).replace("’", "'")
    return OLD_ENTERS.sub(r"enter\1", text).lower()


def forms_in(forms: list[TextForm], text: str) -> list[str]:
    """The rules whose forms a card's (matching) text takes, in rule order of the forms."""
    return list(form_phrases(forms, text))


def form_phrases(forms: list[TextForm], text: str) -> dict[str, tuple[int, str]]:
    """Rule -> (line index, the part of that line of the matching text that takes its form)."""
    found: dict[str, tuple[int, str]] = {}
    for index, line in enumerate(text.split("\n")):
        for form in forms:
            if form.rule not in found and all(w in line for w in form.words) and (m := form.pattern.search(line)):
                found[form.rule] = (index, m.group().lstrip(".:— "))
    return found


def link_forms(model: Model) -> None:
    """Each card's ``forms``: [rule, share of the cards with text that take that form too], rarest
    first (a form one card in three takes says little of any one of them)."""
    forms = text_forms(model)
    found: dict[str, list[str]] = {}
    for key, card in model.cards.items():
        if "faces" not in card:
            continue
        own = [f["name"] for f in card["faces"]] + [card["oracle_name"]]
        text = "\n".join(f.get("text") or "" for f in card["faces"]).strip()
        if text:
            phrases = form_phrases(forms, matching_text(text, own))
            found[key] = list(phrases)
            lines = text.split("\n")
            for rule, (index, _) in phrases.items():  # the card's own line that takes the form
                card.setdefault("rule_phrases", {}).setdefault(rule, {"phrase": lines[index].strip(), "how": "form"})
    counts: dict[str, int] = {}
    for rules in found.values():
        for rule in rules:
            counts[rule] = counts.get(rule, 0) + 1
    for key, card in model.cards.items():
        if "faces" in card:
            rules = sorted(found.get(key, ()), key=lambda r: counts[r])
            card["forms"] = [[r, round(counts[r] / len(found), 4)] for r in rules]
