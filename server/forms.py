"""Question forms generated from a mechanic's situation schema, and the form back to a situation.

The schema (JSON Schema with ``title_ja``/``title_en`` on every property and
``enum_labels_ja``/``enum_labels_en`` on enums) becomes a tree of ``Field``s the template renders:
enums -> select, booleans -> checkbox, integers -> number, strings -> text, objects -> fieldset,
arrays of objects -> ``ARRAY_SLOTS`` fieldsets each with an "include" checkbox, arrays of
scalars -> one value per line. Names are paths (``battlefield.0.ability``). Validation is the kb's
(``SituationError`` names the field); a "JSON" textarea can replace the whole form.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from kb.errors import SituationError
from kb.text import MAX_DIGITS, TooManyDigits, read_int

ARRAY_SLOTS = 3


@dataclass(slots=True)
class Field:
    name: str
    label: str
    widget: str  # select | checkbox | number | text | lines | fieldset | slots
    value: object = None
    options: list = field(default_factory=list)  # (value, label)
    children: list = field(default_factory=list)
    description: str = ""
    when: dict = field(default_factory=dict)  # shown only when another field has one of these values

    @property
    def css(self) -> str:
        """Classes that show the field only for the values it is used with (no JavaScript: see css_rules)."""
        return " ".join(f"when-{k} " + " ".join(f"when-{k}-{v}" for v in vs) for k, vs in self.when.items())


def _label(schema: dict, lang: str, key: str) -> str:
    return schema.get(f"title_{lang}") or schema.get("title_en") or schema.get("title") or key


def build(schema: dict, lang: str, prefix: str = "", values: dict | None = None) -> list[Field]:
    """The fields, filled with ``values`` as typed: a refused situation is shown again, so a value of
    the wrong shape (a number where an object belongs) is shown as nothing, never a failure."""
    values = values if isinstance(values, dict) else {}
    out = []
    for key, sub in (schema.get("properties") or {}).items():
        name = f"{prefix}{key}"
        f = _field(sub, lang, name, key, values.get(key, sub.get("default")))
        f.when = dict(sub.get("x_when") or {})
        out.append(f)
    return out


def css_rules(fields: list[Field]) -> str:
    """CSS that hides a field unless the field it depends on has one of its values: with the
    :has() selector the form reacts as a choice changes, and without CSS every field is shown."""
    pairs = sorted({(k, v) for f in fields for k, vs in f.when.items() for v in vs
                    if str(v).replace("-", "").replace("_", "").isalnum() and k.replace("_", "").isalnum()})
    keys = sorted({k for k, _ in pairs})
    rules = [f"#ask-form .when-{k} {{display: none}}" for k in keys]
    rules += [f'#ask-form:has(#f-{k} option[value="{v}"]:checked) .when-{k}-{v} {{display: block}}' for k, v in pairs]
    return "\n".join(rules)


def _field(sub: dict, lang: str, name: str, key: str, value) -> Field:
    label = _label(sub, lang, key)
    kind = _kind(sub)
    if "enum" in sub:
        labels = sub.get(f"enum_labels_{lang}") or {}
        return Field(name, label, "select", value,
                     [(str(v), labels.get(str(v), str(v))) for v in sub["enum"]])
    if kind == "boolean":
        return Field(name, label, "checkbox", bool(value))
    if kind in ("integer", "number"):
        return Field(name, label, "number", value)
    if kind == "object":
        return Field(name, label, "fieldset", children=build(sub, lang, name + ".", value or {}))
    if kind == "array":
        items = sub.get("items") or {}
        current = value if isinstance(value, list) else []
        if items.get("type") == "object":
            slots = []
            for i in range(max(ARRAY_SLOTS, len(current))):
                item = current[i] if i < len(current) else None
                slot = Field(f"{name}.{i}", f"{_label(items, lang, key)} {i + 1}", "fieldset",
                             value=item is not None,
                             children=build(items, lang, f"{name}.{i}.", item or {}))
                slots.append(slot)
            return Field(name, label, "slots", children=slots)
        if "enum" in items:  # several choices: one checkbox per value, by its label
            labels = items.get(f"enum_labels_{lang}") or {}
            return Field(name, label, "checks", [str(v) for v in current],
                         [(str(v), labels.get(str(v), str(v))) for v in items["enum"]])
        return Field(name, label, "lines", "\n".join(str(v) for v in current),
                     description=_enum_hint(items, lang))
    return Field(name, label, "text", "" if value is None else value)


def _enum_hint(items: dict, lang: str) -> str:
    if "enum" not in items:
        return ""
    labels = items.get(f"enum_labels_{lang}") or {}
    return ", ".join(f"{v} = {labels.get(str(v), v)}" for v in items["enum"])


def situation(schema: dict, form) -> dict:
    """The submitted form as a situation object (types converted; validation is the kb's)."""
    return _object(schema, form, "")


def _object(schema: dict, form, prefix: str) -> dict:
    out = {}
    for key, sub in (schema.get("properties") or {}).items():
        name = f"{prefix}{key}"
        value = _value(sub, form, name)
        if value is not None:
            out[key] = value
    return out


def _value(sub: dict, form, name: str):
    kind = _kind(sub)
    if kind == "boolean":
        return name in form
    if kind == "object":
        return _object(sub, form, name + ".")
    if kind == "array":
        items = sub.get("items") or {}
        if items.get("type") == "object":
            found = []
            i = 0
            while f"{name}.{i}" in form or i < ARRAY_SLOTS:
                if f"{name}.{i}" in form:
                    found.append(_object(items, form, f"{name}.{i}."))
                i += 1
            return found
        if "enum" in items:
            getlist = getattr(form, "getlist", None)
            return [v for v in (getlist(name) if getlist else [form.get(name)]) if v]
        raw = form.get(name, "")
        lines = [line.strip() for line in raw.splitlines() if line.strip()]
        if items.get("type") in ("integer", "number"):
            return [_number(v, name) for v in lines]
        return lines
    raw = form.get(name)
    if raw is None or raw == "":
        return None
    if kind in ("integer", "number"):
        return _number(raw, name)
    return raw


def _kind(sub: dict):
    """The field's JSON type; a nullable one (["integer", "null"]: a power that may be absent) is its non-null type."""
    kind = sub.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    return kind


def _number(raw: str, name: str = "$"):
    """A number typed in the form: full-width digits are read as digits (a Japanese keyboard types
    them); an integer of more than MAX_DIGITS digits is refused, naming the field."""
    raw = unicodedata.normalize("NFKC", raw)
    try:
        return read_int(raw)
    except TooManyDigits as exc:
        raise SituationError(name, str(exc), message_ja=f"数字が長すぎます（{exc.digits}桁、{MAX_DIGITS}桁まで）") from None
    except ValueError:
        try:
            return float(raw)
        except ValueError:
            return raw  # left for the schema validation to name
