"""The one error vocabulary: every error a user can get from kb, the CLI or the service.

Each class carries its HTTP status and a stable machine code. kb validates input once and raises
these; the server maps a raised error to ``{"error": {"status", "code", "message", "suggestions",
...}}`` without re-validating; the CLI prints the message (``--json``: the same body) and exits 2
for bad input, 3 for "not found". ``CODES`` (below) is the documented table; a test locks it, and
the OpenAPI document and README list it.
"""
from __future__ import annotations


class KBError(ValueError):
    """Base of every user-facing error. ``suggestions`` are close alternatives (numbers, names)."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, suggestions: list | tuple = (), headers: dict | None = None, **extra):
        super().__init__(message)
        self.message = message
        self.suggestions = list(suggestions)
        self.headers = headers or {}  # HTTP headers for the answer (Retry-After)
        self.extra = extra

    def body(self) -> dict:
        return {"error": {"status": self.status, "code": self.code, "message": self.message,
                          "suggestions": self.suggestions} | self.extra}


class BadInput(KBError):
    """400: the request itself is malformed (the message names the field and what was expected)."""


class NotFound(KBError):
    """404: well-formed, but nothing of that name or number exists."""

    status = 404
    code = "not_found"


def _error(name: str, base: type, code: str, doc: str, status: int | None = None) -> type:
    attrs = {"code": code, "__doc__": doc}
    if status is not None:
        attrs["status"] = status
    return type(name, (base,), attrs)


InvalidRuleNumber = _error("InvalidRuleNumber", BadInput, "invalid_rule_number",
                           "Not a rule number: expected a chapter (7), section (702), rule (702.145) or subrule (601.2c).")
InvalidLang = _error("InvalidLang", BadInput, "invalid_lang", "A language other than ja or en.")
InvalidEdition = _error("InvalidEdition", BadInput, "invalid_edition", "An edition that is not a date (YYYY-MM-DD or YYYYMMDD).")
InvalidDate = _error("InvalidDate", BadInput, "invalid_date", "A date that is not YYYY-MM-DD.")
InvalidParameter = _error("InvalidParameter", BadInput, "invalid_parameter", "A parameter out of range or of the wrong type.")
MissingParameter = _error("MissingParameter", BadInput, "missing_parameter", "A required parameter is missing or empty.")
QueryTooLong = _error("QueryTooLong", BadInput, "query_too_long", "A search query over the length limit.")
InvalidJSON = _error("InvalidJSON", BadInput, "invalid_json", "A request body that is not a JSON object.")
InvalidSource = _error("InvalidSource", BadInput, "invalid_source",
                       "A source file that cannot be used (not a CR, changed seed, unreadable); names file and line.",
                       status=422)
PayloadTooLarge = _error("PayloadTooLarge", BadInput, "payload_too_large", "A request body over the size limit.", 413)
UnsupportedMediaType = _error("UnsupportedMediaType", BadInput, "unsupported_media_type",
                              "A body that is not application/json.", 415)
EditionNotFound = _error("EditionNotFound", NotFound, "edition_not_found", "An edition that is not loaded (suggestions: the loaded ones).")
NoEditionLoaded = _error("NoEditionLoaded", NotFound, "no_edition_loaded", "No Comprehensive Rules edition is loaded at all.")
RuleNotFound = _error("RuleNotFound", NotFound, "rule_not_found", "No rule of that number in the edition (suggestions: close numbers).")
MechanicNotFound = _error("MechanicNotFound", NotFound, "mechanic_not_found", "No mechanic of that name.")
MechanicNotAnswerable = _error("MechanicNotAnswerable", NotFound, "mechanic_not_answerable",
                               "A mechanic with no state questions (suggestions: those that have them).")
NotAnswerable = _error("NotAnswerable", BadInput, "not_answerable",
                      "A state question the loaded CR cannot answer: its reasoning needs a rule this snapshot's "
                      "edition lacks or does not link to (names the rule and edition).", 422)
CardNotFound = _error("CardNotFound", NotFound, "card_not_found", "No card of that name.")
RulingNotFound = _error("RulingNotFound", NotFound, "ruling_not_found", "No ruling of that id.")
DocumentNotFound = _error("DocumentNotFound", NotFound, "document_not_found", "No document of that id.")
NoSnapshot = _error("NoSnapshot", NotFound, "no_snapshot", "No knowledge-graph snapshot has been built yet (run `kb build`).", 503)
SnapshotDamaged = _error("SnapshotDamaged", KBError, "unavailable",
                         "The snapshot cannot be read (a file damaged, cut short or missing, or CURRENT unreadable): "
                         "rebuild it with `kb build`.", 503)
InvalidQuery = _error("InvalidQuery", BadInput, "invalid_query", "A SPARQL query that does not parse or uses SERVICE.")
QueryFailed = _error("QueryFailed", BadInput, "query_failed", "A SPARQL query that parsed but failed when run.")
UpdateRefused = _error("UpdateRefused", BadInput, "update_refused", "A SPARQL update: the endpoint is read-only.", 403)
QueryTimeout = _error("QueryTimeout", BadInput, "query_timeout", "A SPARQL query over the time limit.", 503)


class SituationError(BadInput):
    """400: a state question's situation does not fit its schema; ``field`` is a path like
    ``permanents[0].face``."""

    code = "invalid_situation"

    def __init__(self, field: str, message: str, *, message_ja: str | None = None, label_ja: str | None = None):
        extra = {"field": field}
        if message_ja:  # the same, for a Japanese page: 「カード 1 › カード・タイプ: …」
            extra["message_ja"] = f"{label_ja or field}: {message_ja}"
        super().__init__(f"{field}: {message}", **extra)
        self.field = field
        self.detail = message
        self.detail_ja = message_ja


def _all(cls: type) -> list[type]:
    return [cls] + [d for sub in cls.__subclasses__() for d in _all(sub)]


# code -> (status, what it means): the documented table (README, OpenAPI), locked by a test.
CODES: dict[str, tuple[int, str]] = {
    c.code: (c.status, (c.__doc__ or "").strip()) for c in _all(KBError) if c not in (KBError, BadInput, NotFound)}
# Errors the service answers that come from HTTP itself, not from kb.
HTTP_CODES: dict[int, str] = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
                              406: "not_acceptable", 413: "payload_too_large", 414: "uri_too_long",
                              415: "unsupported_media_type", 431: "header_too_large",
                              500: "internal_error", 503: "unavailable"}
