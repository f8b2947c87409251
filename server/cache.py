"""A per-process cache of finished GET responses.

The knowledge base a worker serves is a read-only snapshot loaded once, so a GET answer is a pure
function of (path, the parameters the view declares, the negotiated representation, the page
language): the same request gives the same bytes until the workers move to a new snapshot.
Parameters a view does not declare are removed before it runs (never a cache bypass; a view that
reads a parameter must declare it, and a GET form whose fields come from a schema declares ``ANY``:
keyed on every value of every field), and the Accept header counts only through the representation it selects. Caching those bytes lets a
repeated lookup cost about what a trivial Flask view costs. Only 200 answers are kept (errors are
raised, never cached); at most ``RESPONSE_CACHE_SIZE`` entries (0 turns it off: ``bench.serving.uncached_app``) and ``RESPONSE_CACHE_BYTES`` bytes, least recently
used first out. SPARQL and POST answers are never cached.
"""
from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict

from flask import Response, current_app, request

from server.templating import current_lang


class ResponseCache:
    def __init__(self, max_entries: int, max_bytes: int):
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._items: OrderedDict = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key, body: bytes, headers: list) -> None:
        if len(body) > self.max_bytes // 8:
            return
        with self._lock:
            if key in self._items:
                return
            self._items[key] = (body, headers)
            self._bytes += len(body)
            while len(self._items) > self.max_entries or self._bytes > self.max_bytes:
                _, (old, _) = self._items.popitem(last=False)
                self._bytes -= len(old)


def init_app(app) -> None:
    size = int(app.config["RESPONSE_CACHE_SIZE"])
    app.extensions["response_cache"] = ResponseCache(size, int(app.config["RESPONSE_CACHE_BYTES"])) if size else None


KEPT_HEADERS = ("Content-Type", "Vary")
ALWAYS = ("format", "lang")  # RDF instead of JSON/HTML; the page language (also by cookie)
ANY = "*"  # a view that reads every parameter (a GET form whose fields come from a schema)


def _key(params: tuple[str, ...]):
    """(key, args): the request reduced to what the view may read — its path, the first value of each
    parameter it declares, the representation Accept negotiates and the page language. Other
    parameters are dropped from ``request.args`` before the view runs, so the answer is a function
    of the key and an unknown parameter can neither change it nor miss the cache."""
    import server.rdf as rdf

    path = request.environ.get("PATH_INFO", "")
    args = request.args
    if ANY in params:  # every value of every parameter (checkboxes repeat a name)
        kept = tuple((name, value) for name in sorted(args) for value in args.getlist(name))
    else:
        kept = tuple((name, args[name]) for name in (*params, *ALWAYS) if name in args)
    if ANY not in params and len(kept) != len(args):
        from werkzeug.datastructures import ImmutableMultiDict
        request.__dict__["args"] = ImmutableMultiDict(kept)  # werkzeug caches args in the instance dict
    api = path.startswith("/api/")
    media = rdf.wanted("application/json" if api else "text/html") or ""
    return (path, kept, media, "" if api else current_lang())


def _etag(key) -> str:
    snap = current_app.extensions.get("snapshot") or "live"
    digest = hashlib.blake2b(repr(key).encode("utf-8"), digest_size=10).hexdigest()
    return f'"{snap}.{digest}"'


def _validators(response: Response, etag: str) -> Response:
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = f"public, max-age={int(current_app.config['CACHE_MAX_AGE'])}"
    return response


def cached(*params: str):
    """Decorator for GET views whose answer depends only on the path, the query parameters named in
    ``params`` (``format`` and ``lang`` always count; ``ANY``: every parameter), the negotiated representation and the page
    language. Answers carry an ETag (the snapshot's name and the key: a new snapshot is a new tag),
    ``Cache-Control`` and, when ``If-None-Match`` names the tag, are a 304 without a body."""
    if len(params) == 1 and callable(params[0]):  # @cached without parameters
        return cached()(params[0])

    def decorate(view):
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            if request.method != "GET":
                return view(*args, **kwargs)
            key = _key(params)
            etag = _etag(key)
            if etag in request.headers.get("If-None-Match", ""):
                return _validators(Response(status=304), etag)
            cache = current_app.extensions.get("response_cache")
            hit = cache.get(key) if cache is not None else None
            if hit is not None:
                body, headers = hit
                return _validators(Response(body, status=200, headers=headers), etag)
            response = current_app.make_response(view(*args, **kwargs))
            if response.status_code == 200 and not response.direct_passthrough:
                if cache is not None:
                    cache.put(key, response.get_data(),
                              [(k, v) for k, v in response.headers.items() if k in KEPT_HEADERS])
                _validators(response, etag)
            return response

        return wrapper
    return decorate
