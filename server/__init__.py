"""The web service: JSON API, web pages, SPARQL endpoint and RDF, all over the kb API.

``create_app(config)`` is the only entry point (flaskr style): nothing is built at import time.
The knowledge base is loaded once per process (gunicorn: once per worker) and kept in
``app.extensions["kb"]``; ``server/`` never parses source text or builds triples.

Config keys (besides Flask's own):

- ``KB``: a ready knowledge-base object (tests pass one); otherwise
- ``KB_HOME``: where the snapshot lives (default ``kb.config.home_dir()``), and
  ``KB_ENSURE`` (default True): build the snapshot from rules_src first if there is none.
- ``SPARQL_ENDPOINT``: a SPARQL server's query URL to read RDF from (default: kb.config's
  ``sparql_endpoint``, MTG_KB_SPARQL_ENDPOINT; none: the snapshot's embedded store).
- ``SPARQL_TIMEOUT`` seconds (default 5), ``SPARQL_LIMIT`` rows (default 10 000),
  ``SPARQL_MAX_BYTES`` (32 KiB; more is a 413), ``SPARQL_MAX_DEPTH`` bracket nesting (64),
  ``SPARQL_MEMORY`` bytes a query process may add (512 MiB): ``views.sparql``.
- ``MAX_CONTENT_LENGTH`` bytes for request bodies (default 1 MiB; more is a 413), ``JSON_MAX_DEPTH``
  nesting of a JSON body (32; deeper is a 400), ``CITATIONS_MAX_CHARS`` characters of a text to check
  (100 000; more is a 413).
- ``RESPONSE_CACHE_SIZE`` / ``RESPONSE_CACHE_BYTES``: the per-process GET answer cache, and
  ``CACHE_MAX_AGE`` seconds for ``Cache-Control`` (``cache``).
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app

DEFAULTS = {
    "MAX_CONTENT_LENGTH": 1 << 20,
    "SPARQL_TIMEOUT": 5.0,
    "SPARQL_LIMIT": 10_000,
    "SPARQL_MAX_BYTES": 32 << 10,
    "SPARQL_MAX_DEPTH": 64,
    "SPARQL_MEMORY": 512 << 20,
    "SPARQL_ENDPOINT": None,
    "JSON_MAX_DEPTH": 32,
    "CITATIONS_MAX_CHARS": 100_000,
    "CACHE_MAX_AGE": 60,
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


def _settings_endpoint() -> str | None:
    from kb import config
    return config.current().sparql_endpoint


# The pages use no JavaScript and load nothing from elsewhere: say so, as defence in depth
# behind the escaping of all source text.
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")


def _headers(response):
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    location = response.headers.get("Location")
    if location and "//" in location:  # werkzeug's slash redirects are absolute, built from Host: never echo it
        from urllib.parse import urlsplit
        parts = urlsplit(location)
        path = "/" + parts.path.lstrip("/")  # never "//host": that would name a host again
        response.headers["Location"] = path + (f"?{parts.query}" if parts.query else "")
    snapshot = current_app.extensions.get("snapshot")
    if snapshot:
        response.headers["X-KB-Snapshot"] = snapshot  # every answer comes from this one snapshot
    if response.mimetype == "text/html":
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.vary.update(("Accept", "Cookie"))  # HTML or RDF by Accept; JA/EN by cookie
    return response


def create_app(config: dict | None = None) -> Flask:
    from server.jsonio import FastJSONProvider

    app = Flask(__name__)
    app.json = FastJSONProvider(app)
    app.config.update(DEFAULTS)
    app.config.update(config or {})

    kb = app.config.get("KB")
    if kb is None:
        kb = load_kb(app.config.get("KB_HOME"), app.config.get("KB_ENSURE", True))
    app.extensions["kb"] = kb
    app.extensions["snapshot"] = kb.path.name if getattr(kb, "path", None) else None
    app.extensions["post_fork"], app.extensions["close"] = [], []  # hooks run by server.serve

    from server import cache, errors, rendering, sparql, templating, views

    endpoint = app.config.get("SPARQL_ENDPOINT") or _settings_endpoint()
    app.config["SPARQL_ENDPOINT"] = endpoint
    runner = app.extensions["sparql_runner"] = sparql.make_runner(kb, endpoint, app.config["SPARQL_MEMORY"])
    app.extensions["post_fork"].append(runner.start)
    app.extensions["close"].append(runner.close)
    if app.config.get("KB") is None and hasattr(kb, "close"):
        app.extensions["close"].append(kb.close)  # the app loaded it: the app lets it go

    errors.init_app(app)
    templating.init_app(app)
    rendering.register(app.jinja_env)
    cache.init_app(app)
    app.after_request(_headers)
    views.register(app)
    return app
