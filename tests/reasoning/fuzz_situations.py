"""Situations made from a published schema with a fixed seed: valid ones (every enum value of every
field, lists empty and filled, optional fields present and absent) and mutated ones (a field
missing, an extra field, a value of the wrong type, a list emptied). Used by the fuzz test; nothing
here states an answer."""
from __future__ import annotations

import copy
import random

STRINGS = ("", "Grizzly Bears", "Lightning Bolt", "x", "ward {2}", "flying",
           "Lightning Bolt deals 3 damage to any target.", "{T}: Add {C}{C}.", "+3/+3", "グリズリー・ベアー")
MANA = ("", "{1}{G}", "{X}{R}", "{3}", "{W}{U}{B}{R}{G}", "{0}")


def _types(schema: dict) -> list:
    t = schema.get("type", "object" if "properties" in schema else None)
    return t if isinstance(t, list) else [t]


def sample(schema: dict, rng: random.Random, depth: int = 0, full: bool = False):
    """A value the schema accepts (optional object fields present with probability 1/2, or all when ``full``)."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    types = [t for t in _types(schema) if t]
    if "null" in types and rng.random() < 0.25:
        return None
    t = rng.choice([t for t in types if t != "null"] or ["null"])
    if t == "object":
        out = {}
        req = set(schema.get("required", ()))
        for name, sub in (schema.get("properties") or {}).items():
            if name in req or full or rng.random() < 0.5:
                out[name] = sample(sub, rng, depth + 1)
        return out
    if t == "array":
        lo = schema.get("minItems", 0)
        n = rng.randint(lo, max(lo, 2 if depth < 3 else lo))
        return [sample(schema.get("items") or {}, rng, depth + 1) for _ in range(n)]
    if t == "integer":
        lo = schema.get("minimum", -2)
        hi = schema.get("maximum", max(lo, 0) + 6)
        return rng.randint(lo, hi)
    if t == "number":
        return float(rng.randint(0, 5))
    if t == "boolean":
        return rng.random() < 0.5
    if t == "string":
        if "pattern" in schema:
            return rng.choice(MANA)
        return rng.choice(STRINGS)
    return None


def enum_paths(schema: dict, path=()) -> list[tuple[tuple, list]]:
    """(path to the field, its values) for every enum field; '[]' in a path is a list's first item."""
    out = []
    if "enum" in schema:
        out.append((path, list(schema["enum"])))
    for name, sub in (schema.get("properties") or {}).items():
        out += enum_paths(sub, path + (name,))
    if isinstance(schema.get("items"), dict):
        out += enum_paths(schema["items"], path + ("[]",))
    return out


def put(value, path: tuple, new, schema: dict, rng: random.Random):
    """``value`` with the field at ``path`` set to ``new`` (making the objects and a list item on the way)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if head == "[]":
        items = schema.get("items") or {}
        lst = list(value) if isinstance(value, list) else []
        if not lst:
            lst.append(sample(items, rng, full=True))
        lst[0] = put(lst[0], rest, new, items, rng)
        return lst
    sub = (schema.get("properties") or {}).get(head) or {}
    d = dict(value) if isinstance(value, dict) else {}
    d[head] = put(d.get(head, sample(sub, rng, full=True)), rest, new, sub, rng)
    return d


def _walk(value, path=()):
    """(path, value) of every field in a situation (keys and list indexes)."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, path + (i,))


def _set(value, path, new, delete=False):
    value = copy.deepcopy(value)
    target = value
    for p in path[:-1]:
        target = target[p]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = new
    return value


WRONG = (None, 7, -1, "x", True, [], {}, ["x"], {"x": 1}, 10 ** 9, "{Z}")


def mutations(value: dict, rng: random.Random, n: int) -> list[dict]:
    """``n`` mutated copies: a field deleted, set to a wrong-typed value, a list emptied, an extra field."""
    fields = [(p, v) for p, v in _walk(value) if p]
    out = []
    for _ in range(n):
        kind = rng.choice(("delete", "wrong", "empty", "extra"))
        if not fields or kind == "extra":
            at = rng.choice([p for p, v in _walk(value) if isinstance(v, dict)])
            out.append(_set(value, at + ("unexpected_field",), rng.choice(WRONG)) if at else
                       {**value, "unexpected_field": 1})
            continue
        path, v = rng.choice(fields)
        if kind == "delete" and isinstance(path[-1], str):
            out.append(_set(value, path, None, delete=True))
        elif kind == "empty" and isinstance(v, (list, dict)):
            out.append(_set(value, path, type(v)()))
        else:
            out.append(_set(value, path, rng.choice(WRONG)))
    return out


def situations(schema: dict, seed: int, n_valid: int = 40, n_mutated: int = 60) -> list[dict]:
    """Valid situations (random ones, every enum value of every field, each list emptied) and mutated ones."""
    rng = random.Random(seed)
    valid = [sample(schema, rng, full=i % 2 == 0) for i in range(n_valid)]
    for path, values in enum_paths(schema):
        for v in values:
            valid.append(put(sample(schema, rng, full=True), path, v, schema, rng))
    for name, sub in (schema.get("properties") or {}).items():
        if "array" in _types(sub):
            valid.append({**sample(schema, rng, full=True), name: []})
    return valid + [m for v in rng.sample(valid, min(len(valid), n_mutated)) for m in mutations(v, rng, 1)]
