"""Jinja helpers: the JA/EN choice and the UI's own words, links to rules and citation chips.
Rule text is rendered by server.rendering.rule_text (one renderer for every page kind).
Language: ``?lang=en|ja`` sets a cookie; default Japanese.
"""
from __future__ import annotations

import html
import re

from kb import rulenumbers
from kb.memo import per_owner
from flask import Flask, g, request
from markupsafe import Markup, escape
from server.urls import url_for

LANGS = ("ja", "en")
COOKIE = "lang"

UI = {
    "site": ("MTG ルール知識グラフ", "MTG rules knowledge graph"),
    "search": ("検索", "Search"),
    "search_placeholder": ("ルール番号・メカニズム・カード名・語句", "rule number, mechanic, card name or words"),
    "rule": ("ルール", "Rule"),
    "parent": ("親ルール", "Parent"),
    "children": ("子ルール", "Children"),
    "refs_out": ("参照しているルール", "Rules it references"),
    "refs_in": ("参照されている箇所", "Referenced by"),
    "history": ("版ごとの履歴", "History across editions"),
    "examples": ("例", "Examples"),
    "mechanics": ("メカニズム", "Mechanics"),
    "rules": ("定義ルール", "Defining rules"),
    "related_rules": ("関連ルール", "Related rules"),
    "rulings": ("裁定・解説", "Rulings"),
    "cards": ("カード", "Cards"),
    "related": ("関連メカニズム", "Related mechanics"),
    "graph": ("周辺のグラフ", "Graph around it"),
    "ask": ("質問する", "Ask a question"),
    "ask_submit": ("答えを求める", "Get the answer"),
    "outcome": ("結果", "Outcome"),
    "trace": ("適用されたルール", "Rules applied"),
    "citations": ("出典", "Citations"),
    "documents": ("文書", "Documents"),
    "editions": ("版", "Editions"),
    "mentions": ("言及", "Mentions"),
    "no_results": ("見つかりませんでした", "Nothing found"),
    "question_rules": ("この質問に関わる現行ルール", "Today's rules this question needs"),
    "question_cards": ("質問中のカード", "Cards in the question"),
    "card_match_name": ("名前が一致", "name"), "card_match_part_of_the_name": ("名前の一部", "part of the name"),
    "card_match_spelling": ("綴りが近い", "close spelling"),
    "found_by": ("検出元", "found by"),
    "other_hits": ("語句の一致", "Matching text"),
    "via_bm25": ("語句", "words"), "via_cards": ("カードの文章", "card text"),
    "via_rulings": ("カードの公式裁定", "card rulings"),
    "via_card_rules": ("カードの能力", "card abilities"), "via_dense": ("意味", "meaning"),
    "via_terms": ("用語の定義", "defined terms"), "via_refs": ("ルールの参照", "rule references"),
    "via_examples": ("総合ルールの例", "CR examples"),
    "why": ("理由", "why"), "why_question": ("質問の語句", "the question says"), "why_card": ("カード", "card"),
    "why_ruling": ("裁定", "ruling"), "why_example": ("例", "example"), "why_rule": ("参照元", "referred to by"),
    "card_text_not_loaded": ("カードの文章は未読込", "text not loaded"),
    "current": ("現在の版では", "In the current edition"),
    "not_in_edition": ("この言語の本文はこの版にありません", "No text in this language for this edition"),
    "did_you_mean": ("候補", "Suggestions"),
    "did_you_mean_rule_not_found": ("近いルール番号", "Close rule numbers"),
    "did_you_mean_edition_not_found": ("読み込まれている版", "Loaded editions"),
    "did_you_mean_card_not_found": ("近い名前のカード", "Cards with close names"),
    "did_you_mean_mechanic_not_found": ("近い名前のメカニズム", "Mechanics with close names"),
    "did_you_mean_document_not_found": ("文書の一覧", "Documents"),
    "error": ("エラー", "Error"),
    "home_intro": ("総合ルール・Wiki・FAQ・記事を一つの出典付きグラフで。",
                   "The Comprehensive Rules, wiki pages, FAQs and articles in one cited graph."),
    "lines": ("行", "lines"),
    "agree": ("一致する裁定", "Rulings that agree"),
    "disagree": ("一致しない裁定", "Rulings that disagree"),
    "superseded": ("古くなった裁定", "Superseded rulings"),
    "situation": ("状況", "Situation"),
    "json_hint": ("JSON で入力", "as JSON"),
    "include": ("この項目を含める", "include this item"),
    "verdict": ("結論", "Answer"),
    "share": ("この質問へのリンク（共有用）", "Link to this question (to share)"),
    "procedure": ("手順", "Procedure"),
    "in_this_case": ("この場合", "in this case"),
    "cards_named": ("挙げられたカード（カード・データ）", "Cards named (card data)"),
    # editions and diffs
    "editions_intro": ("読み込まれている総合ルールの版。発効日・ファイルの日付・文字コード・件数・SHA-256・警告。",
                       "The loaded Comprehensive Rules editions: dates, encoding, counts, SHA-256 and warnings."),
    "effective": ("発効日", "Effective"), "file_date": ("ファイルの日付", "File date"), "language": ("言語", "Language"),
    "encoding": ("文字コード", "Encoding"), "rules_heading": ("ルール数", "Rules"),
    "warnings": ("警告", "Warnings"), "line": ("行", "line"), "current_edition": ("現行", "current"),
    "sha_official": ("公式ファイルと一致", "official bytes"),
    "sha_different": ("公式ファイルと不一致", "not the official bytes"), "sha_unknown": ("公式の値なし", "no official hash"),
    "sha_unlisted": ("公式一覧にない版", "not in the official list"),
    "official_unloaded": ("読み込まれていない公式の版", "Official editions not loaded"), "show": ("表示", "show"),
    "official_file": ("公式ファイル", "official file"), "fetch_hint": ("すべて取得するには:", "To fetch them all:"),
    "check": ("引用ルールの確認", "Check cited rules"),
    "check_intro": ("文章中のルール番号が今のどのルールか確かめる（/check）", "Check which of today's rules a text's rule numbers are (/check)"),
    "all_editions": ("読み込まれているすべての版（%d）", "Every loaded edition (%d)"),
    "editions_details": ("版の詳細（日付・文字コード・SHA-256・警告）", "Edition details (dates, encoding, SHA-256, warnings)"),
    "diff": ("版の比較", "Compare editions"), "from_edition": ("旧版", "From"), "to_edition": ("新版", "To"),
    "compare": ("比較する", "Compare"), "between": ("途中の版", "Editions in between"),
    "show_all": ("すべて表示", "Show all"), "references_only": ("参照番号のみの変更", "cited numbers only"),
    "changes_short": ("変更点", "Changes"),
    "contents": ("もくじ", "Contents"),
    "quoted_only": ("読み込まれた版にはなく、文書の引用でのみ知られるルール", "Known only from the documents' quotes"),
    "removed_today": ("現在の版では削除", "Removed in the current edition"),
    "prev_next": ("前後のルール", "Previous and next rule"),
    "pick_edition": ("版を選ぶ", "Choose an edition"),
    "ja_text": ("日本語", "Japanese"),
    "en_text": ("英語原文", "English"),
    "no_ja_text": ("このルールの和訳はありません", "No Japanese text for this rule"),
    "en_changed": ("英語原文が変更されています。", "The English text has changed."),
    "en_changed_since": ("和訳の元になった %s 版の後に、英語原文が次のように変わりました（和訳には未反映）。",
                         "After the %s edition this translation is of, the English text changed as follows."),
    "not_loaded_before": ("この前の未読み込みの公式版", "official editions before it not loaded"),
    "xlat_note": ("日本語は和訳 %s の文です（この版と英語原文の文言が違うものは英語原文を先に示します）。",
                  "The Japanese is the %s translation (where this edition's English wording differs, the English comes first)."),
    "en_differs": ("この版の英語原文は和訳の元の文と違います。", "This edition's English text differs from the translated one."),
    "en_changed_until": ("CR %s 版の英語原文は、和訳の元になった CR %s 版までに次のように変わりました（和訳は変更後の文の訳です）。",
                         "The English text of CR %s changed as follows up to CR %s, the edition translated (the translation is of the later text)."),
    "en_same_as": ("CR %s 版の英語原文は、和訳の元になった CR %s 版と同じ文言です（番号を除く）。",
                   "The English wording of CR %s is the same as in CR %s, the edition translated (numbers aside)."),
    "en_same_since": ("和訳の元になった %s 版から、英語原文の文言は変わっていません。", "The English wording has not changed since the %s edition this translation is of."),
    "refs_renumbered": ("（参照先の番号のみ変更: %s）", "(only cross-referenced numbers changed: %s)"),
    "quoted_in": ("%s での引用", "as quoted in %s"),
    "no_official_ja": ("この版の公式和訳はありません", "no official Japanese text of this edition"),
    "translation_of": ("rule %s（CR %s）の和訳", "translation of rule %s (CR %s)"),
    "in_context": ("節の中での位置", "In its section"),
    "section_outline": ("この節のルール一覧", "Rules of this section"),
    "change": ("変更", "Change"),
    "show_diff": ("差分を見る", "Show the changes"),
    "see_also": ("参考リンク", "See also"),
    "glossary": ("用語集", "Glossary"),
    "sources": ("原文", "Source text"),
    "superseded_note": ("現行ルールでは結論が変わっています", "No longer holds under today's rules"),
    "chapters": ("章", "Chapters"),
    "rules_count": ("%d 項", "%d rules"),
    "alignment": ("和訳と英語原文の対応", "Japanese / English alignment"),
    "written_in": ("番号は CR %s のもの", "numbers as in CR %s"),
    "changed_since": ("この裁定の後に根拠のルールが変わった版", "Editions that changed the rule since this ruling"),
    "backed_by": ("根拠となる現行ルール", "Today's rules that decide it"),
    "deciding": ("決め手", "deciding"),
    "layout": ("レイアウト", "Layout"), "sets": ("収録セット", "Sets"), "keywords": ("キーワード", "Keywords"),
    "face": ("面", "Face"), "mana_value": ("マナ総量", "Mana value"), "loyalty": ("忠誠度", "Loyalty"),
    "defense": ("守備値", "Defense"), "meld": ("合体", "Meld"), "card_rules": ("使われるルール", "Rules it uses"),
    "official_rulings": ("公式裁定（Gatherer、英語）", "Official rulings"), "related_cards": ("関連カード", "Related cards"),
    "how_keyword": ("キーワード", "keyword"), "how_text": ("ルール文章", "in its text"),
    "how_ruling": ("言及した裁定", "rulings mentioning it"),
    # JA names of mechanics (kb.build.ja_names)
    "no_ja_newer": ("和訳なし（%s より後の追加: CR %s）", "no Japanese name (added after %s: CR %s)"),
    "no_ja_newer_unknown": ("和訳なし（%s より後の追加）", "no Japanese name (added after %s)"),
    "no_ja_found": ("和訳なし（%s に対応する語が見つかりません）", "no Japanese name found in %s"),
    "no_ja_short": ("和訳なし", "no JA name"),
    "lang_ja": ("日本語", "Japanese"), "lang_en": ("英語", "English"),
    "ja_name_from_glossary": ("和名の出典: %s 用語集「%s」", "Japanese name from the %s glossary: 「%s」"),
    "ja_name_from_rule": ("和名の出典: %s rule %s の本文", "Japanese name from the %s text of rule %s"),
    "ja_name_from_words": ("和名の出典: %s rule %s の本文（英語原文で同じ語を含むルールに共通の語）",
                           "Japanese name from the %s text of rule %s: the word the rules using it share"),
    "other_glossary": ("英語原文の用語集", "The Japanese glossary"),
    "all_mechanics": ("メカニズム一覧", "All mechanics"),
    "mechanics_intro": ("総合ルールから導いたメカニズム %d 件（和名は日本語版総合ルールから）。和訳のないもの: %d 件。",
                        "%d mechanics derived from the Comprehensive Rules (JA names from the JA CR). Without a JA name: %d."),
}
KINDS = {
    "rule": ("ルール", "rule"), "mechanic": ("メカニズム", "mechanic"), "card": ("カード", "card"),
    "ruling": ("裁定", "ruling"), "quote": ("引用", "quote"), "glossary": ("用語集", "glossary"),
    "document": ("文書", "document"), "commentary": ("解説", "commentary"), "summary": ("まとめ", "summary"),
    "note": ("注記", "note"), "keyword-action": ("キーワード処理", "keyword action"),
    "keyword-ability": ("キーワード能力", "keyword ability"), "game-state": ("ゲームの状態", "game state"),
    "designation": ("指定", "designation"), "card-type": ("カード・タイプ", "card type"), "term": ("用語", "term"),
    "rules-section": ("ルールの節", "rules section"), "faq": ("FAQ", "FAQ"), "wiki": ("MTG Wiki", "wiki page"),
    "article": ("記事", "article"), "cr": ("総合ルール", "Comprehensive Rules"), "card-data": ("カード・データ", "card data"), "card-ruling": ("公式裁定", "official ruling"), "quoted-rule": ("引用されたルール", "quoted rule"), "centre": ("中心", "centre"),
}


def kind_label(kind) -> str:
    ja, en = KINDS.get(str(kind), (str(kind), str(kind)))
    return en if current_lang() == "en" else ja


def current_lang() -> str:
    store = g._get_current_object()  # one context lookup: pages ask this hundreds of times
    lang = getattr(store, "lang", None)
    if lang is None:
        asked = request.args.get("lang")
        lang = store.lang = asked if asked in LANGS else (
            request.cookies.get(COOKIE) if request.cookies.get(COOKIE) in LANGS else "ja")
    return lang


def t(key: str) -> str:
    ja, en = UI[key]
    return en if current_lang() == "en" else ja


def pick(ja, en):
    """The text in the page's language, falling back to the other one."""
    first, second = (en, ja) if current_lang() == "en" else (ja, en)
    return first if first else second


def older_edition(edition: str | None) -> str | None:
    """``edition`` if links should pin it: a loaded EN edition that is not the current one."""
    if not edition:
        return None
    from server.state import get_kb

    kb = get_kb()

    def older() -> frozenset:
        return frozenset({e["edition"] for e in kb.editions() if e.get("lang") == "en"} - {kb.current_edition("en")})
    return edition if edition in per_owner(kb, "older-en-editions", older) else None


def safe_snippet(value) -> Markup:
    """A search snippet: escaped text whose only markup is <mark>. Re-escaped here so that nothing
    but <mark> can ever reach the page, whatever the snippet holds."""
    text = str(escape(html.unescape(str(value or ""))))
    return Markup(text.replace("&lt;mark&gt;", "<mark>").replace("&lt;/mark&gt;", "</mark>"))


def hit_url(hit: dict) -> str:
    """The page of a search hit (ids are "rule:en:2026-04-17:731.1", "mechanic:manifest",
    "card:ja-…", "glossary:…", or a ruling/quote id like "wiki-yoji-manifest#q3")."""
    from server.state import get_kb

    kind, hit_id = hit.get("kind"), str(hit.get("id") or "")
    local = hit_id.split(":", 1)[1] if ":" in hit_id else hit_id
    if kind == "rule" and hit.get("rule"):
        edition = hit.get("edition")  # a JA hit's "rule" is already today's EN number
        if edition and hit.get("lang") != "ja" and edition != get_kb().current_edition("en"):
            return url_for("rules.page", number=hit["rule"], edition=edition)
        return url_for("rules.page", number=hit["rule"])
    if kind == "mechanic":
        return url_for("mechanics.page", name=local)
    if kind == "card":
        return url_for("cards.page", name=local)
    if kind in ("ruling", "quote"):
        return url_for("rulings.page", ruling_id=hit_id)
    if kind == "document":
        return url_for("documents.page", doc_id=local)
    if hit.get("mechanics"):
        return url_for("mechanics.page", name=hit["mechanics"][0])
    if hit.get("rule"):
        return url_for("rules.page", number=hit["rule"])
    return url_for("search.page", q=hit.get("title") or "")


def rule_link(number: str, edition: str | None = None) -> Markup:
    """<a class="rn"> to a rule's page; pinned to ``edition`` when it is an older loaded edition."""
    href = url_for("rules.page", number=number, edition=older_edition(edition))
    return Markup(f'<a class="rn" href="{escape(href)}">{escape(number)}</a>')


def cite(c: dict | None, doc: bool = True) -> Markup:
    """A citation as a small chip: [CR edition] document 行 N–M § section (full locator on hover).
    Python rather than a Jinja macro: pages show dozens of these."""
    if not c:
        return Markup("")
    get = c.get
    parts = ['<span class="cite">']
    edition, title = get("edition"), _doc_title(get("document") or "", get("document_title") or get("document") or "")
    if edition and edition not in title:
        parts.append(f'<span class="ed">CR {escape(edition)}</span> ')
    if doc:
        parts.append(f'<span class="doc">{escape(title)}</span> ')
    if get("line_start"):
        place = f"{t('lines')} {get('line_start')}"
        if get("line_end") and get("line_end") != get("line_start"):
            place += f"–{get('line_end')}"
        section = get("section")
        # an English section path on a Japanese page (an EN CR's "7. Additional Rules > …") is marked as English
        section_html = (f' § <span lang="en">{escape(section)}</span>' if current_lang() == "ja" and section.isascii()
                        else f" § {escape(section)}") if section else ""
        parts.append(f'<span class="loc" title="{escape(get("locator") or "")}">{escape(place)}{section_html}</span>')
    elif get("locator"):
        parts.append(f'<span class="loc">{escape(get("locator"))}</span>')
    parts.append("</span>")
    return Markup("".join(parts))


def _doc_title(doc_id: str, title: str) -> str:
    """A CR file's title in the page's language: a JA text is never cited as "(English)"."""
    lang, _, date = doc_id[3:5], doc_id[:3], doc_id[6:]
    if doc_id.startswith("cards-") and current_lang() == "ja":  # kb.sources.cards names them in English
        for en, ja in (("Card names: ", "カード名の表: "), ("Card data: ", "カード・データ: ")):
            if title.startswith(en):
                return ja + title[len(en):]
    if not doc_id.startswith("cr-") or lang not in ("en", "ja"):
        return title
    if current_lang() == "ja":
        return f"総合ルール {date}（英語原文）" if lang == "en" else f"総合ルール 和訳 {date}"
    return f"Comprehensive Rules {date} (English)" if lang == "en" else f"Comprehensive Rules {date}, Japanese translation"


def lang_url(lang: str) -> str:
    view_args = dict(request.view_args or {})
    args = {k: v for k, v in request.args.items() if k not in view_args and k != "lang"}
    endpoint = request.endpoint if request.endpoint and request.endpoint.endswith("page") else "home.page"
    if endpoint == "home.page":
        view_args = {}
    return url_for(endpoint, **view_args, **args, lang=lang)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["safe_snippet"] = safe_snippet
    app.jinja_env.globals.update(url_for=url_for, t=t, ui=UI, pick=pick, current_lang=current_lang, lang_url=lang_url, hit_url=hit_url, pin_edition=older_edition, kind_label=kind_label, cite=cite,
                                 rule_link=rule_link)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    @app.after_request
    def _remember_lang(response):
        if "lang=" not in request.environ.get("QUERY_STRING", ""):
            return response
        asked = request.args.get("lang")
        if asked in LANGS and request.cookies.get(COOKIE) != asked:
            response.set_cookie(COOKIE, asked, max_age=365 * 86400, samesite="Lax")
            # an answer that sets a cookie is this browser's alone: no shared cache may keep it
            # (and hand the cookie to others)
            if "public" in response.headers.get("Cache-Control", ""):
                response.headers["Cache-Control"] = response.headers["Cache-Control"].replace("public", "private")
        return response
