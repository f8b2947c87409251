"""Page helpers for Japanese-first reading: rule numbers in old texts linked to what they meant
(and today's number beside them), the JA translation's cross-references resolved by 〔title〕,
word diffs, superseded badges, the page-language choice with its ``lang`` attribute, and
errors in the page's language. Registered on the Jinja environment by server.templating."""
from __future__ import annotations

import re

from markupsafe import Markup, escape

from kb import rulenumbers
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


def _today_of(number: str, edition: str) -> str | None:
    from server.state import get_kb

    kb = get_kb()
    status = kb.lineage.status(number, edition)
    current = status.get("current")
    if status["status"] == "removed":
        return ""
    return current["number"] if current and current["number"] != number else None


def _link(number: str, edition: str | None, pinned: str | None, annotate: bool) -> str:
    href = url_for("rules.page", number=number, edition=pinned)
    out = f'<a class="rn" href="{escape(href)}">{escape(number)}</a>'
    if annotate and pinned:
        today = _today_of(number, pinned)
        if today:
            out += f'<span class="today">（{"現行" if current_lang() == "ja" else "today"} {escape(today)}）</span>'
        elif today == "":
            out += f'<span class="today">（{"削除" if current_lang() == "ja" else "removed"}）</span>'
    return out


def linkify_old(value, edition: str | None = None, fixes: list[dict] | None = None, annotate: bool = True) -> Markup:
    """Escape ``value`` and link its rule numbers in ``edition``'s numbering (the one the text was
    written in), with today's number beside any that moved; ``fixes`` (kb.build.japanese) link a
    JA cross-reference whose number disagrees with its 〔title〕 to the rule the title names, flagged."""
    if value is None:
        return Markup("")
    text = str(escape(value))
    pinned = older_edition(edition)
    marks: list[str] = []
    for fix in fixes or []:
        title = "(?:</?mark>)*".join(re.escape(c) for c in str(escape(fix["title"])))  # a snippet marks words
        pattern = re.compile(rf"(?<![\d.]){re.escape(fix['written'])}(?=(?:</?mark>)*\s*〔(?:</?mark>)*{title}(?:</?mark>)*〕)")
        text = pattern.sub(lambda _m, f=fix: _fix_mark(f, edition, marks), text)
    text = rulenumbers.LINKABLE.sub(
        lambda m: _link(next(v for v in m.groups() if v), edition, pinned, annotate), text)
    for i, mark in enumerate(marks):
        text = text.replace(_placeholder(i), mark)
    return Markup(text)


def _fix_mark(fix: dict, edition: str | None, marks: list[str]) -> str:
    ja = current_lang() == "ja"
    written = escape(fix["written"])
    if fix.get("meant"):
        href = escape(url_for("rules.page", number=fix["meant"], edition=older_edition(edition)))
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
    return ops_view(text_diff(before or "", after or ""))


def ops_view(ops: list[dict]) -> Markup:
    """A diff ([{op, text}], kb.text.text_diff) as HTML: <del> and <ins> marks."""
    tags = {"delete": "<del>{}</del>", "insert": "<ins>{}</ins>", "equal": "{}"}
    return Markup("".join(tags[o["op"]].format(escape(o["text"])) for o in ops))


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


EVENTS = {  # history events and lineage methods in the page's language
    "created": "新設", "present": "収録", "moved": "番号変更", "moved, text changed": "番号・本文変更",
    "text changed": "本文変更", "unchanged": "変更なし", "removed": "削除",
    "same-number-same-text": "同じ番号・同じ本文", "text": "同じ本文で照合", "same-number-similar-text": "同じ番号・似た本文",
    "text-fuzzy": "似た本文で照合",
}


def event_label(value: str | None) -> str:
    if not value:
        return ""
    return value if current_lang() == "en" else EVENTS.get(value, value)


STATUSES = {"current": ("現行", "current"), "renumbered": ("番号変更", "renumbered"),
            "text-changed": ("本文変更", "text changed"), "removed": ("削除", "removed"),
            "renumbered-and-changed": ("番号・本文変更", "renumbered, text changed"),
            "never-existed": ("該当なし", "never existed"), "ambiguous": ("不明確", "ambiguous")}


def status_label(value: str | None) -> str:
    ja, en = STATUSES.get(value or "", (value or "", value or ""))
    return en if current_lang() == "en" else ja


def superseded_of(statement_id: str) -> dict | None:
    from kb.lookup import display
    from server.state import get_kb

    return display.superseded(get_kb(), statement_id)


def register(env) -> None:
    from kb.wikitext import visible

    env.filters["linkify_old"] = linkify_old
    env.filters["strip_markup"] = visible  # the one cleaner (kb.wikitext), for a text without ``display``
    env.globals.update(diff_view=diff_view, ops_view=ops_view, superseded_badge=superseded_badge, picked=picked,
                       error_text=error_text, event_label=event_label, status_label=status_label, superseded_of=superseded_of)
