"""Finding mechanics and cards by any of their names, over the model rows (no KB needed: the
build's reasoning step uses it too)."""
from __future__ import annotations

from kb.store.rows import Model
from kb.text import normalize, normalize_kana


def mechanic_keys(model: Model, name: str) -> list[str]:
    """Mechanics named ``name`` (JA/EN name, alias, reading in any kana, key), best supported first:
    the sense the documents are about, then the one with more rulings, terms last."""
    query = normalize(name)
    keys = list(model.mechanic_names.get(query, []))
    if not keys:
        folded = normalize_kana(name)
        keys = [k for n, ks in model.mechanic_names.items() if normalize_kana(n) == folded for k in ks]
    # "唱える" is inside "呪文を唱える"; a part with no letter ("-1", "+1") names nothing
    if not keys and len(query) >= 2 and any(c.isalpha() for c in query):
        keys = [k for n, ks in model.mechanic_names.items() if query in n for k in ks]
    return sorted(dict.fromkeys(keys), key=lambda k: mechanic_weight(model, k))


def mechanic_weight(model: Model, key: str) -> tuple:
    m = model.mechanics[key]
    return (-len(m["documents"]), -len(m["rulings"]), m["kind"] == "term", key)


def card_key(model: Model, name: str) -> str | None:
    return model.card_names.get(normalize(name)) or (name if name in model.cards else None)
