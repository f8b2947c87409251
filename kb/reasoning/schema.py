"""Situation schemas: JSON Schema 2020-12 with a JA and an EN label on every field.

The web form is generated from these, so ``check_labels`` refuses a schema with an unlabeled
property or an enum without JA/EN labels for each value. Small builders keep mechanic modules short.
"""
from __future__ import annotations

import copy

DIALECT = "https://json-schema.org/draft/2020-12/schema"


class SchemaLabelError(ValueError):
    pass


def check_labels(schema: dict, where: str = "$") -> None:
    for name, sub in (schema.get("properties") or {}).items():
        path = f"{where}.{name}"
        for key in ("title_ja", "title_en"):
            if not sub.get(key):
                raise SchemaLabelError(f"{path}: missing {key}")
        _check_enum(sub, path)
        check_labels(sub, path)
        if isinstance(sub.get("items"), dict):
            _check_enum(sub["items"], path + "[]")
            check_labels(sub["items"], path + "[]")


def _check_enum(sub: dict, path: str) -> None:
    if "enum" in sub:
        for key in ("enum_labels_ja", "enum_labels_en"):
            labels = sub.get(key) or {}
            missing = [v for v in sub["enum"] if str(v) not in labels]
            if missing:
                raise SchemaLabelError(f"{path}: {key} has no label for {missing}")


def fill_defaults(schema: dict, value):
    """A copy of ``value`` with schema defaults filled in for absent object properties."""
    if isinstance(value, dict) and "properties" in schema:
        out = dict(value)
        for name, sub in schema["properties"].items():
            if name not in out and "default" in sub:
                out[name] = copy.deepcopy(sub["default"])
            if name in out:
                out[name] = fill_defaults(sub, out[name])
        return out
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [fill_defaults(schema["items"], v) for v in value]
    return value


# ---------------------------------------------------------------- builders


def field(type_: str, ja: str, en: str, **kw) -> dict:
    return {"type": type_, "title_ja": ja, "title_en": en, **kw}


def boolean(ja: str, en: str, default: bool = False, **kw) -> dict:
    return field("boolean", ja, en, default=default, **kw)


def integer(ja: str, en: str, default: int | None = None, minimum: int | None = 0, **kw) -> dict:
    d = field("integer", ja, en, **kw)
    if default is not None:
        d["default"] = default
    if minimum is not None:
        d["minimum"] = minimum
    return d


def text(ja: str, en: str, default: str | None = None, **kw) -> dict:
    d = field("string", ja, en, **kw)
    if default is not None:
        d["default"] = default
    return d


def choice(ja: str, en: str, options: dict[str, tuple[str, str]], default: str | None = None, **kw) -> dict:
    """``options``: value -> (JA label, EN label)."""
    d = field("string", ja, en, enum=list(options),
              enum_labels_ja={k: v[0] for k, v in options.items()},
              enum_labels_en={k: v[1] for k, v in options.items()}, **kw)
    if default is not None:
        d["default"] = default
    return d


def obj(ja: str, en: str, properties: dict, required: tuple[str, ...] = (), **kw) -> dict:
    d = {"type": "object", "title_ja": ja, "title_en": en, "properties": properties,
         "additionalProperties": False, **kw}
    if required:
        d["required"] = list(required)
    return d


def array(ja: str, en: str, items: dict, default: list | None = None, **kw) -> dict:
    d = {"type": "array", "title_ja": ja, "title_en": en, "items": items, **kw}
    if default is not None:
        d["default"] = default
    return d


def when(prop: dict, **shown_for) -> dict:
    """``prop`` shown in the form only when another field has one of the given values
    (``when(card, question=["turn-face-up"])``); the kb ignores it, validation is unchanged."""
    return {**prop, "x_when": {k: list(v) for k, v in shown_for.items()}}


def situation_schema(key: str, ja: str, en: str, properties: dict, required: tuple[str, ...] = ()) -> dict:
    d = obj(ja, en, properties, required)
    d["$schema"] = DIALECT
    d["$id"] = f"https://mtg-kb.local/schema/situation/{key}.json"
    return d


# ---------------------------------------------------------------- input as a person types it


def _enum_lookup(sub: dict) -> dict[str, str]:
    """Normalised spellings of each enum value: the value, its JA label and its EN label."""
    from kb.text import normalize
    out: dict[str, str] = {}
    for v in sub.get("enum", ()):
        if not isinstance(v, str):
            continue
        for spelling in (v, sub.get("enum_labels_ja", {}).get(v), sub.get("enum_labels_en", {}).get(v),
                         *sub.get("enum_aliases", {}).get(v, ())):
            if spelling:
                out.setdefault(normalize(spelling), v)
    return out


def accept_labels(schema: dict, value):
    """A copy of ``value`` where a string given for an enum field is read as the value whose key, JA
    label or EN label (or listed alias) it spells (「インスタント」 -> "instant"). Anything else is left
    for validation to refuse, naming the field; nothing is guessed."""
    from kb.text import normalize
    if isinstance(value, dict) and "properties" in schema:
        return {k: accept_labels(schema["properties"][k], v) if k in schema["properties"] else v
                for k, v in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [accept_labels(schema["items"], v) for v in value]
    if isinstance(value, str) and "enum" in schema and value not in schema["enum"]:
        return _enum_lookup(schema).get(normalize(value), value)
    return value


def label_of(schema: dict, path: list, lang: str = "ja") -> str:
    """The label of the field at ``path`` (keys and indexes) in ``lang``: 「カード 1 › カード・タイプ」."""
    parts, sub = [], schema
    for p in path:
        if isinstance(p, int):
            sub = sub.get("items") or {}
            if parts:
                parts[-1] += f" {p + 1}"
            continue
        sub = (sub.get("properties") or {}).get(p) or {}
        parts.append(sub.get(f"title_{lang}") or sub.get("title_en") or str(p))
    return " › ".join(parts) or ("状況" if lang == "ja" else "situation")
