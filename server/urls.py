"""``url_for`` for the pages, memoised per app (kb.memo): a mechanic or rule page links a hundred
rules, rulings and cards, and building each link through werkzeug's URL map was about a fifth of
an uncached page. A relative URL is a pure function of the endpoint, its values and the request's
script root (the URL map never changes once the app serves), so the memo returns exactly what
``flask.url_for`` returns. Anything else (``_external``, ``_anchor``, ``_scheme``, ``_method``,
a blueprint-relative ".endpoint", unhashable values) goes to ``flask.url_for`` every time."""
from __future__ import annotations

from flask import current_app, has_request_context, request
from flask import url_for as flask_url_for

from kb.memo import per_owner


def url_for(endpoint: str, **values) -> str:
    if endpoint.startswith(".") or any(k.startswith("_") for k in values) or not has_request_context():
        return flask_url_for(endpoint, **values)
    try:
        key = ("url", endpoint, request.script_root, tuple(sorted(values.items())))
        hash(key)
    except TypeError:  # a list value (a repeated parameter)
        return flask_url_for(endpoint, **values)
    return per_owner(current_app._get_current_object(), key, lambda: flask_url_for(endpoint, **values))
