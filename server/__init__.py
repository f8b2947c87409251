"""The web service: JSON API, web pages, SPARQL endpoint and RDF, all over the kb API.

``create_app(config)`` is the only entry point (flaskr style): nothing is built at import time.
The knowledge base is loaded once per process (gunicorn: once per worker) and kept in
``app.extensions["kb"]``; ``server/`` never parses source text or builds triples.

Config keys (besides Flask's own):

- ``KB``: a ready knowledge-base object (tests pass one); otherwise
- ``KB_HOME``: where the snapshot lives (default ``kb.config.home_dir()``), and
  ``KB_ENSURE`` (default True): build the snapshot from rules_src first if there is none.
- ``SPARQL_TIMEOUT`` seconds (default 5) and ``SPARQL_LIMIT`` rows (default 10 000).
- ``MAX_CONTENT_LENGTH`` bytes for request bodies (default 1 MiB; more is a 413).
- ``RESPONSE_CACHE_SIZE`` / ``RESPONSE_CACHE_BYTES``: the per-process GET answer cache (``cache``).
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask

DEFAULTS = {
    "MAX_CONTENT_LENGTH": 1 << 20,
    "SPARQL_TIMEOUT": 5.0,
    "SPARQL_LIMIT": 10_000,
    "SEARCH_MAX_LIMIT": 100,
    "KB_ENSURE": True,
    "JSON_SORT_KEYS": False,
    "RESPONSE_CACHE_SIZE": 2048,
    "RESPONSE_CACHE_BYTES": 64 << 20,
}


def load_kb(home: str | Path | None = None, ensure: bool = True):
    from kb import config  # imported late: the app factory must be cheap to import
    from kb.lookup.kb import KB

    settings = config.current().with_home(home) if home else config.current()
    return KB.ensure(settings) if ensure else KB.load(settings.home)


# The pages use no JavaScript and load nothing from elsewhere: say so, as defence in depth
# behind the escaping of all source text.
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")


def _headers(response):
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html":
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.vary.update(("Accept", "Cookie"))  # HTML or RDF by Accept; JA/EN by cookie
    return response


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    kb = app.config.get("KB")
    if kb is None:
        kb = load_kb(app.config.get("KB_HOME"), app.config.get("KB_ENSURE", True))
    app.extensions["kb"] = kb

    from server import cache, errors, rendering, templating, views

    errors.init_app(app)
    templating.init_app(app)
    rendering.register(app.jinja_env)
    cache.init_app(app)
    app.after_request(_headers)
    views.register(app)
    return app
