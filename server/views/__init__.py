"""One blueprint per resource: each module serves its resource as JSON under /api/, as a web page
and as RDF by content negotiation. Views only read the request and call kb (which validates)."""
from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    from server.views import (ask, cards, citations, documents, editions, home, mechanics, paths, rules,
                              rulings, search, sparql)
    for module in (home, editions, rules, mechanics, cards, rulings, documents, search, ask, citations, paths,
                   sparql):
        app.register_blueprint(module.bp)
