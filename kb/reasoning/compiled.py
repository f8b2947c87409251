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

``step`` is the three in one walk, for the request path: ``fill(labels(v))`` when ``valid(labels(v))``,
else REFUSED (then ``validate`` runs the three in turn and jsonschema words the error).
"""
from __future__ import annotations

import copy
import functools
import numbers
import re
from dataclasses import dataclass
from typing import Callable

import jsonschema
from jsonschema import _types

from kb.reasoning.schema import accept_labels

ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "default", "examples", "title_ja", "title_en",
                         "enum_labels_ja", "enum_labels_en", "enum_aliases", "x_when"})
ATOMIC = (str, int, float, bool, type(None))


class NotCompiled(Exception):
    """A keyword (or value of one) the compiled check does not decide exactly as jsonschema does."""


_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER  # the dialect's own type checks (2.0 is an integer)
_NATIVE = {_types.is_string: str, _types.is_array: list, _types.is_object: dict, _types.is_bool: bool}


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
    if fn in _NATIVE:  # the dialect's function is this isinstance: made without a Python frame per check
        return functools.partial(type.__instancecheck__, _NATIVE[fn])
    return functools.partial(fn, _TYPES)


def _every(checks: list[Callable[[object], bool]]) -> Callable[[object], bool]:
    if len(checks) == 1:
        return checks[0]

    def every(v) -> bool:
        for check in checks:
            if not check(v):
                return False
        return True
    return every


def _string_enum(value) -> bool:
    return isinstance(value, list) and all(isinstance(e, str) for e in value)


def _own(schema: dict) -> list[Callable[[object], bool]]:
    """The checks of the node's own keywords (not those of its properties or items)."""
    checks: list[Callable[[object], bool]] = []
    for key, value in schema.items():
        if key in ANNOTATIONS or key in ("properties", "additionalProperties", "required", "items"):
            continue
        if key == "type":
            names = value if isinstance(value, list) else [value]
            if names == ["string"] and _string_enum(schema.get("enum")):
                continue  # the enum's check accepts only strings: the same check again decides nothing
            kinds = [_type_check(name) for name in names]
            checks.append(kinds[0] if len(kinds) == 1 else lambda v, kinds=tuple(kinds): any(k(v) for k in kinds))
        elif key == "enum":
            if not _string_enum(value):
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
    if schema.get("additionalProperties", True) not in (True, False):
        raise NotCompiled("additionalProperties that is a schema")
    if "items" in schema and not isinstance(schema["items"], dict):
        raise NotCompiled("items that is not one schema")
    return checks


def _check(schema: dict) -> Callable[[object], bool]:
    checks = _own(schema)
    props = schema.get("properties")
    extra = schema.get("additionalProperties", True)
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
        item = _check(schema["items"])

        def each(v) -> bool:
            if isinstance(v, list):
                for x in v:
                    if not item(x):
                        return False
            return True
        checks.append(each)
    return _every(checks)


_EXACT = frozenset(ATOMIC)  # exactly these types: what copy.deepcopy returns unchanged


def _copier(default) -> Callable[[object], object] | None:
    """``copy.deepcopy`` for a schema default: None for an atomic one (deepcopy returns it), the
    constructor for a list or object of atomic values (a new one holding the same), else deepcopy."""
    if isinstance(default, ATOMIC):
        return None
    if type(default) is list and all(type(x) in _EXACT for x in default):
        return list
    if type(default) is dict and all(type(k) is str and type(x) in _EXACT for k, x in default.items()):
        return dict
    return copy.deepcopy


def _add_defaults(out: dict, value: dict, defaults: list[tuple]) -> None:
    """Each field absent from ``value`` that has a default, in the schema's order: a copy of the
    default (``_copier``), filled by its own filler."""
    for name, default, copier, fill in defaults:
        if name not in value:
            x = default if copier is None else copier(default)
            out[name] = x if fill is None else fill(x)


def _filler(schema: dict) -> Callable[[object], object] | None:
    """``schema.fill_defaults(schema, ·)`` with the walk over the schema done once; None where it
    would return the value itself (no properties or item schema: nothing copied, nothing filled)."""
    props = schema.get("properties")
    items = schema.get("items") if isinstance(schema.get("items"), dict) else None
    if props is None and items is None:
        return None
    if props is not None:
        subs = {name: f for name, sub in props.items() if (f := _filler(sub)) is not None}
        # absent with a default: (name, default, its copier, its filler), in the schema's order
        defaults = [(name, sub["default"], _copier(sub["default"]), subs.get(name))
                    for name, sub in props.items() if "default" in sub]
    item_fill = _filler(items) if items is not None else None

    def fill(value):
        # as fill_defaults: present fields filled in place, then absent defaults appended in order
        if props is not None and isinstance(value, dict):
            out = dict(value)
            if subs:
                for name, v in value.items():
                    sub_fill = subs.get(name)
                    if sub_fill is not None:
                        out[name] = sub_fill(v)
            _add_defaults(out, value, defaults)
            return out
        if items is not None and isinstance(value, list):
            return [item_fill(v) for v in value] if item_fill is not None else list(value)
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


REFUSED = object()  # what ``Compiled.step`` returns for a situation ``valid`` refuses once labels are read


def _plain(schema: dict) -> Callable[[object], bool] | None:
    """The check of a node ``_stepper`` would only check (no enum, properties, required or items:
    nothing to read, copy or fill), else None."""
    if any(k in schema for k in ("enum", "properties", "required", "items")) \
            or schema.get("additionalProperties", True) is False:
        return None
    return _every(_own(schema))


def _stepper(schema: dict) -> Callable[[object], object]:
    """``labels``, ``valid`` and ``fill`` in one walk: ``fill(labels(v))`` when ``valid(labels(v))``,
    else REFUSED. Each node reads its label, passes its own checks and its children's, then is
    copied and filled as ``_labeller``, ``_check`` and ``_filler`` do it (a node they leave as it
    is stays itself; an object with properties or a list with an item schema is a new copy)."""
    checks = _own(schema)
    own = _every(checks) if checks else None
    props = schema.get("properties")
    closed = schema.get("additionalProperties", True) is False
    required = tuple(schema.get("required", ()))
    structured = props is not None or "required" in schema or closed
    # a child that is only checked (no label to read, nothing below): its check, else its step
    subs = {name: _plain(sub) or _stepper(sub) for name, sub in (props or {}).items()}
    plain = {name for name, sub in (props or {}).items() if _plain(sub)}
    defaults = [(name, sub["default"], _copier(sub["default"]), _filler(sub))
                for name, sub in (props or {}).items() if "default" in sub]
    items = schema.get("items")
    item = (_plain(items) or _stepper(items)) if items is not None else None
    item_plain = items is not None and _plain(items) is not None
    enum = schema.get("enum") if "enum" in schema else None

    def step(v):
        if enum is not None and isinstance(v, str) and v not in enum:
            v = accept_labels(schema, v)
        if own is not None and not own(v):
            return REFUSED
        if structured and isinstance(v, dict):
            out = {}
            for name, x in v.items():
                sub = subs.get(name)
                if sub is None:
                    if closed:
                        return REFUSED
                elif name in plain:
                    if not sub(x):
                        return REFUSED
                elif (x := sub(x)) is REFUSED:
                    return REFUSED
                out[name] = x
            for name in required:
                if name not in v:
                    return REFUSED
            if props is None:
                return v  # no properties: neither labels nor fill copy it
            _add_defaults(out, v, defaults)
            return out
        if item is not None and isinstance(v, list):
            if item_plain:
                for x in v:
                    if not item(x):
                        return REFUSED
                return list(v)
            out = []
            for x in v:
                if (x := item(x)) is REFUSED:
                    return REFUSED
                out.append(x)
            return out
        return v
    return step


@dataclass(frozen=True)
class Compiled:
    valid: Callable[[object], bool] | None  # None: every situation goes to jsonschema
    fill: Callable[[object], object]
    labels: Callable[[object], object] | None = None  # accept_labels as compiled (None: accept_labels itself)
    step: Callable[[object], object] | None = None  # labels, valid and fill in one walk (None: each in turn)


def compile_schema(schema: dict) -> Compiled:
    try:
        valid, step = _check(schema), _stepper(schema)
    except NotCompiled:
        valid = step = None
    return Compiled(valid, _filler(schema) or _as_is, _labeller(schema) or _as_is, step)


def _as_is(value):
    return value
