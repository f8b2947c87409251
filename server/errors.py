"""One error shape everywhere.

Every error the service answers, from a bad rule number to an unexpected exception, is::

    {"error": {"status": 404, "code": "rule_not_found", "message": "...", "suggestions": [...]}}

Views raise kb's own errors (kb.errors: each carries its status and stable code) or ``APIError``
for what comes from HTTP itself; ``init_app`` registers handlers for them, for every werkzeug
``HTTPException`` (404 for unknown URLs, 405, 413 from MAX_CONTENT_LENGTH, 400 from bad JSON) and
for any other ``Exception`` (500, logged, never a stack trace to the client). Web pages get the
same information rendered as HTML (``error.html``) when the client asks for HTML; ``/api/`` and
``/sparql`` always answer JSON.
"""
from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from kb.errors import HTTP_CODES, KBError

class APIError(KBError):
    """An error that comes from HTTP itself (404 for an unknown URL, 405, 413, 500), in kb's shape."""

    def __init__(self, status: int, code: str, message: str, suggestions: list | None = None,
                 headers: dict | None = None, **extra):
        super().__init__(message, suggestions=suggestions or [], headers=headers, **extra)
        self.status, self.code = status, code


def _wants_json() -> bool:
    path = request.path
    if path.startswith("/api/") or path == "/api" or path.startswith("/sparql"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best != "text/html"


def respond(err: KBError):
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
    code = HTTP_CODES.get(status, "http_error")
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


def _unreadable_body(exc: Exception) -> bool:
    """An error from reading the request body off the socket (gunicorn's HTTP parser raises its own
    exceptions for a malformed chunked body; a client that stops sending gives an OSError)."""
    if type(exc).__module__.startswith("gunicorn.http"):
        return True
    frames, tb = [], exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return isinstance(exc, OSError) and any("/gunicorn/http/" in f for f in frames)


def init_app(app: Flask) -> None:
    @app.errorhandler(KBError)
    def _kb_error(err: KBError):  # kb validated; its error carries the status and the code
        return respond(err)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        return respond(_from_http(exc))

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        if _unreadable_body(exc):
            return respond(APIError(400, "bad_request", "the request body could not be read: it is incomplete "
                                                        "or malformed (a broken chunked encoding, a short body)"))
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        return respond(APIError(500, "internal_error", "internal error; the server log has the details"))
