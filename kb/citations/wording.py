"""The checker's explanations in Japanese: each evidence line (kb.citations.evidence, .named) and
each form's "why" (kb.citations.forms) is written from a fixed English sentence with its values
filled in; this is the one table that says each of them in Japanese, values kept as they are.

``ja(line)`` gives the JA wording of one line, or the line itself if no row says it (a test reads
every line the benchmark texts produce and fails on any left in English)."""
from __future__ import annotations

import re
from functools import lru_cache

_N = r"(?P<{}>.+?)"


def _rx(pattern: str) -> re.Pattern:
    """``{name}`` stands for a value (a rule number, an edition, a score): kept as written."""
    return re.compile("^" + re.sub(r"\\\{(\w+)\\\}", lambda m: _N.format(m[1]), re.escape(pattern)) + "$")


_ROWS: tuple[tuple[re.Pattern, str], ...] = tuple((_rx(en), ja) for en, ja in (
    # ---------------------------------------------------------------- edition evidence
    ("the document's quoted rules fit CR {e} best ({fit}; the edition of its date {anchor})",
     "文書が引用しているルールは CR {e} に最もよく合う（一致度 {fit}。日付の版では {anchor}）"),
    ("no date: the newest edition", "日付なし：最新の版"),
    ("no date: the era of the text was inferred, CR {a} to {b}", "日付なし：文章全体から時期を推定した（CR {a}〜{b}）"),
    ("its own evidence contradicts the text's era: read by its own", "この引用自身の手がかりが文章の時期と矛盾するため、それに従って読んだ"),
    ("reading shared by {k} loaded editions, {a} to {b}: weight {w}",
     "読み込み済みの {k} 版（{a}〜{b}）で同じ読み：重み {w}"),
    ("the edition before the one the article announces, and the text says it was ({d})",
     "記事が告知している版の一つ前の版で、本文も過去のこととして書いている（{d}）"),
    ("the edition before the one the article announces", "記事が告知している版の一つ前の版"),
    ("the edition this changes article of {d} announces (effective {e})",
     "この {d} の変更記事が告知している版（{e} 発効）"),
    ("the newest loaded edition on the text's date {d} (no official list: editions that are not loaded "
     "may have come in between)",
     "文章の日付 {d} の時点で最新の読み込み済みの版（公式の版の一覧がないため、読み込まれていない版が間にあった"
     "可能性があります）"),
    ("in force on the text's date {d}", "文章の日付 {d} に有効だった版"),
    ("{n} not in CR {e}", "{n} は CR {e} にない"),
    ("not in the loaded editions around {e}", "{e} の前後の読み込み済みの版にない"),
    ("{n} of CR {new} is {was} of CR {old} renumbered, text unchanged, while {n2} of CR {old2} was removed: "
     "a changes article speaks of the rule that changed",
     "CR {new} の {n} は CR {old} の {was} が本文そのままで番号だけ変わったもので、CR {old2} の {n2} は削除された。"
     "変更記事が述べるのは変わったルールのほう"),
    ("{n} of CR {new} is {was} of CR {old} renumbered, text unchanged, while {n2} of CR {old2} was moved to "
     "{went}: a changes article speaks of the rule that changed",
     "CR {new} の {n} は CR {old} の {was} が本文そのままで番号だけ変わったもので、CR {old2} の {n2} は {went} に"
     "移った。変更記事が述べるのは変わったルールのほう"),
    ("quote fits {q} (best)", "引用の一致度 {q}（最高）"),
    ("quote fits {q} (best {top})", "引用の一致度 {q}（最高は {top}）"),
    ("the document's quote of it fits {q} (best)", "文書中のこのルールの引用の一致度 {q}（最高）"),
    ("the document's quote of it fits {q} (best {top})", "文書中のこのルールの引用の一致度 {q}（最高は {top}）"),
    ("tense: past ('was', 「だった」)", "時制：過去（「だった」、'was'）"),
    ("tense: new rule", "時制：新しいルール"),
    # ---------------------------------------------------------------- the forms' why
    ("named as a rule: 'rule', 'rules' or 'CR' before the number", "ルールとして示されている（番号の前に rule / CR）"),
    ("named as a rule: 「ルール」 or 「総合ルール」 before the number", "ルールとして示されている（番号の前に「ルール」「総合ルール」）"),
    ("named as a section: 'section' before the number", "節として示されている（番号の前に section）"),
    ("followed by 参照 (see)", "後に「参照」が続く"),
    ("followed by a 〔title〕, as the JA CR writes cross-references", "後に〔見出し〕が続く（日本語版総合ルールの参照の書き方）"),
    ("a lettered range (601.2a-g): no date or price looks like it", "英字の範囲（601.2a-g など）：日付や価格には見えない"),
    ("a dotted rule number alone in parentheses", "括弧の中にルール番号だけが書かれている"),
    ("a heading or bold line that is a rule number (a changes article's topic)",
     "見出しや太字の行がルール番号（変更記事の項目）"),
    ("opens an entry of a list of rules (after ':' or '・', or set off by two spaces)",
     "ルールの一覧の項目の先頭（「:」「・」の後、または二つの空白で区切られている）"),
    ("a bare number in rules text that is a rule of some loaded edition", "ルールの文章中の番号で、読み込み済みのいずれかの版のルール"),
    ("{n} is a rule of a loaded edition, written in running text", "{n} は読み込み済みの版のルールで、地の文に書かれている"),
    ("section {n} of a loaded edition, in a sentence about rules", "読み込み済みの版の節 {n} で、ルールについての文の中にある"),
    ("a line that opens with a rule number and goes on with text: a quote of that rule",
     "ルール番号で始まり本文が続く行：そのルールの引用"),
))
_TITLED = re.compile(r"^(?P<not>not )?titled (?P<t>.+) in CR (?P<e>\S+)$")
_NAMED = re.compile(r"^the text names (?P<t>.+): (?P<w>\S+) read as (?P<n>\S+) of CR (?P<e>\S+)$")


@lru_cache(maxsize=4096)  # a long list repeats the same lines; bounded, so memory stays bounded
def ja(line: str) -> str:
    """The Japanese wording of one explanation line (the line itself if no row says it)."""
    for pattern, template in _ROWS:
        m = pattern.match(line)
        if m:
            return template.format(**m.groupdict())
    if m := _TITLED.match(line):  # a title is free text: matched on its own
        return f"CR {m['e']} では「{m['t']}」という見出しではない" if m["not"] else f"CR {m['e']} での見出しは「{m['t']}」"
    if m := _NAMED.match(line):
        return f"本文が「{m['t']}」と名指ししている：{m['w']} を CR {m['e']} の {m['n']} として読んだ"
    return line
