"""JSON answers written by orjson: the same JSON as Flask's provider (compact, keys in insertion
order, non-ASCII as UTF-8, dates/dataclasses/Decimal/UUID through Flask's own conversions) in a
fraction of the time. A rule with its history across 34 editions spent about half its uncached
answer time in the standard library's encoder. Anything orjson cannot write (an int beyond 64 bits,
debug-mode indentation) goes through Flask's provider unchanged. Parts that are JSON already
(``orjson.Fragment``: a rule's parts derived once per snapshot, kb.lookup.rules) are asked for only
when orjson writes the answer (``writes_fragments``)."""
from __future__ import annotations

import orjson
from flask.json.provider import DefaultJSONProvider, _default

OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
           | orjson.OPT_APPEND_NEWLINE)


class FastJSONProvider(DefaultJSONProvider):
    sort_keys = False
    ensure_ascii = False

    def indents(self) -> bool:
        return bool((self.compact is None and self._app.debug) or self.compact is False)

    def response(self, *args, **kwargs):
        if self.indents():
            return super().response(*args, **kwargs)
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=_default, option=OPTIONS)
        except (TypeError, orjson.JSONEncodeError):
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)


def writes_fragments(app) -> bool:
    """Whether the app's JSON answers are written by orjson, which embeds ``orjson.Fragment`` as is."""
    return isinstance(app.json, FastJSONProvider) and not app.json.indents()
