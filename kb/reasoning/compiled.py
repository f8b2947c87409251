"""A situation schema compiled once into plain Python checks, for the request path of ``solve``.

The schema stays the declared JSON Schema (2020-12) and jsonschema stays the judge of it: the
compiled ``valid`` only answers "does jsonschema find no error here?" for the keywords the
situation schemas use (type, properties, additionalProperties false, required, enum of strings,
items, minItems, minimum, pattern; annotations such as titles, labels, defaults and ``x_when`` are
ignored, as jsonschema ignores them). Each check is written as jsonschema's own keyword function
decides it, with the dialect's own type checker. A schema with any other keyword, or an enum that is not all strings, is not compiled
(``valid`` is None) and jsonschema checks every situation. When ``valid`` says no, jsonschema runs
and its first error is what the user sees, so the compiled check can only skip jsonschema's walk
over a situation it would accept; tests compare both on many generated situations.

``fill`` is ``schema.fill_defaults`` with each node's defaults found once: the same copy of the
value, an atomic default (string, number, boolean, null) put in as is (``copy.deepcopy`` returns
those unchanged), a list or object default deep-copied.
"""
from __future__ import annotations

import copy
import numbers
import re
from dataclasses import dataclass
from typing import Callable

import jsonschema

ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "default", "examples", "title_ja", "title_en",
                         "enum_labels_ja", "enum_labels_en", "enum_aliases", "x_when"})
ATOMIC = (str, int, float, bool, type(None))


class NotCompiled(Exception):
    """A keyword (or value of one) the compiled check does not decide exactly as jsonschema does."""


_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER  # the dialect's own type checks (2.0 is an integer)


def _is_type(value, name: str) -> bool:
    try:
        return _TYPES.is_type(value, name)
    except jsonschema.exceptions.UndefinedTypeCheck:
        raise NotCompiled(f"type {name!r}") from None


def _check(schema: dict) -> Callable[[object], bool]:
    checks: list[Callable[[object], bool]] = []
    for key, value in schema.items():
        if key in ANNOTATIONS or key in ("properties", "additionalProperties", "required", "items"):
            continue
        if key == "type":
            names = value if isinstance(value, list) else [value]
            for name in names:
                _is_type(None, name)  # refuses an unknown type name now
            checks.append(lambda v, names=tuple(names): any(_is_type(v, n) for n in names))
        elif key == "enum":
            if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
                raise NotCompiled("enum of other values than strings")
            checks.append(lambda v, allowed=frozenset(value): isinstance(v, str) and v in allowed)
        elif key == "minItems":
            checks.append(lambda v, n=value: not isinstance(v, list) or not len(v) < n)
        elif key == "minimum":
            if isinstance(value, bool) or not isinstance(value, numbers.Number):
                raise NotCompiled("minimum that is not a number")
            checks.append(lambda v, low=value: not _is_type(v, "number") or not v < low)
        elif key == "pattern":
            checks.append(lambda v, search=re.compile(value).search: not isinstance(v, str) or bool(search(v)))
        else:
            raise NotCompiled(f"keyword {key!r}")
    props = schema.get("properties")
    extra = schema.get("additionalProperties", True)
    if extra not in (True, False):
        raise NotCompiled("additionalProperties that is a schema")
    if props is not None or "required" in schema or extra is False:
        subs = {name: _check(sub) for name, sub in (props or {}).items()}
        required = tuple(schema.get("required", ()))
        closed = extra is False

        def obj(v) -> bool:
            if not isinstance(v, dict):
                return True
            for name, sub in v.items():
                check = subs.get(name)
                if check is None:
                    if closed:
                        return False
                elif not check(sub):
                    return False
            return all(name in v for name in required)
        checks.append(obj)
    if "items" in schema:
        if not isinstance(schema["items"], dict):
            raise NotCompiled("items that is not one schema")
        item = _check(schema["items"])
        checks.append(lambda v: not isinstance(v, list) or all(item(x) for x in v))
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(check(v) for check in checks)


def _filler(schema: dict) -> Callable[[object], object]:
    """``schema.fill_defaults(schema, ·)`` with the walk over the schema done once."""
    props = schema.get("properties")
    items = schema.get("items") if isinstance(schema.get("items"), dict) else None
    fields = [(name, "default" in sub, sub.get("default"), isinstance(sub.get("default"), ATOMIC), _filler(sub))
              for name, sub in props.items()] if props is not None else None
    item_fill = _filler(items) if items is not None else None

    def fill(value):
        if fields is not None and isinstance(value, dict):
            out = dict(value)
            for name, has_default, default, atomic, sub_fill in fields:
                if name not in out and has_default:
                    out[name] = default if atomic else copy.deepcopy(default)
                if name in out:
                    out[name] = sub_fill(out[name])
            return out
        if item_fill is not None and isinstance(value, list):
            return [item_fill(v) for v in value]
        return value
    return fill


@dataclass(frozen=True)
class Compiled:
    valid: Callable[[object], bool] | None  # None: every situation goes to jsonschema
    fill: Callable[[object], object]


def compile_schema(schema: dict) -> Compiled:
    try:
        valid = _check(schema)
    except NotCompiled:
        valid = None
    return Compiled(valid, _filler(schema))
