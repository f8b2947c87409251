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

from kb.reasoning.schema import accept_labels

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


def _type_check(name: str) -> Callable[[object], bool]:
    """``_is_type(·, name)`` with the dialect's function for ``name`` looked up once (``is_type``
    looks it up and calls it with the checker, as this does)."""
    _is_type(None, name)  # refuses an unknown type name now
    fn = _TYPES._type_checkers[name]
    return lambda v: fn(_TYPES, v)


def _every(checks: list[Callable[[object], bool]]) -> Callable[[object], bool]:
    if len(checks) == 1:
        return checks[0]

    def every(v) -> bool:
        for check in checks:
            if not check(v):
                return False
        return True
    return every


def _check(schema: dict) -> Callable[[object], bool]:
    checks: list[Callable[[object], bool]] = []
    for key, value in schema.items():
        if key in ANNOTATIONS or key in ("properties", "additionalProperties", "required", "items"):
            continue
        if key == "type":
            names = value if isinstance(value, list) else [value]
            kinds = [_type_check(name) for name in names]
            checks.append(kinds[0] if len(kinds) == 1 else lambda v, kinds=tuple(kinds): any(k(v) for k in kinds))
        elif key == "enum":
            if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
                raise NotCompiled("enum of other values than strings")
            checks.append(lambda v, allowed=frozenset(value): isinstance(v, str) and v in allowed)
        elif key == "minItems":
            checks.append(lambda v, n=value: not isinstance(v, list) or not len(v) < n)
        elif key == "minimum":
            if isinstance(value, bool) or not isinstance(value, numbers.Number):
                raise NotCompiled("minimum that is not a number")
            checks.append(lambda v, low=value, number=_type_check("number"): not number(v) or not v < low)
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
            for name in required:
                if name not in v:
                    return False
            return True
        checks.append(obj)
    if "items" in schema:
        if not isinstance(schema["items"], dict):
            raise NotCompiled("items that is not one schema")
        item = _check(schema["items"])

        def each(v) -> bool:
            if isinstance(v, list):
                for x in v:
                    if not item(x):
                        return False
            return True
        checks.append(each)
    return _every(checks)


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


def _labeller(schema: dict) -> Callable[[object], object] | None:
    """``schema.accept_labels(schema, ·)`` with the walk over the schema done once, or None where no
    enum lies below (the value as it is: accept_labels would return an equal copy, and ``fill``
    copies every object and list it would have copied, so the filled situation is the same)."""
    props = schema.get("properties") if "properties" in schema else None
    items = schema["items"] if isinstance(schema.get("items"), dict) else None
    subs = {name: _labeller(sub) for name, sub in props.items()} if props is not None else {}
    subs = {name: f for name, f in subs.items() if f is not None}
    item = _labeller(items) if items is not None else None
    enum = schema.get("enum") if "enum" in schema else None
    if not subs and item is None and enum is None:
        return None

    def label(value):
        if props is not None and isinstance(value, dict):
            return {k: subs[k](v) if k in subs else v for k, v in value.items()}
        if items is not None and isinstance(value, list):
            return [item(v) for v in value] if item is not None else value
        if enum is not None and isinstance(value, str) and value not in enum:
            return accept_labels(schema, value)
        return value
    return label


@dataclass(frozen=True)
class Compiled:
    valid: Callable[[object], bool] | None  # None: every situation goes to jsonschema
    fill: Callable[[object], object]
    labels: Callable[[object], object] | None = None  # accept_labels as compiled (None: accept_labels itself)


def compile_schema(schema: dict) -> Compiled:
    try:
        valid = _check(schema)
    except NotCompiled:
        valid = None
    return Compiled(valid, _filler(schema), _labeller(schema) or _as_is)


def _as_is(value):
    return value
