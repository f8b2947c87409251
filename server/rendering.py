"""Page helpers for Japanese-first reading: rule numbers in old texts linked to what they meant
(and today's number beside them), the JA translation's cross-references resolved by 〔title〕,
word diffs, superseded badges, the page-language choice with its ``lang`` attribute, and
errors in the page's language. Registered on the Jinja environment by server.templating."""
from __future__ import annotations

import re

from markupsafe import Markup, escape

from kb import rulenumbers
from kb.lookup import changes, display
from kb.text import text_diff
from server.templating import current_lang, older_edition
from server.urls import url_for

ERRORS_JA = {  # the page's words for each stable error code (the API keeps kb's English message)
    "rule_not_found": "そのルール番号はこの版にありません。",
    "invalid_rule_number": "ルール番号として読めません（例: 7、702、702.145、601.2c）。",
    "mechanic_not_found": "その名前のメカニズムは見つかりませんでした。",
    "card_not_found": "その名前のカードは見つかりませんでした。",
    "ruling_not_found": "その ID の裁定は見つかりませんでした。",
    "document_not_found": "その ID の文書は見つかりませんでした。",
    "edition_not_found": "その版は読み込まれていません。",
    "invalid_edition": "版は日付（YYYY-MM-DD または YYYYMMDD）で指定してください。",
    "invalid_lang": "言語は ja か en を指定してください。",
    "invalid_parameter": "パラメーターの値が範囲外か、型が違います。",
    "missing_parameter": "必要なパラメーターがありません。",
    "query_too_long": "検索語が長すぎます。",
    "not_found": "このアドレスのページはありません。",
    "method_not_allowed": "この方法ではアクセスできません。",
    "no_snapshot": "知識グラフがまだ構築されていません（kb build を実行してください）。",
    "no_edition_loaded": "総合ルールの版が一つも読み込まれていません。",
    "internal_error": "サーバー内部でエラーが起きました。",
}


def error_text(error: dict) -> str:
    if current_lang() == "en":
        return error.get("message", "")
    return ERRORS_JA.get(error.get("code"), "エラーが起きました。")


def picked(ja, en) -> Markup:
    """``lang`` attribute value of the text ``pick`` chooses (ja first on JA pages)."""
    first = ("en", en) if current_lang() == "en" else ("ja", ja)
    return Markup(first[0] if first[1] else ("ja" if first[0] == "en" else "en"))


def _kb():
    from flask import current_app

    return current_app.extensions.get("kb")  # None: an app with no KB (a template test) links numbers as written


def _link(number: str, edition: str | None, annotate: bool) -> str:
    """A number written in ``edition``'s text (kb.lookup.reftext resolves it): linked to that
    edition's rule, today's number beside it when it moved (or removed)."""
    kb = _kb()
    found = kb.resolve_number(number, edition) if kb else {"edition": None, "exists": False}
    pinned = older_edition(found["edition"]) if kb else None
    href = url_for("rules.page", number=number, edition=pinned)
    out = f'<a class="rn" href="{escape(href)}">{escape(number)}</a>'
    if annotate and pinned and found["exists"]:
        ja = current_lang() == "ja"
        if found["today"] and found["today"] != number:
            out += f'<span class="today">（{"現行" if ja else "today"} {escape(found["today"])}）</span>'
        elif not found["today"]:
            out += f'<span class="today">（{"削除" if ja else "removed"}）</span>'
    return out


def rule_text(value, edition: str | None = None, fixes: list[dict] | None = None, annotate: bool = True,
              lang: str | None = None, rule: str | None = None) -> Markup:
    """The one renderer of rule text (and of any text quoting rule numbers) on every page kind.

    ``value`` is source text (escaped here; a ``Markup`` snippet whose only tags are <mark> is taken
    as escaped). Its rule numbers are read in ``edition``'s numbering (None: today's) and linked by
    kb.lookup.reftext: to that edition's rule, with today's number beside a moved one. A JA text's
    stale cross-reference (its number disagrees with its 〔title〕) is flagged and linked to the rule
    the title names: ``fixes`` when the caller has them, else found from ``lang``="ja" and ``rule``
    (the JA rule's number in ``edition``, or an EN rule whose translation the text is: its JA key is
    looked up). ``_Magic_`` (the old files' underlined words) renders as italics."""
    if value is None:
        return Markup("")
    kb = _kb()
    if lang == "ja" and rule and fixes is None and kb:
        ja_key = kb.ja_key(("en", edition or kb.current_edition(), rule)) if ("en", edition or kb.current_edition(), rule) in kb.model.rules else None
        if ja_key:
            edition, rule = ja_key[1], ja_key[2]
        fixes = kb.reference_fixes("ja", edition, rule)
    text = str(escape(value))
    marks: list[str] = []
    for fix in fixes or []:
        title = "(?:</?mark>)*".join(re.escape(c) for c in str(escape(fix["title"])))  # a snippet marks words
        pattern = re.compile(rf"(?<![\d.]){re.escape(fix['written'])}(?=(?:</?mark>)*\s*〔(?:</?mark>)*{title}(?:</?mark>)*〕)")
        text = pattern.sub(lambda _m, f=fix: _fix_mark(f, edition, marks), text)
    text = rulenumbers.LINKABLE.sub(lambda m: _link(next(v for v in m.groups() if v), edition, annotate), text)
    text = display.EMPHASIS.sub(r"<i>\1</i>", text)
    for i, mark in enumerate(marks):
        text = text.replace(_placeholder(i), mark)
    return Markup(text)


linkify = linkify_old = rule_text  # the names the templates knew; one function


def plain_title(value) -> Markup:
    """A title from a source file (an edition's "_Magic: The Gathering_ Comprehensive Rules"): no markup shown."""
    return Markup(display.EMPHASIS.sub(r"<i>\1</i>", str(escape(value or ""))))


def _fix_mark(fix: dict, edition: str | None, marks: list[str]) -> str:
    ja = current_lang() == "ja"
    written = escape(fix["written"])
    if fix.get("meant"):
        href = escape(url_for("rules.page", number=fix["meant"], edition=older_edition(_kb().numbering(edition)) if _kb() else None))
        today = fix.get("meant_today")
        note = (f"番号ずれ: 〔{escape(fix['title'])}〕は {escape(fix['meant'])}" if ja else
                f"number disagrees: 〔{escape(fix['title'])}〕 is {escape(fix['meant'])}")
        if today and today != fix["meant"]:
            note += f"（{'現行' if ja else 'today'} {escape(today)}）"
        mark = (f'<a class="rn ref-fixed" href="{href}" title="{note}">{written}</a>'
                f'<span class="fix-note" role="note">［{note}］</span>')
    else:
        note = "参照先不明: 番号と〔〕の題名が一致しません" if ja else "unresolved: the number and its 〔title〕 disagree"
        mark = f'<span class="rn ref-unresolved">{written}</span><span class="fix-note" role="note">［{note}］</span>'
    marks.append(mark)
    return _placeholder(len(marks) - 1)


def _placeholder(i: int) -> str:
    return f"\ue000{chr(0xE100 + i)}\ue000"  # private-use characters: never a rule number


def diff_view(before: str | None, after: str | None) -> Markup:
    """The word diff of two texts as a reader sees them: an old file's _Magic_ and a new file's Magic
    are the same word (the underscores are the file's markup, not the rule's wording)."""
    plain = lambda text: display.EMPHASIS.sub(r"\1", text or "")  # noqa: E731
    return ops_view(text_diff(plain(before), plain(after)))


def ops_view(ops: list[dict]) -> Markup:
    """A diff ([{op, text}], kb.text.text_diff) as HTML: <del> and <ins> marks."""
    tags = {"delete": "<del>{}</del>", "insert": "<ins>{}</ins>", "equal": "{}"}
    return Markup("".join(tags[o["op"]].format(display.EMPHASIS.sub(r"<i>\1</i>", str(escape(o["text"]))))
                          for o in ops))


def superseded_badge(s: dict | None) -> Markup:
    """「古い裁定 — 現行 712.8e」 with the editions that changed the rule (title: the engine's detail)."""
    if not s:
        return Markup("")
    ja = current_lang() == "ja"
    label = s["label"]["ja" if ja else "en"]
    parts = [f'<span class="superseded" role="note"><strong>{escape(label)}</strong>']
    if s.get("current_rule"):
        href = escape(url_for("rules.page", number=s["current_rule"]))
        parts.append(f' — {"現行" if ja else "now"} <a class="rn" href="{href}">{escape(s["current_rule"])}</a>')
    elif s.get("removed"):
        parts.append(" — " + ("現行ルールでは削除" if ja else "removed from today's rules"))
    changes = s.get("changes") or []
    if changes:
        shown = ", ".join(f"CR {escape(c['edition'])} {escape(c['rule'])}" for c in changes[:3])
        more = "…" if len(changes) > 3 else ""
        parts.append(f' <span class="changed">（{"変更" if ja else "changed"}: {shown}{more}）</span>')
    parts.append("</span>")
    return Markup("".join(parts))


def event_label(value: str | None) -> str:
    """A change (history step, diff kind, citation status) or lineage method in the page's language:
    the one table is kb.lookup.changes."""
    return changes.label(value, current_lang())


status_label = event_label


def superseded_of(statement_id: str) -> dict | None:
    from kb.lookup import display
    from server.state import get_kb

    return display.superseded(get_kb(), statement_id)


def register(env) -> None:
    from kb.wikitext import visible

    env.filters["rule_text"] = rule_text
    env.filters["linkify_old"] = env.filters["linkify"] = rule_text
    env.filters["plain_title"] = plain_title
    env.filters["strip_markup"] = visible  # the one cleaner (kb.wikitext), for a text without ``display``
    env.globals.update(diff_view=diff_view, ops_view=ops_view, superseded_badge=superseded_badge, picked=picked,
                       error_text=error_text, event_label=event_label, status_label=status_label, superseded_of=superseded_of)
