"""The one rule-number grammar: what a rule number is, how users write one, how it nests.

A rule number is a chapter ("7"), a section ("702"), a rule ("702.145") or a subrule ("601.2c"),
optionally with "~2" for the second of two rules an edition printed with the same number
("702.30d~2", kept apart by the parser). Users write them as "rule 601.2c", "CR:712.15",
"６０１．２ｃ", "601.2." — ``canonical`` accepts all of these and nothing else.
"""
from __future__ import annotations

import re
import unicodedata

from kb.errors import InvalidRuleNumber

NUMBER = r"\d(?:\d{2}(?:\.\d+[a-z]?)?)?(?:~\d+)?"
FULL = re.compile(rf"^{NUMBER}$")
# As typed: an optional "rule" / "CR" / 総合ルール prefix, the number, an optional final period.
_TYPED = re.compile(r"^(?:(?:rules?|cr|r\.|総合ルール|ルール)[\s:]*)?"
                    r"(\d(?:\d{2}(?:\.\d+[a-z]?)?)?)\.?(~\d+)?$", re.I)
# A rule or subrule number inside running text (601.2c, 702.145); sections need context (see citations).
IN_TEXT = re.compile(r"(?<![\d.])(\d{3}\.\d+[a-z]?)(?![\d])")
# Rule numbers worth a link in displayed text: 601.2c, 702.145, 100.1 anywhere; a bare section
# (704) only after "rule(s)" or before 〔 (so years, prices and counts stay plain text).
LINKABLE = re.compile(
    r"(?<![\w.#&])(?P<dotted>\d{3}\.\d{1,3}(?:[a-z](?![a-z]))?)(?![\d])"
    r"|(?<=\brule )(?P<sec1>\d{3})(?![\d.])"
    r"|(?<=\brules )(?P<sec2>\d{3})(?![\d.])"
    r"|(?<![\w.#&])(?P<sec3>\d{3})(?=〔)"
)
# Any rule or section number in a rule's own text, for its references (ParsedRuleBook).
LOOSE_IN_TEXT = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
OPENAPI_PATTERN = r"^\d(\d{2}(\.\d+[a-z]?)?)?(~\d+)?$"


def canonical(text: str) -> str:
    """"Rule 601.2c" / "６０１．２ｃ" / "601.2." -> "601.2c" / "601.2"; InvalidRuleNumber otherwise."""
    found = parse(text)
    if found is None:
        raise InvalidRuleNumber(f"{text!r} is not a rule number; expected a chapter (7), a section (702), "
                                "a rule (702.145) or a subrule (601.2c)")
    return found


def parse(text: str | None) -> str | None:
    """The canonical number ``text`` spells, or None."""
    value = unicodedata.normalize("NFKC", text or "").strip()
    found = _TYPED.match(value)
    return (found[1].lower() + (found[2] or "")) if found else None


def as_query(text: str) -> str | None:
    """A search query that is only a rule number ("702.6", "rule 702.6", "７０２．６"); a bare
    digit counts only with a prefix ("rule 7"), as "7" alone is a word, not a chapter."""
    number = parse(text)
    if number is None or "~" in number:
        return None
    if len(number) == 1 and not re.match(r"^\s*(rules?|cr|r\.|総合ルール|ルール)", unicodedata.normalize("NFKC", text), re.I):
        return None
    return number


def parent_of(number: str) -> str | None:
    """601.2c -> 601.2 -> 601 -> 6 -> None (702.30d~2 -> 702.30)."""
    base = number.split("~", 1)[0]
    if re.fullmatch(r"\d{3}\.\d+[a-z]", base):
        return base[:-1]
    if re.fullmatch(r"\d{3}\.\d+", base):
        return base.split(".")[0]
    if re.fullmatch(r"\d{3}", base):
        return base[0]
    return None


def kind_of(number: str) -> str:
    base = number.split("~", 1)[0]
    return ("chapter" if len(base) == 1 else "section" if len(base) == 3 else
            "subrule" if base[-1].isalpha() else "rule")


def sort_key(number: str) -> tuple:
    """Numeric order: 702.9 before 702.10, 601.2b before 601.2c."""
    return tuple(int(p) if p.isdigit() else p for p in re.findall(r"\d+|[a-z]+|~", number))
