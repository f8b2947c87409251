"""The citation checker: POST a text, get every citation checked (JSON), or paste / upload one on
the /check page and see the text with each citation highlighted and its verdict beside it."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from kb.errors import InvalidParameter, InvalidSource, KBError, PayloadTooLarge
from kb.sources.decode import decode, looks_like_text
from server.state import get_kb
import server.resources as res
from server.templating import current_lang
from server.views.common import answer

bp = Blueprint("citations", __name__)

# The page's own words (JA first, EN with ?lang=en).
WORDS = {
    "title": ("引用チェック", "Citation check"),
    "intro": ("文章中のルール番号を見つけ、どの版の総合ルールを指しているかを判断し、現在の番号と本文を示します。",
              "Finds every rule number in a text, decides which CR edition each one means, and gives today's number and text."),
    "text": ("文章（貼り付け）", "Text (paste)"),
    "file": ("またはファイルを選ぶ", "or upload a file"),
    "date": ("文章の日付（空欄なら推定）", "The text's date (blank: guessed)"),
    "submit": ("チェックする", "Check"),
    "summary": ("まとめ", "Summary"),
    "kind_article": ("ルール変更記事", "rules-change article"),
    "kind_text": ("文章", "text"),
    "dated": ("日付", "dated"),
    "guessed": ("本文から推定", "guessed from the text"),
    "given": ("指定", "given"),
    "undated": ("日付なし", "undated"),
    "announces": ("告知している版", "announces"),
    "editions": ("関係する版", "Editions involved"),
    "not_loaded": ("未読み込み。読み替え先", "not loaded; read in"),
    "verdicts": ("判定", "Verdicts"),
    "none": ("引用は見つかりませんでした", "No citation found"),
    "edition": ("版", "edition"),
    "runner_up": ("次点", "runner-up"),
    "today": ("現在", "today"),
    "then": ("当時の本文", "Text then"),
    "now": ("現在の本文", "Text today"),
    "why": ("根拠", "evidence"),
    "quote": ("引用の比較", "quote compared"),
    "confidence": ("確からしさ", "confidence"),
    "era": ("推定した時期", "Inferred era"),
    "era_why": ("根拠", "because"),
    "readings": ("版によって読みが異なります", "The meaning differs between the candidate editions"),
    "weight": ("重み", "weight"),
}
STATUS = {
    "current": ("現行", "current"), "renumbered": ("番号変更", "renumbered"),
    "text-changed": ("本文変更", "text changed"), "removed": ("削除", "removed"),
    "never-existed": ("存在しない番号", "never existed"), "ambiguous": ("判断が分かれる", "ambiguous"),
}

METHOD = {  # how the edition was chosen (kb.citations.evidence): the answer's code, said on the page
    "quoted-text": ("引用文から", "quoted-text"), "announced-edition": ("記事が告知している版", "announced-edition"),
    "previous-edition": ("告知の一つ前の版（過去形）", "previous-edition"),
    "edition-before-announced": ("告知の一つ前の版", "edition-before-announced"),
    "document-date": ("文章の日付", "document-date"), "current-edition": ("最新の版", "current-edition"),
    "rule-numbers": ("番号の有無から", "rule-numbers"), "no-edition-loaded": ("版が読み込まれていない", "no-edition-loaded"),
    "inferred-era": ("文章全体から推定した時期", "inferred era"),
    "own-evidence": ("この引用自身の手がかり", "its own evidence"),
}


def _w(key: str) -> str:
    ja, en = WORDS.get(key) or STATUS.get(key) or METHOD.get(key) or (key, key)
    return en if current_lang() == "en" else ja


@bp.post("/api/citations/check")
def check():
    body = res.json_body()
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InvalidParameter("text: a non-empty string is required")
    _bounded(text)
    return answer(res.with_citations(get_kb().check_citations(text, date=body.get("date"))))


def _bounded(text: str) -> None:
    limit = int(current_app.config["CITATIONS_MAX_CHARS"])
    if len(text) > limit:  # the checker's work and answer grow with the text: bounded here
        raise PayloadTooLarge(f"text: {len(text)} characters; the checker takes at most {limit} per request")


def _posted_text() -> str:
    upload = request.files.get("file")
    if upload and upload.filename:
        text, _ = decode(upload.read())  # any encoding a rules text comes in
        if not looks_like_text(text):
            raise InvalidSource(f"{upload.filename} is not a text file")
        return text
    return request.form.get("text") or ""


def segments(text: str, citations: list[dict]) -> list[tuple[str, int | None]]:
    """The text cut into plain runs and citation runs (the index of the citation), in order."""
    starts, pos = [], 0
    for line in text.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    spans = []
    for i, c in enumerate(citations):
        if c["line"] - 1 < len(starts):
            start = starts[c["line"] - 1] + c["column"] - 1
            if text[start:start + len(c["raw"])] == c["raw"]:
                spans.append((start, start + len(c["raw"]), i))
    out, at = [], 0
    for start, end, i in sorted(spans):
        if start < at:
            continue
        out += [(text[at:start], None), (text[start:end], i)]
        at = end
    out.append((text[at:], None))
    return [s for s in out if s[0]]


@bp.route("/check", methods=["GET", "POST"])
def page():
    text, date, report, error = "", "", None, None
    if request.method == "POST":
        date = (request.form.get("date") or "").strip()
        try:
            text = _posted_text()
            if not text.strip():
                raise InvalidParameter("text: paste a text or choose a file")
            _bounded(text)
            report = get_kb().check_citations(text, date=date or None)
        except KBError as exc:
            error = exc
    return render_template("check.html", text=text, date=date, report=report, error=error, w=_w,
                           texts=(report or {}).get("texts", {}),
                           parts=segments(text, report["citations"]) if report else []), \
        (error.status if error is not None else 200)
