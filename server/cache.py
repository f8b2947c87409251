"""A per-process cache of finished GET responses.

The knowledge base a worker serves is a read-only snapshot loaded once, so a GET answer is a pure
function of (path and query, the negotiated representation, the page language): the same request
gives the same bytes until the process restarts on a new snapshot. Caching those bytes lets a
repeated lookup cost about what a trivial Flask view costs. Only 200 answers are kept (errors are
raised, never cached); at most ``RESPONSE_CACHE_SIZE`` entries (0 turns it off; the env variable
``MTG_KB_RESPONSE_CACHE`` sets the default) and ``RESPONSE_CACHE_BYTES`` bytes, least recently
used first out. SPARQL and POST answers are never cached.
"""
from __future__ import annotations

import functools
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


def cached(view):
    """Decorator for GET views whose answer depends only on the request's path, query, Accept and language."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        cache = current_app.extensions.get("response_cache")
        if cache is None or request.method != "GET":
            return view(*args, **kwargs)
        environ = request.environ  # raw strings: no parsing on the hot path
        path = environ.get("PATH_INFO", "")
        key = (path, environ.get("QUERY_STRING", ""), environ.get("HTTP_ACCEPT", ""),
               "" if path.startswith("/api/") else current_lang())
        hit = cache.get(key)
        if hit is not None:
            body, headers = hit
            return Response(body, status=200, headers=headers)
        response = current_app.make_response(view(*args, **kwargs))
        if response.status_code == 200 and not response.direct_passthrough:
            cache.put(key, response.get_data(), [(k, v) for k, v in response.headers.items() if k in KEPT_HEADERS])
        return response

    return wrapper
