"""One error shape everywhere.

Every error the service answers, from a bad rule number to an unexpected exception, is::

    {"error": {"status": 404, "code": "rule_not_found", "message": "...", "suggestions": [...]}}

``APIError`` is raised by views; ``init_app`` registers handlers for it, for every werkzeug
``HTTPException`` (404 for unknown URLs, 405, 413 from MAX_CONTENT_LENGTH, 400 from bad JSON) and
for any other ``Exception`` (500, logged, never a stack trace to the client). Web pages get the
same information rendered as HTML (``error.html``) when the client asks for HTML; ``/api/`` and
``/sparql`` always answer JSON.
"""
from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

# werkzeug's exception names -> our stable machine codes
_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    500: "internal_error",
}


class APIError(Exception):
    """An error with a status, a stable machine code, a message naming the problem, suggestions."""

    def __init__(self, status: int, code: str, message: str, suggestions: list | None = None,
                 headers: dict | None = None, **extra):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.suggestions = list(suggestions or [])
        self.headers = headers or {}
        self.extra = extra

    def body(self) -> dict:
        error = {"status": self.status, "code": self.code, "message": self.message,
                 "suggestions": self.suggestions}
        error.update(self.extra)
        return {"error": error}


def bad_request(code: str, message: str, **extra) -> APIError:
    return APIError(400, code, message, **extra)


def not_found(code: str, message: str, suggestions: list | None = None) -> APIError:
    return APIError(404, code, message, suggestions)


def _wants_json() -> bool:
    path = request.path
    if path.startswith("/api/") or path == "/api" or path.startswith("/sparql"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best != "text/html"


def respond(err: APIError):
    if _wants_json():
        response = jsonify(err.body())
    else:
        response = current_app.make_response(
            (render_template("error.html", error=err.body()["error"]), err.status))
    response.status_code = err.status
    for key, value in err.headers.items():
        response.headers[key] = value
    return response


def _from_http(exc: HTTPException) -> APIError:
    status = exc.code or 500
    code = _HTTP_CODES.get(status, "http_error")
    message = exc.description or exc.name
    if status == 404:
        message = f"no resource at {request.path}"
    elif status == 405:
        allowed = sorted(exc.valid_methods or []) if hasattr(exc, "valid_methods") else []
        message = f"{request.method} is not allowed on {request.path}" + (
            f"; allowed: {', '.join(allowed)}" if allowed else "")
    elif status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        message = f"request body too large (limit {limit} bytes)"
    headers = {}
    if status == 405 and getattr(exc, "valid_methods", None):
        headers["Allow"] = ", ".join(sorted(exc.valid_methods))
    return APIError(status, code, message, headers=headers)


def init_app(app: Flask) -> None:
    @app.errorhandler(APIError)
    def _api_error(err: APIError):
        return respond(err)

    try:
        from kb.api import KBError
    except ImportError:  # pragma: no cover
        KBError = None
    if KBError is not None:
        @app.errorhandler(KBError)
        def _kb_error(err):
            status = 404 if err.code.endswith("_not_found") or err.code.startswith("unknown_") else 400
            suggestions = err.extra.get("editions") or err.extra.get("suggestions") or []
            extra = {k: v for k, v in err.extra.items() if k not in ("editions", "suggestions")}
            return respond(APIError(status, err.code, err.message, suggestions, **extra))

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        return respond(_from_http(exc))

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        return respond(APIError(500, "internal_error",
                                "internal error; the server log has the details"))
